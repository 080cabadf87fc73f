"""Undo's confirmation in Chromium at http://table.lan:PORT on a phone (360 x 740): it
always has a way back that takes nothing back, with the script and without it, in every
language."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import console_errors, first_move

LANGUAGES = ("en", "de", "fr", "es", "pl")


def a_table_with_one_move(live_server):
    table = Api(live_server.local_url).table(seed=4)
    awaited = table.view()["waiting_for"][0]
    name = next(name for name, pid in table.ids.items() if pid == awaited)
    first_move(table, name)
    return table


def test_cancelling_an_undo_on_the_host_screen_takes_nothing_back(live_server, browser):
    table = a_table_with_one_move(live_server)
    version = table.view()["version"]
    for language in LANGUAGES:
        context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                      extra_http_headers={"Accept-Language": language})
        context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                              "url": live_server.url}])
        page = context.new_page()
        errors = console_errors(page)
        page.goto(f"{live_server.url}/t/{table.code}/host")
        assert page.locator("html").get_attribute("lang") == language
        for _ in range(2):  # opened, cancelled, and opened and cancelled again
            page.locator(".tools button").click()
            box = page.locator("#undo-confirm .confirm-box")
            expect(box.locator("li")).to_have_count(1)  # the one move it would take back
            if language == "en":
                expect(box).to_contain_text("Undo this move?")
                expect(box.locator("a.button")).to_have_text("Cancel")
            box.locator("a.button").click()
            expect(box).to_have_count(0)
            assert page.url == f"{live_server.url}/t/{table.code}/host"
        assert not errors, errors
        context.close()
    assert table.view()["version"] == version


def test_cancelling_an_undo_from_the_history_without_script(live_server, browser):
    table = a_table_with_one_move(live_server)
    version = table.view()["version"]
    for language in LANGUAGES:
        context = browser.new_context(viewport={"width": 360, "height": 740},
                                      java_script_enabled=False,
                                      extra_http_headers={"Accept-Language": language})
        context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                              "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{table.code}/undo?screen=host&steps=1")
        assert page.locator("html").get_attribute("lang") == language
        back = page.locator(".confirm-box a.button")
        expect(back).to_have_count(1)
        if language == "en":
            expect(back).to_have_text("Cancel")
        back.click()
        page.wait_for_url(f"{live_server.url}/t/{table.code}/host")
        context.close()
    assert table.view()["version"] == version


def test_undoing_without_script_goes_through_and_back_to_the_screen(live_server, browser):
    table = a_table_with_one_move(live_server)
    version = table.view()["version"]
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  java_script_enabled=False)
    context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                          "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.code}/host")
    page.get_by_role("button", name="Undo the last move…").click()
    page.get_by_role("button", name="Yes, undo it").click()
    page.wait_for_url(f"{live_server.url}/t/{table.code}/host")
    assert table.view()["version"] == version + 1
    context.close()
