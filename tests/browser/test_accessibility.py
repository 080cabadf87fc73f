"""axe-core (from npm, pinned in package.json) over every screen, in the light and the dark
colour scheme: no violation of impact "serious" or "critical" anywhere.

The screens: home, the new-table form of every game, the join form, the rejoin page, past
games, a history page, an error page, the table display, a rejoin's confirmation and code,
the privacy cover of a player without a phone, and the phone and host screens of every
game in the lobby, mid-game (a few bot moves through the API) and at the end (bot moves to
the end), and the result's text once copied.
axe is injected with add_script_tag, which the Content Security Policy (script-src 'self')
would block, so these pages open in a context that bypasses CSP; no page sets inline styles,
so nothing looks different for it. The other browser tests keep the CSP.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games import GAMES
from companion.web.languages import DEFAULT, SHIPPED
from tests.support.api import Api
from tests.support.app import ROOT, LiveServer
from tests.support.browser import HOST, LAN_NAME, PHONE
from tests.support.browser_tables import GAME_TABLES, PHASES, running_site
from tests.support.catalogs import in_test_german

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_site(tmp_path_factory.mktemp("a11y")) as site:
        yield site


# -- axe ------------------------------------------------------------------------------

RUN_AXE = """async (rules) => {
  const results = await axe.run(document, {resultTypes: ["violations"], rules});
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(" ") + (n.failureSummary ? " : " +
      n.failureSummary.replace(/\\s+/g, " ").slice(0, 220) : "")).slice(0, 6)}));
}"""


@pytest.fixture(scope="module")
def axe_context(browser):
    assert AXE.exists(), "axe-core is missing: run `npm ci` (make install does)"
    context = browser.new_context(bypass_csp=True, has_touch=True, viewport=PHONE)
    context.set_default_timeout(10_000)
    yield context
    context.close()


def check(page, url: str, name: str, viewport: dict = PHONE,
          schemes: tuple[str, ...] = ("light", "dark"), rules: dict | None = None) -> list[str]:
    """Open `url` and run axe in each colour scheme (with `rules`, axe's options for some
    of its rules); the serious and critical violations found, one line each."""
    page.set_viewport_size(viewport)
    response = page.goto(url)
    if response is None or response.status >= 500:
        return [f"{name}: {url} answered {response.status if response else 'nothing'}"]
    return axe(page, name, schemes, rules)


def axe(page, name: str, schemes: tuple[str, ...] = ("light", "dark"),
        rules: dict | None = None) -> list[str]:
    """Run axe on the page as it is now, in each colour scheme."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = []
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        for violation in page.evaluate(RUN_AXE, rules or {}):
            if violation["impact"] in BLOCKING:
                found.append(f"{name} [{scheme}] {violation['id']} ({violation['impact']}): "
                             f"{violation['help']}\n      " + "\n      ".join(violation["nodes"]))
    return found


