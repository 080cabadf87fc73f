"""A first game of Big Money taught at the table, in Chromium at the LAN address: the host ticks
"Teach a first game", three phones join, and from the first step each phone explains what
to do now until its player taps "Got it" (gone for good, a reload included), while the
table display explains each kind of step once for everyone."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, join_by_link

STARTUP = "Choose the start-up asset you took"
REVEAL = "Type in the asset card turned over"


def lesson(page):
    return page.locator("aside.lesson")


def test_a_taught_big_money_table_from_its_first_step(live_server, new_phone):
    host = new_phone(1280, 900)
    host.goto(live_server.url + "/new/big-money")
    host.get_by_label("Teach a first game").check()
    host.get_by_role("button", name="Create the table").click()
    code = host.locator(".room-code").inner_text()
    join_link = host.locator(".join-link").inner_text()
    phones = {name: join_by_link(new_phone(), join_link, name) for name in ("Ann", "Ben", "Cat")}
    ann, ben, cat = phones["Ann"], phones["Ben"], phones["Cat"]
    display = new_phone(1280, 720)
    display.goto(f"{live_server.url}/d/{code}")
    host_token = next(c["value"] for c in host.context.cookies()
                      if c["name"] == f"companion_host_{code}")
    status, _ = Api(live_server.local_url).call("POST", f"/tables/{code}/start", host_token,
                                                {"seed": 3})
    assert status == 200

    # The first step comes to everyone at once: every phone and the display explain it.
    for phone in (ann, ben, cat):
        expect(lesson(phone)).to_contain_text(STARTUP, timeout=SOON)
    expect(lesson(display)).to_contain_text(STARTUP, timeout=SOON)
    expect(lesson(display)).to_contain_text("First game: what happens now")
    expect(lesson(host)).to_have_count(0)

    # Ann has read it: gone from her phone, after a reload too; Ben's is still there.
    lesson(ann).get_by_role("button", name="Got it").click()
    expect(lesson(ann).filter(has_text=STARTUP)).to_have_count(0)
    ann.reload()
    expect(ann.get_by_role("group", name="Start-Up industry", exact=True)).to_be_visible()
    expect(lesson(ann).filter(has_text=STARTUP)).to_have_count(0)
    expect(lesson(ben)).to_contain_text(STARTUP)
    # The market cards may be entered meanwhile too: the next lesson, once she got the first.
    expect(lesson(ann)).to_contain_text(REVEAL)

    # Once a Start-Up has been chosen, the display has explained that step: not again.
    ann.get_by_role("group", name="Start-Up industry", exact=True).get_by_role(
        "button", name="Food").click()
    expect(lesson(display).filter(has_text=STARTUP)).to_have_count(0, timeout=SOON)
    for phone, industry in ((ben, "Sports"), (cat, "Travel")):
        phone.get_by_role("group", name="Start-Up industry", exact=True).get_by_role(
            "button", name=industry).click()

    # The next kind of step is explained in its turn, on each phone it comes to, and once
    # on the display.
    for phone in (ann, ben, cat):
        expect(lesson(phone)).to_contain_text(REVEAL, timeout=SOON)
    expect(lesson(display)).to_contain_text(REVEAL)
    lesson(ben).get_by_role("button", name="Got it").click()
    expect(lesson(ben)).to_have_count(0)
    ben.reload()
    expect(ben.locator("#panel")).to_be_visible()
    expect(lesson(ben)).to_have_count(0)
    expect(lesson(ann)).to_contain_text(REVEAL)
    rule = lesson(ann).get_by_role("link", name="The rule")
    expect(rule).to_have_attribute("href", re.compile(rf"^/rules/big-money\?table={code}#[a-z-]+$"))
