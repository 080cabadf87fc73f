"""A host and three phones play Big Money in Chromium: Start-Ups, the market cards, ordinary
turns counted in taps, a purchase, a Biz News choice asked on the right phone only, and a
Bank adjustment from the host screen."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.games.big_money import BigMoney, Options
from companion.games.replay import setup_rng
from tests.support.api import Api
from tests.support.browser import Taps, join_by_link, screenshot

TAP_BUDGET = 8  # an ordinary turn: the Industry die, five dice, done, and buy or end


def seed_drawing_first(card_name: str) -> int:
    """A seed whose shuffled Biz News deck starts with this card (as the table shuffles it)."""
    game = BigMoney()
    for seed in range(10_000):
        news = game.setup([1, 2, 3], Options(), setup_rng(seed))["biz_news"]
        if news["cards"][news["deck"][0]]["name"] == card_name:
            return seed
    raise AssertionError(f"no seed draws {card_name} first")


def shot(page, name: str) -> None:
    """A screenshot, after checking the page fits a 360 px phone and its controls are big
    enough to tap (44 px)."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.actions button, .bm-pick + label, .bm-board summary, """
        """.actions summary, .bm-adjust .check')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 44 || r.width < 44)
        .map(([text, r]) => `${text} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
    assert not small, (name, small)
    screenshot(page, name)


def reveal(phone, slot: int, industry: str, price: int, stock=False, name="", payout=None):
    """Enter the card turned over into the market, as a player does on their phone."""
    phone.locator(f"label[for=bm-reveal-{industry.lower()}]").click()  # the radio's label
    phone.get_by_label("Price").fill(str(price))
    if stock:
        phone.get_by_label("It is a Stock").check()
    if name:
        phone.get_by_label("Name on the card").fill(name)
    confirm = phone.locator(".bm-confirm")
    expect(confirm).to_contain_text(f"price {price}")
    expect(confirm).to_contain_text(name or industry)
    if payout is not None:
        phone.get_by_label(re.compile("^Pays")).fill(str(payout))
    phone.get_by_role("button", name="Put it in the market").click()
    expect(phone.locator(".bm-market .bm-slot").nth(slot)).to_contain_text(name or industry)


def roll_dice(phone, taps: Taps, dice) -> None:
    for number, face in enumerate(dice, start=1):
        taps(phone.get_by_role("group", name=f"Die {number}", exact=True)
             .get_by_text(str(face), exact=True))


def test_three_phones_play_big_money_with_a_biz_news_choice(live_server, new_phone):
    seed = seed_drawing_first("Antitrust Fine")

    # The host reads the box data on the new-table form (here on a phone) and creates the table.
    host = new_phone(1280, 900)
    host.goto(live_server.url + "/new/big-money")
    expect(host.get_by_text("120 bills")).to_be_visible()
    form = new_phone()
    form.goto(live_server.url + "/new/big-money")
    form.get_by_text("Change these values").first.click()
    shot(form, "big-money-options-phone")
    host.get_by_role("button", name="Create the table").click()
    code = host.locator(".room-code").inner_text()
    join_link = host.locator(".join-link").inner_text()

    phones = {}
    for name in ("Ann", "Ben", "Cat"):
        phones[name] = join_by_link(new_phone(), join_link, name)
    ann, ben, cat = phones["Ann"], phones["Ben"], phones["Cat"]
    # Started through the API with a seed whose first Biz News card is the Antitrust Fine.
    host_token = next(c["value"] for c in host.context.cookies()
                      if c["name"] == f"companion_host_{code}")
    status, _ = Api(live_server.local_url).call("POST", f"/tables/{code}/start", host_token,
                                                {"seed": seed})
    assert status == 200

    # Setup: a Start-Up each (one tap), Ann turns the four market cards over.
    previews = []  # the previews Ann's phone asks for: never with the CSRF token in the URL
    ann.on("request",
           lambda request: previews.append(request.url) if "/preview" in request.url else None)
    for phone, industry in ((ann, "Food"), (ben, "Sports"), (cat, "Travel")):
        phone.get_by_role("group", name="Start-Up industry", exact=True).get_by_role(
            "button", name=industry).click()
        expect(phone.locator(".bm-current")).to_contain_text(industry)
    shot(ann, "big-money-phone-setup")
    reveal(ann, 0, "Food", 10, name="Diner")
    reveal(ann, 1, "Travel", 20, stock=True, name="Airline", payout=45)
    reveal(ann, 2, "Technology", 40)
    expect(ann.locator(".bm-reveal-confirm")).to_be_empty()
    ann.locator("label[for=bm-reveal-entertainment]").click()
    ann.get_by_label("Price").fill("30")
    ann.get_by_label("Name on the card").fill("Arena")
    expect(ann.locator(".bm-confirm")).to_contain_text("Arena")
    shot(ann, "big-money-phone-reveal")
    ann.get_by_role("button", name="Put it in the market").click()
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn!"))
    assert previews and not [url for url in previews if "csrf" in url.lower()], previews
    expect(ben.locator(".bm-market")).to_contain_text("Airline Stock")
    expect(ben.locator(".bm-market")).to_contain_text("pays 45 then discarded")

    # Ann's turn, counted: Food (she collects 5), a pair (3), nothing she can afford: end.
    taps = Taps(ann)
    taps(ann.get_by_role("group", name="Industry die", exact=True)
         .get_by_role("button", name="Food"))
    for phone in (ann, ben, cat, host):  # who collected what and why, on every screen
        expect(phone.locator(".bm-ledger")).to_contain_text("+5 Ann from the Bank: Food Assets")
    roll_dice(ann, taps, (1, 1, 2, 3, 5))
    expect(ann.locator(".bm-preview")).to_contain_text("1 Pair, collects 3.")
    shot(ann, "big-money-phone-dice")
    taps(ann.get_by_role("button", name="Done: collect"))
    taps(ann.get_by_role("button", name="End the turn"))
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn!"))
    assert taps.count <= TAP_BUDGET
    measured = {"without a purchase": taps.count}

    # Ben's turn, counted: Technology (nobody owns one), a Little Straight (12), the Diner.
    taps = Taps(ben)
    taps(ben.get_by_role("group", name="Industry die", exact=True)
         .get_by_role("button", name="Technology"))
    expect(ben.locator(".bm-turn")).to_contain_text("No money has moved yet.")
    roll_dice(ben, taps, (3, 4, 5, 6, 6))
    expect(ben.locator(".bm-preview")).to_contain_text("Little Straight, collects 12.")
    taps(ben.get_by_role("button", name="Done: collect"))
    expect(ben.get_by_role("button", name="Buy Diner for 10")).to_be_visible()
    shot(ben, "big-money-phone-buy")
    taps(ben.get_by_role("button", name="Buy Diner for 10"))
    measured["with a purchase"] = taps.count
    assert taps.count <= TAP_BUDGET, measured
    # The space is refilled as the next card is turned over: Cat enters it on her phone.
    expect(cat.locator(".bm-reveal")).to_contain_text("Market space 1: the next Asset card")
    reveal(cat, 0, "Sports", 50, name="Stadium")
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Your turn!"))

    # Cat rolls Biz News: the Antitrust Fine. Ben's largest industries tie (Sports, Food):
    # the choice is his, on his phone only.
    cat.get_by_role("group", name="Industry die", exact=True).get_by_role(
        "button", name="Biz News").click()
    for phone in (ann, ben, cat, host):
        expect(phone.locator(".bm-news:visible")).to_contain_text("Biz News: Antitrust Fine")
    choice = ben.get_by_role("group", name="Your choice")
    expect(choice.get_by_role("button", name=re.compile("^Food"))).to_be_visible()
    expect(choice.get_by_role("button", name=re.compile("^Sports"))).to_be_visible()
    for phone in (ann, cat, host):
        expect(phone.locator(".bm-asked:visible", has_text=re.compile("Waiting for Ben to choose"))
               ).to_be_visible()
        expect(phone.get_by_role("group", name="Your choice")).to_have_count(0)
    shot(ben, "big-money-phone-biz-news-choice")
    shot(cat, "big-money-phone-biz-news-waiting")
    choice.get_by_role("button", name=re.compile("^Food")).click()
    expect(cat.locator(".log")).to_contain_text(
        "Ben pays 2, all they have (5 owed) for Antitrust Fine")
    expect(cat.get_by_role("group", name="Die 1")).to_be_visible()

    # The host pays Cat 5 from the Bank, with a note, from the host screen.
    host.get_by_role("heading", name="Adjust the Bank").click()
    host.get_by_text("Adjust Cat").click()
    host.get_by_label("Amount: + the Bank pays Cat, − Cat pays the Bank").fill("5")
    host.locator(".bm-adjust[open]").get_by_label("Note for the log").fill(
        "found a bill under the board")
    host.get_by_role("button", name="Apply to Cat").click()
    expect(cat.locator(".bm-strip")).to_contain_text("You have 5")
    expect(ann.locator(".log")).to_contain_text(
        "The host adjusts: the Bank pays Cat 5 (found a bill under the board).")
    shot(host, "big-money-host")
    cat.emulate_media(color_scheme="dark")
    shot(cat, "big-money-phone-dark")
    print(f"taps per ordinary turn: {measured}")
