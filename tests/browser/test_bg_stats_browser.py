"""Logging the play in BG Stats, in Chromium at the table's LAN address: the link a phone's
result shows when the game ends is the API's play, URL-encoded, and the host screen's QR
code holds this server's address that forwards there."""
from __future__ import annotations

import json
import re
from urllib.parse import unquote

import qrcode
import qrcode.image.svg
import requests
from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import (SOON, console_errors, host_screen, screenshot,
                                   seat_phone)

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="


def play_of(link: str) -> dict:
    assert link.startswith(CREATE_PLAY), link[:80]
    return json.loads(unquote(link.removeprefix(CREATE_PLAY)))


def qr_path(data: str) -> str:
    """The drawing of the QR code of `data` (its one path's outline)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return re.search(r' d="([^"]+)"', image.to_string(encoding="unicode")).group(1)


def test_a_phones_result_links_the_play_and_the_host_shows_its_qr(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", options={"name": "Wingspan", "rounds": 2})
    phone = seat_phone(new_phone, live_server.url, table, "Ben")
    errors = console_errors(phone)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    expect(phone.locator(".bgstats-link")).to_have_count(0)
    expect(host.locator(".bgstats-qr")).to_have_count(0)

    table.finish()  # the last entry arrives while the phone looks on
    link = phone.get_by_role("link", name="Log this play in BG Stats")
    expect(link).to_be_visible(timeout=SOON)
    play = requests.get(f"{live_server.local_url}/api/v1/tables/{table.code}/bgstats",
                        timeout=10).json()
    assert play_of(link.get_attribute("href")) == play
    assert play["game"]["name"] == "Wingspan"
    screenshot(phone, "bgstats-phone-result")

    qr = host.locator(".bgstats-qr svg")
    expect(qr).to_be_visible(timeout=SOON)
    expect(host.locator(".bgstats-qr figcaption")).to_have_text(
        "Scan to log this play in BG Stats")
    assert qr.get_attribute("role") == "img"
    forward = f"{live_server.url}/t/{table.code}/bgstats"  # what a phone on the Wi-Fi opens
    assert qr.locator("path").get_attribute("d") == qr_path(forward)
    box = qr.bounding_box()
    assert box["width"] >= 150, box  # large enough to scan from across the table
    screenshot(host, "bgstats-host-result")

    forwarded = requests.get(forward.replace(live_server.url, live_server.local_url),
                             allow_redirects=False, timeout=10)
    assert forwarded.status_code == 303
    assert play_of(forwarded.headers["Location"]) == play
    assert not errors, "\n".join(errors)
