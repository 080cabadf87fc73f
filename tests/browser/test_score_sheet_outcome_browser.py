"""Zero-sum rounds and a game won together in Chromium at the table's LAN address: a
three-player Mahjong sheet with secret entry on three phones (360 x 740), a round that is
off said on every phone, the host screen and the table display without anyone's entry,
then corrected and closed; and a cooperative game the host ends as won, with its score,
shown on the phones and the display. The tables are made through the JSON API."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, fits_a_phone, host_screen, screenshot, seat_phone

NAMES = ("Ann", "Ben", "Cat")
TV = (1920, 1080)


def enter(phone, value: int) -> None:
    phone.get_by_label("Points", exact=True).fill(str(value))
    phone.get_by_role("button", name=re.compile(r"^Enter round|^Change my entry")).click()
    expect(phone.locator("form.htmx-request")).to_have_count(0)


def test_a_mahjong_round_that_is_off_is_said_everywhere_then_corrected(live_server,
                                                                       new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=NAMES, options={
        "name": "Mahjong", "zero_sum": True, "secret": True, "rounds": 2})
    phones = {name: seat_phone(new_phone, live_server.url, table, name) for name in NAMES}
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    display = new_phone(*TV)
    display.goto(f"{live_server.url}/d/{table.code}")
    expect(display.locator(".sheet-rules")).to_contain_text(
        "Every round's entries add up to 0.")

    enter(phones["Ann"], 48)
    enter(phones["Ben"], -16)
    enter(phones["Cat"], -27)
    off = "Round 1 is off by 5: the entries must add up to 0."
    for page in (*phones.values(), host, display):
        expect(page.locator(".zero-sum-off")).to_contain_text(off, timeout=SOON)
        # No entry shows while the round is open, and no one is named as the one off.
        expect(page.locator(".sheet .open-round")).not_to_contain_text(re.compile(r"\d\d"))
    expect(phones["Cat"].get_by_label("Points", exact=True)).to_have_value("-27")
    screenshot(phones["Cat"], "score-sheet-zero-sum-phone-off")
    assert not fits_a_phone(phones["Cat"], "Cat, a round that is off")

    enter(phones["Cat"], -32)
    for page in (*phones.values(), host, display):
        expect(page.locator(".zero-sum-off")).to_have_count(0, timeout=SOON)
        expect(page.locator(".sheet-rules")).to_contain_text("Round 2 of 2.")
    expect(display.locator(".sheet tfoot")).to_contain_text("48")
    expect(display.locator(".sheet tfoot")).to_contain_text("32")
    screenshot(display, "score-sheet-zero-sum-display-closed")


def test_a_cooperative_game_the_host_ends_as_won(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=NAMES[:2],
                      options={"name": "Pandemic", "outcome": "cooperative"})
    phones = {name: seat_phone(new_phone, live_server.url, table, name) for name in NAMES[:2]}
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    display = new_phone(*TV)
    display.goto(f"{live_server.url}/d/{table.code}")
    expect(phones["Ann"].locator(".sheet-rules")).to_have_text(
        "Everyone wins or loses together: the host ends the game, won or lost.")
    expect(phones["Ann"].get_by_role("button", name="End the game")).to_have_count(0)

    host.get_by_label("The table won").check()
    host.get_by_label("Score (if the game has one)").fill("4")
    host.get_by_role("button", name="End the game").click()
    for page in (*phones.values(), display):
        expect(page.locator(".outcome-line")).to_have_text("Won together. Score: 4.",
                                                           timeout=SOON)
        expect(page.locator(".result .explanation")).to_have_text(
            "The table won together, with a score of 4.")
    for name, phone in phones.items():
        assert not fits_a_phone(phone, name)
    screenshot(phones["Ben"], "score-sheet-cooperative-phone-won")
