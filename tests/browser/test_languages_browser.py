"""The language picker on a phone (360x740) at the table's LAN address: a tap changes this
phone's language, on a page and on a live table screen, and nothing else's. A small
German catalog stands in for the languages to come."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import (broken_words, console_errors, screenshot, seat_phone,
                                   serve_on_the_lan)
from tests.support.catalogs import in_test_german

TAP = 44  # px: the least a button is tall


@pytest.fixture
def german_site(app_with, tmp_path):
    server = serve_on_the_lan(app_with(**in_test_german(tmp_path / "catalogs")))
    yield server
    server.stop()


def picker_fits(page) -> None:
    """The picker's buttons keep their tap size and nothing is wider than the phone."""
    for button in page.locator(".language-picker button").all():
        assert button.bounding_box()["height"] >= TAP
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not broken_words(page)


def test_a_tap_on_the_picker_turns_this_phone_to_its_language(german_site, new_phone):
    page = new_phone()
    errors = console_errors(page)
    page.goto(german_site.url + "/games")
    picker = page.get_by_role("group", name="Language")
    expect(picker.get_by_role("button", name="English")).to_have_attribute(
        "aria-current", "true")
    picker_fits(page)
    picker.get_by_role("button", name="Deutsch").click()

    expect(page).to_have_url(german_site.url + "/games")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Vergangene Spiele")
    picker = page.get_by_role("group", name="Sprache")
    expect(picker.get_by_role("button", name="Deutsch")).to_have_attribute(
        "aria-current", "true")
    picker_fits(page)
    screenshot(page, "language-picker-de")

    page.goto(german_site.url + "/")  # kept for every page of this phone
    expect(page.get_by_role("heading", name="Einem Tisch beitreten")).to_be_visible()
    other = new_phone()  # another phone keeps its own
    other.goto(german_site.url + "/")
    expect(other.get_by_role("heading", name="Join a table")).to_be_visible()

    page.get_by_role("group", name="Sprache").get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Join a table")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert not errors, errors


def test_a_table_screen_picks_its_language_and_its_live_panel_follows(german_site,
                                                                     new_phone):
    table = Api(german_site.local_url).table("guess-number", ("Ann", "Ben"))
    ann = seat_phone(new_phone, german_site.url, table, "Ann")
    errors = console_errors(ann)
    expect(ann.get_by_text("Numbers from 1 to 20.")).to_be_visible()
    ann.get_by_role("group", name="Language").get_by_role("button", name="Deutsch").click()
    expect(ann).to_have_url(f"{german_site.url}/t/{table.code}")
    expect(ann.get_by_text("Zahlen von 1 bis 20.")).to_be_visible()
    ben = seat_phone(new_phone, german_site.url, table, "Ben")
    expect(ben.get_by_text("Numbers from 1 to 20.")).to_be_visible()

    assert table.act(table.tokens["Ben"], type="choose", number=3)[0] == 200
    # The pushed panel (of the new version) is in each phone's own language.
    version = str(table.view()["version"])
    for phone, said in ((ann, "Zahlen von 1 bis 20."), (ben, "Numbers from 1 to 20.")):
        expect(phone.locator(f"#panel[data-version='{version}']")).to_have_count(1)
        expect(phone.get_by_text(said)).to_be_visible()
    picker_fits(ann)
    screenshot(ann, "language-picker-table-de")
    assert not errors, errors
