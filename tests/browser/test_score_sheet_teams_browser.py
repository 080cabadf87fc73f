"""A Spades sheet in partnerships in Chromium at the table's LAN address: four phones
(360 x 740), two teams scoring together (Ann and Cat against Ben and Dan, as they sit),
each round's row entered on one partner's phone and shown on the other's, two rounds to
the sheet's end, and the result naming the winning team with both its players winners.
The table is made through the JSON API."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, fits_a_phone, host_screen, screenshot, seat_phone

NAMES = ("Ann", "Ben", "Cat", "Dan")


def enter(phone, value: int) -> None:
    phone.get_by_label("Points", exact=True).fill(str(value))
    phone.get_by_role("button", name=re.compile(r"^Enter round")).click()
    expect(phone.locator("form.htmx-request")).to_have_count(0)


def test_a_spades_sheet_in_partnerships_is_won_by_a_team(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=NAMES, options={
        "name": "Spades", "rounds": 2, "negative": True, "teams": 2,
        "team_names": ["North-South", "East-West"]})
    phones = {name: seat_phone(new_phone, live_server.url, table, name) for name in NAMES}
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    teams = phones["Ann"].locator(".sheet-teams")
    expect(teams).to_contain_text("North-South")
    expect(teams).to_contain_text("Ann, Cat")
    expect(teams).to_contain_text("Ben, Dan")

    enter(phones["Ann"], 110)
    # Cat's row is the team's: entered on Ann's phone, awaited no more on Cat's.
    expect(phones["Cat"].get_by_label("Points", exact=True)).to_have_value("110", timeout=SOON)
    expect(phones["Cat"].locator(".sheet .open-round")).to_contain_text("110")
    enter(phones["Dan"], -40)
    for page in (*phones.values(), host):
        expect(page.locator(".sheet-rules")).to_contain_text("Round 2 of 2.", timeout=SOON)
    expect(host.locator(".sheet-teams")).to_contain_text("110")

    enter(phones["Cat"], 60)
    enter(phones["Ben"], 230)
    for name, phone in phones.items():
        expect(phone.locator(".result .explanation")).to_have_text(
            "East-West won with the highest total, 190.", timeout=SOON)
        winners = phone.locator(".result .standings tr.first .player-name")
        expect(winners).to_have_text(["Ben", "Dan"])
        expect(phone.locator(".result .standings tr.first .team-name")).to_have_text(
            ["East-West", "East-West"])
        assert not fits_a_phone(phone, f"{name}, the result of teams")
    view = table.view(table.tokens["Ann"])
    assert view["result"]["winners"] == [table.ids["Ben"], table.ids["Dan"]]
    screenshot(phones["Ann"], "score-sheet-teams-phone-result")