def test_axe_finds_nothing_serious_on_the_lobby_pages(site, axe_context):
    page = axe_context.new_page()
    lobby = site.tables["go-big", "lobby"]
    ended = site.tables["go-big", "end"]
    mid = site.tables["big-top", "mid"]
    axe_context.add_cookies(site.cookies(mid, site.awaited_token(mid)))
    pages = [("home", "/"), ("home, unknown code", "/join?code=QQQQ"),
             *((f"new table {game}", f"/new/{game}") for game in GAMES),
             ("join form", f"/j/{lobby.code}"), ("join form, game started", f"/j/{ended.code}"),
             ("rejoin page", f"/r/{lobby.code}"), ("past games", "/games"),
             ("history, phone", f"/t/{mid.code}/history?screen=phone"),
             ("history, host", f"/t/{mid.code}/history?screen=host"),
             ("error page", "/t/ZZZZ")]
    found = []
    for name, path in pages:
        found += check(page, site.url + path, name)
    for game in ("big-money", "score-sheet"):  # the table display, on a laptop's screen
        for phase in ("lobby", "mid", "end"):
            table = site.tables[game, phase]
            found += check(page, f"{site.url}/d/{table.code}",
                           f"table display, {game} {phase}", HOST)
    # Two fragments swapped in by a tap: a Go Big set's confirmation, and undo's.
    go_big = site.tables["go-big", "mid"]
    axe_context.add_cookies(site.cookies(go_big, site.awaited_token(go_big)))
    found += check(page, f"{site.url}/t/{go_big.code}/host", "go-big host")
    page.get_by_role("button", name="Undo the last move…").click()
    page.locator("#undo-confirm .confirm-box").wait_for()
    found += axe(page, "go-big host, undo confirmation")
    page.goto(f"{site.url}/t/{go_big.code}")
    page.get_by_role("group", name="Choose a set to play").get_by_role("button").first.click()
    page.locator("#confirm .confirm-box").wait_for()
    found += axe(page, "go-big phone, set confirmation")
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_a_rejoin_code_and_the_privacy_cover(site, axe_context):
    """The host device's pages for a lost phone (the confirmation, the rejoin code) and for a
    player without a phone (the cover that hides their screen until they hold the device),
    at a table of this test's own."""
    table = Api(site.local_url).table(players=("Ann", "Ben"), start=False)
    page = axe_context.new_page()
    axe_context.add_cookies(site.cookies(table, table.tokens["Ann"]))
    page.goto(f"{site.url}/t/{table.code}/host")
    page.get_by_label("Add a player without a phone").fill("Cleo")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".players li", has_text="Cleo")).to_contain_text("no phone")
    cleo = next(p["id"] for p in table.view()["players"] if p["name"] == "Cleo")
    status, _ = table.api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 3})
    assert status == 200
    found = check(page, f"{site.url}/t/{table.code}/as/{cleo}", "privacy cover")
    page.goto(f"{site.url}/t/{table.code}/host")
    page.get_by_text("Lost or swapped phone?").click()
    page.get_by_role("link", name="Rejoin code for Ben").click()
    expect(page.get_by_role("heading", name="Give Ben's seat to a new phone?")).to_be_visible()
    found += axe(page, "rejoin confirmation")
    page.get_by_role("button", name="Yes, give the seat to a new phone").click()
    expect(page.locator("svg[aria-label='QR code']")).to_be_visible()
    found += axe(page, "rejoin code")
    page.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", list(GAME_TABLES))
def test_axe_finds_nothing_serious_on_the_phone_and_host_screens(site, axe_context, game):
    page = axe_context.new_page()
    found = []
    extra = {"big-money": ("market",), "score-sheet": ("scorer",)}.get(game, ())
    for phase in PHASES + extra:
        table = site.tables[game, phase]
        token = table.tokens["Ann"] if phase == "lobby" else site.awaited_token(table)
        axe_context.add_cookies(site.cookies(table, token))
        found += check(page, f"{site.url}/t/{table.code}", f"{game} {phase} phone")
        if phase == "market":  # axe saw the cards to pick and their filter
            expect(page.get_by_label("Find a card")).to_be_visible()
        found += check(page, f"{site.url}/t/{table.code}/host", f"{game} {phase} host", HOST)
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_result_text_once_copied(site, axe_context):
    """The result's text field, its Copy (and Share, where the browser has a share sheet)
    and what Copy said, on a phone and on the table display."""
    table = site.tables["go-big", "end"]
    page = axe_context.new_page()
    axe_context.add_cookies(site.cookies(table, table.tokens["Ann"]))
    found = []
    for name, path, viewport in (("phone", f"/t/{table.code}", PHONE),
                                 ("table display", f"/d/{table.code}", TV)):
        page.set_viewport_size(viewport)
        page.goto(site.url + path)
        page.get_by_role("button", name="Copy").click()
        expect(page.locator("#result-text-said")).not_to_be_empty()
        found += axe(page, f"go-big end {name}, its result copied")
    page.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", [language for language in SHIPPED if language != DEFAULT])
