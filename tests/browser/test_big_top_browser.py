"""Three phones play the start of a Big Top deal in Chromium: each taps its dealt cards on
the tile grid, places its gate receipts, and the first money earned shows on every phone
without a reload."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.games.big_top import DECK
from tests.support.api import Api
from tests.support.browser import screenshot

NAMES = ("Ann", "Ben", "Cat")
# Ann deals, Ben plays first. Dealing DECK in order round Cat, Ann, Ben gives Cat the Clown
# Poster and Ben the light 2 Clown: Ben calls it, Cat's Poster then earns $3 from it.
HANDS = {name: [card for index, card in enumerate(DECK) if ("Cat", "Ann", "Ben")[index % 3] == name]
         for name in NAMES}
RECEIPTS = {"Ann": {"clowns": 3, "sideshow": 10, "animals": 7, "performers": 5},
            "Ben": {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3},
            "Cat": {"clowns": 5, "sideshow": 3, "animals": 10, "performers": 7}}


def tile(page, card: str):
    return page.locator(f'label.bt-tile:has(input[value="{card}"])')


def receipt(page, suit: str, value: int):
    return page.locator(f'label.bt-receipt:has(input[name="receipts.{suit}"][value="{value}"])')


def test_three_phones_enter_hands_place_receipts_and_see_the_first_money(live_server, new_phone):
    table = Api(live_server.local_url).table(game="big-top", players=NAMES)
    phones = {}
    for name in NAMES:
        phone = new_phone()
        phone.context.add_cookies([{"name": f"companion_{table.code}",
                                    "value": table.tokens[name], "url": live_server.url}])
        phone.goto(f"{live_server.url}/t/{table.code}")
        phones[name] = phone
    ann, ben, cat = (phones[name] for name in NAMES)
    taps = {name: {"hand": 0, "receipts": 0, "turn": 0} for name in NAMES}

    def tap(name: str, step: str, locator) -> None:
        locator.click()
        taps[name][step] += 1

    expect(ann.locator(".bt-tile")).to_have_count(52)
    expect(ann.locator(".bt-deal")).to_contain_text("Ann deals")
    box = tile(ann, "sideshow-L3").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # a finger-sized tile at 360 px
    assert ann.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    screenshot(ann, "big-top-phone-hands")

    # Ann taps half her hand while Ben enters his: the live refresh that Ben's entry
    # brings to Ann's phone keeps what she has tapped.
    first, rest = HANDS["Ann"][:9], HANDS["Ann"][9:]
    for card in first:
        tap("Ann", "hand", tile(ann, card))
    for card in HANDS["Ben"]:
        tap("Ben", "hand", tile(ben, card))
    tap("Ben", "hand", ben.get_by_role("button", name="Enter my hand"))
    expect(ann.locator(".bt-seat", has_text="Ben")).to_contain_text("hand entered")
    for card in first:
        expect(ann.locator(f'input[name="cards[]"][value="{card}"]')).to_be_checked()
    for card in rest:
        tap("Ann", "hand", tile(ann, card))
    screenshot(ann, "big-top-phone-hand-tapped")
    tap("Ann", "hand", ann.get_by_role("button", name="Enter my hand"))
    expect(ann.locator(".bt-private")).to_contain_text("17 cards entered")
    for card in HANDS["Cat"]:
        tap("Cat", "hand", tile(cat, card))
    tap("Cat", "hand", cat.get_by_role("button", name="Enter my hand"))

    # Every hand is in and they make up the deck: each phone asks for the receipts.
    for _name, phone in phones.items():
        expect(phone.get_by_role("heading", name="Place your gate receipts")).to_be_visible()
    screenshot(ben, "big-top-phone-receipts")
    for name, phone in phones.items():
        for suit, value in RECEIPTS[name].items():
            tap(name, "receipts", receipt(phone, suit, value))
        tap(name, "receipts", phone.get_by_role("button", name="Place my receipts"))
        expect(phone.locator(".bt-my-receipts")).to_contain_text(
            f"${RECEIPTS[name]['clowns']} Clowns")

    # Ben plays first: one tap calls his light 2 Clown.
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ben"))
    screenshot(ben, "big-top-phone-turn")
    tap("Ben", "turn", ben.get_by_role("button", name="Call the light 2 Clown"))
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    expect(ann.locator(".bt-seat", has_text="Ben").locator(".bt-chart")).to_contain_text(
        "$3: light 2 Clown")

    # Cat's Poster shows what it earns; one tap plays it.
    tap("Cat", "turn", cat.get_by_role("button", name="Play the Clown Poster, earns $3"))
    line = "Cat +$3 for the Clown Poster, from Ben's called light 2 Clown"
    for phone in (ann, ben, cat):  # Ann's and Ben's phones without a reload
        expect(phone.locator(".bt-earnings")).to_contain_text(line)
    expect(ann.locator(".bt-seat", has_text="Cat")).to_contain_text(
        "Track $3 · token face down on 3")
    screenshot(ann, "big-top-phone-first-money")
    screenshot(cat, "big-top-phone-after-play")

    view = table.view()
    assert view["state"]["seats"][2]["track"] == 3
    for name in NAMES:
        assert taps[name]["hand"] == len(HANDS[name]) + 1  # one tap per card, plus one
        assert taps[name]["receipts"] == 5
    assert taps["Ben"]["turn"] == 1 and taps["Cat"]["turn"] == 1
