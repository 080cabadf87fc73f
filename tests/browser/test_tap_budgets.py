"""Every tap budget, counted on a real phone in Chromium: the taps one player makes for one
ordinary move, from their turn arriving to the next player's turn (or their move locked).

    Go Big                    a turn                      at most 3 (the set, confirm, the draw)
    Go Big                    a turn of a player without  at most 3, on the host screen (no
                              a phone                     cover: nothing in it is secret)
    Big Money                 an ordinary turn            at most 8 (the Industry die, five dice,
                                                                     done, end or buy)
    Big Money                 the four opening market     at most 6 and no typing, when the
                              cards                       cards are known (a tap each)
    Big Top                   a turn                      at most 2
    Big Top                   entering a dealt hand       at most one tap per card plus one
    Nothing Beats a Large     a cast                      at most 2 (the challenge, the cast)

The other players' moves around the counted one go through the API.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.games.big_top import DECK
from tests.support.api import Api
from tests.support.browser import (SOON, Taps, console_errors, host_screen, screenshot,
                                   seat_phone)

BUDGETS = {"go-big turn": 3, "go-big turn without a phone": 3, "big-money turn": 8,
           "big-money opening market": 6, "big-top turn": 2, "big-top hand": 1,
           "nothing-beats-a-large cast": 2}


def test_a_go_big_turn_takes_three_taps(live_server, new_phone):
    table = Api(live_server.local_url).table(seed=7)
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    taps = Taps(ann)
    taps(ann.get_by_role("group", name="Choose a set to play").get_by_role("button").first)
    taps(ann.get_by_role("button", name="Confirm"))
    taps(ann.get_by_role("button", name=re.compile("From the deck")))
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ben"))
    assert table.view()["turn"] == table.ids["Ben"]
    assert taps.count <= BUDGETS["go-big turn"], taps.count


def test_a_go_big_turn_of_a_player_without_a_phone_takes_three_taps_on_the_host_screen(
        live_server, new_phone):
    """Dan has no phone. His turn is public (his sets and draws show nothing of his bank),
    so the host plays it on the host screen itself, each button saying it is Dan's: no
    "pass the device" cover, no trip to his screen and back."""
    api = Api(live_server.local_url)
    table = api.table(players=("Ann", "Ben"), start=False)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    host.get_by_label("Add a player without a phone").fill("Dan")
    host.get_by_role("button", name="Add", exact=True).click()
    expect(host.locator(".players li", has_text="Dan")).to_contain_text("no phone", timeout=SOON)
    dan = next(p["id"] for p in table.view()["players"] if p["name"] == "Dan")
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host,
                            {"seed": 7, "first_player": dan})
    assert status == 200, body
    turn = host.get_by_role("region", name="Dan's move (no phone)")
    expect(turn).to_be_visible(timeout=SOON)
    errors = console_errors(host)
    taps = Taps(host)
    taps(turn.get_by_role("group", name="Dan: Choose a set to play").get_by_role("button").first)
    taps(turn.get_by_role("button", name="Dan: Confirm"))
    screenshot(host, "host-plays-for-dan")
    taps(host.get_by_role("button", name=re.compile("^Dan: From the deck")))
    expect(host.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"), timeout=SOON)
    expect(host).to_have_url(f"{live_server.url}/t/{table.code}/host")
    log = api.call("GET", f"/tables/{table.code}/log")[1]["events"]
    assert [line["player"] for line in log] == [dan, dan], log
    expect(host.get_by_role("link", name=re.compile("Play for Dan"))).to_have_count(0)
    assert taps.count <= BUDGETS["go-big turn without a phone"], taps.count
    assert errors == [], errors


def test_an_ordinary_big_money_turn_takes_at_most_eight_taps(live_server, new_phone):
    table = Api(live_server.local_url, app=live_server.app).table(game="big-money", seed=3)
    # The Start-Ups and the market cards through the API, up to the first roll.
    table.bot.play(until=lambda state: state["step"] == "industry")
    roller = table.names[table.view()["turn"]]
    phone = seat_phone(new_phone, live_server.url, table, roller)
    expect(phone.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    taps = Taps(phone)
    taps(phone.get_by_role("group", name="Industry die", exact=True)
         .get_by_role("button", name="Technology"))
    for number, face in enumerate((1, 1, 2, 3, 5), start=1):
        taps(phone.get_by_role("group", name=f"Die {number}", exact=True)
             .get_by_text(str(face), exact=True))
    taps(phone.get_by_role("button", name="Done: collect"))
    taps(phone.get_by_role("button", name=re.compile("^End the turn")))
    expect(phone.locator(".turn:visible")).to_have_text(re.compile("Waiting for"))
    assert table.view()["turn"] != table.ids[roller]
    assert taps.count <= BUDGETS["big-money turn"], taps.count


# The cards of earlier Big Money tables at this server, as their players typed them in.
KNOWN_CARDS = [
    {"industry": "food", "price": 10, "payout": 10, "stock": False, "name": "Diner"},
    {"industry": "travel", "price": 20, "payout": 45, "stock": True, "name": "Airline"},
    {"industry": "technology", "price": 40, "payout": 40, "stock": False, "name": "Chip Maker"},
    {"industry": "entertainment", "price": 30, "payout": 30, "stock": False, "name": "Arena"},
    {"industry": "sports", "price": 50, "payout": 50, "stock": False, "name": "Stadium"},
    {"industry": "food", "price": 25, "payout": 50, "stock": True, "name": "Bakery"},
]


def test_the_four_opening_big_money_cards_take_a_tap_each_when_known(live_server, new_phone):
    api = Api(live_server.local_url)
    for cards in (KNOWN_CARDS[:4], KNOWN_CARDS[2:]):  # two earlier tables' opening markets
        earlier = api.table(game="big-money", players=("Dan", "Eve"))
        for name in ("Dan", "Eve"):
            assert earlier.act(earlier.tokens[name], type="startup", industry="food")[0] == 200
        for slot, card in enumerate(cards):
            assert earlier.act(earlier.tokens["Dan"], type="reveal", slot=slot,
                               asset=card)[0] == 200

    table = api.table(game="big-money", seed=3)
    for name in table.tokens:
        assert table.act(table.tokens[name], type="startup", industry="sports")[0] == 200
    first = table.names[table.view()["state"]["seats"][0]["player"]]
    phone = seat_phone(new_phone, live_server.url, table, first)
    errors = console_errors(phone)
    picks = phone.get_by_role("group", name="Cards entered before")
    expect(picks.get_by_role("button")).to_have_count(len(KNOWN_CARDS))
    screenshot(phone, "big-money-phone-known-cards")
    box = picks.get_by_role("button").first.bounding_box()  # on the first screen
    assert box and box["y"] + box["height"] <= phone.viewport_size["height"], box
    # Another phone, which may enter them instead, narrows the list by typing; what it typed
    # stays as the cards go in.
    other = seat_phone(new_phone, live_server.url, table,
                       next(n for n in table.tokens if n != first))
    other_errors = console_errors(other)
    other.get_by_text(re.compile("Entering the market cards instead")).click()
    other.get_by_label("Find a card").fill("food")
    other_picks = other.get_by_role("group", name="Cards entered before").get_by_role("button")
    expect(other_picks).to_have_text([re.compile("Diner"), re.compile("Bakery Stock")])

    # Nothing typed or chosen in a field on the counted phone: only the cards are tapped.
    phone.evaluate("window.entered = 0; "
                   "document.addEventListener('input', () => window.entered++, true)")
    taps = Taps(phone)
    for number, name in enumerate(("Stadium", "Diner", "Airline Stock"), start=1):
        taps(picks.get_by_role("button", name=re.compile(f"^{name}")))
        # The picked card leaves the list, and the next space is offered at once.
        expect(picks.get_by_role("button")).to_have_count(len(KNOWN_CARDS) - number)
        expect(phone.locator(".bm-catalogue")).to_contain_text(f"market space {number + 1}")
    expect(other.get_by_label("Find a card")).to_have_value("food")
    expect(other_picks).to_have_text([re.compile("Bakery Stock")])
    other.get_by_label("Find a card").fill("food 99")
    expect(other.get_by_text("No card in the list matches")).to_be_visible()
    taps(picks.get_by_role("button", name=re.compile("^Bakery Stock")))
    expect(phone.locator(".turn:visible")).to_have_text(re.compile("Your turn!"))
    market = [asset["name"] for asset in table.view()["state"]["market"]]
    assert market == ["Stadium", "Diner", "Airline", "Bakery"]
    assert taps.count <= BUDGETS["big-money opening market"], taps.count
    assert phone.evaluate("window.entered") == 0
    assert errors == other_errors == [], (errors, other_errors)


# Ann deals, Ben plays first. Dealing DECK in order round Cat, Ann, Ben gives Ben the light
# 2 Clown to call (as in test_big_top_browser.py).
NAMES = ("Ann", "Ben", "Cat")
HANDS = {name: [card for index, card in enumerate(DECK) if ("Cat", "Ann", "Ben")[index % 3] == name]
         for name in NAMES}
RECEIPTS = {"clowns": 3, "sideshow": 10, "animals": 7, "performers": 5}


def test_a_big_top_hand_takes_a_tap_per_card_plus_one_and_a_turn_at_most_two(
        live_server, new_phone):
    table = Api(live_server.local_url).table(game="big-top", players=NAMES)
    ben = seat_phone(new_phone, live_server.url, table, "Ben")
    expect(ben.locator(".bt-tile")).to_have_count(52)
    for name in ("Ann", "Cat"):
        assert table.act(table.tokens[name], type="hand", cards=HANDS[name])[0] == 200
    taps = Taps(ben)
    for card in HANDS["Ben"]:
        taps(ben.locator(f'label.bt-tile:has(input[value="{card}"])'))
    taps(ben.get_by_role("button", name="Enter my hand"))
    expect(ben.get_by_role("heading", name="Place your gate receipts")).to_be_visible()
    assert taps.count <= len(HANDS["Ben"]) + BUDGETS["big-top hand"], taps.count
    for name in NAMES:
        status, body = table.act(table.tokens[name], type="receipts", receipts=RECEIPTS)
        assert status == 200, body

    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    taps = Taps(ben)
    taps(ben.get_by_role("button", name="Call the light 2 Clown"))
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Cat"))
    assert taps.count <= BUDGETS["big-top turn"], taps.count


def test_a_nothing_beats_a_large_cast_takes_at_most_two_taps(live_server, new_phone):
    table = Api(live_server.local_url).table(game="nothing-beats-a-large", seed=0)
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    ben = seat_phone(new_phone, live_server.url, table, "Ben")
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    challenger, opponent = Taps(ann), Taps(ben)
    challenger(ann.get_by_role("button", name=re.compile("^Challenge Ben")))
    challenger(ann.get_by_role("button", name="Cast the red Small"))
    expect(ann.locator(".nbl-mine-cast")).to_contain_text("You locked in red Small")
    opponent(ben.get_by_role("button", name="Cast Nothing"))
    for phone in (ann, ben):
        expect(phone.locator(".nbl-reveal")).to_contain_text("Ann wins")
    assert challenger.count <= BUDGETS["nothing-beats-a-large cast"], challenger.count
    assert opponent.count <= BUDGETS["nothing-beats-a-large cast"], opponent.count
