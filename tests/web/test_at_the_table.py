"""History and undo, the end of the game, play again, past games and players without a
phone, through the screens a host and phones use."""
from __future__ import annotations

import json
import re

from companion import record_import
from tests.support.api import Api
from tests.support.pages import csrf_of, revealed
from tests.support.screens import as_host, as_player, post
from tests.support.secrecy_guard import history_items


def test_history_lists_every_move_newest_first(app):
    api = Api(client=app.test_client())
    table = api.table()
    table.act(table.tokens["Ann"], type="play", value=3, count=1)
    table.act(table.tokens["Ann"], type="draw", source="deck")
    phone = as_player(app.test_client(), table.code, table.tokens["Ben"])
    html = phone.get(f"/t/{table.code}/history").get_data(as_text=True)
    first, second = html.index("Ann drew 2 cards"), html.index("Ann played a single 3")
    assert first < second


def test_undo_says_exactly_what_it_takes_back(app):
    api = Api(client=app.test_client())
    table = api.table()
    table.act(table.tokens["Ann"], type="play", value=3, count=1)
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    confirm = phone.get(f"/t/{table.code}/undo?screen=phone").get_data(as_text=True)
    assert "Undo this move?" in confirm and "Ann played a single 3." in confirm
    post(phone, f"/t/{table.code}/undo", {"screen": "phone", "steps": "1"})
    assert table.view()["state"]["step"] == "play"
    other = as_player(app.test_client(), table.code, table.tokens["Ben"])
    assert other.get(f"/t/{table.code}/undo?screen=phone").status_code == 422


def test_an_undo_confirmed_twice_takes_back_only_what_it_showed(app):
    api = Api(client=app.test_client())
    table = api.table()
    table.act(table.tokens["Ann"], type="play", value=3, count=1)
    table.act(table.tokens["Ann"], type="draw", source="deck")
    host = as_host(app.test_client(), table.code, table.host)
    confirm = host.get(f"/t/{table.code}/undo?screen=host&steps=1").get_data(as_text=True)
    seen = re.search(r'name="version" value="(\d+)"', confirm).group(1)
    form = {"screen": "host", "steps": "1", "version": seen}
    post(host, f"/t/{table.code}/undo", form)
    after_play = table.view()
    assert after_play["state"]["step"] == "draw"
    refused = post(host, f"/t/{table.code}/undo", form, status=409, htmx=True)
    assert "The table changed before your move arrived" in refused.get_data(as_text=True)
    assert table.view()["state"] == after_play["state"]


def test_the_host_undoes_several_moves_but_never_past_a_reveal(app):
    api = Api(client=app.test_client())
    table = api.table()
    start = table.view()["state"]
    table.act(table.tokens["Ann"], type="play", value=3, count=1)
    table.act(table.tokens["Ann"], type="draw", source="deck")
    table.act(table.tokens["Ben"], type="play", value=4, count=2)
    host = as_host(app.test_client(), table.code, table.host)
    history = host.get(f"/t/{table.code}/history?screen=host").get_data(as_text=True)
    assert "Undo back to here" in history
    confirm = host.get(f"/t/{table.code}/undo?screen=host&steps=3").get_data(as_text=True)
    assert "Undo these 3 moves?" in confirm
    for line in ("Ben played a pair of 4s.", "Ann drew 2 cards", "Ann played a single 3."):
        assert line in confirm
    status, body = api.call("POST", f"/tables/{table.code}/undo", table.tokens["Ann"], {"steps": 2})
    assert status == 403
    post(host, f"/t/{table.code}/undo", {"screen": "host", "steps": "3"})
    assert table.view()["state"] == start


