"""Six phones, the table display and a watcher who reads German follow one Go Big table, in
Chromium at the production server's LAN address. Every move is tapped on the phone of the
player whose turn it is, and after each one every screen shows it, and shows what a person
at the table expects to read on it: only one's own name marked " (you)", "Your turn" and
the moves (exactly those the rules allow) on the one phone whose turn it is, whose turn it
is on the display and the watcher's screen, each in its own language, and no one's bank
but one's own."""
from __future__ import annotations

import re

from flask_babel import force_locale, gettext
from playwright.sync_api import expect

from companion.i18n.messages import names_listed
from companion.web.languages import NAMES
from tests.support.api import Api, log_in
from tests.support.browser import (PHONE, STREAM_OPEN_SPY, console_errors, following, seat_phone,
                                   wait_until)
from tests.support.catalogs import english_in

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
TV = {"width": 1920, "height": 1080}
# Each turn in order: the set played (count, value), then where the player draws from.
# The single 3 and the single 1 each beat the nearest higher single on display; the first
# player's trio and the second's pair survive a round, so both are banked by the end.
TURNS = ((3, 7, "deck"), (2, 6, "deck"), (1, 5, "market"), (1, 6, "deck"), (1, 3, "deck"),
         (2, 7, "market"), (1, 1, "deck"))
UNDO = "Undo the last move…"
# The text a person sees, a line per block of the page: what is hidden, or clipped to a
# pixel for screen readers only, left out; what a style writes before or after an element
# put in.
SEEN_TEXT = """() => {
  const lines = [];
  let block = null;
  const blockOf = element => {
    let e = element;
    while (e.parentElement && /^(inline|contents)/.test(getComputedStyle(e).display)) {
      e = e.parentElement;
    }
    return e;
  };
  const write = (element, text) => {
    const own = blockOf(element);
    if (own !== block || !lines.length) { lines.push(''); block = own; }
    lines[lines.length - 1] += text;
  };
  const styled = (element, where) => {
    const written = /^"(.*)"$/.exec(getComputedStyle(element, where).content);
    if (written) write(element, written[1]);
  };
  const visit = node => {
    if (node.nodeType === Node.TEXT_NODE) { write(node.parentElement, node.data); return; }
    if (node.nodeType !== Node.ELEMENT_NODE || node.matches('script, style')) return;
    const style = getComputedStyle(node), box = node.getBoundingClientRect();
    if (style.display === 'contents') { node.childNodes.forEach(visit); return; }  // no box
    if (!node.checkVisibility({visibilityProperty: true, opacityProperty: true})) return;
    if (style.overflow !== 'visible' && (box.width <= 1 || box.height <= 1)) return;
    styled(node, '::before');
    node.childNodes.forEach(visit);
    styled(node, '::after');
  };
  visit(document.body);
  return lines.map(line => line.replace(/\\s+/g, ' ').trim()).filter(Boolean).join('\\n');
}"""
BUTTON = re.compile(r'^\s*- button "((?:[^"\\]|\\.)*)"', re.M)


def seen(page) -> str:
    return page.evaluate(SEEN_TEXT)


def buttons(page) -> set[str]:
    """The names of the buttons the page shows, as a screen reader reads them."""
    return set(BUTTON.findall(page.locator("body").aria_snapshot()))


def said(app, language: str, text: str, **values) -> str:
    """`text` as the app says it in `language`, from its own catalogs."""
    with app.test_request_context("/"), force_locale(language):
        return gettext(text, **values)


def waiting_for(app, language: str, player: int, names: dict) -> str:
    with app.test_request_context("/"), force_locale(language):
        return gettext("Waiting for %(names)s.", names=names_listed([player], names))


def last_event(server, table, token: str | None, language: str = "en") -> str:
    return log_in(server, table, token, language)[-1]


def watcher_in_german(new_phone, server, code: str):
    """A phone that did not join opens the join link, picks German, and watches."""
    page = new_phone(**PHONE)
    page.context.add_init_script(STREAM_OPEN_SPY)
    page.goto(f"{server.url}/j/{code}")
    page.get_by_role("button", name=NAMES["de"]).click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("link", name=said(server.app, "de", "Watch the table")).click()
    expect(page).to_have_url(f"{server.url}/d/{code}")
    return page


