"""What a change sends a phone, seen in Chromium at the LAN address: another player's entry
on a score sheet comes as the pieces it changed, which the page puts in place; a page that
no longer holds the version those pieces build on asks for its whole panel instead."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, console_errors, following, seat_phone

PLAYERS = ("Ann", "Ben", "Cat", "Dan")

# Each event the page's stream brings: its name and its size in bytes.
EVENT_SPY = """() => { window.eventsSeen = [];
  document.addEventListener('htmx:sseBeforeMessage', (event) => window.eventsSeen.push(
    [event.detail.type, new TextEncoder().encode(event.detail.data).length])); }"""


def test_a_sheet_entry_reaches_a_phone_as_the_pieces_it_changed(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=PLAYERS, options={
        "categories": ["Points"], "entry": "players", "rounds": 4})
    for name in PLAYERS:  # a first round, so that the sheet has a row of its own
        table.act(table.tokens[name], type="enter", round=1, scores={"Points": len(name)})
    cat = seat_phone(new_phone, live_server.url, table, "Cat")
    errors = console_errors(cat)
    following(cat)
    cat.evaluate(EVENT_SPY)
    sheet = cat.locator(".sheet")

    table.act(table.tokens["Ann"], type="enter", round=2, scores={"Points": 40})
    expect(cat.locator(".entered-line")).to_have_text("Entered for round 2: 1 of 4.",
                                                      timeout=SOON)
    expect(sheet.locator(".open-round")).to_contain_text("40")
    # The first change after the page connected is its whole panel; the next are pieces.
    table.act(table.tokens["Ben"], type="enter", round=2, scores={"Points": 50})
    expect(cat.locator(".entered-line")).to_have_text("Entered for round 2: 2 of 4.",
                                                      timeout=SOON)
    expect(sheet.locator(".open-round")).to_contain_text("50")
    expect(sheet.locator("tbody tr").first).to_contain_text("3")  # round 1 kept as it was
    public = [size for name, size in cat.evaluate("window.eventsSeen") if name == "public"]
    assert public and max(public) < 4096, public
    assert "Cat (you)" in sheet.locator("thead").inner_text()

    # A page that does not hold the version the pieces build on (as if it had missed
    # them): it asks for its whole panel, and shows the sheet as it is.
    cat.evaluate("document.getElementById('public').setAttribute('data-version', '1')")
    table.act(table.tokens["Dan"], type="enter", round=2, scores={"Points": 60})
    expect(cat.locator(".entered-line")).to_have_text("Entered for round 2: 3 of 4.",
                                                      timeout=SOON)
    expect(sheet.locator(".open-round")).to_contain_text("60")
    expect(cat.locator("#public")).to_have_attribute(
        "data-version", str(table.view()["version"]))
    assert not errors, errors
