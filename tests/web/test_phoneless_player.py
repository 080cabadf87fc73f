"""A player without a phone: their public steps are played on the host screen itself, with
their name on the buttons, and only their secret steps go behind the "pass the device"
cover; the host screen says where their secrets are (Nothing Beats a Large's goal cards)."""
from __future__ import annotations

import re

from tests.support.api import Api
from tests.support.pages import csrf_of, page, revealed
from tests.support.screens import post


def with_phoneless(app, game: str, phoneless: str = "Dan", players=("Ann", "Ben"), **options):
    """A table whose host added `phoneless` (no phone) to `players`, started; the host
    device; the player's id."""
    api = Api(client=app.test_client())
    table = api.table(game=game, players=players, start=False, options=options)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    post(host, f"/t/{table.code}/players/local", {"name": phoneless}, f"/t/{table.code}/host")
    ids = {p["name"]: p["id"] for p in table.view()["players"]}
    first = {"first_player": ids[phoneless]} if game == "go-big" else {}
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host,
                            {"seed": 7, **first})
    assert status == 200, body
    return table, host, ids[phoneless]


def test_a_go_big_turn_for_a_player_without_a_phone_is_played_on_the_host_screen(app):
    table, host, dan = with_phoneless(app, "go-big")
    screen = page(host, f"/t/{table.code}/host")
    assert "Dan's move" in screen and "Play for Dan" not in screen
    assert 'aria-label="Dan: Choose a set to play"' in screen
    assert re.search(r'<input type="hidden" name="as" value="%d">' % dan, screen)
    assert table.view()["turn"] == dan
    value = re.search(r'aria-label="Dan: Play 1 × (\d+)"', screen).group(1)

    # The preview of the set, for the host acting as Dan: his name on Confirm.
    preview = host.get(f"/t/{table.code}/preview", query_string={
        "screen": "host", "as": dan, "type": "play", "count": 1, "value": value})
    confirm = preview.get_data(as_text=True)
    assert preview.status_code == 200 and ">Dan: Confirm</button>" in confirm
    assert f'name="as" value="{dan}"' in confirm
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', confirm))
    fields["csrf_token"] = csrf_of(screen)
    answer = host.post(f"/t/{table.code}/act", data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    after = answer.get_data(as_text=True)
    assert "Dan: From the deck" in after  # the draw, at once, on the host screen
    log = Api(client=app.test_client()).call("GET", f"/tables/{table.code}/log")[1]["events"]
    assert log[-1]["player"] == dan and log[-1]["summary"].startswith("Dan played a single")


def test_secret_steps_stay_behind_the_cover(app):
    table, host, cleo = with_phoneless(app, "big-top", "Cleo")
    screen = page(host, f"/t/{table.code}/host")
    assert "Play for Cleo (no phone)" in screen  # her hand: behind the cover
    assert "Cleo's move" not in screen and 'name="cards[]"' not in screen
    assert 'name="as"' not in screen


def test_nothing_beats_a_large_says_where_a_phoneless_players_goal_cards_are(app):
    table, host, dan = with_phoneless(app, "nothing-beats-a-large")
    screen = page(host, f"/t/{table.code}/host")
    link = f'href="/t/{table.code}/as/{dan}"'
    assert link in screen
    assert "Dan has no phone: pass the device to Dan to see their goal cards" in screen
    cover = page(host, f"/t/{table.code}/as/{dan}")
    assert "Pass the device to Dan" in cover and "Your goal cards" not in cover
    assert "Your goal cards" in revealed(host, f"/t/{table.code}/as/{dan}")
