"""Saved sheets in the database: the migration that adds them, up and down, on SQLite and
(with COMPANION_TEST_DATABASE_URL) on PostgreSQL; a sheet's settings saved under its
name by tables created at the same moment, each counted; and a sheet played again counted
once more."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from companion import create_app
from companion.extensions import db
from companion.models import SavedOptions
from companion.table import seating
from tests.support.api import Api
from tests.support.app import ROOT, close_app, own_database
from tests.support.screens import post

MIGRATIONS = str(ROOT / "migrations")
BEFORE_SAVED_SHEETS = "5a1e0c3d9b72"


@pytest.fixture
def old_app(tmp_path):
    """An app on a database of its own at the revision before saved sheets."""
    with own_database(tmp_path) as url:
        app = create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                          "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade(directory=MIGRATIONS, revision=BEFORE_SAVED_SHEETS)
        yield app
        close_app(app)


def tables(app) -> set[str]:
    with app.app_context():
        return set(inspect(db.engine).get_table_names())


def saved(app) -> list[tuple[str, int, list]]:
    with app.app_context():
        rows = db.session.execute(db.select(SavedOptions).order_by(SavedOptions.id)).scalars()
        return [(row.name, row.uses, row.options.get("categories")) for row in rows]


def create(app, options: dict) -> str:
    with app.app_context():
        return seating.create_table("score-sheet", options)[0]


def test_the_migration_adds_saved_sheets_and_takes_them_away(old_app):
    assert "saved_options" not in tables(old_app)
    with old_app.app_context():
        upgrade(directory=MIGRATIONS)
    assert "saved_options" in tables(old_app)
    create(old_app, {"name": "Wingspan", "categories": ["Birds", "Eggs"]})
    create(old_app, {"name": "wingspan", "categories": ["Birds"]})  # the same sheet, updated
    assert saved(old_app) == [("wingspan", 2, ["Birds"])]
    with old_app.app_context():
        downgrade(directory=MIGRATIONS, revision=BEFORE_SAVED_SHEETS)
    assert "saved_options" not in tables(old_app) and "tables" in tables(old_app)
    with old_app.app_context():
        upgrade(directory=MIGRATIONS)
    assert saved(old_app) == []


def test_tables_of_one_new_name_created_at_once_are_each_counted(old_app):
    with old_app.app_context():
        upgrade(directory=MIGRATIONS)
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: create(old_app, {"name": "Carcassonne"}), range(8)))
    assert len(set(codes)) == 8
    assert saved(old_app) == [("Carcassonne", 8, None)]


def test_playing_a_sheet_again_counts_one_more_use(app):
    """The host's "play again" makes a table of the same sheet: one more use of it, as a
    table created from the form would be; asked again, it makes none."""
    table = Api(client=app.test_client()).table(
        "score-sheet", players=("Ann", "Ben"), options={"name": "Wingspan", "rounds": 1,
                                                         "categories": ["Birds", "Eggs"]})
    for name in ("Ann", "Ben"):
        status, body = table.act(table.tokens[name], type="enter", round=1,
                                 scores={"Birds": 3, "Eggs": 1})
        assert status == 200, body
    assert saved(app) == [("Wingspan", 1, ["Birds", "Eggs"])]
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    first = post(host, f"/t/{table.code}/again", {}, f"/t/{table.code}/host")
    assert saved(app) == [("Wingspan", 2, ["Birds", "Eggs"])]
    again = post(host, f"/t/{table.code}/again", {}, f"/t/{table.code}/host")
    assert again.headers["Location"] == first.headers["Location"]
    assert saved(app) == [("Wingspan", 2, ["Birds", "Eggs"])]
