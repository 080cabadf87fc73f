"""The end of a game in Chromium: on a 360 x 740 phone, in every language, what a player does
next (the next game's join button) is on the first screen; the table display shows the last
event once and links the result's replay and downloads, with no control that changes the
table; a finished score sheet is named by its game and marks its winners and places, not
who leads; the result's text is copied over plain HTTP, or left selected, and is there to
select without the script; a phone downloads the picture of the result."""
from __future__ import annotations

import re

import pytest
import requests
from PIL import Image
from playwright.sync_api import expect

from companion.auth import Viewer
from companion.table import read, seating
from companion.web.languages import SHIPPED
from tests.support.api import Api
from tests.support.browser import (CONTROLS, HOST, PHONE, console_errors, screenshot,
                                   seat_phone)
from tests.support.browser_tables import GAME_TABLES, game_table, running_site

TV = {"width": 1920, "height": 1080}
WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """build_site's tables, and per game a finished table whose host has played again."""
    with running_site(tmp_path_factory.mktemp("end-screens")) as site:
        api = Api(client=site.app.test_client())
        with site.app.app_context():
            for game in GAME_TABLES:
                table = game_table(api, game, "end")
                seating.play_again(read.find(table.code), Viewer(is_host=True))
                site.tables[game, "again"] = table
        yield site


@pytest.mark.parametrize("language", SHIPPED)
def test_the_next_games_join_button_is_on_a_phones_first_screen(site, new_phone, language):
    phone = new_phone(**PHONE)
    errors = console_errors(phone)
    phone.context.add_cookies([{"name": "companion_language", "value": language,
                                "url": site.url}])
    far = []
    for game in GAME_TABLES:
        table = site.tables[game, "again"]
        phone.context.add_cookies(site.cookies(table, table.tokens["Ann"])[:1])
        phone.goto(f"{site.url}/t/{table.code}")
        join = phone.locator(".result form[action$='/follow'] button")
        expect(join).to_be_visible()
        box = join.bounding_box()
        if box["y"] < 0 or box["y"] + box["height"] > PHONE["height"]:
            far.append(f"{game}: from {box['y']:.0f} to {box['y'] + box['height']:.0f} px")
            screenshot(phone, f"end-join-{language}-{game}")
    assert not far, f"[{language}] the join button is off the first screen:\n" + "\n".join(far)
    assert not errors, "\n".join(errors)


def test_the_display_shows_the_last_event_once(site, new_phone):
    tv = new_phone(**TV)
    errors = console_errors(tv)
    twice = []
    for game in GAME_TABLES:
        for phase in ("mid", "end"):
            table = site.tables[game, phase]
            last = table.api.call("GET", f"/tables/{table.code}/log")[1]["events"][-1]["summary"]
            tv.goto(f"{site.url}/d/{table.code}")
            expect(tv.locator(".display-last")).to_contain_text(last)
            shown = tv.evaluate("document.body.innerText").count(last)
            if shown != 1:
                twice.append(f"{game}-{phase}: {shown} times: {last}")
    assert not twice, "\n".join(twice)
    assert not errors, "\n".join(errors)


def test_the_displays_result_links_the_replay_and_the_downloads(site, new_phone):
    tv = new_phone(**TV)
    errors = console_errors(tv)
    for game in GAME_TABLES:
        table = site.tables[game, "end"]
        tv.goto(f"{site.url}/d/{table.code}")
        result = tv.locator("#panel .result")
        expect(result).to_be_visible()
        links = {"Replay the game move by move": f"/t/{table.code}/replay",
                 "Download the game's record": f"/t/{table.code}/record.json",
                 "Download the picture": f"/t/{table.code}/result.png"}
        if game == "score-sheet":
            links["Download the sheet (CSV)"] = f"/t/{table.code}/sheet.csv"
        for name, path in links.items():
            link = result.get_by_role("link", name=name, exact=True)
            expect(link).to_have_attribute("href", path)
            # A TV has no cookie of the table: what it links is anyone's once the game is over.
            assert requests.get(site.local_url + path, timeout=10).status_code == 200, path
        assert result.locator("[download]").count() == len(links) - 1
        # (its language picker aside, and the result's text to copy: neither changes the table)
        controls = tv.evaluate(
            f"[...document.querySelectorAll({CONTROLS!r})]"
            ".filter(e => !e.closest('.language-bar, .result-text')).length")
        assert controls == 0, f"{game}: {controls} controls on the display"
        box = result.bounding_box()
        assert box["y"] + box["height"] <= TV["height"], f"{game}: the result runs off the TV"
    assert not errors, "\n".join(errors)


def test_a_phone_downloads_the_picture_of_the_result(site, new_phone, tmp_path):
    """From a phone's result, in a language per game: a PNG at least 1080 px wide, under
    the name its link gives (the game's name and date)."""
    for game, language in zip(GAME_TABLES, SHIPPED):
        table = site.tables[game, "end"]
        phone = new_phone(**PHONE)
        errors = console_errors(phone)
        phone.context.add_cookies([{"name": "companion_language", "value": language,
                                    "url": site.url}, site.cookies(table, table.tokens["Ann"])[0]])
        phone.goto(f"{site.url}/t/{table.code}")
        link = phone.locator(".result a[href$='/result.png']")
        expect(link).to_be_visible()
        with phone.expect_download() as started:
            link.click()
        download = started.value
        assert download.suggested_filename == link.get_attribute("download")
        assert download.suggested_filename.endswith(f"-{table.code}.png")
        saved = tmp_path / f"{game}.png"
        download.save_as(saved)
        with Image.open(saved) as picture:
            assert picture.format == "PNG" and picture.width >= 1080, (game, picture.size)
        assert not errors, "\n".join(errors)


