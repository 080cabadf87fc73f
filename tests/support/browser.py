"""The browser tests' helpers. Phones at a real table open the server by its LAN address
over plain HTTP, which browsers treat as an insecure context (no Wake Lock API, no service
worker). So the browser tests open it at http://table.lan:PORT: Chromium maps that name
to loopback, and the page sees a LAN-like origin that is not a secure context. Test code
reaches the same server at `local_url`."""
from __future__ import annotations

import os
import re
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import expect

from companion.extensions import db
from tests.support.app import ROOT, LiveServer, make_app
from tests.support.servers import ServerProcess

LAN_NAME = "table.lan"
CHROMIUM = os.environ.get("COMPANION_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage", f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"]
ARTIFACTS = ROOT / "test-artifacts"
SOON = 5_000  # ms: what "at once" means for a live update on a local server


def serve_on_the_lan(app) -> LiveServer:
    """The app served, started, as phones on the table's Wi-Fi reach it: at the LAN name,
    its join links and QR codes pointing there."""
    server = LiveServer(app, LAN_NAME)
    app.config["PUBLIC_URL"] = server.url
    return server.start()


@dataclass
class ProductionServer:
    """The app as `make run` serves it, at the LAN name: `url` is what phones open,
    `local_url` where test code calls it, `port` its port; `app` is an app of the test's
    own on the same database (what the bots read a table's full state through); `process`
    the server itself."""
    url: str
    local_url: str
    port: int
    app: object
    process: ServerProcess


@contextmanager
def served_in_production(database_url: str, folder: Path, limits: bool = True):
    """The production server (gunicorn with its gevent workers, tests/support/servers.py)
    on `database_url`, started, as phones on the table's Wi-Fi reach it: at the LAN name,
    its join links and QR codes pointing there; its rate limits on, unless a test lifts
    them (and says why). Once stopped, its log must hold no error (a request that failed
    on the server, unseen by the page that made it)."""
    app = make_app(database_url, folder)
    process = ServerProcess(database_url, folder)
    if not limits:
        process.env["COMPANION_RATELIMIT"] = "off"
    url = f"http://{LAN_NAME}:{process.port}"
    process.env["COMPANION_PUBLIC_URL"] = url
    app.config["PUBLIC_URL"] = url
    try:
        process.start()
        yield ProductionServer(url, process.url, process.port, app, process)
    finally:
        process.stop()
        with app.app_context():
            db.engine.dispose()
    assert "Traceback" not in process.output(), f"the server's log, {process.log}, holds an error"


PHONE = {"width": 360, "height": 740}
HOST = {"width": 1280, "height": 800}
# What changes a table: none of it belongs on a screen that only shows one.
CONTROLS = "form, button, input, select, textarea, [hx-post], [hx-put], [hx-patch], [hx-delete]"


# Counts the page's live streams opened (the htmx SSE extension's event), once however
# often it is added: a stream is open once the server listens for the table's changes on it.
BUZZ_SPY = """window.__buzzes = [];
Object.defineProperty(navigator, 'vibrate', {configurable: true,
  value: (pattern) => { window.__buzzes.push(pattern); return true; }});"""
STREAM_OPEN_SPY = """if (!("streamsOpened" in window)) { window.streamsOpened = 0;
  document.addEventListener("htmx:sseOpen", () => { window.streamsOpened += 1; }); }"""


def following(page, opened: int = 1, timeout_ms: int = 5_000) -> None:
    """Wait until the page (whose context runs STREAM_OPEN_SPY) has opened its live stream
    `opened` times since it loaded."""
    wait_until(page, f"window.streamsOpened >= {opened}", timeout_ms)


def seat_phone(new_phone, server_url: str, table, name: str):
    """A phone context that holds `name`'s seat cookie, on its phone screen."""
    page = new_phone()
    page.context.add_init_script(STREAM_OPEN_SPY)
    page.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens[name],
                               "url": server_url}])
    page.goto(f"{server_url}/t/{table.code}")
    return page


def host_screen(new_phone, server_url: str, code: str, host_token: str):
    page = new_phone(1280, 800)
    page.context.add_init_script(STREAM_OPEN_SPY)
    page.context.add_cookies([{"name": f"companion_host_{code}", "value": host_token,
                               "url": server_url}])
    page.goto(f"{server_url}/t/{code}/host")
    return page


def join_by_link(page, join_link: str, name: str):
    """`page` takes a seat as `name` by the table's join link (the QR code's address), and
    waits in the lobby."""
    page.goto(join_link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_text("Waiting for the host to start")).to_be_visible(timeout=SOON)
    return page


def first_move(table, name: str) -> None:
    """The first move the Go Big phone of `name` offers (a set, else a draw), through the
    API: a move whose outcome the test knows, where the bot's would be anyone's."""
    token = table.tokens[name]
    action = table.view(token)["actions"][0]
    if action["type"] == "play":
        status, body = table.act(token, type="play", **action["sets"][0])
    else:
        status, body = table.act(token, type="draw", source=action["source"][0])
    assert status == 200, body


def log_lines(api, table, name: str) -> list[str]:
    """The table's log as `name` reads it, a summary a line."""
    status, body = api.call("GET", f"/tables/{table.code}/log", table.tokens[name])
    assert status == 200, body
    return [line["summary"] for line in body["events"]]


