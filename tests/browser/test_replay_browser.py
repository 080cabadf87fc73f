"""A finished game's replay in Chromium at http://table.lan:PORT: its controls by touch
and by keyboard, the history line of each move, the address of each step, on a phone
(360 x 740) and on a TV (1920 x 1080)."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.games import GAMES
from tests.support.api import Api
from tests.support.browser import console_errors, log_lines, screenshot

# A style the browser set through the CSSOM, as a reader mode or an extension does (the
# policy allows it), on every element with an id: what htmx matches as it swaps.
STYLED = "document.querySelectorAll('[id]').forEach(e => { e.style.scrollMarginTop = '1px'; })"
SIDEWAYS_SCROLL = "document.documentElement.scrollWidth > document.documentElement.clientWidth"


def finished_table(live_server):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table(options={"copies_per_value": 4}, seed=5)
    table.finish()
    return api, table


def test_the_replay_steps_by_button_slider_and_keyboard_on_a_phone(live_server, new_phone):
    api, table = finished_table(live_server)
    lines = log_lines(api, table, "Ann")  # oldest first
    phone = new_phone()
    errors = console_errors(phone)
    phone.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens["Ann"],
                                "url": live_server.url}])
    phone.goto(f"{live_server.url}/t/{table.code}")
    phone.get_by_role("link", name="Replay the game move by move").click()
    expect(phone.get_by_role("heading", name=re.compile("Replay: Go Big"))).to_be_visible()

    first, back = phone.locator("#replay-first"), phone.locator("#replay-back")
    forward, last = phone.locator("#replay-forward"), phone.locator("#replay-last")
    where, line = phone.locator(".replay-where"), phone.locator(".replay-line")
    slider = phone.get_by_label("Go to move")
    expect(first).to_be_disabled()
    expect(back).to_be_disabled()
    expect(line).to_have_text("The table is set up.")
    moves = int(slider.get_attribute("max"))
    assert moves == len(lines)

    forward.tap()
    expect(where).to_have_text(f"Move 1 of {moves}")
    expect(line).to_have_text(lines[0])
    expect(first).to_be_enabled()
    assert phone.url.endswith("/replay?step=1")
    expect(slider).to_have_value("1")
    expect(phone.locator("#replay-announcer")).to_contain_text(lines[0])

    forward.focus()  # the keyboard: the focus stays on the control as the step is swapped in
    phone.keyboard.press("Enter")
    expect(line).to_have_text(lines[1])
    assert phone.evaluate("document.activeElement.id") == "replay-forward"
    phone.keyboard.press("Enter")
    expect(line).to_have_text(lines[2])
    back.tap()
    expect(line).to_have_text(lines[1])
    expect(slider).to_have_value("2")

    slider.focus()
    phone.keyboard.press("End")  # the slider: its keys move it, the step follows
    expect(where).to_have_text(f"Move {moves} of {moves}")
    expect(line).to_have_text(lines[-1])
    expect(last).to_be_disabled()
    expect(forward).to_be_disabled()
    expect(phone.get_by_role("region", name="Result")).to_be_visible()
    assert phone.evaluate("document.activeElement.id") == "replay-slider"
    slider.fill("3")  # dragged to a move
    expect(line).to_have_text(lines[2])
    first.tap()
    expect(line).to_have_text("The table is set up.")
    expect(first).to_be_disabled()
    expect(slider).to_have_value("0")

    phone.go_back()  # each step has its address, in the browser's history too
    expect(line).to_have_text(lines[2])
    phone.goto(f"{live_server.url}/t/{table.code}/replay?step=4")  # and opens by itself
    expect(line).to_have_text(lines[3])
    expect(phone.get_by_role("region", name="Every player's secrets")).to_contain_text("Ann's bank")
    assert not phone.evaluate(SIDEWAYS_SCROLL)
    for control in (first, back, forward, last, slider):
        box = control.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    screenshot(phone, "replay-phone")
    assert not errors, errors


def test_the_replay_fills_a_tv_without_sideways_scroll(live_server, new_phone):
    _, table = finished_table(live_server)
    tv = new_phone(1920, 1080)
    errors = console_errors(tv)
    tv.goto(f"{live_server.url}/t/{table.code}/replay?step=3")
    board = tv.get_by_role("region", name="The table").bounding_box()
    secrets = tv.get_by_role("region", name="Every player's secrets").bounding_box()
    assert secrets["x"] > board["x"] + board["width"] - 1  # side by side
    assert board["width"] + secrets["width"] > 1920 * 0.7
    assert not tv.evaluate(SIDEWAYS_SCROLL)
    tv.locator("#replay-last").click()
    expect(tv.get_by_role("region", name="Result")).to_be_visible()
    assert not tv.evaluate(SIDEWAYS_SCROLL)
    screenshot(tv, "replay-tv")
    assert not errors, errors


def test_every_control_of_every_games_replay_logs_no_console_error(live_server, new_phone):
    """Every control, each way it is worked, at each game's start, along it and at its
    end: the page logs nothing, a refusal of the Content Security Policy included (a step
    swapped in applies no inline style, even over elements the browser styled)."""
    api = Api(live_server.local_url, app=live_server.app)
    for game, engine in GAMES.items():
        seats = max(engine.min_players, min(3, engine.max_players))
        players = ("Ann", "Ben", "Cat", "Dan")[:seats]
        table = api.table(game, players=players, seed=5,
                          options={"copies_per_value": 4} if game == "go-big" else None)
        table.finish()
        phone = new_phone()
        errors = console_errors(phone)
        phone.goto(f"{live_server.url}/t/{table.code}/replay")
        where = phone.locator(".replay-where")
        slider = phone.get_by_label("Go to move")
        moves = int(slider.get_attribute("max"))

        def step(act, number: int, phone=phone, where=where, moves=moves) -> None:
            phone.evaluate(STYLED)
            act()
            expect(where).to_contain_text(f"Move {number} of {moves}" if number
                                          else "The start, before the first move")

        step(phone.locator("#replay-forward").tap, 1)
        step(phone.locator("#replay-forward").tap, 2)
        step(phone.locator("#replay-back").tap, 1)
        step(phone.locator("#replay-last").tap, moves)
        expect(phone.get_by_role("region", name="Result", exact=True)).to_be_visible()
        step(phone.locator("#replay-back").tap, moves - 1)
        step(phone.locator("#replay-first").tap, 0)
        slider.focus()
        step(lambda phone=phone: phone.keyboard.press("End"), moves)
        step(lambda slider=slider, moves=moves: slider.fill(str(moves // 2)), moves // 2)
        step(phone.get_by_role("button", name="Show").tap, moves // 2)
        assert not errors, f"{game}: {errors}"
