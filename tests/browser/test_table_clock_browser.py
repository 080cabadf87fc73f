"""The table clock in Chromium at the LAN address: a Go Big bank of 60 s with 5 s added
after each move, each phone's own time running only while the game awaits it, amber as
it runs short, the table display lighting the running one, the host's Pause and Resume;
and a secret-entry sheet where each phone's time stops as it enters."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import BUZZ_SPY, SOON, host_screen, screenshot, seat_phone, wait_until

BANK = {"mode": "bank", "bank_seconds": 60, "increment_seconds": 5, "warn_seconds": 58}
RUNNING = re.compile(r"\brunning\b")
WARN = re.compile(r"\bwarn\b")


def own_clock(phone):
    return phone.locator(".clock-own")


def seconds_of(shown: str) -> int:
    """"1:05" as 65, "−0:12" as -12."""
    sign = -1 if shown.startswith("−") else 1
    minutes, seconds = shown.lstrip("−").split(":")[-2:]
    return sign * (int(minutes) * 60 + int(seconds))


def left_on_server(table, name: str) -> float:
    """A player's time left as the server works it out now, in seconds."""
    clock = table.view()["clock"]
    left = next(p["left_ms"] for p in clock["players"] if p["player"] == table.ids[name])
    return left / 1000


def counts_on(time) -> None:
    """The time shown changes by itself, with no update from the server."""
    shown = time.text_content()
    expect(time).not_to_have_text(shown, timeout=SOON)


def test_a_go_big_bank_runs_only_for_the_awaited_phone_and_the_host_pauses_it(
        live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("go-big", clock=BANK)
    phones = {name: seat_phone(new_phone, live_server.url, table, name)
              for name in ("Ann", "Ben", "Cat")}
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    display = new_phone(1920, 1080)
    display.goto(f"{live_server.url}/d/{table.code}")
    awaited = table.names[table.view()["waiting_for"][0]]
    others = [name for name in phones if name != awaited]
    expect(own_clock(phones[awaited])).to_have_class(RUNNING)
    counts_on(own_clock(phones[awaited]).locator(".clock-time"))
    for name in others:
        expect(own_clock(phones[name])).not_to_have_class(RUNNING)
        expect(phones[name].locator(".clock-player.running")).to_have_count(1)
    # Below 58 s left, the awaited phone's own time turns amber, with no update needed.
    expect(own_clock(phones[awaited])).to_have_class(WARN, timeout=SOON)
    # Counting on by itself, the phone keeps within a second of the server's figure.
    shown = seconds_of(own_clock(phones[awaited]).locator(".clock-time").text_content())
    server = left_on_server(table, awaited)
    assert abs(shown - server) <= 1, (shown, server)
    lit = display.locator(".clock-player.running")
    expect(lit).to_have_count(1)
    expect(lit).to_contain_text(awaited)
    screenshot(phones[awaited], "clock-phone-running")

    # The awaited player moves: the next one's time runs, theirs stops with 5 s added.
    kind, action = table.next_move()
    assert table.act(table.token_of(table.view()["waiting_for"][0]), **action)[0] == 200
    following = table.names[table.view()["waiting_for"][0]]
    expect(own_clock(phones[following])).to_have_class(RUNNING, timeout=SOON)
    if following != awaited:
        expect(own_clock(phones[awaited])).not_to_have_class(RUNNING)
        left = int(phones[awaited].locator(".clock-own .clock-time").get_attribute(
            "data-clock-ms"))
        assert 60_000 < left < 65_000  # the bank, less the time thought, plus 5 s

    host.get_by_role("button", name="Pause the clock").click()
    for page in (*phones.values(), display):
        expect(page.locator(".clock-title")).to_contain_text("paused", timeout=SOON)
        expect(page.locator(".clock-player.running")).to_have_count(0)
    frozen = own_clock(phones[following]).locator(".clock-time").text_content()
    screenshot(host, "clock-host-paused")
    host.get_by_role("button", name="Resume the clock").click()
    expect(own_clock(phones[following])).to_have_class(RUNNING, timeout=SOON)
    assert frozen  # shown while paused, and counting again now:
    counts_on(own_clock(phones[following]).locator(".clock-time"))


def test_a_phone_buzzes_once_as_its_own_bank_runs_short(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("go-big", players=("Ann", "Ben"), clock=BANK)
    awaited = table.names[table.view()["waiting_for"][0]]
    nextone = "Ben" if awaited == "Ann" else "Ann"
    phone = seat_phone(new_phone, live_server.url, table, nextone)
    phone.context.add_init_script(BUZZ_SPY)
    phone.reload()
    phone.locator(".clock-title").click()  # a tap: what a browser asks before a buzz
    expect(own_clock(phone)).not_to_have_class(RUNNING)
    while table.names[table.view()["waiting_for"][0]] == awaited:  # the turn's steps
        kind, action = table.next_move()
        assert table.act(table.tokens[awaited], **action)[0] == 200
    expect(own_clock(phone)).to_have_class(RUNNING, timeout=SOON)
    wait_until(phone, "window.__buzzes.length === 1")  # "your turn"
    # Its own time falls below the warning (58 s of its 60) by itself: the phone buzzes once.
    expect(own_clock(phone)).to_have_class(WARN, timeout=10_000)
    wait_until(phone, "window.__buzzes.length === 2")
    time_shown = own_clock(phone).locator(".clock-time")
    counts_on(time_shown)
    counts_on(time_shown)
    assert phone.evaluate("window.__buzzes.length") == 2


def test_on_a_secret_sheet_each_phone_s_time_stops_as_it_enters(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben"), clock={"mode": "count_up"},
                      options={"name": "Wingspan", "rounds": 2, "categories": ["Birds"],
                               "secret": True})
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    ben = seat_phone(new_phone, live_server.url, table, "Ben")
    for phone in (ann, ben):
        expect(own_clock(phone)).to_have_class(RUNNING)
        expect(phone.locator(".clock-title")).to_have_text("Time used")
    ann.get_by_label("Birds", exact=True).fill("12")
    ann.get_by_role("button", name="Enter round 1").click()
    expect(own_clock(ann)).not_to_have_class(RUNNING, timeout=SOON)
    expect(own_clock(ben)).to_have_class(RUNNING)
    expect(ann.locator(".clock-player.running")).to_have_count(1, timeout=SOON)
    counts_on(ann.locator(".clock-player.running .clock-time"))
    stopped = own_clock(ann).locator(".clock-time").text_content()
    ben.get_by_label("Birds", exact=True).fill("9")
    ben.get_by_role("button", name="Enter round 1").click()
    # The round closes and the next begins: both run again, Ann's from where it stopped.
    expect(own_clock(ann)).to_have_class(RUNNING, timeout=SOON)
    assert stopped
