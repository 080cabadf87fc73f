"""The score sheet in Chromium, as a group at a table would use it: a Wingspan sheet
entered in secret on three phones and revealed on the table display, a Golf sheet the host
enters as the scorer, and the taps an entry takes. The tables are made through the JSON
API (the sheet's own new-table form is tested with the lobby)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, SlowAnswers, Taps, host_screen, screenshot, seat_phone

WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]
TV = (1920, 1080)


def enter_row(phone, scores: dict) -> None:
    """Types a row and enters it, and waits for the answer: the update pushed on the stream
    may show the entry first, and the next row must not be typed into a form the answer
    then changes."""
    for category, value in scores.items():
        phone.get_by_label(category, exact=True).fill(str(value))
    phone.get_by_role("button", name=re.compile(r"^Enter round|^Change my entry")).click()
    expect(phone.locator("form.htmx-request")).to_have_count(0)


def test_a_wingspan_sheet_entered_in_secret_on_three_phones_and_revealed_on_the_display(
        live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben", "Cat"), options={
        "name": "Wingspan", "rounds": 1, "categories": WINGSPAN, "secret": True,
        "tiebreaks": [{"by": "category", "category": "Birds"}]})
    phones = {name: seat_phone(new_phone, live_server.url, table, name)
              for name in ("Ann", "Ben", "Cat")}
    display = new_phone(*TV)
    display.goto(f"{live_server.url}/d/{table.code}")
    expect(display.locator(".sheet-name")).to_have_text("Wingspan")

    rows = {"Ann": [32, 8, 5, 11, 6, 25], "Ben": [28, 12, 9, 10, 8, 20],
            "Cat": [20, 5, 3, 4, 2, 7]}  # Ann and Ben tie on 87; Ann has more Birds
    enter_row(phones["Ann"], dict(zip(WINGSPAN, rows["Ann"])))
    expect(phones["Ann"].locator(".private")).to_contain_text("87")
    # Ann corrects herself before the reveal: the entry is replaced.
    enter_row(phones["Ann"], {"Birds": 33})
    expect(phones["Ann"].locator(".private")).to_contain_text("88")
    enter_row(phones["Ann"], {"Birds": 32})
    expect(phones["Ann"].locator(".private")).to_contain_text("87")
    enter_row(phones["Ben"], dict(zip(WINGSPAN, rows["Ben"])))
    for name in ("Ben", "Cat"):
        expect(phones[name].locator(".entered-line")).to_have_text(
            "Entered for round 1: 2 of 3.", timeout=SOON)
    expect(display.locator(".entered-line")).to_have_text("Entered for round 1: 2 of 3.")
    for page in (phones["Ben"], phones["Cat"], display):
        expect(page.locator(".sheet")).not_to_contain_text("87")  # no one sees Ann's yet
    screenshot(display, "score-sheet-display-before-reveal")

    enter_row(phones["Cat"], dict(zip(WINGSPAN, rows["Cat"])))
    expect(display.locator(".display-last")).to_contain_text(
        "Round 1 revealed: Ann 87, Ben 87, Cat 41.", timeout=SOON)
    expect(display.locator(".sheet-table tbody tr.latest")).to_contain_text("87")
    screenshot(display, "score-sheet-display-reveal")
    for page in (*phones.values(), display):
        expect(page.locator(".result .explanation")).to_have_text(
            "Ann and Ben tied on 87; Ann wins on Birds, 32 to 28.", timeout=SOON)
    expect(phones["Cat"].locator(".standings tbody tr").first).to_contain_text("Ann")
    screenshot(phones["Ben"], "score-sheet-phone-result")


def test_a_correction_typed_before_the_entry_is_answered_is_kept(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben"), options={
        "name": "Wingspan", "rounds": 2, "categories": WINGSPAN, "secret": True})
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    answers = SlowAnswers(ann, live_server)
    for category, value in zip(WINGSPAN, [32, 8, 5, 11, 6, 25]):
        ann.get_by_label(category, exact=True).fill(str(value))
    ann.get_by_role("button", name="Enter round 1").click()
    # The pushed update shows the entry before the answer to the move arrives, and Ann
    # starts correcting it.
    expect(ann.locator(".private")).to_contain_text("87")
    ann.get_by_label("Birds", exact=True).fill("33")
    answers.release()
    expect(ann.locator("form.htmx-request")).to_have_count(0)
    expect(ann.get_by_label("Birds", exact=True)).to_have_value("33")
    expect(ann.get_by_label("Eggs", exact=True)).to_have_value("11")
    ann.get_by_role("button", name="Change my entry").click()
    expect(ann.locator(".private")).to_contain_text("88")


def test_a_golf_sheet_the_host_enters_as_the_scorer_lowest_wins(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben", "Cat"), options={
        "name": "Golf", "rounds": 9, "lowest_wins": True, "entry": "scorer"})
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    expect(ann.locator(".sheet-name")).to_have_text("Golf")
    expect(ann.locator("input[inputmode=numeric]")).to_have_count(0)  # the host enters
    strokes = {"Ann": 4, "Ben": 3, "Cat": 5}
    for hole in range(1, 10):
        for name in ("Ann", "Ben", "Cat"):
            # The next player to enter is chosen already: the score, then Enter.
            expect(host.get_by_role("radio", name=re.compile(rf"^{name}"))).to_be_checked()
            host.get_by_label("Points", exact=True).fill(str(strokes[name]))
            host.get_by_role("button", name="Enter", exact=True).click()
            if hole < 9 or name != "Cat":
                expect(host.locator(".entered-line")).to_contain_text(
                    f"round {hole + (name == 'Cat')}:")
    expect(ann.locator(".result .explanation")).to_have_text(
        "Ben won with the lowest total, 27.", timeout=SOON)
    expect(host.locator(".sheet tfoot")).to_contain_text("36")
    screenshot(host, "score-sheet-golf-host-result")


def test_an_entry_takes_at_most_three_taps_and_the_plus_minus_buttons_count(
        live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben"),
                      options={"name": "Rummy", "negative": True})
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    ben = seat_phone(new_phone, live_server.url, table, "Ben")
    taps = Taps(ann)
    field = ann.get_by_label("Points", exact=True)
    taps(field)
    field.type("12")
    taps(ann.get_by_role("button", name="Enter round 1"))
    expect(ben.locator(".sheet-table .open-round")).to_contain_text("12", timeout=SOON)
    assert taps.count <= 3
    # Small counts by the buttons: three more, one less, then below 0 with the sign.
    for _ in range(3):
        ben.get_by_role("button", name="Points: one more").click()
    ben.get_by_role("button", name="Points: one less").click()
    ben.get_by_role("button", name="Points: below or above 0").click()
    expect(ben.get_by_label("Points", exact=True)).to_have_value("-2")
    ben.get_by_role("button", name="Enter round 1").click()
    expect(ann.locator(".sheet tfoot")).to_contain_text("-2", timeout=SOON)
