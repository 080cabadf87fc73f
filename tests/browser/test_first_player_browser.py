"""A random first player, in Chromium against the production server (live updates): the host
taps "Pick at random", two phones (360x740) and the table display show the pick before the
start, and the game starts with that player."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import (SOON, STREAM_OPEN_SPY, console_errors, fits_a_phone,
                                   following, host_screen, screenshot, seat_phone)

PICKED = re.compile(r"Picked at random: (Ann|Ben|Cat) \(goes first\)\.")


def test_the_host_picks_at_random_and_every_screen_sees_it_before_the_start(production_server,
                                                                          new_phone):
    api = Api(production_server.local_url)
    table = api.table(start=False)  # Ann, Ben and Cat at Go Big, in the lobby
    host = host_screen(new_phone, production_server.url, table.code, table.host)
    phones = {name: seat_phone(new_phone, production_server.url, table, name)
              for name in ("Ann", "Ben")}
    display = new_phone(1280, 800)
    display.context.add_init_script(STREAM_OPEN_SPY)
    display.goto(f"{production_server.url}/d/{table.code}")
    screens = [host, display, *phones.values()]
    errors = [console_errors(page) for page in screens]
    for page in screens:
        following(page)
        expect(page.locator(".picked-first")).to_have_count(0)

    host.get_by_role("button", name="Pick at random").click()
    expect(host.locator(".picked-first")).to_have_text(PICKED, timeout=SOON)
    line = host.locator(".picked-first").inner_text()
    name = PICKED.fullmatch(line).group(1)
    for page in (display, *phones.values()):
        expect(page.locator(".picked-first")).to_have_text(line, timeout=SOON)
        seat = page.locator(".players li").filter(has_text=name)
        expect(seat.locator(".tag", has_text="goes first")).to_be_visible()
        expect(page.locator(".players .tag", has_text="goes first")).to_have_count(1)
    for phone_name, phone in phones.items():
        assert not fits_a_phone(phone, f"lobby of {phone_name}")
        screenshot(phone, f"first-player/lobby-{phone_name.lower()}")
    screenshot(host, "first-player/host-lobby")

    host.get_by_role("button", name="Start the game").click()
    for phone_name, phone in phones.items():
        said = "Your turn" if phone_name == name else f"Waiting for {name}"
        expect(phone.locator(".turn:visible")).to_contain_text(said, timeout=SOON)
        expect(phone.locator(".log")).to_contain_text(line)
    assert table.view()["turn"] == table.ids[name]
    problems = [problem for found in errors for problem in found]
    assert not problems, "\n".join(problems)
