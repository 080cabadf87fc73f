"""The finished play handed on to BG Stats: `GET /api/v1/tables/{code}/bgstats` for every
game (a winner flag on every player, exactly one start player, ranks as places with their
ties, no score where the game keeps none, an id stable for the table and its own), the
"Log this play in BG Stats" link on each phone's result and the QR code's address that
forwards to it, and nothing at all before the end."""
from __future__ import annotations

import json
import re
from datetime import datetime
from html import unescape
from urllib.parse import unquote

import pytest

from companion.auth import Viewer
from companion.games import GAMES
from companion.games.views import mentions
from companion.table import moves, read
from tests.support.api import Api
from tests.support.app import app_on, own_database
from tests.support.screens import as_host, as_player

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
NAMES = ("Ann", "Ben", "Cat")
# Every game, and Big Top's Fan Tan, which players know as a game of its own.
PLAYED = [(game, {}) for game in sorted(GAMES) if game != "score-sheet"] + [
    ("big-top", {"variant": "fan-tan"}),
    ("score-sheet", {"name": "Wingspan", "rounds": 2})]


def started(api: Api, game: str, options: dict, first: str = "Ben", names=NAMES):
    """A table of `game` started with `first` going first (Big Top: dealing first)."""
    engine = GAMES[game]
    table = api.table(game, players=names[:max(engine.min_players, min(len(names),
                                                                        engine.max_players))],
                      start=False, options=options)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host,
                            {"seed": 11, "first_player": table.ids[first]})
    assert status == 200, body
    return table


def bgstats(table, token=None):
    return table.api.call("GET", f"/tables/{table.code}/bgstats", token)


def decoded(link: str) -> dict:
    assert link.startswith(CREATE_PLAY), link[:80]
    return json.loads(unquote(link.removeprefix(CREATE_PLAY)))


@pytest.mark.parametrize(("game", "options"), PLAYED,
                         ids=[f"{g}-{o.get('variant', '')}".strip("-") for g, o in PLAYED])
def test_every_game_hands_on_its_finished_play(api, game, options):
    table = started(api, game, options)
    table.finish()
    status, play = bgstats(table)
    assert status == 200, play
    result = table.view()["result"]
    places = {s["player"]: s for s in result["standings"]}
    names = {p["id"]: p["name"] for p in table.view()["players"]}
    engine = GAMES[game]
    assert play["sourceName"] == "Companion"
    assert play["game"]["name"] == engine.played_as(table.view()["options"])
    assert play["game"]["highestWins"] is True
    # Nothing Beats a Large names its winner and ranks nobody else: no points to log.
    no_points = game == "nothing-beats-a-large"
    assert play["game"]["noPoints"] is no_points
    assert play["comments"] == result["explanation"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 0
    by_name = {p["name"]: p for p in play["players"]}
    assert sorted(by_name) == sorted(names.values())
    for player_id, name in names.items():
        logged = by_name[name]
        assert logged["winner"] is (player_id in result["winners"])
        assert logged["rank"] == places[player_id]["place"]
        assert ("score" in logged) is not no_points
        if not no_points:
            assert logged["score"] == places[player_id]["score"]
        assert logged["startPlayer"] is (name == "Ben")
    assert [p["startPlayer"] for p in play["players"]].count(True) == 1
    assert any(p["winner"] for p in play["players"])


def test_ranks_are_places_and_tied_winners_both_win(api):
    table = api.table("score-sheet", options={"name": "Golf", "rounds": 1, "lowest_wins": True})
    for name, score in (("Ann", 30), ("Ben", 30), ("Cat", 41)):
        status, body = table.act(table.tokens[name], type="enter", round=1,
                                 scores={"Points": score})
        assert status == 200, body
    status, play = bgstats(table)
    assert status == 200, play
    assert play["game"] == {"name": "Golf", "sourceGameId": "score-sheet:golf",
                            "highestWins": False, "noPoints": False}
    assert [(p["name"], p["rank"], p["winner"], p["score"]) for p in play["players"]] == [
        ("Ann", 1, True, 30), ("Ben", 1, True, 30), ("Cat", 3, False, 41)]


def test_the_play_id_is_stable_for_a_table_and_its_own(api, app):
    first = api.table(options={"copies_per_value": 4})
    second = api.table(options={"copies_per_value": 4})
    for table in (first, second):
        table.finish()
    ids = [bgstats(table)[1]["sourcePlayId"] for table in (first, second, first)]
    assert ids[0] == ids[2] and ids[0] != ids[1]
    assert first.code in ids[0]
    # The same id however the play is asked for: by a player, the host, the public.
    assert {bgstats(first, token)[1]["sourcePlayId"]
            for token in (first.tokens["Ann"], first.host, None)} == {ids[0]}


def test_the_play_dates_from_the_start_and_lasts_to_the_end(api, client):
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    play = bgstats(table)[1]
    record = client.get(f"/t/{table.code}/record.json").get_json()
    started_at = datetime.fromisoformat(record["started_at"].removesuffix("Z"))
    finished_at = datetime.fromisoformat(record["finished_at"].removesuffix("Z"))
    assert record["created_at"] <= record["started_at"] <= record["finished_at"]
    assert play["playDate"] == started_at.strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] == round((finished_at - started_at).total_seconds() / 60)


