"""A mixed table, in Chromium at the production server's LAN address: Ann's phone reads
German, Ben's Polish and the TV's table display English. After a move each sees the event,
the history and the pushed panel in its own language; Polish counts 1, 2 and 5 cards in
its three forms (karta, karty, kart) as the banks fill."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api, log_in
from tests.support.browser import PHONE, console_errors, screenshot
from tests.support.catalogs import english_in

TV = {"width": 1920, "height": 1080}
# Go Big, two players: who plays which set on their turn (a set of one, of two, of three:
# none beats another, so each stays on its display and is banked at its owner's next
# turn), each followed by a draw from the deck. The banks fill 1, then 2 and 2, then 5.
SETS = ((1, 1), (2, 2), (3, 1), (4, 3), (5, 1))


def screen_of(new_phone, site_url: str, path: str, language: str, cookies: list,
              size: dict = PHONE):
    page = new_phone(**size)
    page.context.add_cookies(cookies + [
        {"name": "companion_language", "value": language, "url": site_url}])
    page.goto(site_url + path)
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


def test_a_german_phone_a_polish_phone_and_an_english_tv_read_one_game(production_server,
                                                                       new_phone):
    server = production_server
    table = Api(server.local_url).table("go-big", players=("Ann", "Ben"), seed=5)
    url = server.url
    ann = screen_of(new_phone, url, f"/t/{table.code}", "de",
                    [{"name": f"companion_{table.code}", "value": table.tokens["Ann"],
                      "url": url}])
    ben = screen_of(new_phone, url, f"/t/{table.code}", "pl",
                    [{"name": f"companion_{table.code}", "value": table.tokens["Ben"],
                      "url": url}])
    tv = screen_of(new_phone, url, f"/d/{table.code}", "en", [], TV)
    errors = [console_errors(page) for page in (ann, ben, tv)]
    screens = {"de": (ann, table.tokens["Ann"]), "pl": (ben, table.tokens["Ben"]),
               "en": (tv, None)}

    def one_move(action: dict) -> None:
        status, body = table.act_for_turn(**action)
        assert status == 200, body
        version = str(table.view()["version"])
        for language, (page, token) in screens.items():
            expect(page.locator(f"#panel[data-version='{version}']")).to_have_count(1)
            # The event: the newest line of the panel's log, as the API says it in that
            # language, and the English one only on the English screen.
            said = log_in(server, table, token, language)[-1]
            english = log_in(server, table, token, "en")[-1]
            expect(page.locator("#panel")).to_contain_text(said)
            if language != "en":
                assert said != english, (language, said)
                text = page.locator("#panel").inner_text()
                assert not english_in(text, language), (language, english_in(text, language))

    for value, count in SETS:
        one_move({"type": "play", "value": value, "count": count})
        one_move({"type": "draw", "source": "deck"})
        banks = [seat["bank_cards"] for seat in table.view()["state"]["seats"]]
        if sorted(banks) == [0, 1]:
            expect(ben.locator("#panel")).to_contain_text("1 karta")
        if banks == [2, 2]:
            expect(ben.locator("#panel")).to_contain_text("2 karty")
    assert sorted(table.view()["state"]["seats"][i]["bank_cards"] for i in (0, 1)) == [2, 5]
    expect(ben.locator("#panel")).to_contain_text("5 kart")
    expect(ben.locator("#panel")).to_contain_text("2 karty")
    for language, (page, _) in screens.items():
        screenshot(page, f"languages/mixed-table-{language}")

    # The history: each screen's, in its own language, as the API's log.
    for language, (page, token) in (("de", screens["de"]), ("pl", screens["pl"])):
        page.goto(f"{url}/t/{table.code}/history?screen=phone")
        lines = [line.strip() for line in page.locator(".history li > span").all_inner_texts()]
        assert lines == log_in(server, table, token, language)[::-1], language
        assert not english_in("\n".join(lines), language)
    reported = [error for page_errors in errors for error in page_errors]
    assert not reported, "\n".join(reported)
