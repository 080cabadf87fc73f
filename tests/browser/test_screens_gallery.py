"""The phone app feel, in Chromium: screenshots of the phone (360 x 740) and host (1280 x 800)
screens of every game mid-game and at the end, light and dark, and of the table display
(1920 x 1080) (kept in test-artifacts/); no sideways scroll and no word broken across lines
at 360 px; no console error or warning (a refused inline style included) on any screen of
any game, while its fields are typed into as other phones' moves arrive; finger-sized
controls; the theme follows the phone; no layout jump when a fragment swaps in; the screen
kept awake during play; an installable manifest."""
from __future__ import annotations

import json
import re
import struct
from contextlib import contextmanager

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from companion.games import GAMES
from tests.support.api import Api
from tests.support.browser import (CONTROLS, HOST, PHONE, SOON, STREAM_OPEN_SPY, TAP, TARGETS,
                                   console_errors, fits_a_phone, following, screenshot,
                                   wait_until)
from tests.support.browser_tables import GAME_TABLES, Site, game_table, running_site

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_site(tmp_path_factory.mktemp("gallery")) as site:
        yield site


@pytest.fixture(scope="module")
def production_site(unlimited_production_server):
    """The production server (gunicorn, gevent workers) at the LAN name, with no table yet:
    the screens that moves reach live are looked at where production serves them. Its
    limits are lifted: the gallery makes a table of every game, each with its phones
    joining, in seconds from one address, more joins than a minute allows it."""
    server = unlimited_production_server
    return Site(server.url, server.local_url, server.app)


def test_every_game_mid_game_and_at_the_end_on_phones_and_host_screens(site, new_phone):
    problems, errors = [], []
    for game in GAME_TABLES:
        for phase in ("mid", "end"):
            table = site.tables[game, phase]
            phone = new_phone(**PHONE)
            phone.context.add_cookies(site.cookies(table, site.awaited_token(table)))
            host = phone.context.new_page()
            host.set_viewport_size(HOST)
            errors += [console_errors(phone), console_errors(host)]
            for page, screen, path in ((phone, "phone", ""), (host, "host", "/host")):
                response = page.goto(f"{site.url}/t/{table.code}{path}")
                if response.status >= 500:
                    problems.append(f"{game} {phase} {screen}: answered {response.status}")
                    continue
                expect(page.locator("#panel")).to_be_visible()
                for scheme in ("light", "dark"):
                    page.emulate_media(color_scheme=scheme)
                    name = f"gallery-{game}-{phase}-{screen}-{scheme}"
                    screenshot(page, name)
                    if screen == "phone":
                        problems += fits_a_phone(page, name)
                small = page.evaluate(TARGETS)
                if small:
                    problems.append(f"{game} {phase} {screen}: controls under {TAP} px: {small}")
                if phase == "end":
                    problems += result_headers(page, table, f"{game} {screen}")
            phone.context.close()
    assert not problems, "\n".join(problems)
    reported = [error for page_errors in errors for error in page_errors]
    assert not reported, "\n".join(reported)


# The entries a screen offers now, in its panel: the fields to type into, and the choices
# (radio buttons, drawn by their labels) an entry needs before it can be previewed.
ENTRIES = """() => {
  const shown = e => e.getClientRects().length && !e.disabled && !e.closest('[hidden]');
  const fields = [...document.querySelectorAll('#panel input[type=text], ' +
      '#panel input[type=number], #panel input[type=search], #panel textarea')]
    .filter(e => e.id && shown(e)).map(e => ({id: e.id, type: e.type}));
  const groups = new Map();
  for (const radio of document.querySelectorAll('#panel input[type=radio][id]')) {
    const label = document.querySelector(`label[for="${radio.id}"]`);
    if (label && shown(label) && !radio.disabled) {
      const group = (radio.form ? radio.form.id : '') + '/' + radio.name;
      if (!groups.has(group)) groups.set(group, {checked: false, first: radio.id});
      groups.get(group).checked ||= radio.checked;
    }
  }
  const choices = [...groups.values()].filter(g => !g.checked).map(g => g.first);
  const closed = [...document.querySelectorAll('#panel details:not([open]) > summary')]
    .filter(shown).length;
  return {fields, choices, closed};
}"""
TYPED = {"number": "12", "text": "Bar", "search": "a", "textarea": "Bar"}
ROUNDS = 3  # other phones' moves while a screen is typed into
# The games whose screens mid-game hold a field to type into (the others' moves are taps).
TYPED_MID_GAME = {"big-money", "score-sheet"}


