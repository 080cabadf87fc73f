"""Fair play towards the host, who usually plays too: the server alone chooses the shuffle,
and giving a seat to a new phone (which could read its secrets) is told to the table."""
from __future__ import annotations

import html
import json
import threading

import pytest

from companion import config, live
from companion.extensions import db
from companion.models import Table
from companion.record_import import table_record
from companion.table.moves import SEED_MAX
from tests.support.api import Api
from tests.support.pages import csrf_of, page
from tests.support.screens import as_host, as_player
from tests.support.streams import Stream


@pytest.fixture
def club_app(app_with):
    """The app as a club runs it: without COMPANION_TEST_SEEDS."""
    return app_with(TEST_SEEDS=False)


def stored_seed(app, code: str) -> int | None:
    with app.app_context():
        return db.session.execute(db.select(Table.seed).where(Table.code == code)).scalar_one()


@pytest.mark.parametrize("seed", [12345, 0])
def test_a_seed_sent_by_the_host_is_refused(club_app, seed):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": seed})
    assert status == 400
    assert body["error"] == {"code": "bad_request", "message": "This server chooses the shuffle."}
    assert table.view()["status"] == "lobby" and stored_seed(club_app, table.code) is None
    status, view = api.call("POST", f"/tables/{table.code}/start", table.host, {})
    assert status == 200 and view["status"] == "playing"
    assert stored_seed(club_app, table.code) not in (None, seed)


def test_a_player_sending_a_seed_is_refused_as_not_the_host(club_app):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.tokens["Ann"],
                            {"seed": 1})
    assert status == 403 and body["error"]["code"] == "forbidden"
    assert table.view()["status"] == "lobby"


def test_the_host_screen_start_takes_no_seed(club_app):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    host = as_host(club_app.test_client(), table.code, table.host)
    csrf = csrf_of(page(host, f"/t/{table.code}/host"))
    response = host.post(f"/t/{table.code}/start", data={"csrf_token": csrf, "seed": "5"})
    assert response.status_code == 303
    assert table.view()["status"] == "playing"
    assert stored_seed(club_app, table.code) != 5


def test_every_table_draws_its_own_seed_and_the_record_keeps_it(club_app):
    api = Api(client=club_app.test_client())
    first, second = api.table(seed=None), api.table(seed=None)
    seeds = [stored_seed(club_app, t.code) for t in (first, second)]
    assert all(isinstance(s, int) and 0 <= s <= SEED_MAX for s in seeds)
    assert seeds[0] != seeds[1]
    first.finish()
    host = as_host(club_app.test_client(), first.code, first.host)
    response = host.get(f"/t/{first.code}/record.json")
    assert response.status_code == 200
    record = response.get_json()
    assert record["seed"] == seeds[0]
    with club_app.app_context():  # it replays to the result it states, as an import checks
        assert table_record(record, "record.json").seed == seeds[0]
    assert record["result"]["winners"] == first.view()["result"]["winners"]


@pytest.mark.parametrize("value, allowed", [(None, False), ("off", False), ("yes", False),
                                            ("on", True)])
def test_only_companion_test_seeds_on_lets_a_client_choose(monkeypatch, tmp_path, value,
                                                           allowed):
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    if value is None:
        monkeypatch.delenv("COMPANION_TEST_SEEDS", raising=False)
    else:
        monkeypatch.setenv("COMPANION_TEST_SEEDS", value)
    assert config.from_environment(str(tmp_path))["TEST_SEEDS"] is allowed


# -- a rejoin is public ------------------------------------------------------------------

REJOIN_LINE = "The host gave Ann's seat to a new phone; the old phone is signed out."


def rejoin_by_api(table) -> str:
    status, body = table.api.call(
        "POST", f"/tables/{table.code}/players/{table.ids['Ann']}/rejoin", table.host)
    assert status == 200, body
    return body["token"]


def log_of(table, token=None) -> list[dict]:
    status, body = table.api.call("GET", f"/tables/{table.code}/log", token)
    assert status == 200, body
    return body["events"]


def stored_moves(app, code: str) -> int:
    with app.app_context():
        return db.session.execute(db.select(Table.moves).where(Table.code == code)).scalar_one()


def test_a_rejoin_through_the_api_tells_everyone_in_the_log_and_history(app, api):
    table = api.table()
    table.play(1)
    new_token = rejoin_by_api(table)
    for token in (None, table.host, table.tokens["Ben"], new_token):
        line = log_of(table, token)[-1]
        assert (line["summary"], line["player"], line["undone"]) == (REJOIN_LINE, None, False)
    ben = as_player(app.test_client(), table.code, table.tokens["Ben"])
    host = as_host(app.test_client(), table.code, table.host)
    for client, path in ((ben, "/history?screen=phone"), (ben, ""), (host, "/host"),
                         (host, "/history?screen=host")):
        assert REJOIN_LINE in html.unescape(page(client, f"/t/{table.code}{path}")), path


def test_a_rejoin_from_the_host_screen_tells_everyone_too(app, api):
    table = api.table(start=False)
    host = as_host(app.test_client(), table.code, table.host)
    csrf = csrf_of(page(host, f"/t/{table.code}/host"))
    assert host.post(f"/t/{table.code}/start", data={"csrf_token": csrf}).status_code == 303
    response = host.post(f"/t/{table.code}/rejoin",
                         data={"csrf_token": csrf, "player": str(table.ids["Ann"])})
    assert response.status_code == 200 and "<svg" in response.get_data(as_text=True)
    assert [line["summary"] for line in log_of(table)] == [REJOIN_LINE]
    ben = as_player(app.test_client(), table.code, table.tokens["Ben"])
    assert REJOIN_LINE in html.unescape(page(ben, f"/t/{table.code}/history?screen=phone"))