def bank_entries(private: dict) -> list[str]:
    return [f"{count}×{value}" for value, count in private["bank"].items()]


def test_six_phones_a_display_and_a_german_watcher_follow_every_move(production_server,
                                                                     new_phone):
    server, app = production_server, production_server.app
    table = Api(server.local_url).table("go-big", players=PLAYERS, seed=3)
    names = table.names
    phones = {name: seat_phone(new_phone, server.url, table, name) for name in PLAYERS}
    display = new_phone(**TV)
    display.context.add_init_script(STREAM_OPEN_SPY)
    display.goto(f"{server.url}/d/{table.code}")
    watcher = watcher_in_german(new_phone, server, table.code)
    pages = [*phones.values(), display, watcher]
    errors = [console_errors(page) for page in pages]
    for page in pages:
        following(page)
    languages = set(NAMES.values())
    you, du = said(app, "en", " (you)").strip(), said(app, "de", " (you)").strip()
    assert you != du

    def every_screen_shows_it(mover: str) -> None:
        view = table.view()
        on_turn = names[view["waiting_for"][0]]
        for name, phone in phones.items():
            newest = phone.get_by_role("region", name="Last events").get_by_role("listitem")
            expect(newest.first).to_have_text(last_event(server, table, table.tokens[name]))
        expect(display.get_by_role("region", name="The last event")).to_contain_text(
            last_event(server, table, None))
        expect(watcher.get_by_role("region", name=said(app, "de", "The last event"))
               ).to_contain_text(last_event(server, table, None, "de"))

        for name, phone in phones.items():
            text = seen(phone)
            assert text.count(you) == 1 and f"{name} {you}" in text, (name, text)
            own = table.view(table.tokens[name])
            assert re.findall(r"\d+×\d+", text) == bank_entries(own["private"]), (name, text)
            assert not re.search(r"=\s*\d", text), (name, text)  # no bank's total revealed
            expect(phone.get_by_role("region", name="Your secrets")).to_contain_text(
                f"Your bank: {own['private']['bank_total']}")
            shown = buttons(phone) - languages - ({UNDO} if name == mover else set())
            if name == on_turn:
                assert "Your turn!" in text, (name, text)
                assert shown == moves_offered(own), (name, shown)
            else:
                assert "Your turn" not in text, (name, text)
                assert waiting_for(app, "en", view["waiting_for"][0], names) in text, name
                assert not shown, (name, shown)
        for page, language in ((display, "en"), (watcher, "de")):
            text = seen(page)
            assert you not in text and du not in text, (language, text)
            assert "Your turn" not in text and said(app, language, "Your turn!") not in text
            assert waiting_for(app, language, view["waiting_for"][0], names) in text, text
            assert not re.findall(r"\d+×\d+", text) and not re.search(r"=\s*\d", text), text
            assert not buttons(page) - languages, (language, buttons(page))
        german = seen(watcher)
        assert not english_in(german, "de"), english_in(german, "de")

    def moves_offered(own: dict) -> set[str]:
        (action,) = own["actions"]
        if action["type"] == "play":
            return {f"Play {s['count']} × {s['value']}" for s in action["sets"]}
        return {said(app, "en", f"From the {source} (%(count)s)",
                     count=own["state"][source]) for source in action["source"]}

    def made(phone, before: int) -> None:
        """Wait until the mover's phone holds a version after `before`: the move is made,
        and what every screen should show is read from the table after it."""
        wait_until(phone, "Number(document.getElementById('panel')"
                          f".getAttribute('data-version')) > {before}")

    for count, value, source in TURNS:
        name = names[table.view()["waiting_for"][0]]
        phone = phones[name]
        phone.get_by_role("button", name=f"Play {count} × {value}", exact=True).click()
        before = table.view()["version"]
        phone.get_by_role("button", name="Confirm").click()
        made(phone, before)
        every_screen_shows_it(name)
        before = table.view()["version"]
        phone.get_by_role("button", name=re.compile(f"^From the {source} ")).click()
        made(phone, before)
        every_screen_shows_it(name)

    banks = sorted(seat["bank_cards"] for seat in table.view()["state"]["seats"])
    assert banks == [0, 0, 0, 0, 2, 3], banks  # two banks, each seen only on its phone
    reported = [error for page_errors in errors for error in page_errors]
    assert not reported, "\n".join(reported)
