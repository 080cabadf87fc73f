"""What a phone (or the host's screen) shows while someone enters something: the figures that
follow a form as it is filled in, the choice being previewed, who is entering what, and the
name a phone joined with last time."""
from __future__ import annotations


from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import (console_errors, host_screen, join_by_link, screenshot,
                                   seat_phone, wait_until)


def test_the_banks_total_follows_the_bill_counts_as_they_are_edited(live_server, new_phone):
    page = new_phone(1280, 900)
    errors = console_errors(page)
    page.goto(live_server.url + "/new/big-money")
    bank = page.locator("tfoot [data-weighted]")
    counted = {bill: int(page.locator(f"#bills-{bill}").input_value()) for bill in (1, 5, 10)}
    expect(bank).to_have_text(str(counted[1] + 5 * counted[5] + 10 * counted[10]))
    page.locator("#bills-10").fill(str(counted[10] + 3))
    expect(bank).to_have_text(str(counted[1] + 5 * counted[5] + 10 * counted[10] + 30))
    page.locator("#bills-1").fill("0")
    page.locator("#bills-5").fill("12")
    expected = 60 + 10 * (counted[10] + 3)
    expect(bank).to_have_text(str(expected))
    expect(page.locator("tfoot")).to_contain_text(f"{12 + counted[10] + 3} bills")
    # The server's figure, once the form is sent, is the same.
    page.get_by_role("button", name="Create the table").click()
    code = page.locator(".room-code").inner_text()
    host = next(c["value"] for c in page.context.cookies() if c["name"] == f"companion_host_{code}")
    assert Api(live_server.local_url).call("GET", f"/tables/{code}", host)[1]["options"]["bills"] \
        == {"1": 0, "5": 12, "10": counted[10] + 3}
    assert not errors, errors


def test_big_money_setup_says_who_is_entering_what(live_server, new_phone):
    """Every player is awaited during setup (a Start-Up each; the first player enters the
    market cards, anyone may): each phone says what it waits for, and from whom."""
    table = Api(live_server.local_url).table("big-money", players=("Ann", "Ben", "Cat"))
    ann, ben = (seat_phone(new_phone, live_server.url, table, name) for name in ("Ann", "Ben"))
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    expect(ann.locator(".turn:visible")).to_have_text(
        "Your turn: choose your Start-Up. Waiting for Ben and Cat to choose theirs. "
        "Then you enter the 4 market cards.")
    expect(ben.locator(".turn:visible")).to_have_text(
        "Your turn: choose your Start-Up. Waiting for Ann and Cat to choose theirs. "
        "Then Ann enters the 4 market cards.")
    ann.get_by_role("group", name="Start-Up industry", exact=True).get_by_role(
        "button", name="Food").click()
    expect(ann.locator(".turn:visible")).to_have_text(
        "Waiting for Ben and Cat to choose a Start-Up. Then you enter the 4 market cards.")
    expect(ben.locator(".turn:visible")).to_have_text(
        "Your turn: choose your Start-Up. Waiting for Cat to choose theirs. "
        "Then Ann enters the 4 market cards.")
    for name, industry in (("Ben", "sports"), ("Cat", "travel")):
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    expect(ann.locator(".turn:visible")).to_have_text(
        "Your turn: enter the 4 market cards as they are turned over.")
    for slot in range(3):
        assert table.act(table.tokens["Ann"], type="reveal", slot=slot, asset={
            "industry": "food", "price": 10, "stock": False})[0] == 200
    expect(ann.locator(".turn:visible")).to_have_text(
        "Your turn: enter the last market card as it is turned over.")
    expect(ben.locator(".turn:visible")).to_have_text(
        "Waiting for Ann to enter the last market card.")
    expect(host.locator(".turn:visible")).to_have_text(
        "Waiting for Ann to enter the last market card.")
    screenshot(ben, "big-money-setup-who-enters-what")


