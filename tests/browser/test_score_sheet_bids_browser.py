"""A sheet of bids and tricks in Chromium, as three friends play Wizard at a table: three
rounds on three phones (360 x 740) with secret bids, revealed together on the phones and
the table display, tricks that do not add up once, the dealer going round, and the result.
The table is made through the JSON API (the new-table form is tested with the lobby)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, fits_a_phone, screenshot, seat_phone

NAMES = ("Ann", "Ben", "Cat")
TV = (1920, 1080)
# Each round's bids and tricks, in seat order: Ann 30 + 30 + 40, Ben 20 - 10 + 30,
# Cat 20 - 10 + 20.
ROUNDS = [((1, 0, 0), (1, 0, 0)), ((1, 1, 0), (1, 0, 1)), ((2, 1, 0), (2, 1, 0))]


def bid(phone, value: int) -> None:
    phone.get_by_label("Tricks you bid", exact=True).fill(str(value))
    phone.get_by_role("button", name="Bid", exact=True).click()
    # The bid made, the phone offers to change it, or the tricks once everyone has bid.
    expect(phone.get_by_role("button", name="Change my bid").or_(
        phone.get_by_role("button", name="Enter my tricks"))).to_be_visible(timeout=SOON)


def take(phone, value: int) -> None:
    phone.get_by_label("Tricks you took", exact=True).fill(str(value))
    phone.get_by_role("button", name="Enter my tricks").or_(
        phone.get_by_role("button", name="Change my tricks")).click()


def test_three_rounds_of_wizard_with_secret_bids_played_to_the_end_on_three_phones(
        live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=NAMES, options={
        "name": "Wizard", "bids": "wizard", "secret": True, "dealer": True, "rounds": 3})
    phones = {name: seat_phone(new_phone, live_server.url, table, name) for name in NAMES}
    display = new_phone(*TV)
    display.goto(f"{live_server.url}/d/{table.code}")
    expect(display.locator(".sheet-name")).to_have_text("Wizard")

    for number, (bids, taken) in enumerate(ROUNDS, start=1):
        dealer = NAMES[(number - 1) % 3]
        for page in (*phones.values(), display):
            expect(page.locator(".dealer-line")).to_have_text(
                f"{dealer} deals round {number}.", timeout=SOON)
        expect(phones["Ann"].locator(".hand-line")).to_contain_text(f"Round {number} deals")
        bid(phones["Ann"], bids[0])
        expect(phones["Ann"].locator(".private")).to_contain_text(
            f"Your bid for round {number}: {bids[0]}")
        bid(phones["Ben"], bids[1])
        for page in (phones["Cat"], display):
            expect(page.locator(".entered-line")).to_have_text(
                f"Bids for round {number}: 2 of 3.", timeout=SOON)
        for page in (phones["Ben"], phones["Cat"], display):
            # Ann's bid is on no one else's screen, the display's included, until all bid.
            expect(page.locator(".sheet .open-round")).not_to_contain_text(re.compile(r"bid \d"))
        if number == 1:
            screenshot(display, "score-sheet-bids-display-before-reveal")
        bid(phones["Cat"], bids[2])
        for page in (*phones.values(), display):
            expect(page.locator(".bids-revealed")).to_have_text("Bids revealed.", timeout=SOON)
            expect(page.locator(".sheet .open-round")).to_contain_text(f"bid {bids[0]}")
        expect(display.locator(".display-last")).to_contain_text(
            f"Bids revealed for round {number}:", timeout=SOON)
        if number == 2:
            # Cat enters a trick too few first: the round stays open and says by how many.
            take(phones["Ann"], taken[0])
            take(phones["Ben"], taken[1])
            take(phones["Cat"], 0)
            for page in (*phones.values(), display):
                expect(page.locator(".tricks-off")).to_contain_text(
                    "Tricks add up to 1 of 2.", timeout=SOON)
            screenshot(phones["Cat"], "score-sheet-bids-phone-tricks-off")
            take(phones["Cat"], taken[2])
        else:
            for name, value in zip(NAMES, taken):
                take(phones[name], value)
        if number < 3:
            expect(display.locator(".sheet-table tbody tr.latest")).to_contain_text(
                f"bid {bids[0]}, took {taken[0]}", timeout=SOON)
        else:
            screenshot(phones["Ann"], "score-sheet-bids-phone-round-3")

    for page in (*phones.values(), display):
        expect(page.locator(".result .explanation")).to_have_text(
            "Ann won with the highest total, 100.", timeout=SOON)
    expect(display.locator(".sheet tfoot")).to_contain_text("100")
    expect(display.locator(".sheet tfoot")).to_contain_text("40")
    for name, phone in phones.items():
        assert not fits_a_phone(phone, name)
    screenshot(display, "score-sheet-bids-display-result")


def test_the_bid_and_tricks_screens_fit_a_phone_in_every_language(live_server, new_phone):
    """The longest words of the bids (German, Polish...) on a 360 px phone: the bid form
    with a secret bid, then the tricks form with tricks that do not add up."""
    from companion.web.languages import COOKIE, SHIPPED

    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben"), options={
        "name": "Skull King", "bids": "skull_king", "secret": True, "dealer": True})
    phones = {}
    for language in SHIPPED:
        phone = seat_phone(new_phone, live_server.url, table, "Ann")
        phone.context.add_cookies([{"name": COOKIE, "value": language,
                                    "url": live_server.url}])
        phone.reload()
        phones[language] = phone
    assert table.act(table.tokens["Ann"], type="bid", round=1, bid=1)[0] == 200
    problems = []
    for language, phone in phones.items():
        expect(phone.locator(".private")).to_be_visible(timeout=SOON)
        problems += fits_a_phone(phone, f"{language}, a secret bid")
    assert table.act(table.tokens["Ben"], type="bid", round=1, bid=0)[0] == 200
    for language, phone in phones.items():
        expect(phone.locator("input[name=bonus]")).to_be_visible(timeout=SOON)
        problems += fits_a_phone(phone, f"{language}, the tricks form")
    screenshot(phones["de"], "score-sheet-bids-phone-tricks-de")
    assert not problems, "\n".join(problems)
