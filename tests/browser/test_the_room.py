"""The room around the phones, in Chromium at the LAN-like origin: the table display a TV
or a laptop shows (/d/CODE), live, reached from the host screen's link and QR code and by
a phone without a seat; and a lost phone's seat given to a new phone only once the host
confirms, by its QR code, its link or a short code typed on the join page."""
from __future__ import annotations

import re

import qrcode
import qrcode.image.svg
import requests
from playwright.sync_api import expect

from companion.live import REVOKED_MESSAGE
from tests.support.api import Api
from tests.support.browser import (CONTROLS, SOON, host_screen, log_lines, screenshot,
                                   seat_phone)

# The message is translated where it is shown; these tests read the English text.
REVOKED_MESSAGE = str(REVOKED_MESSAGE)


def qr_path(svg: str) -> str:
    return re.search(r'<path[^>]* d="([^"]+)"', svg).group(1)


def test_the_table_display_follows_the_game_and_the_host_screen_shows_the_way(live_server,
                                                                              new_phone):
    api = Api(live_server.local_url)
    table = api.table(start=False)
    display_url = f"{live_server.url}/d/{table.code}"
    stranger = new_phone()
    stranger.goto(f"{live_server.url}/t/{table.code}")
    expect(stranger).to_have_url(f"{live_server.url}/j/{table.code}")  # in the lobby: join

    # The host screen gives the display's address and its QR code.
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    host.get_by_text("Show the table on a TV or laptop").click()
    link = host.get_by_role("link", name=display_url)
    expect(link).to_have_attribute("href", display_url)
    qr = host.get_by_role("img", name="QR code of the table display")
    expect(qr).to_be_visible()
    # Loaded and drawn: decode() waits for the image, and fails if it cannot be loaded.
    assert qr.evaluate("img => img.decode().then(() => img.naturalWidth > 0)")
    served = requests.get(live_server.local_url + f"/d/{table.code}/qr.svg", timeout=10)
    drawn = qrcode.make(display_url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    assert qr_path(served.text) == qr_path(drawn.to_string(encoding="unicode"))

    with host.context.expect_page() as opened:
        link.click()
    display = opened.value
    expect(display).to_have_url(display_url)
    expect(display.locator(".room-code")).to_have_text(table.code)  # the room can join
    assert display.evaluate("window.isSecureContext") is False

    # It follows the game as the phones do, with nothing to tap.
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 7})
    assert status == 200, body
    expect(display.locator("#panel .turn:visible")).to_have_text("Waiting for Ann.", timeout=SOON)
    assert table.act(table.tokens["Ann"], type="play", value=5, count=2)[0] == 200
    expect(display.locator(".display-last li").first).to_have_text("Ann played a pair of 5s.",
                                                            timeout=SOON)
    # (its language picker aside)
    expect(display.locator("main").locator(CONTROLS)).to_have_count(0)

    # Now that the game is on, a phone without a seat watches it there.
    stranger.goto(f"{live_server.url}/t/{table.code}")
    expect(stranger).to_have_url(display_url)
    expect(stranger.locator(".display-last li").first).to_have_text("Ann played a pair of 5s.")


def test_a_seat_goes_to_a_new_phone_once_the_host_confirms_by_a_code_typed(live_server,
                                                                           new_phone):
    api = Api(live_server.local_url)
    table = api.table()
    old = seat_phone(new_phone, live_server.url, table, "Ben")
    expect(old.locator(".turn:visible")).to_have_text("Waiting for Ann.")
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    host.get_by_text("Lost or swapped phone?").click()
    host.get_by_role("link", name="Rejoin code for Ben").click()
    expect(host.get_by_role("heading", name="Give Ben's seat to a new phone?")).to_be_visible()
    expect(host.get_by_text("Their current phone will be signed out.")).to_be_visible()
    screenshot(host, "rejoin-confirm")
    # Nothing has happened before the host confirms.
    assert table.view(table.tokens["Ben"])["you"] == table.ids["Ben"]
    assert not any("new phone" in line for line in log_lines(api, table, "Ann"))
    expect(old.locator(".turn:visible")).to_have_text("Waiting for Ann.")

    host.get_by_role("button", name="Yes, give the seat to a new phone").click()
    expect(host.get_by_role("heading", name="Rejoin code for Ben")).to_be_visible()
    expect(host.get_by_role("img", name="QR code")).to_be_visible()
    link = host.locator(".rejoin-ways .join-link").first.text_content().strip()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/r/{table.code}#[\w-]{{43}}", link), link
    typed = host.locator(".rejoin-code").text_content().strip()
    assert re.fullmatch(r"[A-Z]{4} [A-Z]{4}", typed), typed
    screenshot(host, "rejoin-code")
    expect(old.get_by_text(REVOKED_MESSAGE)).to_be_visible(timeout=SOON)
    assert api.call("GET", f"/tables/{table.code}", table.tokens["Ben"])[0] == 401

    # The new phone types the room code, then the rejoin code (as a person might).
    new = new_phone()
    new.goto(f"{live_server.url}/")
    new.get_by_label("Room code").fill(table.code.lower())
    new.get_by_role("button", name="Join").click()
    new.get_by_label("The rejoin code from the host screen").fill(typed.lower())
    new.get_by_role("button", name="Take my seat").click()
    expect(new).to_have_url(f"{live_server.url}/t/{table.code}")
    expect(new.locator(".seat[data-yours]")).to_contain_text("Ben (you)")
    expect(new.locator(".turn:visible")).to_have_text("Waiting for Ann.")
    # The host's page no longer shows the code: it says the seat was taken.
    expect(host.get_by_text("Ben's seat was taken by a new phone")).to_be_visible(timeout=SOON)
    expect(host.locator(".rejoin-code")).to_have_count(0)
    expect(host.get_by_role("img", name="QR code")).to_have_count(0)

    # The code and the QR's link were good once: the seat went to the first to use one.
    late = new_phone()
    late.goto(f"{live_server.url}/j/{table.code}")
    late.get_by_label("The rejoin code from the host screen").fill(typed)
    with late.expect_response(f"**/j/{table.code}/rejoin") as answer:
        late.get_by_role("button", name="Take my seat").click()
    assert answer.value.status == 422  # a bad entry on the join page, not a missing page
    expect(late.get_by_role("alert")).to_contain_text("That rejoin code is not right")
    expect(late.get_by_label("The rejoin code from the host screen")).to_have_value(typed)
    late.goto(link)
    expect(late.get_by_role("alert")).to_contain_text("This rejoin link is no longer valid")
    expect(new.locator(".seat[data-yours]")).to_contain_text("Ben (you)")
