"""The table clock's times in the result: beside each score on the result screens with the
table's total and its own time, in the game's record, on /games (each player's average
per game name, over the games with a clock), in the sheet's CSV, and the BG Stats play's
length from the start to the end. The times are set by moving the server's clock, so each
figure is known to the second."""
from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta, timezone

import time_machine

from tests.support.api import Api, Seated
from tests.support.pages import page, text_of

COUNT_UP = {"mode": "count_up"}
WINGSPAN = {"name": "Wingspan", "rounds": 1}


def result_part(html: str) -> str:
    found = re.search(r'<section class="result".*?</section>', html, re.S)
    assert found, "no result on the page"
    return text_of(found.group(0))


def timed_sheet(api: Api, clock=COUNT_UP) -> Seated:
    """A one-round sheet: Ann enters after 2 minutes; the host pauses the clock from the
    3rd minute to the 4th; Ben enters at the 6th. Ann used 2:00, Ben 5:00, the table 1:00."""
    start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(days=1)
    with time_machine.travel(start, tick=False) as traveller:
        table = api.table("score-sheet", ("Ann", "Ben"), options=WINGSPAN, clock=clock)
        traveller.move_to(start + timedelta(minutes=2))
        assert table.act(table.tokens["Ann"], type="enter", round=1,
                         scores={"Points": 70})[0] == 200
        traveller.move_to(start + timedelta(minutes=3))
        assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                        {"paused": True})[0] == 200
        traveller.move_to(start + timedelta(minutes=4))
        assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                        {"paused": False})[0] == 200
        traveller.move_to(start + timedelta(minutes=6))
        status, body = table.act(table.tokens["Ben"], type="enter", round=1,
                                 scores={"Points": 80})
        assert status == 200, body
    assert table.view()["status"] == "finished"
    return table


def test_the_result_screens_show_each_time_and_the_tables_total(api, client):
    table = timed_sheet(api)
    view = table.view()
    times = {s["player"]: s["time_ms"] for s in view["result"]["standings"]}
    assert times == {table.ids["Ann"]: 120_000, table.ids["Ben"]: 300_000}
    assert view["clock"]["admin_ms"] == 60_000
    shown = result_part(page(client, f"/d/{table.code}"))
    assert "Time" in shown
    assert "Ben 80 5:00" in shown and "Ann 70 2:00" in shown
    assert "8:00" in shown and "1:00" in shown
    plain = api.table("score-sheet", ("Ann", "Ben"), options=WINGSPAN)
    for name, score in (("Ann", 70), ("Ben", 80)):
        plain.act(plain.tokens[name], type="enter", round=1, scores={"Points": score})
    untimed = result_part(page(client, f"/d/{plain.code}"))
    assert "Ben 80" in untimed and "5:00" not in untimed and "table's own" not in untimed


def test_the_record_the_sheet_and_the_play_carry_the_times(api, client):
    table = timed_sheet(api)
    record = client.get(f"/t/{table.code}/record.json").get_json()
    assert record["clock"] == {
        "mode": "count_up", "warn_seconds": 0, "admin_ms": 60_000,
        "players": [{"player": table.ids["Ann"], "used_ms": 120_000},
                    {"player": table.ids["Ben"], "used_ms": 300_000}]}
    rows = list(csv.reader(io.StringIO(
        client.get(f"/t/{table.code}/sheet.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][2:] == ["Ann", "Ben"]
    assert ["Time used", "", "0:02:00", "0:05:00"] in rows
    status, play = api.call("GET", f"/tables/{table.code}/bgstats")
    assert status == 200, play
    assert play["durationMin"] == 6  # from the start to the end, pause included


def test_games_shows_each_players_average_time_over_the_games_with_a_clock(api, client):
    timed_sheet(api)
    timed_sheet(api, {"mode": "bank", "bank_seconds": 600})
    plain = api.table("score-sheet", ("Ann", "Ben"), options=WINGSPAN)
    for name, score in (("Ann", 50), ("Ben", 40)):
        plain.act(plain.tokens[name], type="enter", round=1, scores={"Points": score})
    shown = text_of(page(client, "/games"))
    assert "Average time" in shown
    # Three games each, two with a clock: the average is over those two.
    assert "Ann 3 1 70 63.3 2:00" in shown and "Ben 3 2 80 66.7 5:00" in shown
