"""What a phone at a real table gets, where it really is: the production server (gunicorn,
gevent workers) at its LAN address over plain HTTP (an insecure context, so no Wake Lock
API). The screen is kept awake by a video from
the first tap, the page tells the player when their turn comes, and a live update never
wipes what a player is entering."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import (BUZZ_SPY, SOON, STREAM_OPEN_SPY, console_errors, first_move,
                                   following, host_screen, seat_phone, wait_until)

VIDEO_PLAYING = ("(() => { const v = document.getElementById('awake'); "
                 "return !v.paused && v.currentTime > 0; })()")
VIDEO_PAUSED = "document.getElementById('awake').paused"


def set_visibility(page, state: str | None) -> None:
    """Hide the page, or show it again (None), as a phone does when its screen goes off."""
    page.evaluate("""(state) => {
        if (state) Object.defineProperty(document, 'visibilityState', """
        """{configurable: true, get: () => state});
        else delete document.visibilityState;
        document.dispatchEvent(new Event('visibilitychange'));
    }""", state)


def test_a_phone_over_plain_http_stays_awake_and_hears_its_turn(production_server, new_phone):
    api = Api(production_server.local_url, app=production_server.app)
    table = api.table(options={"copies_per_value": 4})  # a short game
    ben = new_phone()
    ben.context.add_init_script(BUZZ_SPY)
    ben.context.add_init_script(STREAM_OPEN_SPY)
    errors = console_errors(ben)
    ben.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens["Ben"],
                              "url": production_server.url}])
    ben.goto(f"{production_server.url}/t/{table.code}")
    assert ben.url.startswith("http://table.lan:")
    assert ben.evaluate("window.isSecureContext") is False
    assert ben.evaluate("'wakeLock' in navigator || 'serviceWorker' in navigator") is False
    expect(ben.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"))
    expect(ben).to_have_title(f"Go Big · {table.code}")

    # The video that keeps the screen on waits for the first tap, then plays, filling the
    # screen (phone browsers hold the screen only for a video that fills a good part of it).
    following(ben)  # the last thing the page does by itself: the video is still paused
    assert ben.evaluate(VIDEO_PAUSED)
    ben.locator(".turn:visible").click()
    wait_until(ben, VIDEO_PLAYING)
    box = ben.locator("#awake").bounding_box()
    assert box == {"x": 0, "y": 0, "width": 360, "height": 740}
    assert ben.evaluate("getComputedStyle(document.getElementById('awake')).opacity") == "0"

    # Ann plays: the turn reaches Ben. His title says so, his phone buzzes once; his move
    # made, the title is back to normal.
    first_move(table, "Ann")
    first_move(table, "Ann")
    expect(ben).to_have_title(f"Your turn · Go Big · {table.code}", timeout=SOON)
    expect(ben.locator("#announcer")).to_contain_text("Your turn")
    assert ben.evaluate("window.__buzzes") == [200]
    first_move(table, "Ben")
    first_move(table, "Ben")
    expect(ben).to_have_title(f"Go Big · {table.code}", timeout=SOON)

    # The screen goes off: the video stops; back on, it plays again without a tap.
    set_visibility(ben, "hidden")
    wait_until(ben, VIDEO_PAUSED)
    set_visibility(ben, None)
    wait_until(ben, VIDEO_PLAYING)

    # The sound is off until this phone turns it on; the choice stays on this phone.
    sound = ben.get_by_label("A short sound on this phone when my turn comes")
    expect(sound).not_to_be_checked()
    sound.check()
    assert ben.evaluate("localStorage.getItem('companion-turn-sound')") == "on"

    # The game ends: the screen may sleep again.
    table.finish()
    expect(ben.locator(".result")).to_be_visible(timeout=SOON)
    wait_until(ben, VIDEO_PAUSED)
    ben.reload()
    expect(ben.get_by_label("A short sound on this phone when my turn comes")).to_be_checked()
    assert errors == []


def test_a_live_update_keeps_the_dice_tapped_and_the_hosts_open_adjustment(production_server,
                                                                           new_phone):
    server = production_server
    table = Api(server.local_url, app=server.app).table(game="big-money", seed=3)
    table.bot.play(until=lambda state: state["step"] == "number_dice")
    roller = table.names[table.view()["turn"]]
    other = next(name for name in table.tokens if name != roller)
    phone = seat_phone(new_phone, server.url, table, roller)
    host = host_screen(new_phone, server.url, table.code, table.host)
    errors = {"phone": console_errors(phone), "host": console_errors(host)}
    previews = []
    phone.on("request",
             lambda request: previews.append(request.url) if "/preview" in request.url else None)
    # Counted in the page as htmx sends them: a tap's request is sent before its click ends.
    phone.evaluate("window.previewsAsked = 0; document.addEventListener('htmx:beforeRequest', "
                   "(e) => { if (e.detail.pathInfo.requestPath.includes('/preview')) "
                   "window.previewsAsked += 1; })")
    expect(phone.get_by_role("group", name="Die 1", exact=True)).to_be_visible()

    # The host starts an adjustment for another player and is still typing its note.
    host.get_by_role("heading", name="Adjust the Bank").click()
    host.get_by_text(f"Adjust {other}").click()
    host.get_by_label(f"Amount: + the Bank pays {other}, − {other} pays the Bank").fill("3")
    note = host.locator(".bm-adjust[open]").get_by_label("Note for the log")
    note.fill("a bill under the")

    # The roller taps three of five dice: no preview is asked for yet (it would fail).
    for number, face in enumerate((2, 2, 5), start=1):
        phone.get_by_role("group", name=f"Die {number}", exact=True).get_by_text(
            str(face), exact=True).click()
    assert phone.evaluate("window.previewsAsked") == 0

    # The host pays the roller through the API: the pushed panel keeps the three dice.
    money = table.view()["state"]["seats"]
    before = next(seat["money"] for seat in money if seat["player"] == table.ids[roller])
    status, body = table.act(table.host, type="adjust", player=table.ids[roller], amount=2,
                             note="change")
    assert status == 200, body
    expect(phone.locator(".bm-strip")).to_contain_text(f"You have {before + 2}", timeout=SOON)
    for number, face in enumerate((2, 2, 5)):
        expect(phone.locator(f"#bm-die{number}-{face}")).to_be_checked()
    expect(phone.locator(".bm-dice input:checked")).to_have_count(3)

    # The last two dice: the preview, then the roll, made on the version the push brought.
    for number, face in ((4, 5), (5, 6)):
        phone.get_by_role("group", name=f"Die {number}", exact=True).get_by_text(
            str(face), exact=True).click()
    expect(phone.locator(".bm-preview")).to_contain_text("2 Pairs, collects", timeout=SOON)
    assert previews and all("csrf_token" not in url for url in previews), previews
    assert phone.evaluate("window.previewsAsked") == len(previews)
    phone.get_by_role("button", name="Done: collect").click()
    expect(phone.get_by_role("group", name="Die 1", exact=True)).to_have_count(0, timeout=SOON)

    # Two moves later the host's half-typed adjustment is still there, still focused.
    expect(host.locator(".bm-rolled", has_text="Number dice")).to_be_visible(timeout=SOON)
    expect(host.locator(".bm-adjust[open]")).to_have_count(1)
    expect(note).to_have_value("a bill under the")
    expect(note).to_be_focused()
    expect(host.get_by_label(f"Amount: + the Bank pays {other}, "
                             f"− {other} pays the Bank")).to_have_value("3")
    note.press_sequentially(" board")
    host.get_by_role("button", name=f"Apply to {other}").click()
    expect(host.locator(".log")).to_contain_text(
        f"the Bank pays {other} 3 (a bill under the board)", timeout=SOON)
    expect(note).to_have_value("")  # a move made empties its form
    assert errors == {"phone": [], "host": []}


def test_a_half_typed_market_card_survives_other_moves_until_its_space_is_filled(
        production_server, new_phone):
    table = Api(production_server.local_url).table(game="big-money", seed=3)
    for name, industry in (("Ann", "food"), ("Ben", "sports"), ("Cat", "travel")):
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    ann = seat_phone(new_phone, production_server.url, table, "Ann")
    errors = console_errors(ann)
    expect(ann.get_by_role("heading", name="Turn over the market cards")).to_be_visible()

    # Ann is typing the first card when Cat changes her Start-Up: the card stays, with its preview.
    # (A server that has seen cards, at other tables, offers them first, a new card's form
    # folded under them.)
    new_card = ann.locator("details.bm-new-card:not([open]) > summary")
    if new_card.count():
        new_card.click()
    ann.locator("label[for=bm-reveal-entertainment]").click()
    ann.get_by_label("Price", exact=True).fill("30")
    ann.get_by_label("Name on the card").fill("Arena")
    expect(ann.locator(".bm-confirm")).to_contain_text("Arena", timeout=SOON)
    version = int(ann.locator("#panel").get_attribute("data-version"))
    assert table.act(table.tokens["Cat"], type="startup", industry="technology")[0] == 200
    expect(ann.locator("#panel")).to_have_attribute("data-version", str(version + 1), timeout=SOON)
    expect(ann.locator("#bm-reveal-entertainment")).to_be_checked()
    expect(ann.get_by_label("Price", exact=True)).to_have_value("30")
    expect(ann.get_by_label("Name on the card")).to_have_value("Arena")
    expect(ann.locator(".bm-confirm")).to_contain_text("Arena")

    # Ben enters a card into the space she was filling: her form starts afresh.
    status, body = table.act(table.tokens["Ben"], type="reveal", slot=0,
                             asset={"industry": "food", "price": 10})
    assert status == 200, body
    expect(ann.locator(".bm-market .bm-slot").first).to_contain_text("Food", timeout=SOON)
    expect(ann.get_by_label("Price", exact=True)).to_have_value("")
    expect(ann.get_by_label("Name on the card")).to_have_value("")
    expect(ann.locator("#bm-reveal-entertainment")).not_to_be_checked()
    expect(ann.locator(".bm-confirm")).to_have_count(0)
    assert errors == []