def test_a_finished_sheet_is_named_by_its_game_and_shows_places_not_leaders(live_server,
                                                                           new_phone):
    """Ann and Ben tie on 87; the tie-break (Birds) gives Ann the game: no one "leads" any
    more, Ann is the winner, Ben second, Cat third."""
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", players=("Ann", "Ben", "Cat"), options={
        "name": "Wingspan", "rounds": 1, "categories": WINGSPAN,
        "tiebreaks": [{"by": "category", "category": "Birds"}]})
    rows = {"Ann": [32, 8, 5, 11, 6, 25], "Ben": [28, 12, 9, 10, 8, 20],
            "Cat": [20, 5, 3, 4, 2, 7]}
    for name, scores in rows.items():
        status, body = table.act(table.tokens[name], type="enter", round=1,
                                 scores=dict(zip(WINGSPAN, scores)))
        assert status == 200, body
    assert table.view()["status"] == "finished"
    phone = seat_phone(new_phone, live_server.url, table, "Ben")
    errors = console_errors(phone)
    phone.reload()
    expect(phone.locator(".bar-code")).to_have_text(f"Wingspan · {table.code}")
    assert phone.title() == f"Wingspan · {table.code}"
    sheet = phone.locator(".sheet")
    expect(sheet).not_to_contain_text("(leads)")
    headers = sheet.locator(".sheet-table:not(.detail) thead th")
    expect(headers.nth(1)).to_contain_text("winner")
    for other in (2, 3):
        expect(headers.nth(other)).not_to_contain_text("winner")
    expect(sheet.locator("tfoot tr.places")).to_have_text("Place 1 2 3",
                                                           use_inner_text=True)
    screenshot(phone, "score-sheet-finished-places")
    assert not errors, "\n".join(errors)


# The result's field as the page holds it: its text, whether it has the focus, and the part
# of it selected.
FIELD_STATE = """() => { const field = document.getElementById('result-text');
  return {text: field.value, focused: document.activeElement === field,
          selected: field.value.slice(field.selectionStart, field.selectionEnd)}; }"""


def clipboard_of(context, local_url: str) -> str:
    """What the browser's clipboard holds, read by a page of the same browser at a secure
    address (the server's local one), which may read it once allowed to."""
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=local_url)
    reader = context.new_page()
    reader.goto(local_url + "/")
    reader.bring_to_front()
    return reader.evaluate("navigator.clipboard.readText()")


def test_copy_puts_the_result_text_on_the_clipboard_or_leaves_it_selected(site, new_phone):
    """At the LAN address over plain HTTP the page has no clipboard API: Copy selects the
    field's text and runs the browser's copy command, and says "Copied" (the clipboard then
    holds the text) or "Selected: copy it". Share shows where the browser has a share
    sheet, and only there. The host screen and the table display show the same text."""
    table = site.tables["score-sheet", "end"]
    phone = seat_phone(new_phone, site.url, table, "Ann")
    errors = console_errors(phone)
    phone.reload()
    assert phone.evaluate("window.isSecureContext || 'clipboard' in navigator") is False
    field = phone.get_by_label("The result as text to paste")
    expect(field).to_be_visible()
    explanation = table.view()["result"]["explanation"]
    text = field.input_value()
    assert text.startswith("Wingspan, ") and text.endswith("\n" + explanation), text
    said = phone.locator("#result-text-said")
    expect(said).to_be_empty()
    share = phone.get_by_role("button", name="Share")
    assert share.is_visible() == phone.evaluate("'share' in navigator")

    phone.get_by_role("button", name="Copy").click()
    expect(said).to_have_text(re.compile(r"^(Copied|Selected: copy it)$"))
    assert phone.evaluate(FIELD_STATE) == {"text": text, "focused": True, "selected": text}
    if said.inner_text() == "Copied":
        assert clipboard_of(phone.context, site.local_url) == text
    screenshot(phone, "result-text-copied")

    phone.context.add_cookies(site.cookies(table, table.tokens["Ann"]))  # the host's too
    for screen, size in ((f"/t/{table.code}/host", HOST), (f"/d/{table.code}", TV)):
        phone.set_viewport_size(size)
        phone.goto(site.url + screen)
        expect(phone.get_by_label("The result as text to paste")).to_have_value(text)
        expect(phone.get_by_role("button", name="Copy")).to_be_visible()
    assert not errors, "\n".join(errors)


def test_without_the_script_the_result_text_is_there_to_select(site, browser):
    table = site.tables["go-big", "end"]
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        context.add_cookies(site.cookies(table, table.tokens["Ann"])[:1])
        phone = context.new_page()
        phone.goto(f"{site.url}/t/{table.code}")
        field = phone.get_by_label("The result as text to paste")
        expect(field).to_be_visible()
        assert field.input_value().endswith("\n" + table.view()["result"]["explanation"])
        expect(phone.get_by_role("button", name="Copy")).to_be_hidden()
        expect(phone.get_by_role("button", name="Share")).to_be_hidden()
    finally:
        context.close()