def test_typing_into_every_screen_while_other_phones_move(production_site, new_phone):
    """Every game's phone (a player awaited) and host screen mid-game, and Big Money's market
    cards being typed: every section opened, every field typed into and every choice an
    entry needs made while another phone's move arrives; an entry whose preview offers its
    button is then made, and more moves arrive. No console error or warning on the way:
    no refused inline style, no duplicate ids found during a morph."""
    site = production_site
    api = Api(site.local_url, app=site.app)
    errors, kept, typed_through = [], [], set()
    for game, phase in [(game, "mid") for game in GAME_TABLES] + [("big-money", "market")]:
        table = game_table(api, game, phase)
        phone = new_phone(**PHONE)
        phone.context.add_cookies(site.cookies(table, site.awaited_token(table)))
        host = phone.context.new_page()
        host.set_viewport_size(HOST)
        pages = {"phone": phone, "host": host}
        for screen, page in pages.items():
            errors.append(console_errors(page))
            page.goto(f"{site.url}/t/{table.code}{'/host' if screen == 'host' else ''}")
            expect(page.locator("#panel")).to_be_visible()
        for _ in range(ROUNDS):
            if table.view()["status"] == "finished":
                break
            with another_phone_moving(table, pages) as move:
                for page in pages.values():
                    enter_everything(page, move)
            kept += move.problems
            typed_through |= {game} if move.while_typing else set()
        for page in pages.values():
            confirm = page.locator("[data-preview] button[type=submit]:visible")
            if confirm.count() and table.view()["status"] != "finished":
                version = shown_panel(page).get_attribute("data-version")
                confirm.first.click()
                expect(shown_panel(page)).not_to_have_attribute("data-version", version)
                with another_phone_moving(table, pages) as move:
                    enter_everything(page, move)
                kept += move.problems
        phone.context.close()
    reported = [error for page_errors in errors for error in page_errors]
    assert not reported, "\n".join(reported)
    assert not kept, "\n".join(kept)
    assert typed_through == TYPED_MID_GAME, f"a move arrived mid-word in {typed_through} only"


def enter_everything(page, move: Move) -> None:
    """Open every section of the panel, make every choice an entry needs and type into
    every field, as a player would (the panel may change under the fingers)."""
    for _ in range(OPENED):  # a section may hold another
        if not page.evaluate(ENTRIES)["closed"]:
            break
        unless_gone(page.locator("#panel details:not([open]) > summary:visible").first,
                    lambda summary: summary.click(timeout=GONE_MS))
    entries = page.evaluate(ENTRIES)
    for radio in entries["choices"]:
        unless_gone(page.locator(f'label[for="{radio}"]'),
                    lambda label: label.click(timeout=GONE_MS))
    for field in entries["fields"]:
        box, word = page.locator(f'#{field["id"]}'), TYPED[field["type"]]
        unless_gone(box, lambda box, word=word: box.press_sequentially(word[:1], timeout=GONE_MS))
        if not move.made and box.count():
            move.while_typed(page, field["id"])
        if word[1:]:
            unless_gone(box, lambda box, word=word: box.press_sequentially(word[1:],
                                                                            timeout=GONE_MS))


OPENED = 12  # sections opened at most on one screen
GONE_MS = SOON  # what a tap waits for a control that an update may have just removed


def unless_gone(control, act) -> None:
    """Act on a control, unless an update took it away meanwhile (the step is over)."""
    try:
        act(control)
    except PlaywrightTimeout:
        if control.count():
            raise


def shown_panel(page):
    """The panel (the first, should an update have put a second one inside it: the console
    says so, and the test fails on that)."""
    return page.locator("#panel").first


# The field typed into, once the panel changed under it: gone, or part of another decision
# (its form starts afresh), or kept as it was: focused, holding what was typed.
KEPT_FIELD = """([id, decision, typed]) => {
  const field = document.getElementById(id);
  if (!field) return 'gone';
  const form = field.form || field.closest('form');
  if ((form ? form.getAttribute('data-entry') : null) !== decision) return 'another decision';
  if (document.activeElement === field && field.value === typed) return 'kept';
  return `lost: ${document.activeElement === field ? 'focused' : 'not focused'}, ` +
         `holding "${field.value}" where "${typed}" was typed`;
}"""
# The field's value and the decision its form is for (data-entry).
TYPING = """(id) => { const field = document.getElementById(id);
  const form = field.form || field.closest('form');
  return [field.value, form ? form.getAttribute('data-entry') : null]; }"""


