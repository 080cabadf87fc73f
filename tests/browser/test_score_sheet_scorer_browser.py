"""The host keeping a score sheet as its scorer, in Chromium: typed the way a scorer at a
table types (a digit on the keypad, Enter, the next player), the same score twice in a
row for two players; a round at once; the second look at a score far outside the sheet;
a sheet of players without phones kept on the host's phone."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import TAP, SlowAnswers, Taps, host_screen, screenshot


def golf_for_three(live_server):
    api = Api(live_server.local_url, app=live_server.app)
    return api.table("score-sheet", players=("Ann", "Ben", "Cat"), options={
        "name": "Golf", "rounds": 9, "lowest_wins": True, "entry": "scorer"})


def open_entry(table, name: str):
    view = table.view(table.host)
    seat = next(s for s in view["state"]["seats"] if s["player"] == table.ids[name])
    return next((row["scores"] for row in seat["rows"] if row.get("open")), None)


def test_the_same_score_typed_for_the_next_player_is_saved_as_typed(live_server, new_phone):
    table = golf_for_three(live_server)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    answers = SlowAnswers(host, live_server)
    for count, name in enumerate(("Ann", "Ben"), start=1):
        expect(host.get_by_role("radio", name=re.compile(rf"^{name}"))).to_be_checked()
        host.get_by_label("Points", exact=True).click()
        host.keyboard.press("4")
        host.get_by_role("button", name="Enter", exact=True).click()
        # The pushed update shows the entry before the answer to the move arrives.
        expect(host.locator(".entered-line")).to_contain_text(f"{count} of 3")
        answers.release()
    assert open_entry(table, "Ann") == {"Points": 4}
    assert open_entry(table, "Ben") == {"Points": 4}


def test_a_golf_round_for_three_is_three_numbers_and_one_tap(live_server, new_phone):
    table = golf_for_three(live_server)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    taps = Taps(host)
    for name, strokes in (("Ann", 4), ("Ben", 3), ("Cat", 5)):
        host.get_by_role("textbox", name=name, exact=True).fill(str(strokes))
    taps(host.get_by_role("button", name="Enter 3 rows"))
    expect(host.locator(".sheet-table tbody tr.latest")).to_contain_text("4")
    expect(host.locator(".entered-line")).to_have_text("Entered for round 2: 0 of 3.")
    assert [seat["total"] for seat in table.view()["state"]["seats"]] == [4, 3, 5]
    assert taps.count == 1
    # The next round's rows start empty.
    for name in ("Ann", "Ben", "Cat"):
        expect(host.get_by_role("textbox", name=name, exact=True)).to_have_value("")


def test_a_score_far_outside_the_sheet_waits_for_a_second_look(live_server, new_phone):
    table = golf_for_three(live_server)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    for name, strokes in (("Ann", 4), ("Ben", 3), ("Cat", 5)):
        host.get_by_role("textbox", name=name, exact=True).fill(str(strokes))
    host.get_by_role("button", name="Enter 3 rows").click()
    expect(host.locator(".entered-line")).to_have_text("Entered for round 2: 0 of 3.")
    for name, strokes in (("Ann", 4), ("Ben", 60), ("Cat", 5)):
        host.get_by_role("textbox", name=name, exact=True).fill(str(strokes))
    host.get_by_role("button", name="Enter 3 rows").click()
    look = host.locator(".second-look")
    expect(look).to_contain_text(
        "Ben: Points 60 is more than ten times the largest entry so far (5).")
    assert table.view()["state"]["entered"] == []  # nothing saved
    expect(host.get_by_role("textbox", name="Ben", exact=True)).to_have_value("60")  # as typed
    screenshot(host, "score-sheet-second-look")
    look.get_by_role("button", name="Enter it as it is").click()
    expect(host.locator(".entered-line")).to_have_text("Entered for round 3: 0 of 3.")
    expect(look).to_have_count(0)
    assert [seat["total"] for seat in table.view()["state"]["seats"]] == [8, 63, 10]


def test_a_scorers_sheet_of_players_without_phones_has_no_cover_and_touch_sized_pickers(
        live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=(), start=False, options={
        "name": "Golf", "rounds": 9, "lowest_wins": True, "entry": "scorer"})
    host = new_phone()  # the host keeps the sheet on a phone
    host.context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                               "url": live_server.url}])
    host.goto(f"{live_server.url}/t/{table.code}/host")
    for name in ("Gus", "Hal", "Ida"):
        host.get_by_label("Add a player without a phone").fill(name)
        host.get_by_role("button", name="Add", exact=True).click()
        expect(host.locator("#panel")).to_contain_text(name)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("button", name="Enter 3 rows")).to_be_visible()
    assert host.locator(".local-players").count() == 0
    expect(host.locator("#panel")).not_to_contain_text("pass the device")
    assert host.locator(".turn:visible").count() == 0  # nothing to say: no empty banner
    pickers = host.locator(".entry-player label")
    expect(pickers).to_have_count(3)
    for index in range(3):
        box = pickers.nth(index).bounding_box()
        assert box["width"] >= TAP and box["height"] >= TAP, box
    pickers.nth(1).click()
    expect(host.get_by_role("radio", name=re.compile("^Hal"))).to_be_checked()
    screenshot(host, "score-sheet-scorer-on-a-phone")
