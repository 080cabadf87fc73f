"""The table clock through the JSON API, with real waits: the setting at creation, the
view's figures as the game awaits one player or several, pause and resume, undo, the end,
and a server stopped and started again in the middle of a paused and of a running clock.

Guess the Number (the tests' own game) has a simultaneous step (both players choose a
number in secret) and then turns (guesses), so each case is a short known game."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from tests.support.api import Api, Seated
from tests.support.servers import ServerProcess

BANK = {"mode": "bank", "bank_seconds": 60, "increment_seconds": 5, "warn_seconds": 10}
COUNT_UP = {"mode": "count_up"}
SLACK_MS = 300  # what a request or two may take on a busy machine
WAIT = 0.8


def clocked(api: Api, clock, game: str = "guess-number", players=("Ann", "Ben"),
            start: bool = True) -> Seated:
    return api.table(game, players, start=start, seed=3, clock=clock)


def moment(view: dict) -> datetime:
    return datetime.fromisoformat(view["clock"]["at"].removesuffix("Z"))


def ms_between(before: dict, after: dict) -> int:
    return round((moment(after) - moment(before)).total_seconds() * 1000)


def used(view: dict) -> dict[int, int]:
    return {p["player"]: p["used_ms"] for p in view["clock"]["players"]}


def left(view: dict) -> dict[int, int | None]:
    return {p["player"]: p["left_ms"] for p in view["clock"]["players"]}


def pause(table: Seated, paused: bool, token: str | None = None):
    return table.api.call("POST", f"/tables/{table.code}/clock", token or table.host,
                          {"paused": paused})


def near(value: int, expected: float) -> bool:
    """A time that ran until an event a request made, shortly before `expected` ran out."""
    return expected - SLACK_MS <= value <= expected + 1


# -- the setting ------------------------------------------------------------------------

def test_a_table_keeps_its_clock_beside_its_options(api):
    table = clocked(api, BANK, start=False)
    view = table.view()
    assert "clock" not in view["options"]
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    assert view["clock"]["mode"] == "bank" and view["clock"]["bank_seconds"] == 60
    assert view["clock"]["increment_seconds"] == 5 and view["clock"]["warn_seconds"] == 10
    assert view["clock"]["players"] == [{"player": ann, "used_ms": 0, "left_ms": 60_000},
                                        {"player": ben, "used_ms": 0, "left_ms": 60_000}]
    assert view["clock"]["running"] == [] and view["clock"]["admin_ms"] == 0
    assert view["clock"]["paused"] is False
    assert view["clock"]["at"].endswith("Z") and len(view["clock"]["at"]) == 24
    assert api.table(start=False).view()["clock"] is None


@pytest.mark.parametrize("clock, named", [
    ({"mode": "sand"}, "clock: not valid"),
    ({"mode": "bank"}, "bank_seconds"),
    ({"mode": "bank", "bank_seconds": 59}, "clock.bank.bank_seconds: at least 60"),
    ({"mode": "bank", "bank_seconds": 36001}, "bank_seconds"),
    ({"mode": "bank", "bank_seconds": 60, "increment_seconds": 601}, "increment_seconds"),
    ({"mode": "bank", "bank_seconds": "60"}, "bank_seconds"),
    ({"mode": "count_up", "warn_seconds": -1}, "warn_seconds"),
    ({"mode": "count_up", "bank_seconds": 60}, "bank_seconds"),
    ([], "clock: not the right kind of value"),
])
def test_a_clock_out_of_the_contract_is_refused_saying_which_field(api, clock, named):
    status, body = api.call("POST", "/tables", json={"game": "go-big", "clock": clock})
    assert status == 400 and body["error"]["code"] == "bad_request"
    assert named in body["error"]["message"]


def test_the_clock_route_and_setting_are_in_the_openapi_document(api):
    status, document = api.call("GET", "/openapi.json")
    assert status == 200
    route = document["paths"]["/api/v1/tables/{code}/clock"]["post"]
    assert "requestBody" in route and "409" in route["responses"]
    created = document["components"]["schemas"]["CreateTable.go-big"]
    assert "clock" in created["properties"]
    assert document["components"]["schemas"]["BankClock"]["properties"]["bank_seconds"][
        "minimum"] == 60


# -- the figures ------------------------------------------------------------------------

def test_a_simultaneous_step_runs_each_awaited_players_time_until_they_act(api):
    table = clocked(api, BANK)
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    first = table.view()
    assert first["clock"]["running"] == [ann, ben]
    time.sleep(WAIT)
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    chosen = table.view()
    assert chosen["clock"]["running"] == [ann]
    assert used(chosen)[ann] - used(first)[ann] == pytest.approx(ms_between(first, chosen),
                                                                 abs=1)
    assert WAIT * 1000 <= used(chosen)[ben] <= used(chosen)[ann]
    # Ben's time stopped as he chose, and his bank gained the increment.
    time.sleep(WAIT)
    later = table.view()
    assert used(later)[ben] == used(chosen)[ben]
    assert used(later)[ann] - used(chosen)[ann] == pytest.approx(ms_between(chosen, later),
                                                                 abs=1)
    assert left(later)[ben] == 65_000 - used(later)[ben]
    assert left(later)[ann] == 60_000 - used(later)[ann]
    assert later["clock"]["admin_ms"] == 0


def test_turn_by_turn_only_the_awaited_players_time_runs(api):
    table = clocked(api, COUNT_UP)
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    assert table.act(table.tokens["Ann"], type="choose", number=7)[0] == 200
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    turn = table.view()
    assert turn["turn"] == ann and turn["clock"]["running"] == [ann]
    assert turn["clock"]["players"][0]["left_ms"] is None
    time.sleep(WAIT)
    assert table.act(table.tokens["Ann"], type="guess", guess=3)[0] == 200
    guessed = table.view()
    assert guessed["clock"]["running"] == [ben]
    assert WAIT * 1000 <= used(guessed)[ann] - used(turn)[ann] <= ms_between(turn, guessed)
    time.sleep(WAIT)
    later = table.view()
    assert used(later)[ann] == used(guessed)[ann]
    assert used(later)[ben] - used(guessed)[ben] == pytest.approx(ms_between(guessed, later),
                                                                  abs=1)


def test_a_pause_stops_every_time_and_is_a_line_no_undo_takes_back(api):
    table = clocked(api, BANK)
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    assert table.act(table.tokens["Ann"], type="choose", number=7)[0] == 200
    status, paused = pause(table, True)
    assert status == 200, paused
    assert paused["clock"]["paused"] is True and paused["clock"]["running"] == []
    time.sleep(WAIT)
    still = table.view()
    assert used(still) == used(paused)
    assert still["clock"]["admin_ms"] - paused["clock"]["admin_ms"] == pytest.approx(
        ms_between(paused, still), abs=1)
    status, body = pause(table, True)
    assert status == 409 and body["error"]["code"] == "conflict"
    # The game goes on while the clock is paused: the clock advises, it never stops a move.
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    assert table.view()["clock"]["running"] == []
    status, resumed = pause(table, False)
    assert status == 200 and resumed["clock"]["running"] == [ann]
    assert pause(table, False)[0] == 409
    lines = [event["summary"] for event in table.api.call(
        "GET", f"/tables/{table.code}/log")[1]["events"]]
    assert lines.count("The host paused the clock.") == 1
    assert lines.count("The host resumed the clock.") == 1
    # An undo takes back Ben's choice, never the pause or the resume.
    status, undone = table.api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200, undone
    assert undone["clock"]["running"] == [ben] and undone["clock"]["paused"] is False
    lines = [event["summary"] for event in table.api.call(
        "GET", f"/tables/{table.code}/log")[1]["events"]]
    assert "The host paused the clock." in lines and "The host resumed the clock." in lines


def test_a_view_within_the_millisecond_of_a_resume_counts_the_resume(api):
    """The view's `at` says milliseconds: the figures are as of a moment no earlier than
    the last event, so a view asked in the millisecond of the resume shows the clock run."""
    table = clocked(api, COUNT_UP)
    resumed_at = datetime.now(timezone.utc).replace(microsecond=156_700) + timedelta(hours=1)
    with time_machine.travel(resumed_at - timedelta(seconds=1), tick=False):
        assert pause(table, True)[0] == 200
    with time_machine.travel(resumed_at, tick=False):
        status, resumed = pause(table, False)
    assert status == 200, resumed
    assert resumed["clock"]["paused"] is False
    assert resumed["clock"]["running"] == [table.ids["Ann"], table.ids["Ben"]]


def test_only_the_host_pauses_and_only_a_clock_being_run(api):
    table = clocked(api, COUNT_UP)
    status, body = pause(table, True, table.tokens["Ann"])
    assert status == 403 and body["error"]["code"] == "forbidden"
    assert table.view()["clock"]["paused"] is False
    plain = api.table("guess-number", ("Ann", "Ben"))
    status, body = pause(plain, True)
    assert status == 409 and body["error"]["code"] == "conflict"
    assert body["error"]["message"] == "This table has no clock."
    lobby = clocked(api, COUNT_UP, start=False)
    status, body = pause(lobby, True)
    assert status == 409 and body["error"]["message"] == "The game has not started yet."
    for body in ({}, {"paused": "yes"}, {"paused": True, "extra": 1}):
        status, answer = table.api.call("POST", f"/tables/{table.code}/clock", table.host,
                                        body)
        assert status == 400 and answer["error"]["code"] == "bad_request"


def test_an_undo_gives_no_time_back(api):
    table = clocked(api, BANK)
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    assert table.act(table.tokens["Ann"], type="choose", number=7)[0] == 200
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    time.sleep(WAIT / 2)
    assert table.act(table.tokens["Ann"], type="guess", guess=3)[0] == 200
    guessed = table.view()
    time.sleep(WAIT)
    status, undone = table.api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200 and undone["clock"]["running"] == [ann]
    # Ben's thinking stays his; Ann's time goes on from where it was, not from before.
    assert near(used(undone)[ben] - used(guessed)[ben], ms_between(guessed, undone))
    assert used(undone)[ben] >= WAIT * 1000
    assert 0 <= used(undone)[ann] - used(guessed)[ann] <= SLACK_MS
    # Ann's increment for the guess undone is taken back with it; Ben keeps his choice's.
    assert left(undone)[ann] == 65_000 - used(undone)[ann]
    assert left(undone)[ben] == 65_000 - used(undone)[ben]


def test_at_the_end_the_clock_stops_and_each_standing_has_its_time(api):
    table = clocked(api, BANK)
    ann = table.ids["Ann"]
    assert table.act(table.tokens["Ann"], type="choose", number=7)[0] == 200
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    time.sleep(WAIT / 2)
    assert table.act(table.tokens["Ann"], type="guess", guess=12)[0] == 200
    ended = table.view()
    assert ended["status"] == "finished"
    assert ended["clock"]["running"] == [] and ended["clock"]["paused"] is False
    time.sleep(WAIT / 2)
    later = table.view()
    assert used(later) == used(ended)
    assert later["clock"]["admin_ms"] == ended["clock"]["admin_ms"]
    times = {s["player"]: s["time_ms"] for s in later["result"]["standings"]}
    assert times == used(later) and times[ann] >= WAIT * 500
    status, body = pause(table, True)
    assert status == 409 and body["error"]["message"] == "The game is over."
    plain = api.table("guess-number", ("Ann", "Ben"))
    plain.act(plain.tokens["Ann"], type="choose", number=7)
    plain.act(plain.tokens["Ben"], type="choose", number=12)
    plain.act(plain.tokens["Ann"], type="guess", guess=12)
    assert all("time_ms" not in s for s in plain.view()["result"]["standings"])


# -- a server stopped and started again ------------------------------------------------

def test_a_restarted_server_shows_the_same_paused_and_running_clock(database_url, app,
                                                                    tmp_path):
    server = ServerProcess(database_url, tmp_path).start()
    try:
        table = clocked(Api(server.url), BANK)
        ann = table.ids["Ann"]
        assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
        time.sleep(WAIT / 2)
        status, paused = pause(table, True)
        assert status == 200
        server.kill()  # a crash, in the middle of a paused clock
        time.sleep(WAIT)
        server.start()
        again = table.view()
        assert again["clock"]["paused"] is True and used(again) == used(paused)
        assert again["clock"]["admin_ms"] - paused["clock"]["admin_ms"] == pytest.approx(
            ms_between(paused, again), abs=1)
        status, running = pause(table, False)
        assert status == 200 and running["clock"]["running"] == [ann]
        server.kill()  # and in the middle of a running one
        time.sleep(WAIT)
        server.start()
        after = table.view()
        assert after["clock"]["running"] == [ann]
        # Ann's time ran on through the restart, not a second lost.
        assert used(after)[ann] - used(running)[ann] == pytest.approx(
            ms_between(running, after), abs=1)
        assert ms_between(running, after) >= WAIT * 1000
        server.stop()  # a stop as an upgrade makes it
        server.start()
        last = table.view()
        assert used(last)[ann] - used(after)[ann] == pytest.approx(ms_between(after, last),
                                                                  abs=1)
    finally:
        server.stop()
