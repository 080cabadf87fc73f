"""Every screen of every game in every shipped language, in Chromium at a phone's 360 x 740
and a TV's 1920 x 1080: the lobby, the new-table form, the join and rejoin pages, the phone,
host and display screens mid-game and at the end, the history, the result and the replay,
the game's rules page (opened from a table: its setup too), and /games. On each: the page
says its language, no console error, no sideways scroll, no word broken across lines,
nothing cut off, on the phone nothing wider than its own box (a table that scrolls sideways
inside the page included), controls keep their tap size, the end screens show the result
(and the finished score sheet its last round by category), no English sentence is left (the
page's text is compared with the English source of every message whose translation
differs), and no word or phrase is said twice in a row. Every part of a page is read: each
`<details>` (an options form's editors, a box table) is opened first. Screenshots per
language land in test-artifacts/languages/."""
from __future__ import annotations

import pytest

from companion.games import BUILT_IN
from companion.web.languages import DEFAULT, SHIPPED
from tests.support.browser import (PHONE, TAP, TARGETS, console_errors, fits_a_phone,
                                   screenshot)
from tests.support.browser_tables import GAME_TABLES, running_site
from tests.support.catalogs import english_in
from tests.support.wording import doubled

TRANSLATED = [language for language in SHIPPED if language != DEFAULT]
TV = {"width": 1920, "height": 1080}

# Text cut off by its box: an element that hides its overflow (or ends it with an ellipsis)
# while its content is wider or taller than it.
CUT_OFF = ("""() => [...document.querySelectorAll('body *')]
  .filter(e => e.getClientRects().length && !e.closest('svg, [hidden], .visually-hidden'))
  .filter(e => { const s = getComputedStyle(e);
                 return ['hidden', 'clip'].includes(s.overflowX)"""
           """ || s.textOverflow === 'ellipsis'; })
  .filter(e => e.clientWidth > 2 && (e.scrollWidth > e.clientWidth + 1
                                     || e.scrollHeight > e.clientHeight + 1))
  .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}: `
            + e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40))""")

# Content wider than its own box, on a phone: whether the box hides the rest, lets it spill
# out, or scrolls it sideways inside the page (a table a player must swipe to read its last
# columns of). The innermost such boxes, with what they hold.
WIDER_THAN_ITS_BOX = """() => {
  const wide = [...document.querySelectorAll('main *')]
    .filter(e => e.getClientRects().length && !e.closest('svg, [hidden], .visually-hidden'))
    .filter(e => e.clientWidth > 2 && e.scrollWidth > e.clientWidth + 1);
  return wide.filter(e => !wide.some(other => other !== e && e.contains(other)))
    .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} `
              + `(${e.scrollWidth} px in ${e.clientWidth}): `
              + e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40));
}"""