def test_the_end_shows_a_chart_a_record_that_replays_and_play_again(app):
    api = Api(client=app.test_client())
    table = api.table(options={"copies_per_value": 4})
    table.finish()
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    html = phone.get(f"/t/{table.code}").get_data(as_text=True)
    assert 'class="chart"' in html and "Scores over the game" in html
    response = phone.get(f"/t/{table.code}/record.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    record = json.loads(response.data)
    with app.app_context():  # it replays to the result it states, as an import checks
        assert record_import.table_record(record, "record.json").status == "finished"
    assert record["result"]["standings"] == table.view()["result"]["standings"]
    # Over, the game holds no secret any more: its record is anyone's (past games link it).
    assert app.test_client().get(f"/t/{table.code}/record.json").get_json() == record

    host = as_host(app.test_client(), table.code, table.host)
    response = post(host, f"/t/{table.code}/again", {})
    new_code = re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)
    assert host.get(f"/t/{new_code}/host").status_code == 200
    assert "The host started a new game" in phone.get(f"/t/{table.code}").get_data(as_text=True)
    response = post(phone, f"/t/{table.code}/follow", {})
    assert response.headers["Location"].endswith(f"/t/{new_code}")
    view = phone.get(f"/api/v1/tables/{new_code}").get_json()
    assert [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cat"]
    assert "You are seated" in phone.get(f"/t/{new_code}").get_data(as_text=True)


def test_a_record_of_an_unfinished_game_is_refused(app):
    api = Api(client=app.test_client())
    table = api.table()
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    assert phone.get(f"/t/{table.code}/record.json").status_code == 409
    assert app.test_client().get(f"/t/{table.code}/record.json").status_code == 403


def test_past_games_and_player_statistics(app):
    api = Api(client=app.test_client())
    for _ in range(2):
        api.table(options={"copies_per_value": 4}).finish()
    html = app.test_client().get("/games").get_data(as_text=True)
    assert html.count("<h3>Go Big</h3>") >= 2
    assert re.search(r"<td>Ann</td><td>Go Big</td><td>2</td><td>\d</td>", html)


def test_past_games_lead_to_each_game_and_to_the_games_being_played(app):
    api = Api(client=app.test_client())
    finished = api.table(options={"copies_per_value": 4})
    finished.finish()
    fan_tan = api.table(game="big-top", options={"variant": "fan-tan"})
    fan_tan.finish()
    playing = api.table(game="big-top")
    api.table(start=False)  # a lobby: no game yet
    visitor = app.test_client()
    html = visitor.get("/games").get_data(as_text=True)
    finished_part = html[html.index("<h2>Finished</h2>"):html.index("<h2>Players</h2>")]
    playing_part = html[html.index("<h2>Being played</h2>"):html.index("<h2>Finished</h2>")]
    for table in (finished, fan_tan):
        for link in (f'href="/d/{table.code}"', f'href="/d/{table.code}/history"',
                     f'href="/t/{table.code}/replay"',
                     f'href="/t/{table.code}/record.json" download'):
            assert link in finished_part, link
    assert "<h3>Fan Tan</h3>" in finished_part and "<h3>Big Top</h3>" not in finished_part
    assert re.search(r"<td>Ann</td><td>Fan Tan</td><td>1</td>", html)
    assert playing_part.count('class="past-game"') == 1
    assert "<h3>Big Top <span class=\"tag\">in progress</span></h3>" in playing_part
    assert f'href="/d/{playing.code}"' in playing_part and "record.json" not in playing_part
    assert "/replay" not in playing_part
    # Each link leads somewhere, for anyone.
    record = visitor.get(f"/t/{fan_tan.code}/record.json")
    assert record.status_code == 200 and record.get_json()["game"] == "big-top"
    history = visitor.get(f"/d/{finished.code}/history").get_data(as_text=True)
    log = api.call("GET", f"/tables/{finished.code}/log")[1]["events"]
    assert history_items(history) == [line["summary"] for line in log][::-1]
    assert "Undo" not in history
    assert "The game is over." in visitor.get(f"/d/{finished.code}").get_data(as_text=True)
    assert visitor.get(f"/t/{finished.code}/replay").status_code == 200
    watched = visitor.get(f"/d/{playing.code}/history")
    assert watched.status_code == 200 and "Back to the table" in watched.get_data(as_text=True)


def test_a_player_without_a_phone_plays_through_the_host_behind_a_cover(app):
    api = Api(client=app.test_client())
    table = api.table(game="big-top", players=("Ann", "Ben"), start=False)
    host = as_host(app.test_client(), table.code, table.host)
    post(host, f"/t/{table.code}/players/local", {"name": "Cleo"})
    view = table.view()
    cleo = next(p for p in view["players"] if p["name"] == "Cleo")
    assert cleo["local"] is True
    post(host, f"/t/{table.code}/start", {})
    screen = host.get(f"/t/{table.code}/host").get_data(as_text=True)
    assert "Play for Cleo (no phone)" in screen
    cover = host.get(f"/t/{table.code}/as/{cleo['id']}").get_data(as_text=True)
    assert "Pass the device to Cleo" in cover and 'name="cards[]"' not in cover
    screen = revealed(host, f"/t/{table.code}/as/{cleo['id']}")
    assert 'name="cards[]"' in screen
    # Cleo's secret hand goes in from the host device, which then covers it again.
    cards = ["clowns-P", "clowns-L1", "clowns-L2"]
    html = host.get("/").get_data(as_text=True)
    response = host.post(f"/t/{table.code}/act", headers={"HX-Request": "true"},
                         data={"csrf_token": csrf_of(html), "screen": f"as-{cleo['id']}",
                               "type": "hand", "cards[]": cards})
    assert response.status_code == 204
    assert response.headers["HX-Redirect"].endswith(f"/t/{table.code}/host")
    assert cleo["id"] not in table.view()["waiting_for"]
    assert "clowns-L1" not in host.get(f"/t/{table.code}/host").get_data(as_text=True)
    # Only players without a phone can be played for, and only by the host.
    ann = table.ids["Ann"]
    assert host.get(f"/t/{table.code}/as/{ann}").status_code == 403
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    assert phone.get(f"/t/{table.code}/as/{cleo['id']}").status_code == 403


def catalogue_picks(html: str) -> list[dict]:
    """The cards a Big Money screen offers to pick (cards entered before), as they post."""
    forms = re.findall(r'<form[^>]*class="[^"]*bm-catalogue-card[^"]*".*?</form>', html, re.S)
    return [dict(re.findall(r'<input type="hidden" name="(asset\.[a-z]+|slot|type)" '
                            r'value="([^"]*)"', form)) for form in forms]


def test_big_money_offers_the_cards_entered_at_earlier_tables_less_those_on_this_table(app):
    api = Api(client=app.test_client())
    # The box holds two Diners (both were in one earlier game) and one Arena. A mistyped
    # card taken back by an undo is not remembered.
    first = api.table(game="big-money", players=("Ann", "Ben"))
    for name in ("Ann", "Ben"):
        assert first.act(first.tokens[name], type="startup", industry="food")[0] == 200
    diner = {"industry": "food", "price": 10, "payout": 10, "stock": False, "name": "Diner"}
    arena = {"industry": "entertainment", "price": 30, "payout": 30, "stock": False,
             "name": "Arena"}
    typo = {"industry": "food", "price": 100, "payout": 100, "stock": False, "name": "Dinr"}
    assert first.act(first.tokens["Ann"], type="reveal", slot=0, asset=typo)[0] == 200
    assert api.call("POST", f"/tables/{first.code}/undo", first.tokens["Ann"])[0] == 200
    for slot, card in enumerate((diner, diner, arena)):
        status, body = first.act(first.tokens["Ann"], type="reveal", slot=slot, asset=card)
        assert status == 200, body

    second = api.table(game="big-money", players=("Cat", "Dan"))
    for name in ("Cat", "Dan"):
        second.act(second.tokens[name], type="startup", industry="sports")
    phone = as_player(app.test_client(), second.code, second.tokens["Cat"])

    def offered(html=None) -> list[str]:
        html = html or phone.get(f"/t/{second.code}").get_data(as_text=True)
        return [pick["asset.name"] for pick in catalogue_picks(html)]

    assert offered() == ["Diner", "Arena"]  # by industry, in the order of the die's faces
    fields = catalogue_picks(phone.get(f"/t/{second.code}").get_data(as_text=True))[0]
    assert fields["slot"] == "0" and fields["asset.price"] == "10"
    response = post(phone, f"/t/{second.code}/act",
                    {**fields, "screen": "phone", "action_id": "pick-1"}, status=200, htmx=True)
    # The answer offers the next space at once, the second Diner still among the cards.
    answer = response.get_data(as_text=True)
    assert "it goes into market space 2" in answer
    assert offered(answer) == ["Diner", "Arena"]
    market = second.view()["state"]["market"]
    assert (market[0]["name"] == "Diner" and market[0]["price"] == 10
            and market[0]["industry"] == "food")
    assert second.act(second.tokens["Cat"], type="reveal", slot=1, asset=diner)[0] == 200
    assert offered() == ["Arena"]  # both Diners are on this table
    assert second.act(second.tokens["Cat"], type="reveal", slot=2, asset=arena)[0] == 200
    assert offered() == []
    assert "bm-catalogue" not in phone.get(f"/t/{second.code}").get_data(as_text=True)
    # Taken back, the Arena is offered again.
    assert api.call("POST", f"/tables/{second.code}/undo", second.tokens["Cat"])[0] == 200
    assert offered() == ["Arena"]