def test_a_go_big_set_stays_marked_while_its_preview_shows(live_server, new_phone):
    api = Api(live_server.local_url)
    table = api.table()
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    errors = console_errors(ann)
    sets = ann.get_by_role("group", name="Choose a set to play").get_by_role("button")
    first, second = sets.nth(0), sets.nth(1)
    first.click()
    expect(ann.locator("#confirm .confirm-box")).to_be_visible()
    expect(first).to_have_attribute("aria-current", "true")
    expect(ann.locator("[data-previews][aria-current]")).to_have_count(1)
    second.click()
    expect(second).to_have_attribute("aria-current", "true")
    expect(first).not_to_have_attribute("aria-current", "true")
    expect(ann.locator("[data-previews][aria-current]")).to_have_count(1)
    # A live update of the panel (the host gives Ben's seat to a new phone) keeps both.
    version = int(ann.locator("#panel").get_attribute("data-version"))
    status, _ = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ben']}/rejoin",
                         table.host)
    assert status == 200
    wait_until(ann, f"Number(document.getElementById('panel').dataset.version) > {version}")
    expect(ann.locator("#confirm .confirm-box")).to_be_visible()
    expect(second).to_have_attribute("aria-current", "true")
    screenshot(ann, "go-big-set-previewed")
    # Once the move is made (previewed again: the one shown was of the table before the
    # update, and would be refused as stale) the mark goes with the preview.
    second.click()
    expect(ann.locator("#confirm input[name=version]")).to_have_value(str(version + 1))
    ann.get_by_role("button", name="Confirm").click()
    expect(ann.locator("#confirm .confirm-box")).to_have_count(0)
    expect(ann.locator("#panel [aria-current]")).to_have_count(0)
    assert not errors, errors


def test_big_top_hand_entry_counts_the_cards_and_shows_their_shade_when_ticked(live_server,
                                                                              new_phone):
    table = Api(live_server.local_url).table("big-top", players=("Ann", "Ben", "Cat"))
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    errors = console_errors(ann)
    count = ann.locator(".bt-count")
    expected = table.view(table.tokens["Ann"])["actions"][0]["expected_count"]
    expect(count).to_have_text(f"0 of {expected} cards ticked")
    light, dark = ann.locator("label.bt-tile", has_text="light 3 Clown"), ann.locator(
        "label.bt-tile", has_text="dark 3 Clown")
    for tile in (light, dark, ann.locator("label.bt-tile", has_text="light 1 Animal")):
        tile.click()
    expect(count).to_have_text(f"3 of {expected} cards ticked")
    ann.locator("label.bt-tile", has_text="light 1 Animal").click()
    expect(count).to_have_text(f"2 of {expected} cards ticked")
    # Ticked, a light card and a dark one still look different, and say so in words.
    expect(light.locator(".bt-face")).to_contain_text("light")
    expect(dark.locator(".bt-face")).to_contain_text("dark")
    shade = "el => getComputedStyle(el.querySelector('.bt-face')).backgroundColor"
    assert light.evaluate(shade) != dark.evaluate(shade)
    ticked = "el => getComputedStyle(el.querySelector('.bt-face'), '::after').content"
    assert light.evaluate(ticked) == dark.evaluate(ticked) == '"✓"'
    screenshot(ann, "big-top-hand-entry-ticked")
    # The count and the ticks survive a live update (another player enters a hand).
    assert table.act(table.tokens["Ben"], type="hand", cards=["clowns-P"])[0] == 200
    expect(ann.locator(".bt-seat, .seat, li", has_text="Ben").first).to_be_visible()
    expect(count).to_have_text(f"2 of {expected} cards ticked")
    assert not errors, errors


def test_a_phone_offers_the_name_it_joined_with_last(live_server, new_phone):
    api = Api(live_server.local_url)
    first, second = (api.table(players=(), start=False) for _ in range(2))
    phone = new_phone()
    phone.goto(f"{live_server.url}/j/{first.code}")
    expect(phone.get_by_label("Your name")).to_have_value("")  # a phone new to the server
    join_by_link(phone, f"{live_server.url}/j/{first.code}", "Dora")
    phone.goto(f"{live_server.url}/j/{second.code}")
    name = phone.get_by_label("Your name")
    expect(name).to_have_value("Dora")
    name.fill("Dot")  # still the player's to change
    phone.get_by_role("button", name="Take a seat").click()
    expect(phone.get_by_text("Waiting for the host to start")).to_be_visible()
    assert [p["name"] for p in second.view()["players"]] == ["Dot"]


def test_the_host_lobbys_add_button_is_as_wide_as_its_word(live_server, new_phone):
    table = Api(live_server.local_url).table(players=("Ann",), start=False)
    for width, height in ((1280, 800), (360, 740)):
        host = host_screen(new_phone, live_server.url, table.code, table.host)
        host.set_viewport_size({"width": width, "height": height})
        add = host.get_by_role("button", name="Add", exact=True)
        field = host.get_by_label("Add a player without a phone")
        button, box = add.bounding_box(), field.bounding_box()
        assert button["width"] < 120, (width, button)
        assert box["width"] > 2 * button["width"], (width, box, button)
        assert abs(button["y"] - box["y"]) < 10  # on the field's line