# What a reader reads on the page: its text, and the words of its controls' labels.
READ = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder], input[type=submit]')]
     .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
                e.getAttribute('placeholder'), e.type === 'submit' ? e.value : null]
               .filter(Boolean).join(' '))].join('\\n').replace(/\\s+/g, ' ')"""

# The same, a line at a time (a line of text, or one control's label): a word said twice
# is looked for within a line, never across two.
READ_LINES = """() => [...document.body.innerText.split('\\n'),
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')]
     .flatMap(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
                    e.getAttribute('placeholder')])].filter(Boolean)"""

OPEN_EVERY_PART = "document.querySelectorAll('details').forEach(d => { d.open = true; })"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_site(tmp_path_factory.mktemp("languages-gallery")) as site:
        yield site


GROUPS = ("pages",) + tuple(GAME_TABLES)

# What a screen must show for its check to mean anything: the result at the end, and the
# finished score sheet's last round by category (its widest table).
END_SCREENS = ("-end-phone", "-end-host", "-end-display")
SHEET_BY_CATEGORY = ".sheet-table.detail caption"


def must_show(name: str) -> list[str]:
    if not name.endswith(END_SCREENS):
        return []
    return [".result"] + ([SHEET_BY_CATEGORY] if name.startswith("score-sheet-") else [])


def screens(site, group: str) -> list[tuple[str, str, list]]:
    """The screens of a group (the pages outside a table, or one game's): each one's name,
    path and the cookies it is opened with."""
    if group == "pages":
        return ([("home", "/", []), ("games", "/games", [])]
                + [(f"new-{game.id}", f"/new/{game.id}", []) for game in BUILT_IN])
    game = group
    lobby, mid, end = (site.tables[game, phase] for phase in ("lobby", "mid", "end"))
    found = [
        (f"{game}-join", f"/j/{lobby.code}", []),
        (f"{game}-lobby-phone", f"/t/{lobby.code}", site.cookies(lobby, lobby.tokens["Ann"])),
        (f"{game}-lobby-host", f"/t/{lobby.code}/host", site.cookies(lobby, lobby.host)),
        (f"{game}-rejoin", f"/r/{lobby.code}", []),
        (f"{game}-rules", f"/rules/{game}?table={lobby.code}", []),
    ]
    for phase, table in (("mid", mid), ("end", end)):
        seated = site.cookies(table, site.awaited_token(table))
        found += [
            (f"{game}-{phase}-phone", f"/t/{table.code}", seated),
            (f"{game}-{phase}-host", f"/t/{table.code}/host", seated),
            (f"{game}-{phase}-display", f"/d/{table.code}", []),
            (f"{game}-{phase}-history", f"/t/{table.code}/history?screen=phone", seated),
        ]
    return found + [(f"{game}-end-replay", f"/t/{end.code}/replay?step=1", [])]


@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_screen_reads_in_its_language_and_fits(site, new_phone, language, group):
    problems = []
    page = new_phone(**PHONE)
    errors = console_errors(page)
    page.context.add_cookies([{"name": "companion_language", "value": language,
                               "url": site.url}])
    for name, path, cookies in screens(site, group):
        page.context.add_cookies(cookies)
        page.set_viewport_size(PHONE)
        response = page.goto(site.url + path)
        if response.status >= 400:
            problems.append(f"{name}: answered {response.status}")
            continue
        said = page.evaluate("document.documentElement.lang")
        if said != language:
            problems.append(f"{name}: the page says lang={said!r}")
        for part in must_show(name):
            if not page.locator(part).first.is_visible():
                problems.append(f"{name}: {part} not shown")
        page.evaluate(OPEN_EVERY_PART)
        left = english_in(page.evaluate(READ), language)
        if left:
            problems.append(f"{name}: English left: {left[:5]}")
        twice = [found for line in page.evaluate(READ_LINES) for found in doubled(line)]
        if twice:
            problems.append(f"{name}: said twice: {twice[:5]}")
        for size, screen in ((PHONE, "phone"), (TV, "tv")):
            page.set_viewport_size(size)
            shot = f"{name}-{screen}"
            if screen == "phone" or "display" in name:  # (a TV's picture of the TV's screens)
                screenshot(page, f"languages/{language}/{shot}")
            if screen == "phone":
                problems += fits_a_phone(page, f"{shot}")
                wide = page.evaluate(WIDER_THAN_ITS_BOX)
                if wide:
                    problems.append(f"{shot}: wider than its box: {wide[:5]}")
            elif page.evaluate("document.documentElement.scrollWidth") > size["width"]:
                problems.append(f"{shot}: wider than the screen")
            cut = page.evaluate(CUT_OFF)
            if cut:
                problems.append(f"{shot}: cut off: {cut[:5]}")
            small = page.evaluate(TARGETS)
            if small:
                problems.append(f"{shot}: controls under {TAP} px: {small}")
    assert not problems, f"[{language}]\n" + "\n".join(problems)
    assert not errors, "\n".join(errors)