class Move:
    """A bot move of an awaited player, made while a screen's field is half typed
    (`while_typed`); else, on leaving the block, after the typing."""

    def __init__(self, table, pages: dict):
        self.table, self.pages = table, pages
        self.made = self.while_typing = False
        self.problems: list[str] = []

    def make(self) -> None:
        versions = {name: shown_panel(page).get_attribute("data-version")
                    for name, page in self.pages.items()}
        self.table.play(1)
        self.made = True
        for name, page in self.pages.items():
            expect(shown_panel(page)).not_to_have_attribute("data-version", versions[name],
                                                            timeout=SOON)

    def while_typed(self, page, field: str) -> None:
        """The move, made while `field` has the focus and its first letter typed; every
        screen shows it, and the field is as the player left it."""
        typed, decision = page.evaluate(TYPING, field)
        assert page.evaluate(KEPT_FIELD, [field, decision, typed]) == "kept", field
        self.make()
        self.while_typing = True
        found = page.evaluate(KEPT_FIELD, [field, decision, typed])
        if found.startswith("lost"):
            self.problems.append(f"{page.url} #{field}: {found}")


@contextmanager
def another_phone_moving(table, pages: dict):
    """A bot move of an awaited player while the screens are typed into (`Move`); on
    leaving, every screen shows it."""
    move = Move(table, pages)
    yield move
    if not move.made:
        move.make()


def result_headers(page, table, name: str) -> list[str]:
    """The result's columns say what they count, every game's laid out alike."""
    result = table.view()["result"]
    headers = page.locator(".standings thead th").all_inner_texts()
    expected = ["Place", "Player", result["score_label"].capitalize()]
    if headers[:len(expected)] != expected:
        return [f"{name}: the result's columns are {headers}, not {expected}"]
    return []


DISPLAY = {"width": 1920, "height": 1080}
# What a table display shows, read in the page; CONTROLS is everything that could change
# something (none of it belongs on the display, apart from its language picker and the result's
# text to copy, which change nothing).
DISPLAY_FACTS = ("""(controls) => { const turn = document.querySelector('#panel .turn');
  return {turn: turn.textContent.trim(), size: parseFloat(getComputedStyle(turn).fontSize),
          last: document.querySelector('.display-last li').textContent.trim(),
          used: document.querySelector('#panel').getBoundingClientRect().width / innerWidth,
          wide: document.documentElement.scrollWidth,
          controls: [...document.querySelectorAll(controls)]"""
          """.filter(e => !e.closest('.language-bar, .result-text')).length,
          private: document.querySelectorAll('.private').length,
          result: !!document.querySelector('#panel .result')}; }""")


