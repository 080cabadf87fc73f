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

import pytest
import time_machine

from companion.record_import import table_record
from companion.table import read
from companion.transfer import ImportRefused
from tests.support.api import Api, Seated
from tests.support.pages import csrf_of, page, text_of
from tests.support.screens import as_host, as_player, new_table, post

COUNT_UP = {"mode": "count_up"}
WINGSPAN = {"name": "Wingspan", "rounds": 1}


def result_part(html: str) -> str:
    found = re.search(r'<section class="result".*?</section>', html, re.S)
    assert found, "no result on the page"
    return text_of(found.group(0))


def timed_sheet(api: Api, clock=COUNT_UP, options=WINGSPAN, scores=(70, 80)) -> Seated:
    """A one-round sheet: Ann enters after 2 minutes; the host pauses the clock from the
    3rd minute to the 4th; Ben enters at the 6th. Ann used 2:00, Ben 5:00, the table 1:00."""
    start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(days=1)
    with time_machine.travel(start, tick=False) as traveller:
        table = api.table("score-sheet", ("Ann", "Ben"), options=options, clock=clock)
        traveller.move_to(start + timedelta(minutes=2))
        assert table.act(table.tokens["Ann"], type="enter", round=1,
                         scores={"Points": scores[0]})[0] == 200
        traveller.move_to(start + timedelta(minutes=3))
        assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                        {"paused": True})[0] == 200
        traveller.move_to(start + timedelta(minutes=4))
        assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                        {"paused": False})[0] == 200
        traveller.move_to(start + timedelta(minutes=6))
        status, body = table.act(table.tokens["Ben"], type="enter", round=1,
                                 scores={"Points": scores[1]})
        assert status == 200, body
    assert table.view()["status"] == "finished"
    return table


def test_the_result_screens_show_each_time_and_the_tables_total(api, client, app):
    table = timed_sheet(api)
    view = table.view()
    times = {s["player"]: s["time_ms"] for s in view["result"]["standings"]}
    assert times == {table.ids["Ann"]: 120_000, table.ids["Ben"]: 300_000}
    assert view["clock"]["admin_ms"] == 60_000
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    host = as_host(app.test_client(), table.code, table.host)
    for screen, url in ((client, f"/d/{table.code}"), (phone, f"/t/{table.code}"),
                        (host, f"/t/{table.code}/host")):
        shown = result_part(page(screen, url))
        assert "Time" in shown, url
        assert "Ben 80 5:00" in shown and "Ann 70 2:00" in shown, url
        assert ("Time used in all: 8:00, of which the table's own (the host's steps and "
                "pauses): 1:00.") in shown, url
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
    rows = list(csv.reader(io.StringIO(
        client.get("/games.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][-2:] == ["Time used", "Team"]
    assert sorted(row[3:-1] for row in rows[1:]) == [
        ["Ann", "1", "50", "1", ""], ["Ann", "2", "70", "0", "0:02:00"],
        ["Ann", "2", "70", "0", "0:02:00"], ["Ben", "1", "80", "1", "0:05:00"],
        ["Ben", "1", "80", "1", "0:05:00"], ["Ben", "2", "40", "0", ""]]


def test_a_sheet_breaks_a_tie_on_less_time_used_and_needs_a_clock_for_it(api):
    on_time = dict(WINGSPAN, tiebreaks=[{"by": "time", "most": False}])
    status, body = api.call("POST", "/tables", json={"game": "score-sheet", "options": on_time})
    assert status == 400 and body["error"]["message"] == (
        "A tie-break on the time used needs the table clock: choose a clock, or another "
        "tie-break.")
    table = timed_sheet(api, options=on_time, scores=(75, 75))
    result = table.view()["result"]
    ann, ben = table.ids["Ann"], table.ids["Ben"]
    assert result["winners"] == [ann]
    assert [(s["player"], s["place"], s["tiebreak"]) for s in result["standings"]] == [
        (ann, 1, {"seconds_used": 120}), (ben, 2, {"seconds_used": 300})]
    assert result["explanation"] == ("Ann and Ben tied on 75; Ann wins on fewest seconds "
                                     "used, 120 to 300.")
    more = timed_sheet(api, options=dict(WINGSPAN, tiebreaks=[{"by": "time", "most": True}]),
                       scores=(75, 75))
    assert more.view()["result"]["winners"] == [more.ids["Ben"]]


def test_the_new_table_form_offers_the_tie_break_on_time_with_a_clock_only(app, host):
    form = page(host, "/new/score-sheet")
    assert 'value="by=time;most=false"' in form
    assert "Less time used (needs the table clock)" in text_of(form)
    on_time = {"name": "Wingspan", "entry": "players", "tiebreaks.0": "by=time;most=false"}
    host.set_cookie("companion_language", "de")
    refused = post(host, "/new/score-sheet", {**on_time, "clock_mode": "off"},
                   "/new/score-sheet", status=400).get_data(as_text=True)
    assert ("Ein Tiebreak nach der verbrauchten Zeit braucht die Uhr: wähl eine Uhr oder "
            "einen anderen Tiebreak.") in text_of(refused)
    assert 'value="by=time;most=false" selected' in refused
    code = new_table(host, "score-sheet", **on_time, clock_mode="count_up",
                     clock_warn_seconds="0")
    with app.app_context():
        made = read.find(code)
    assert made.options["tiebreaks"] == [{"by": "time", "most": False}]
    assert made.clock == {"mode": "count_up", "warn_seconds": 0}


def test_a_record_whose_tie_was_broken_on_time_opens_and_a_changed_time_is_refused(api, client,
                                                                                 app):
    on_time = dict(WINGSPAN, tiebreaks=[{"by": "time", "most": False}])
    table = timed_sheet(api, options=on_time, scores=(75, 75))
    document = client.get(f"/t/{table.code}/record.json").get_json()
    with app.app_context():
        assert table_record(document, "wingspan.json").code == table.code
        swapped = [dict(p, used_ms=600_000 - p["used_ms"]) for p in document["clock"]["players"]]
        with pytest.raises(ImportRefused) as refused:
            table_record(dict(document, clock=dict(document["clock"], players=swapped)),
                         "wingspan.json")
    assert "does not replay to the result it states" in str(refused.value)


def test_a_record_opened_on_another_server_keeps_its_clock_and_times(api, client, other_app):
    on_time = dict(WINGSPAN, tiebreaks=[{"by": "time", "most": False}])
    table = timed_sheet(api, options=on_time, scores=(75, 75))
    visitor = other_app.test_client()
    record = client.get(f"/t/{table.code}/record.json").get_data()
    response = visitor.post("/games/records", content_type="multipart/form-data", data={
        "record": (io.BytesIO(record), "wingspan.json"),
        "csrf_token": csrf_of(page(visitor, "/games"))})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    code = re.search(r"/t/([A-Z]{4})/", response.headers["Location"]).group(1)
    status, there = Api(client=visitor).call("GET", f"/tables/{code}")
    assert status == 200, there
    here = table.view()
    assert there["result"] == here["result"]  # the times, and the tie they broke
    assert there["clock"] == dict(here["clock"], at=there["clock"]["at"])