# Counts each tap the page receives (a pointer pressed on it, whoever pressed it), in the
# tab's sessionStorage, so that a tap which loads another page of the table still counts.
TAP_COUNTER = """(() => {
  if (window.tapCounter) return;
  window.tapCounter = true;
  document.addEventListener('pointerdown', event => {
    if (!event.isTrusted) return;
    const taps = Number(sessionStorage.getItem('taps') || 0);
    sessionStorage.setItem('taps', String(taps + 1));
  }, true);
})()"""
TAPS_RECEIVED = "Number(sessionStorage.getItem('taps') || 0)"


class Taps:
    """The taps a page receives from now on, counted by the page itself: a tap budget
    holds the taps the screen needed, not the clicks the test meant to make.
    `taps(locator)` taps once."""

    def __init__(self, page):
        self.page = page
        page.add_init_script(TAP_COUNTER)
        page.evaluate(TAP_COUNTER)
        self.before = page.evaluate(TAPS_RECEIVED)
        self.given = 0

    def __call__(self, locator) -> None:
        locator.click()
        self.given += 1

    @property
    def count(self) -> int:
        received = self.page.evaluate(TAPS_RECEIVED) - self.before
        assert received >= self.given, f"the page counted {received} of {self.given} taps"
        return received


def screenshot(page, name: str) -> None:
    """A screenshot of the whole page, kept as test-artifacts/<name>.png (a name may hold
    folders: "languages/de/home")."""
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)


def wait_until(page, expression: str, timeout_ms: int = 5_000) -> None:
    """Wait for a script expression to be true on the page. Playwright's wait_for_function
    evaluates its expression with eval(), which our Content Security Policy refuses (rightly),
    so this asks again through evaluate(), which the policy does not govern."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_ms} ms: {expression}")
        page.wait_for_timeout(50)


# What a page must never log: an error (a Content-Security-Policy refusal among them) or
# a warning (idiomorph's "duplicate ids found during morph", say).
CONSOLE_PROBLEMS = ("error", "warning")


def console_errors(page) -> list[str]:
    """The errors and warnings a page reports from now on, across its navigations:
    console errors and warnings, and uncaught script errors.

    A move cancels any request for the panel still on its way (hx-sync="#live:replace"),
    an earlier move's included, and htmx logs a cancelled request as two console errors,
    "htmx:afterRequest" then "htmx:sendAbort": that pair is the design, not an error."""
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type not in CONSOLE_PROBLEMS:
            return
        entry = f"{page.url}: {message.type}: {message.text}"
        cancelled = entry.replace("htmx:sendAbort", "htmx:afterRequest", 1)
        if message.text.startswith("htmx:sendAbort") and errors and errors[-1] == cancelled:
            errors.pop()
            return
        errors.append(entry)

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return errors


# Every word of visible text that the layout broke across two lines ("Entertain|ment"): a
# line may end at a space, a hyphen, a dash or a slash (or a <wbr>), never inside a word.
BROKEN_WORDS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest('svg, script, style, textarea, [hidden]')) continue;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // not shown, or visually hidden
    for (const word of node.data.matchAll(/[^\\s\\-\\/\u2013\u2014]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                .map(r => Math.round(r.bottom)));
      const where = [element.tagName.toLowerCase(), ...element.classList].join('.');
      if (lines.size > 1) found.push(`${word[0]} (in ${where})`);
    }
  }
  return found;
}"""


def broken_words(page) -> list[str]:
    return page.evaluate(BROKEN_WORDS)


TAP = 44  # px: the smallest control a finger hits reliably (WCAG 2.5.5, Apple, Android)

# Every control on a screen: what is tapped is the label when a radio or checkbox is
# drawn by its label (the input itself is then visually hidden).
TARGETS = ("""() => [...document.querySelectorAll(
    'main button, main .button, main select, main summary, main label.check, main label.bt-tile, ' +
    'main input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not(.bt-sr), ' +
    'main .bm-pick + label, main .nbl-radio + label')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => [e.getAttribute('aria-label') || """
  """e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30),
             e.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 - 0.5 || r.width < 44 - 0.5)
  .map(([text, r]) => `${text} ${Math.round(r.width)}x${Math.round(r.height)}`)""")


# The innermost elements that reach past the right edge of the screen (what makes it scroll
# sideways), a few of them.
PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 1
               && ![...e.children].some(c => c.getBoundingClientRect().right > innerWidth + 1))
  .slice(0, 4).map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} `
                        + `"${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30)}"`)"""


def fits_a_phone(page, name: str) -> list[str]:
    """What does not fit a 360 px phone: a sideways scroll, a word broken across lines."""
    width = page.viewport_size["width"]
    overflow = page.evaluate("document.documentElement.scrollWidth")
    problems = []
    if overflow > width:
        problems.append(f"{name}: {overflow} px wide on a {width} px screen, past its edge: "
                        f"{page.evaluate(PAST_THE_EDGE)}")
    broken = broken_words(page)
    return problems + ([f"{name}: words broken across lines: {broken}"] if broken else [])


class SlowAnswers:
    """The answers to the screen's moves held back until released, as on a busy Wi-Fi,
    where the update pushed on the stream often arrives before the move's own answer."""

    def __init__(self, page, server):
        self.held = []
        self.server = server
        page.route(re.compile(r"/act$"), self.hold)

    def hold(self, route) -> None:
        # Sent on from the test's side, which reaches the server at its local address.
        sent = route.request.url.replace(self.server.url, self.server.local_url)
        self.held.append((route, route.fetch(url=sent)))

    def release(self) -> None:
        while self.held:
            route, answer = self.held.pop(0)
            route.fulfill(response=answer)