def test_no_undo_takes_a_rejoin_back_and_it_is_no_move(app, api):
    table = api.table()
    table.play(1)
    moved = log_of(table)[-1]["summary"]
    rejoin_by_api(table)
    assert stored_moves(app, table.code) == 1
    # The host's undo confirmation offers the move before the line, and only it.
    host = as_host(app.test_client(), table.code, table.host)
    confirm = html.unescape(page(host, f"/t/{table.code}/undo?screen=host&steps=1"))
    assert moved in confirm and REJOIN_LINE not in confirm
    assert host.get(f"/t/{table.code}/undo?screen=host&steps=2").status_code == 422
    status, _ = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200 and stored_moves(app, table.code) == 0
    lines = log_of(table)
    rejoined = next(line for line in lines if line["summary"] == REJOIN_LINE)
    assert rejoined["undone"] is False
    assert lines[-1]["summary"] == "The host undid: " + moved
    # With no move left in effect, an undo finds nothing: the line stays.
    status, body = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 422 and body["error"]["message"] == "There is nothing to undo."
    assert [line["summary"] for line in log_of(table)] == [line["summary"] for line in lines]


def test_the_record_keeps_the_rejoin_and_still_replays(app, api):
    table = api.table(options={"copies_per_value": 4})
    table.play(2)
    table.tokens["Ann"] = rejoin_by_api(table)  # Ann plays on with the new phone
    table.finish()
    record = as_host(app.test_client(), table.code, table.host).get(
        f"/t/{table.code}/record.json").get_json()
    rejoined = [entry for entry in record["log"] if entry["kind"] == "rejoin"]
    assert len(rejoined) == 1 and rejoined[0]["action"] is None
    with app.app_context():  # it replays to the result it states, as an import checks
        assert table_record(record, "record.json").status == "finished"
    assert record["result"]["winners"] == table.view()["result"]["winners"]


def test_the_old_phone_is_told_the_host_gave_its_seat_away(live_server):
    api = Api(live_server.url)
    table = api.table()
    cookies = {f"companion_{table.code}": table.tokens["Ann"]}
    api_stream = Stream(f"{live_server.url}/api/v1/tables/{table.code}/stream",
                        headers={"Authorization": f"Bearer {table.tokens['Ann']}"})
    screen_stream = Stream(f"{live_server.url}/t/{table.code}/events?screen=phone",
                           cookies=cookies)
    try:
        api_stream.wait_for(lambda event: event[0] == "version")
        screen_stream.wait_for(lambda event: event[0] == "panel")
        rejoin_by_api(table)
        _, data = api_stream.wait_for(lambda event: event[0] == "revoked")
        assert json.loads(data) == {"message": str(live.REVOKED_MESSAGE)}
        _, data = screen_stream.wait_for(lambda event: event[0] == "revoked")
        assert "The host gave this seat to a new phone; this phone is signed out." in data
        assert 'role="alert"' in data
    finally:
        api_stream.close()
        screen_stream.close()


def test_rejoins_racing_moves_all_apply_and_the_log_stays_in_order(app, live_server):
    api = Api(live_server.url)
    table = api.table()
    answers: list[int] = []

    def rejoin_ben() -> None:
        for _ in range(8):
            status, body = api.call(
                "POST", f"/tables/{table.code}/players/{table.ids['Ben']}/rejoin", table.host)
            answers.append(status)
            table.tokens["Ben"] = body["token"]

    racer = threading.Thread(target=rejoin_ben)
    racer.start()
    moves = 0
    while racer.is_alive() or moves < 12:
        token = table.token_of(table.view()["turn"])
        # 401: it is Ben's turn and his token was replaced meanwhile; 409: a rejoin got in
        # between the view and the move
        status, view = api.call("GET", f"/tables/{table.code}", token)
        if status == 401:
            continue
        offered = view["actions"][0]
        move = ({"type": "play", **offered["sets"][0]} if offered["type"] == "play"
                else {"type": "draw", "source": offered["source"][0]})
        status, body = table.act(token, version=view["version"], **move)
        assert status in (200, 401, 409), body
        moves += status == 200
    racer.join()
    assert answers == [200] * 8
    lines = log_of(table)
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    ben = "The host gave Ben's seat to a new phone; the old phone is signed out."
    assert sum(line["summary"] == ben for line in lines) == 8
    assert stored_moves(app, table.code) == moves == len(lines) - 8


def test_a_rejoin_for_a_player_without_a_phone_says_no_phone_was_signed_out(app, api):
    table = api.table(start=False)
    host = as_host(app.test_client(), table.code, table.host)
    csrf = csrf_of(page(host, f"/t/{table.code}/host"))
    assert host.post(f"/t/{table.code}/players/local",
                     data={"csrf_token": csrf, "name": "Dan"}).status_code == 303
    dan = next(p["id"] for p in table.view()["players"] if p["name"] == "Dan")
    status, _ = api.call("POST", f"/tables/{table.code}/players/{dan}/rejoin", table.host)
    assert status == 200
    assert log_of(table)[-1]["summary"] == "The host gave Dan's seat to a new phone."
