"""The table clock on the screens: chosen on the new-table form (refused in the reader's
language when out of range), shown on the phones (their own time large), on the host
screen with Pause and Resume, and on the table display; written as a clock writes time."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Table
from companion.table import read
from companion.web.table_clock import clock_time
from tests.support.pages import page, text_of
from tests.support.screens import new_table, post, seat

BANK = {"clock_mode": "bank", "clock_bank_minutes": "2", "clock_increment_seconds": "5",
        "clock_warn_seconds": "30"}


def start(app, host, clock: dict, names=("Ann", "Ben", "Cat")):
    code = new_table(host, **clock)
    phones = {name: seat(app, code, name) for name in names}
    post(host, f"/t/{code}/start", {}, f"/t/{code}/host")
    return code, phones


def table_clock(app, code: str) -> dict | None:
    with app.app_context():
        return read.find(code).clock


def tables_made(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Table))


def clock_part(html: str) -> str:
    found = re.search(r'<section class="clock.*?</section>', html, re.S)
    assert found, "no clock on the page"
    return found.group(0)


@pytest.mark.parametrize("ms, shown", [
    (0, "0:00"), (999, "0:00"), (65_000, "1:05"), (3_725_000, "1:02:05"),
    (-500, "0:00"), (-1_000, "\u22120:01"), (-75_400, "\u22121:15")])
def test_a_time_is_written_as_a_clock_writes_it(ms, shown):
    assert clock_time(ms) == shown


def test_the_new_table_form_offers_the_clock_and_makes_a_bank(app, host):
    form = page(host, "/new/go-big")
    assert "Table clock" in form and 'name="clock_mode" value="off" checked' in form
    code = new_table(host, **BANK)
    assert table_clock(app, code) == {"mode": "bank", "bank_seconds": 120,
                                      "increment_seconds": 5, "warn_seconds": 30}
    plain = new_table(host)
    assert table_clock(app, plain) is None
    counted = new_table(host, clock_mode="count_up", clock_warn_seconds="0")
    assert table_clock(app, counted) == {"mode": "count_up", "warn_seconds": 0}


@pytest.mark.parametrize("field, value, language, refusal", [
    ("clock_bank_minutes", "0", "en", "The time bank is a whole number of minutes from 1 to 600."),
    ("clock_bank_minutes", "abc", "de",
     "Das Zeitkonto ist eine ganze Zahl von Minuten von 1 bis 600."),
    ("clock_increment_seconds", "601", "fr",
     "Le temps ajouté après chaque coup est un nombre entier de secondes de 0 à 600."),
    ("clock_warn_seconds", "-1", "es", "El aviso es un número entero de segundos de 0 a 600."),
    ("clock_mode", "sandglass", "pl", "Wybierz jeden z proponowanych zegarów."),
])
def test_a_clock_out_of_range_is_refused_in_place_and_makes_nothing(app, host, field, value,
                                                                    language, refusal):
    host.set_cookie("companion_language", language)
    before = tables_made(app)
    response = post(host, "/new/go-big", {**BANK, field: value}, "/new/go-big", status=400)
    html = response.get_data(as_text=True)
    assert refusal in text_of(html), text_of(html)[:600]
    assert f'value="{value}"' in html or field == "clock_mode"  # what was typed stays
    assert tables_made(app) == before


def test_each_screen_shows_the_clock_and_the_host_pauses_and_resumes_it(app, host):
    code, phones = start(app, host, BANK)
    ann = clock_part(page(phones["Ann"], f"/t/{code}"))
    assert "Time left" in ann and "You" in ann and "clock-own" in ann
    assert ann.count('<li class="clock-player') == 3
    assert "Pause the clock" not in ann  # only the host pauses
    display = clock_part(page(host, f"/d/{code}"))
    assert "clock-own" not in display and all(name in display for name in ("Ann", "Ben", "Cat"))
    assert "data-running" in display  # the game awaits someone: their time runs
    shown = clock_part(page(host, f"/t/{code}/host"))
    assert "Pause the clock" in shown
    paused = post(host, f"/t/{code}/clock", {"paused": "1"}, f"/t/{code}/host", status=200,
                  htmx=True).get_data(as_text=True)
    shown = clock_part(paused)
    assert "Resume the clock" in shown and "paused" in shown and "data-running" not in shown
    assert "The host paused the clock." in text_of(paused)
    on_phone = clock_part(page(phones["Ben"], f"/t/{code}"))
    assert "paused" in on_phone and "data-running" not in on_phone
    again = post(host, f"/t/{code}/clock", {"paused": "1"}, f"/t/{code}/host", status=409,
                 htmx=True).get_data(as_text=True)
    assert "The clock is already paused." in text_of(again)
    post(host, f"/t/{code}/clock", {"paused": "0"}, f"/t/{code}/host")  # without the script
    assert "data-running" in clock_part(page(host, f"/t/{code}/host"))


def test_only_the_host_pauses_the_clock_and_a_table_without_one_shows_none(app, host):
    code, phones = start(app, host, BANK)
    response = post(phones["Ann"], f"/t/{code}/clock", {"paused": "1"}, f"/t/{code}",
                    status=403)
    assert "data-running" in clock_part(page(host, f"/t/{code}/host"))
    plain, plain_phones = start(app, host, {})
    assert 'class="clock' not in page(plain_phones["Ann"], f"/t/{plain}")
    assert 'class="clock' not in page(host, f"/t/{plain}/host")
    response = post(host, f"/t/{plain}/clock", {"paused": "1"}, f"/t/{plain}/host",
                    status=409, htmx=True)
    assert "This table has no clock." in text_of(response.get_data(as_text=True))