# Read from 3 m: every visible text of the display in type of 24 px or more at 1080p. The
# text nodes under that size (with where they are), the box the panel covers on the screen,
# how far the page reaches (its language picker aside, kept below the first screen), and
# where the result ends.
TV_MIN_TEXT = 24
TV_FACTS = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.data.trim() || !element || element.closest('[hidden], script, style')) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
    const size = parseFloat(style.fontSize);
    if (size < least) small.push(`${node.data.trim().slice(0, 30)} (${size} px, in `
      + [element.tagName.toLowerCase(), ...element.classList].join('.') + ')');
  }
  const panel = document.querySelector('#panel').getBoundingClientRect();
  const seen = (from, to, size) => Math.max(0, Math.min(to, size) - Math.max(from, 0));
  const result = document.querySelector('#panel .result');
  return {small, covered: seen(panel.left, panel.right, innerWidth) / innerWidth
                          * seen(panel.top, panel.bottom, innerHeight) / innerHeight,
          wide: document.documentElement.scrollWidth,
          high: document.querySelector('main').getBoundingClientRect().bottom + scrollY,
          result: result ? result.getBoundingClientRect().bottom : null};
}"""


def test_the_table_display_of_every_game_mid_game_and_at_the_end(site, new_phone):
    """The table display (/d/CODE) at 1920 x 1080, as a TV shows it (screenshots kept), and
    at 1280 x 800: it uses the whole width, says whose turn it is in type of 40 px or more
    and the last event as the public view and log (no token) tell them, gives the result at
    the end, and has nothing that changes the table and no player's private section.

    On the TV its smallest text is 24 px (read from 3 m) and the panel covers most of the
    screen, with nothing past its sides: mid-game the whole table is on the screen; at the
    end the result is, the board following below it."""
    screen = new_phone(**DISPLAY)
    errors = console_errors(screen)
    problems = []
    for game in GAME_TABLES:
        for phase in ("mid", "end"):
            table = site.tables[game, phase]
            name = f"display-{game}-{phase}"
            screen.set_viewport_size(DISPLAY)
            screen.goto(f"{site.url}/d/{table.code}")
            expect(screen.locator(".display-last")).to_be_visible()
            screenshot(screen, name)
            facts = screen.evaluate(DISPLAY_FACTS, CONTROLS)
            view = table.view()
            log = table.api.call("GET", f"/tables/{table.code}/log")[1]["events"]
            names = {p["id"]: p["name"] for p in view["players"]}
            if phase == "end":
                expected = facts["turn"] == "The game is over." and facts["result"]
            else:
                expected = view["waiting_for"] and all(
                    names[p] in facts["turn"] for p in view["waiting_for"])
            if not expected:
                problems.append(f"{name}: the turn reads {facts['turn']!r}")
            if facts["last"] != log[-1]["summary"]:
                problems.append(f"{name}: the last event reads {facts['last']!r}")
            if facts["size"] < 40:
                problems.append(f"{name}: whose turn it is in {facts['size']} px type")
            if facts["used"] < 0.9 or facts["wide"] > DISPLAY["width"]:
                problems.append(f"{name}: {facts['used']:.0%} of the width used, "
                                f"{facts['wide']} px wide")
            tv = screen.evaluate(TV_FACTS, TV_MIN_TEXT)
            if tv["small"]:
                problems.append(f"{name}: text under {TV_MIN_TEXT} px: {tv['small']}")
            if tv["covered"] < 0.8 or tv["wide"] > DISPLAY["width"]:
                problems.append(f"{name}: the panel covers {tv['covered']:.0%} of the screen, "
                                f"the page is {tv['wide']} px wide")
            if phase == "mid" and tv["high"] > DISPLAY["height"]:
                problems.append(f"{name}: the table reaches {tv['high']} px down the screen")
            if phase == "end" and not (tv["result"] and tv["result"] <= DISPLAY["height"]):
                problems.append(f"{name}: the result ends {tv['result']} px down the screen")
            if facts["controls"] or facts["private"]:
                problems.append(f"{name}: {facts['controls']} controls, "
                                f"{facts['private']} private sections")
            screen.set_viewport_size(HOST)
            wide = screen.evaluate("document.documentElement.scrollWidth")
            if wide > HOST["width"]:
                problems.append(f"{name}: {wide} px wide on a {HOST['width']} px screen")
    assert not problems, "\n".join(problems)
    assert not errors, "\n".join(errors)


def test_the_lobby_pages_fit_a_360_px_phone(site, new_phone):
    """Every other screen of every game: the new-table form, the join form, the lobby on the
    phone and the host screen, the history, the rejoin page."""
    phone = new_phone(**PHONE)
    errors = console_errors(phone)
    problems = []

    def visit(path: str) -> None:
        response = phone.goto(site.url + path)
        if response.status >= 400:
            problems.append(f"{path}: answered {response.status}")
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            problems.extend(fits_a_phone(phone, f"{path} [{scheme}]"))
        small = phone.evaluate(TARGETS)
        if small:
            problems.append(f"{path}: controls under {TAP} px: {small}")

    visit(f"/j/{site.tables['big-top', 'lobby'].code}")  # a phone not seated yet
    for path in ["/", "/games", *(f"/new/{game}" for game in GAMES)]:
        visit(path)
    screenshot(phone, "gallery-new-table-phone")
    for game in GAME_TABLES:
        lobby, mid = site.tables[game, "lobby"], site.tables[game, "mid"]
        phone.context.add_cookies(site.cookies(lobby, lobby.tokens["Ann"])
                                  + site.cookies(mid, site.awaited_token(mid)))
        for path in (f"/t/{lobby.code}", f"/t/{lobby.code}/host", f"/r/{lobby.code}",
                     f"/t/{mid.code}/history?screen=host", f"/t/{mid.code}/history?screen=phone"):
            visit(path)
    assert not problems, "\n".join(problems)
    assert not errors, "\n".join(errors)


def test_the_theme_follows_the_phone(site, new_phone):
    table = site.tables["go-big", "mid"]
    colours = {}
    for scheme in ("light", "dark"):
        phone = new_phone(**PHONE)
        phone.emulate_media(color_scheme=scheme)
        phone.context.add_cookies(site.cookies(table, site.awaited_token(table)))
        phone.goto(f"{site.url}/t/{table.code}")
        colours[scheme] = phone.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
            getComputedStyle(document.body).color]""")
        theme = phone.evaluate("""() => [...document.querySelectorAll('meta[name=theme-color]')]
            .filter(m => !m.media || matchMedia(m.media).matches).map(m => m.content)""")
        assert len(theme) == 1, theme
        colours[scheme].append(theme[0])
    light, dark = colours["light"], colours["dark"]
    assert light[0] != dark[0] and light[1] != dark[1] and light[2] != dark[2], colours

    def luminance(css: str) -> float:
        r, g, b = (int(n) for n in re.findall(r"\d+", css)[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert luminance(light[0]) > 200 > 60 > luminance(dark[0])


def test_a_swapped_fragment_keeps_the_layout_and_the_scroll(production_site, new_phone):
    """Cat waits while Ann plays: each move swaps Cat's panel; nothing on Cat's screen
    moves (Cumulative Layout Shift 0 outside her own taps) and her scroll position stays."""
    table = Api(production_site.local_url).table()
    cat = new_phone(**PHONE)
    cat.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens["Cat"],
                              "url": production_site.url}])
    cat.goto(f"{production_site.url}/t/{table.code}")
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ann"))
    cat.evaluate("""() => { window.__shift = 0;
      const add = (entries) => { for (const e of entries) if (!e.hadRecentInput) """
                 """window.__shift += e.value; };
      window.__shifts = new PerformanceObserver(list => add(list.getEntries()));
      window.__shifts.observe({type: 'layout-shift', buffered: false});
      window.__shiftsSoFar = () => { add(window.__shifts.takeRecords()); return window.__shift; };
    }""")
    cat.evaluate("window.scrollTo(0, 120)")
    scrolled = cat.evaluate("window.scrollY")
    assert scrolled > 0
    assert table.act(table.tokens["Ann"], type="play", value=5, count=2)[0] == 200
    expect(cat.locator(".log")).to_contain_text("Ann played a pair of 5s.")
    assert table.act(table.tokens["Ann"], type="draw", source="deck")[0] == 200
    expect(cat.locator(".turn:visible")).to_have_text(re.compile("Waiting for Ben"))
    # A shift is measured when the frame is drawn: two frames on, the update's is counted.
    cat.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert cat.evaluate("window.scrollY") == scrolled
    assert cat.evaluate("window.__shiftsSoFar()") < 0.01