def test_the_same_play_after_the_history_moves_to_another_server(api, app, tmp_path):
    """An export imported elsewhere: the same play id, date and length, so BG Stats sees
    one play however often and wherever it is logged."""
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    play = bgstats(table)[1]
    exported = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["export", str(exported)]).exit_code == 0
    folder = tmp_path / "other"
    folder.mkdir()
    with own_database(folder) as url, app_on(url, folder) as other:
        result = other.test_cli_runner().invoke(args=["import", str(exported)])
        assert result.exit_code == 0, result.output
        moved = other.test_client().get(f"/api/v1/tables/{table.code}/bgstats").get_json()
        moved_record = other.test_client().get(f"/t/{table.code}/record.json").get_json()
    assert moved == play
    record = app.test_client().get(f"/t/{table.code}/record.json").get_json()
    assert moved_record["started_at"] == record["started_at"] != record["created_at"]


def test_nothing_is_handed_on_before_the_end(api, app):
    """In the lobby, in play and once the host ended a table: 409 and a sentence, nothing
    of the table; no phone shows a link and no host screen a QR code."""
    lobby = api.table("nothing-beats-a-large", start=False)
    playing = started(api, "nothing-beats-a-large", {})
    playing.play(3)
    ended = api.table(options={"copies_per_value": 4})
    with app.test_request_context():
        moves.end(read.find(ended.code), Viewer(is_host=True))
    state = playing.bot.referee.read().state
    secrets = GAMES["nothing-beats-a-large"].secrets(state)
    assert secrets
    for table in (lobby, playing, ended):
        for token in (None, table.host, *table.tokens.values()):
            status, body = bgstats(table, token)
            assert status == 409, body
            assert list(body) == ["error"] and body["error"]["code"] == "conflict"
            assert "BG Stats" in body["error"]["message"]
            assert not any(mentions(body, secret) for secret in secrets.values())
        assert app.test_client().get(f"/t/{table.code}/bgstats").status_code == 409
        phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
        assert CREATE_PLAY not in phone.get(f"/t/{table.code}").get_data(as_text=True)
        host = as_host(app.test_client(), table.code, table.host)
        assert "bgstats-qr" not in host.get(f"/t/{table.code}/host").get_data(as_text=True)


def test_it_is_authorised_like_the_view(api):
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    assert bgstats(table, "not-a-token")[0] == 401
    other = api.table()
    assert bgstats(table, other.tokens["Ann"])[0] == 401
    assert api.call("GET", "/tables/ZZZZ/bgstats")[0] == 404


def test_each_phones_result_links_the_play_and_the_qr_address_forwards_to_it(api, app):
    table = started(api, "score-sheet", {"name": "Wingspan", "rounds": 1})
    table.finish()
    status, play = bgstats(table)
    assert status == 200
    for name in NAMES:
        phone = as_player(app.test_client(), table.code, table.tokens[name])
        html = phone.get(f"/t/{table.code}").get_data(as_text=True)
        link = re.search(r'<a class="button bgstats-link" href="([^"]+)"', html)
        assert link, html[html.index('<section class="result"'):][:3000]
        assert decoded(unescape(link.group(1))) == play
    forwarded = app.test_client().get(f"/t/{table.code}/bgstats")
    assert forwarded.status_code == 303
    assert decoded(forwarded.headers["Location"]) == play
    host = as_host(app.test_client(), table.code, table.host)
    html = host.get(f"/t/{table.code}/host").get_data(as_text=True)
    assert '<figure class="bgstats-qr">' in html and "Scan to log this play in BG Stats" in html
    display = app.test_client().get(f"/d/{table.code}").get_data(as_text=True)
    assert '<figure class="bgstats-qr">' in display


def test_the_comments_are_in_the_readers_language(api, app):
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    english = bgstats(table)[1]
    german = app.test_client().get(f"/api/v1/tables/{table.code}/bgstats",
                                   headers={"Accept-Language": "de"}).get_json()
    assert german["comments"] != english["comments"]
    assert {**german, "comments": None} == {**english, "comments": None}


def test_twenty_players_link_stays_within_what_a_phone_opens(app_with):
    """The longest names a table takes, twenty of them: the link is measured (the figure
    docs/playing.md gives), and the QR code holds the short address instead. (Twenty
    joins from one address in a moment: the rate limits are lifted.)"""
    app = app_with(RATELIMIT_ENABLED=False)
    api = Api(client=app.test_client())
    names = tuple(f"Łucja Żółtowska-Gęś {n:04d}" for n in range(20))
    assert all(len(name) == 24 for name in names)
    table = api.table("score-sheet", players=names,
                      options={"name": "Twenty-four letters long", "rounds": 1,
                               "entry": "scorer"})
    status, body = table.act(table.host, type="enter_round", round=1, rows=[
        {"player": table.ids[name], "scores": {"Points": 100_000 + n}}
        for n, name in enumerate(names)])
    assert status == 200, body
    play = bgstats(table)[1]
    assert len(play["players"]) == 20
    phone = as_player(app.test_client(), table.code, table.tokens[names[0]])
    html = phone.get(f"/t/{table.code}").get_data(as_text=True)
    link = unescape(re.search(r'class="button bgstats-link" href="([^"]+)"', html).group(1))
    assert decoded(link) == play
    # Far below what phones' browsers open (docs/playing.md), far above what a QR holds.
    assert 2_953 < len(link) < 8_000, len(link)