def test_axe_finds_nothing_serious_in_every_language(site, axe_context, language):
    """Every game's phone, host screen and table display mid-game and at the end, and the
    lobby pages, read in each shipped language (its longer words, its own markup). The
    colours are the same in every language: the light scheme is enough here, and their
    contrast (axe's slowest rule) is checked in English."""
    page = axe_context.new_page()
    axe_context.add_cookies([{"name": "companion_language", "value": language,
                              "url": site.url}])
    lobby = site.tables["big-top", "lobby"]
    pages = [("home", "/", PHONE), ("past games", "/games", PHONE),
             ("join form", f"/j/{lobby.code}", PHONE), ("rejoin page", f"/r/{lobby.code}", PHONE),
             *((f"new table {game}", f"/new/{game}", PHONE) for game in GAMES)]
    for game in GAME_TABLES:
        for phase in ("mid", "end"):
            table = site.tables[game, phase]
            axe_context.add_cookies(site.cookies(table, site.awaited_token(table)))
            pages += [(f"{game} {phase} phone", f"/t/{table.code}", PHONE),
                      (f"{game} {phase} host", f"/t/{table.code}/host", HOST),
                      (f"{game} {phase} display", f"/d/{table.code}", TV)]
    found = []
    for name, path, viewport in pages:
        found += check(page, site.url + path, f"[{language}] {name}", viewport, ("light",),
                       {"color-contrast": {"enabled": False}})
        assert page.evaluate("document.documentElement.lang") == language, name
    page.close()
    axe_context.clear_cookies()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_replays_and_a_refused_record(site, axe_context):
    """Every game's replay at its start, mid-game and at its end, on a phone and on a TV;
    and the page that says why a record file did not open."""
    page = axe_context.new_page()
    found = []
    for game in GAME_TABLES:
        table = site.tables[game, "end"]
        moves = int(page.goto(f"{site.url}/t/{table.code}/replay") and
                    page.locator("#replay-slider").get_attribute("max"))
        for step in (0, moves // 2, moves):
            url = f"{site.url}/t/{table.code}/replay?step={step}"
            found += check(page, url, f"{game} replay, move {step}")
            found += check(page, url, f"{game} replay on a TV, move {step}", TV)
    page.goto(f"{site.url}/games")
    page.get_by_label("Record file").set_input_files(files=[{
        "name": "record.json", "mimeType": "application/json", "buffer": b"{not json"}])
    page.get_by_role("button", name="Open the record").click()
    expect(page.get_by_role("alert")).to_contain_text("not valid JSON")
    found += axe(page, "a refused record")
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_score_sheets_form_and_history(site, axe_context):
    """The score sheet's new-table form with saved sheets and a tie-break chain being
    ordered, the form refused and shown again, and past games with sheets' totals."""
    api = Api(client=site.app.test_client())
    api.table("score-sheet", start=False, options={
        "name": "Wingspan", "categories": ["Birds", "Eggs"],
        "tiebreaks": [{"by": "category", "category": "Birds", "most": True}]})
    api.table("score-sheet", players=("Ann", "Ben"),
              options={"name": "Golf", "rounds": 2, "lowest_wins": True}).finish()
    page = axe_context.new_page()
    found = check(page, f"{site.url}/new/score-sheet", "score sheet form, saved sheets")
    page.get_by_label("Tie-break 1", exact=True).select_option(label="Fewest in a category")
    expect(page.get_by_label("Category of tie-break 1")).to_be_visible()
    found += axe(page, "score sheet form, a category tie-break")
    page.get_by_label("Game", exact=True).fill("Wingspan")
    page.get_by_label("Categories").fill("Birds\nbirds")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("alert")).to_contain_text("twice")
    found += axe(page, "score sheet form, refused")
    found += check(page, f"{site.url}/games", "past games with score sheets")
    expect(page.get_by_role("region", name="Score sheets")).to_be_visible()
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_big_moneys_rules_page(site, axe_context):
    """Big Money's rules page on a phone, on its own and opened from a table (its setup
    checklist), fitting 360 px."""
    table = site.tables["big-money", "mid"]
    page = axe_context.new_page()
    found = check(page, f"{site.url}/rules/big-money", "big-money rules")
    found += check(page, f"{site.url}/rules/big-money?table={table.code}#setup",
                   "big-money rules, a table's setup")
    expect(page.locator("#setup .checklist li").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_a_sheet_of_bids(site, axe_context):
    """A Wizard sheet of secret bids: a phone's bid form and its secret bid, the tricks form
    with the tricks that do not add up, the host screen and the table display."""
    table = Api(site.local_url).table("score-sheet", players=("Ann", "Ben"), options={
        "name": "Wizard", "bids": "wizard", "secret": True, "dealer": True, "rounds": 2})
    page = axe_context.new_page()
    axe_context.add_cookies(site.cookies(table, table.tokens["Ann"]))
    found = check(page, f"{site.url}/t/{table.code}", "bids phone, bid form")
    assert table.act(table.tokens["Ann"], type="bid", round=1, bid=1)[0] == 200
    found += check(page, f"{site.url}/t/{table.code}", "bids phone, a secret bid")
    assert table.act(table.tokens["Ben"], type="bid", round=1, bid=1)[0] == 200
    for name in ("Ann", "Ben"):
        assert table.act(table.tokens[name], type="enter", round=1, tricks=1)[0] == 200
    found += check(page, f"{site.url}/t/{table.code}", "bids phone, tricks off")
    expect(page.locator(".tricks-off")).to_be_visible()
    found += check(page, f"{site.url}/t/{table.code}/host", "bids host, tricks off", HOST)
    found += check(page, f"{site.url}/d/{table.code}", "bids display, tricks off", TV)
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_score_sheets_rules(site, axe_context):
    """The score sheet's rules page on a phone: on its own, opened from a table (its setup
    for that table's options), and read in German."""
    table = Api(site.local_url).table("score-sheet", players=("Ann", "Ben", "Cat"), start=False,
                                      options={"name": "Wizard", "bids": "wizard",
                                               "dealer": True, "rounds": 10})
    page = axe_context.new_page()
    found = check(page, f"{site.url}/rules/score-sheet", "score sheet rules")
    found += check(page, f"{site.url}/rules/score-sheet?table={table.code}",
                   "score sheet rules, a table's setup")
    expect(page.locator("#setup .checklist li")).to_have_count(5)
    axe_context.add_cookies([{"name": "companion_language", "value": "de", "url": site.url}])
    found += check(page, f"{site.url}/rules/score-sheet#bids", "[de] score sheet rules",
                   schemes=("light",))
    axe_context.clear_cookies()
    page.close()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_table_clock(site, axe_context):
    """A bank running short (amber) on the awaited phone, the others' small, the host's
    Pause, the paused clock and the table display's."""
    api = Api(client=site.app.test_client())
    table = api.table("go-big", clock={"mode": "bank", "bank_seconds": 60,
                                       "increment_seconds": 5, "warn_seconds": 600})
    axe_context.add_cookies(site.cookies(table, site.awaited_token(table)))
    page = axe_context.new_page()
    found = check(page, f"{site.url}/t/{table.code}", "clock, phone")
    expect(page.locator(".clock-own")).to_have_class(re.compile(r"\bwarn\b"))
    found += check(page, f"{site.url}/t/{table.code}/host", "clock, host", HOST)
    page.get_by_role("button", name="Pause the clock").click()
    expect(page.get_by_role("button", name="Resume the clock")).to_be_visible()
    found += axe(page, "clock, host, paused")
    found += check(page, f"{site.url}/d/{table.code}", "clock, display", TV)
    page.close()
    assert not found, "\n".join(found)



def test_axe_finds_nothing_serious_on_the_big_top_rules_page(site, axe_context):
    """Big Top's rules page on a phone: alone, and opened from a table at the section of its
    step with that table's checklist; in English and in German, never wider than the phone."""
    page = axe_context.new_page()
    mid = site.tables["big-top", "mid"]
    found = check(page, f"{site.url}/rules/big-top", "big-top rules")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    found += check(page, f"{site.url}/rules/big-top?table={mid.code}#turn",
                   "big-top rules from a table")
    expect(page.locator("#setup .checklist li").first).to_be_visible()
    axe_context.add_cookies([{"name": "companion_language", "value": "de", "url": site.url}])
    found += check(page, f"{site.url}/rules/big-top", "[de] big-top rules", PHONE, ("light",))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
    axe_context.clear_cookies()
    assert not found, "\n".join(found)

# -- announcements and focus ------------------------------------------------------------

def test_turn_changes_are_announced_to_screen_readers(live_server, new_phone):
    """The live region sits outside the swapped panel (a region replaced with its content is
    not announced): it says "Your turn!" on the phone whose turn comes, and the end."""
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table(options={"copies_per_value": 4})  # a short game
    phones = {}
    for name in ("Ann", "Ben", "Cat"):
        phone = new_phone()
        phone.context.add_cookies([{"name": f"companion_{table.code}",
                                    "value": table.tokens[name], "url": live_server.url}])
        phone.goto(f"{live_server.url}/t/{table.code}")
        phones[name] = phone
    ben, cat = phones["Ben"], phones["Cat"]
    announcer = ben.locator("#announcer")
    assert announcer.get_attribute("aria-live") == "assertive"
    assert ben.locator("#panel #announcer").count() == 0
    expect(announcer).to_be_empty()
    first_set = table.view(table.tokens["Ann"])["actions"][0]["sets"][0]
    assert table.act(table.tokens["Ann"], type="play", **first_set)[0] == 200
    assert table.act(table.tokens["Ann"], type="draw", source="deck")[0] == 200
    expect(announcer).to_have_text("Your turn!")
    expect(cat.locator(".turn:visible")).to_have_text("Waiting for Ben.")
    expect(cat.locator("#announcer")).to_be_empty()  # a turn that is not hers stays quiet
    table.finish()
    for phone in phones.values():
        expect(phone.locator("#announcer")).to_have_text("The game is over.")


def test_the_focus_order_follows_the_screen_and_shows(live_server, new_phone):
    """Tab from the top of Ann's phone: the moves come first, right after the banner, and
    every stop is further down the screen (or right of the last on its row) and visibly
    outlined."""
    table = Api(live_server.local_url).table(seed=7)
    ann = new_phone()
    ann.context.add_cookies([{"name": f"companion_{table.code}", "value": table.tokens["Ann"],
                              "url": live_server.url}])
    ann.goto(f"{live_server.url}/t/{table.code}")
    stops = []
    for _ in range(40):
        ann.keyboard.press("Tab")
        stop = ann.evaluate("""() => { const e = document.activeElement;
            if (!e || e === document.body) return null;
            const r = e.getBoundingClientRect(), s = getComputedStyle(e);
            return {text: (e.getAttribute('aria-label') || e.textContent).trim().slice(0, 30),
                    top: r.top + scrollY, left: r.left, outline: s.outlineStyle !== 'none'
                      && parseFloat(s.outlineWidth) >= 2}; }""")
        if stop is None or (stops and stop == stops[0]):
            break
        stops.append(stop)
    names = [stop["text"] for stop in stops]
    assert names[0] == "Companion" and names[1].startswith("Play "), names
    for before, after in zip(stops, stops[1:]):
        assert (after["top"] > before["top"] + 1
                or (abs(after["top"] - before["top"]) <= 1 and after["left"] > before["left"])), \
            (before, after)
    assert all(stop["outline"] for stop in stops), [s for s in stops if not s["outline"]]
    assert "History" in names


def test_axe_finds_nothing_serious_on_the_language_picker(axe_context, app_with, tmp_path):
    """With more than English offered (a test catalog), the picker at the foot of every
    screen: on the home page in English and in German."""
    server = LiveServer(app_with(**in_test_german(tmp_path / "catalogs")), LAN_NAME).start()
    try:
        page = axe_context.new_page()
        found = check(page, server.url + "/", "home with the picker")
        page.get_by_role("group", name="Language").get_by_role("button", name="Deutsch").click()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        found += axe(page, "home with the picker, in German")
        page.close()
        axe_context.clear_cookies()
    finally:
        server.stop()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_the_rules_of_nothing_beats_a_large(site, axe_context):
    """Its rules page on a phone in every language, and opened from a table (that table's
    setup checklist added), in both colour schemes."""
    table = site.tables["nothing-beats-a-large", "mid"]
    page = axe_context.new_page()
    found = check(page, f"{site.url}/rules/nothing-beats-a-large?table={table.code}",
                  "nothing-beats-a-large rules, from a table")
    expect(page.locator("#setup .checklist li").first).to_be_visible()
    for language in SHIPPED:
        axe_context.add_cookies([{"name": "companion_language", "value": language,
                                  "url": site.url}])
        found += check(page, f"{site.url}/rules/nothing-beats-a-large",
                       f"[{language}] nothing-beats-a-large rules", PHONE, ("light",))
    page.close()
    axe_context.clear_cookies()
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_go_bigs_rules_and_its_why_not_lines(site, axe_context):
    """Go Big's rules page, alone and opened from a table (with its setup), and a phone's
    "why not" lines with their rule links, at a phone's width and no wider."""
    page = axe_context.new_page()
    lobby = site.tables["go-big", "lobby"]
    found = check(page, f"{site.url}/rules/go-big", "go-big rules")
    found += check(page, f"{site.url}/rules/go-big?table={lobby.code}#setup",
                   "go-big rules, a table's setup")
    expect(page.locator("#setup .checklist li").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    mid = site.tables["go-big", "mid"]
    axe_context.add_cookies(site.cookies(mid, site.awaited_token(mid)))
    page.goto(f"{site.url}/t/{mid.code}")
    expect(page.locator("ul.why-not .rule-link").first).to_be_visible()
    found += axe(page, "go-big phone, why not")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
    axe_context.clear_cookies()
    assert not found, "\n".join(found)
