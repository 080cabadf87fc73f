"""The table clock saved with the settings: with a sheet saved under its game's name
("Wingspan with a 20-minute bank" is one tap next time), and with a game's box & house
rules saved as this server's defaults; a table made from the API without a clock keeps
none."""
from __future__ import annotations

from companion.table import read
from tests.support.pages import page
from tests.support.screens import new_table, post

WINGSPAN_BANK = {"name": "Wingspan", "entry": "players", "clock_mode": "bank",
                 "clock_bank_minutes": "20", "clock_increment_seconds": "10",
                 "clock_warn_seconds": "60"}
BANK_20 = {"mode": "bank", "bank_seconds": 1200, "increment_seconds": 10, "warn_seconds": 60}


def clock_of(app, code: str) -> dict | None:
    with app.app_context():
        return read.find(code).clock


def test_a_saved_sheet_keeps_its_clock_and_one_tap_makes_it_again(app, host):
    first = new_table(host, "score-sheet", **WINGSPAN_BANK)
    assert clock_of(app, first) == BANK_20
    form = page(host, "/new/score-sheet")
    assert "Wingspan" in form and "Table clock" in form
    response = post(host, "/new/score-sheet/saved", {"name": "Wingspan"}, "/new/score-sheet")
    again = response.headers["Location"].split("/")[2]
    assert again != first and clock_of(app, again) == BANK_20
    # "Change" fills the form with the sheet's clock as well as its options.
    change = page(host, "/new/score-sheet?saved=Wingspan")
    assert 'name="clock_mode" value="bank" checked' in change
    assert 'name="clock_bank_minutes" value="20"' in change
    # Saved again without a clock, the sheet's next table has none.
    new_table(host, "score-sheet", **dict(WINGSPAN_BANK, clock_mode="off"))
    response = post(host, "/new/score-sheet/saved", {"name": "Wingspan"}, "/new/score-sheet")
    assert clock_of(app, response.headers["Location"].split("/")[2]) is None


def test_the_defaults_keep_the_clock_the_form_shows_it(app, host, api):
    assert 'name="clock_mode" value="off" checked' in page(host, "/new/go-big")
    post(host, "/new/go-big/defaults", {"clock_mode": "count_up", "clock_warn_seconds": "45"},
         "/new/go-big", status=200)
    form = page(host, "/new/go-big")
    assert 'name="clock_mode" value="count_up" checked' in form
    assert 'name="clock_warn_seconds" value="45"' in form
    code = new_table(host, "go-big", clock_mode="count_up", clock_warn_seconds="45")
    assert clock_of(app, code) == {"mode": "count_up", "warn_seconds": 45}
    status, created = api.call("POST", "/tables", json={"game": "go-big"})
    assert status == 201 and clock_of(app, created["code"]) is None
