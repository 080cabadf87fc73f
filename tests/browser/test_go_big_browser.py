"""A host and three phones play Go Big in Chromium, as a group at a table would."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api, Seated
from tests.support.bots import TableBot
from tests.support.browser import (STREAM_OPEN_SPY, following, join_by_link, screenshot,
                                   seat_phone)


def test_three_phones_join_by_the_link_and_see_each_others_moves(live_server, new_phone):
    host = new_phone(1280, 800)
    host.goto(live_server.url + "/")
    host.get_by_role("link", name=re.compile("Go Big")).click()
    host.get_by_label("Copies of each value").fill("4")
    host.get_by_role("button", name="Create the table").click()
    expect(host.locator(".room-code")).to_have_text(re.compile(r"^[A-Z]{4}$"))
    code = host.locator(".room-code").inner_text()
    join_link = host.locator(".join-link").inner_text()
    assert join_link == f"{live_server.url}/j/{code}"  # the address the phones really open
    expect(host.locator(".qr svg")).to_be_visible()

    phones = {}
    for name in ("Ann", "Ben", "Cat"):
        phones[name] = join_by_link(new_phone(), join_link, name)
        # The host screen's list updates live.
        expect(host.locator(".players .player-name", has_text=name)).to_be_visible()
    screenshot(host, "go-big-host-lobby")

    host.get_by_role("button", name="Start the game").click()
    ann, ben, cat = phones["Ann"], phones["Ben"], phones["Cat"]
    expect(ann.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"))

    # Ann: the set, confirm, the draw: three taps.
    ann.get_by_role("button", name="Play 2 × 5").click()
    expect(ann.locator(".confirm-box")).to_contain_text("beats nothing.")
    ann.get_by_role("button", name="Confirm").click()
    expect(ben.locator(".log")).to_contain_text("Ann played a pair of 5s.")  # no reload
    expect(host.locator(".log")).to_contain_text("Ann played a pair of 5s.")
    ann.get_by_role("button", name=re.compile("From the deck")).click()
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    screenshot(ann, "go-big-phone-after-turn")

    # Ben previews what his pair of 2s would beat before confirming.
    ben.get_by_role("button", name="Play 2 × 2").click()
    expect(ben.locator(".confirm-box")).to_contain_text("beats Ann's pair of 5s.")
    ben.get_by_role("button", name="Confirm").click()
    expect(cat.locator(".log")).to_contain_text(
        "Ben played a pair of 2s, beating Ann's pair of 5s.")
    expect(ann.locator(".seat[data-yours] .display")).to_contain_text("no display")

    # Ben's phone sleeps through a move and catches up when it wakes.
    ben.get_by_role("button", name=re.compile("From the market")).click()
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Your turn"))

    # Play the rest through the API with the phones' own seats, then every screen ends.
    cookies = {c["name"]: c["value"] for p in phones.values() for c in p.context.cookies()}
    tokens = {name: next(c["value"] for c in phones[name].context.cookies()
                         if c["name"] == f"companion_{code}") for name in phones}
    api = Api(live_server.local_url, app=live_server.app)
    ids = {p["name"]: p["id"] for p in api.call("GET", f"/tables/{code}")[1]["players"]}
    table = Seated(api, code, "", tokens, ids)
    table.finish()
    assert table.view()["status"] == "finished"
    for page in (ann, ben, cat, host):
        expect(page.locator(".result")).to_be_visible()
        expect(page.locator(".result .explanation")).not_to_be_empty()
    expect(host.locator(".seat").first).to_contain_text("=")  # every bank revealed
    screenshot(ann, "go-big-phone-result")
    screenshot(host, "go-big-host-result")
    assert cookies


def test_a_swapped_phone_takes_the_seat_with_the_rejoin_link(live_server, new_phone):
    api = Api(live_server.local_url)
    table = api.table()
    old = new_phone()
    old.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens["Ann"],
                              "url": live_server.url}])
    old.context.add_init_script(STREAM_OPEN_SPY)
    old.goto(f"{live_server.url}/t/{table.code}")
    expect(old.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    # The page shows before its stream is open: the seat is given away once it is (a
    # stream opened after that is refused, as any other with a token no longer valid).
    following(old)
    status, body = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ann']}/rejoin",
                            table.host)
    assert status == 200
    # The old phone is locked out at once, through its open stream.
    expect(old.get_by_text("The host gave this seat to a new phone; this phone is signed out.")
           ).to_be_visible()
    new = new_phone()
    assert body["rejoin_url"].startswith(f"{live_server.url}/r/")
    new.goto(body["rejoin_url"])
    expect(new.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    assert new.url.endswith(f"/t/{table.code}")
    assert "#" not in new.url


def test_the_player_on_turn_sees_the_others_displays_beside_the_sets(live_server, new_phone):
    """At 360x740, mid-game at a table of four: the others' displays and the sets to play
    are on one screen, without scrolling, and so is the confirmation of a set."""
    table = Api(live_server.local_url).table(players=("Ann", "Ben", "Cat", "Dan"), seed=7)
    TableBot(live_server.app, table, seed=5).play(14)  # two trios and a pair on display
    on_turn = table.names[table.view()["turn"]]
    phone = seat_phone(new_phone, live_server.url, table, on_turn)
    expect(phone.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    rivals = phone.get_by_role("list", name="On the others' displays")
    seats = table.view()["state"]["seats"]
    for seat in seats:
        if table.names[seat["player"]] != on_turn:
            rival = rivals.get_by_role("listitem").filter(has_text=table.names[seat["player"]])
            display = seat["display"]
            expect(rival).to_contain_text(str(display["value"]) * display["count"] if display
                                          else "no display")
    assert sum(1 for seat in seats if seat["display"]) >= 2, seats  # a table in full play
    sets = phone.get_by_role("group", name="Choose a set to play").get_by_role("button")
    screenshot(phone, "go-big-phone-turn")
    assert phone.evaluate("window.scrollY") == 0
    height = phone.viewport_size["height"]
    for shown in (rivals, sets.first, sets.last):
        box = shown.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    sets.first.click()
    box = phone.get_by_role("button", name="Confirm").bounding_box()
    assert box and box["y"] + box["height"] <= height, box