WAKE_LOCK_SPY = ("""window.__wakeLocks = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request(type) { window.__wakeLocks.push(type);
    return Promise.resolve({release() { return Promise.resolve(); }, """
                 """addEventListener() {}}); }}});""")


def test_on_localhost_the_wake_lock_api_keeps_the_screen_awake_during_play_only(site, new_phone):
    """The smoke test on localhost, a secure context: there the Wake Lock API exists and is
    used (every other phone test opens the site at its LAN name over plain HTTP)."""
    playing, finished = site.tables["go-big", "mid"], site.tables["go-big", "end"]
    phone = new_phone(**PHONE)
    phone.context.add_init_script(WAKE_LOCK_SPY)
    phone.context.add_init_script(STREAM_OPEN_SPY)
    phone.context.add_cookies([{**cookie, "url": site.local_url}
                               for table in (playing, finished)
                               for cookie in site.cookies(table, site.awaited_token(table))])
    phone.goto(site.local_url + "/")
    assert phone.evaluate("window.isSecureContext") is True
    assert phone.evaluate("window.__wakeLocks") == []
    for path in ("", "/host"):
        phone.goto(f"{site.local_url}/t/{playing.code}{path}")
        expect(phone.locator("#panel")).to_be_visible()
        wait_until(phone, "window.__wakeLocks.length > 0")
        assert phone.evaluate("window.__wakeLocks") == ["screen"]
        phone.goto(f"{site.local_url}/t/{finished.code}{path}")
        expect(phone.locator(".result")).to_be_visible()
        following(phone)  # the last thing the page does by itself
        assert phone.evaluate("window.__wakeLocks") == []


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_app_is_installable(site, new_phone):
    phone = new_phone(**PHONE)
    phone.goto(site.url + "/")
    href = phone.locator("link[rel=manifest]").get_attribute("href")
    # Playwright's own requests do not go through Chromium's resolver: loopback, by number.
    manifest = json.loads(phone.request.get(site.local_url + href).text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        response = phone.request.get(site.local_url + icon["src"])
        assert response.ok and response.headers["content-type"] == icon["type"]
        width, height = png_size(response.body())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])
    touch = phone.locator("link[rel=apple-touch-icon]").get_attribute("href")
    assert phone.request.get(site.local_url + touch).ok
