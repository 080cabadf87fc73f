"""/games: its dates in the reader's region, and the tables nobody plays any more listed
apart from those being played."""
from __future__ import annotations

import re
import time
from datetime import datetime

import pytest

from companion.extensions import db
from companion.models import Table
from tests.support.api import Api

FINISHED_AT = datetime(2026, 12, 6, 15, 4)  # UTC, the server's time zone by default


def finished_on_a_known_day(app):
    table = Api(client=app.test_client()).table("guess-number", ("Ann", "Ben"))
    table.finish()
    with app.app_context():
        db.session.execute(db.update(Table).where(Table.code == table.code)
                           .values(finished_at=FINISHED_AT))
        db.session.commit()
    return table


@pytest.mark.parametrize(("asked", "written"), [
    ("en-GB,en;q=0.9", "Finished 06/12/2026, 15:04 · "),
    ("en-US,en;q=0.9", "Finished 12/6/26, 3:04\u202fPM · "),
    ("en", "Finished 12/6/26, 3:04\u202fPM · "),
    ("de-AT,de;q=0.9", "Beendet 06.12.26, 15:04 · "),
    ("fr-CA,fr;q=0.8", "2026-12-06 15 h 04"),
    ("fr-FR,fr;q=0.8", "06/12/2026 15:04"),
])
def test_dates_on_past_games_follow_the_readers_region(app, asked, written):
    finished_on_a_known_day(app)
    games = app.test_client().get("/games", headers={"Accept-Language": asked})
    assert games.status_code == 200
    assert written in games.get_data(as_text=True)


def test_a_region_of_another_language_leaves_the_dates_in_the_language(app):
    """A browser that asks for British English before German, with German picked: German
    dates (the region asked for is English's, not German's)."""
    finished_on_a_known_day(app)
    client = app.test_client()
    client.set_cookie("companion_language", "de")
    games = client.get("/games", headers={"Accept-Language": "en-GB,de-CH;q=0.5"})
    assert "Beendet 06.12.26, 15:04 · " in games.get_data(as_text=True)
    games = client.get("/games", headers={"Accept-Language": "en-GB,zz-QQ;q=0.5"})
    assert "Beendet 06.12.26, 15:04 · " in games.get_data(as_text=True)
