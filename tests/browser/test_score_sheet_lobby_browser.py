"""The score sheet's new-table form on a phone (360x740, at http://table.lan:PORT): the
sheet typed with its tie-break chain ordered by moving rows, and a saved sheet reused in
one tap."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, Taps, console_errors, screenshot

WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]


def options_of(live_server, page) -> dict:
    code = page.url.rstrip("/").split("/")[-2]
    status, body = Api(live_server.local_url).call("GET", f"/tables/{code}")
    assert status == 200, body
    return body["options"]


def test_the_sheet_is_typed_with_its_tie_break_chain_then_reused_in_one_tap(live_server, new_phone):
    page = new_phone()
    errors = console_errors(page)
    page.goto(f"{live_server.url}/new/score-sheet")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    rows = page.locator("[data-tiebreak-row]")
    # With the script: one empty row waits, no category field until a category is chosen.
    expect(rows.nth(0)).to_be_visible()
    expect(rows.nth(1)).to_be_hidden()
    expect(page.get_by_label("Category of tie-break 1")).to_be_hidden()

    page.get_by_label("Game", exact=True).fill("Wingspan")
    page.get_by_label("Rounds", exact=True).fill("4")
    page.get_by_label("Categories").fill("\n".join(WINGSPAN))
    page.get_by_label("Secret entry").check()
    page.get_by_label("Tie-break 1", exact=True).select_option(label="Most rounds won")
    expect(rows.nth(1)).to_be_visible()
    page.get_by_label("Tie-break 2", exact=True).select_option(label="Most in a category")
    category = page.get_by_label("Category of tie-break 2")
    expect(category).to_be_visible()
    # The categories typed above are offered for it.
    assert page.locator("#tiebreaks-categories option").evaluate_all(
        "options => options.map(o => o.value)") == WINGSPAN
    category.fill("Birds")
    # Birds first: row 2 moves up, its category with it.
    rows.nth(1).get_by_role("button", name="Up").click()
    expect(page.get_by_label("Tie-break 1", exact=True)).to_have_value("by=category;most=true")
    expect(page.get_by_label("Category of tie-break 1")).to_have_value("Birds")
    expect(page.get_by_label("Tie-break 2", exact=True)).to_have_value("by=rounds_won")
    expect(page.get_by_label("Category of tie-break 2")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "score-sheet-new-table-form")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/host", timeout=SOON)
    options = options_of(live_server, page)
    assert options["name"] == "Wingspan" and options["categories"] == WINGSPAN
    assert options["rounds"] == 4 and options["secret"] is True
    assert options["tiebreaks"] == [{"by": "category", "category": "Birds", "most": True},
                                    {"by": "rounds_won"}]

    # Next time: Wingspan is one tap away, with its categories and tie-breaks.
    page.goto(f"{live_server.url}/new/score-sheet")
    screenshot(page, "score-sheet-saved-sheets")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    taps = Taps(page)
    taps(page.get_by_role("button", name="Wingspan", exact=True))
    page.wait_for_url("**/host", timeout=SOON)
    assert taps.count == 1
    again = options_of(live_server, page)
    assert again == options
    assert not errors, "\n".join(errors)


def test_a_refused_sheet_comes_back_as_typed(live_server, new_phone):
    page = new_phone()
    errors = console_errors(page)
    page.goto(f"{live_server.url}/new/score-sheet")
    page.get_by_label("Game", exact=True).fill("Rummy")
    page.get_by_label("Categories").fill("Melds\nmelds")
    page.get_by_label("Tie-break 1", exact=True).select_option(label="Fewest in a category")
    page.get_by_label("Category of tie-break 1").fill("Melds")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Categories: melds is there twice; each line once.")
    expect(page.get_by_label("Game", exact=True)).to_have_value("Rummy")
    expect(page.get_by_label("Categories")).to_have_value("Melds\nmelds")
    expect(page.get_by_label("Tie-break 1", exact=True)).to_have_value("by=category;most=false")
    expect(page.get_by_label("Category of tie-break 1")).to_have_value("Melds")
    page.get_by_label("Categories").fill("Melds\nRuns")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/host", timeout=SOON)
    assert options_of(live_server, page)["tiebreaks"] == [
        {"by": "category", "category": "Melds", "most": False}]
    # The refusal is answered 400, which Chromium logs once; nothing else.
    refused = [e for e in errors if "status of 400 (BAD REQUEST)" in e]
    assert len(refused) == 1 and len(errors) == 1, "\n".join(errors)
