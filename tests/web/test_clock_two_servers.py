"""Two server processes on one PostgreSQL database show the same table clock: moves,
a pause and a resume made through either, each server's figures counted on to the same
moment agree within a request's time, and at the end both give the same times."""
from __future__ import annotations

import time
from datetime import datetime

import pytest

from tests.support.api import Api
from tests.support.servers import ServerProcess

COUNT_UP = {"mode": "count_up"}
SLACK_MS = 300  # what a request or two may take on a busy machine
WAIT = 0.6


def moment(view: dict) -> datetime:
    return datetime.fromisoformat(view["clock"]["at"].removesuffix("Z"))


def as_of(view: dict, later: datetime) -> dict[int, int]:
    """Each player's time used, counted on from the view's `at` to `later` as a screen
    counts it (the running ones only)."""
    gone = round((later - moment(view)).total_seconds() * 1000)
    return {p["player"]: p["used_ms"] + (gone if p["player"] in view["clock"]["running"]
                                         else 0)
            for p in view["clock"]["players"]}


def test_two_servers_on_one_database_show_the_same_clock(database_url, app, tmp_path):
    if database_url.startswith("sqlite"):
        pytest.skip("two server processes share a PostgreSQL database; SQLite is served by "
                    "one process")
    one = ServerProcess(database_url, tmp_path).start()
    two = ServerProcess(database_url, tmp_path).start()
    try:
        first, second = Api(one.url, app=app), Api(two.url, app=app)
        table = first.table("guess-number", ("Ann", "Ben"), clock=COUNT_UP)
        code, ann, ben = table.code, table.tokens["Ann"], table.tokens["Ben"]

        def view(api: Api) -> dict:
            status, body = api.call("GET", f"/tables/{code}", table.host)
            assert status == 200, body
            return body

        time.sleep(WAIT)
        assert second.call("POST", f"/tables/{code}/actions", ann,
                           {"type": "choose", "number": 7})[0] == 200
        time.sleep(WAIT)
        # Ben's time runs, Ann's is stopped: each server counted on to the later moment.
        seen = view(first), view(second)
        later = max(moment(seen[0]), moment(seen[1]))
        counted = [as_of(v, later) for v in seen]
        assert seen[0]["clock"]["running"] == seen[1]["clock"]["running"] == [table.ids["Ben"]]
        for player in counted[0]:
            assert abs(counted[0][player] - counted[1][player]) <= SLACK_MS, counted
        assert counted[0][table.ids["Ben"]] >= 2 * WAIT * 1000
        assert first.call("POST", f"/tables/{code}/actions", ben,
                          {"type": "choose", "number": 12})[0] == 200
        assert second.call("POST", f"/tables/{code}/clock", table.host,
                           {"paused": True})[0] == 200
        time.sleep(WAIT)
        paused = view(first), view(second)
        # Paused, no player's time runs: both servers give the very same players' figures;
        # the pause is the table's own time, which runs on from each server's `at`.
        assert paused[0]["clock"]["paused"] and paused[1]["clock"]["paused"]
        assert paused[0]["clock"]["running"] == paused[1]["clock"]["running"] == []
        assert paused[0]["clock"]["players"] == paused[1]["clock"]["players"]
        apart_ms = (moment(paused[1]) - moment(paused[0])).total_seconds() * 1000
        assert abs(paused[1]["clock"]["admin_ms"] - paused[0]["clock"]["admin_ms"]
                   - apart_ms) <= SLACK_MS
        assert paused[0]["clock"]["admin_ms"] >= WAIT * 1000
        assert first.call("POST", f"/tables/{code}/clock", table.host,
                          {"paused": False})[0] == 200
        time.sleep(WAIT)
        assert second.call("POST", f"/tables/{code}/actions", ann,
                           {"type": "guess", "guess": 12})[0] == 200
        ended = view(first), view(second)
        assert ended[0]["status"] == ended[1]["status"] == "finished"
        assert ended[0]["result"]["standings"] == ended[1]["result"]["standings"]
        assert ended[0]["clock"] == dict(ended[1]["clock"], at=ended[0]["clock"]["at"])
        assert all(s["time_ms"] > 0 for s in ended[0]["result"]["standings"])
    finally:
        one.stop()
        two.stop()
