"""The settings a server saved travel with its export (`flask export`, `flask import`):
each game's box and house rules (saved as its defaults) and the sheets saved under a name,
with how often each was used. A round trip through another database keeps them (SQLite
to PostgreSQL and back, when COMPANION_TEST_DATABASE_URL names a server); importing into
a database that saved its own keeps whichever was saved later; an older export, without
them, imports as before; a file whose settings are damaged changes nothing."""
from __future__ import annotations

import json

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import SavedDefaults, SavedOptions
from companion.table import seating
from tests.support.app import app_on, own_database

BOX = {"copies_per_value": 4}
WINGSPAN = {"name": "Wingspan", "categories": ["Birds", "Eggs"]}


def run(app, *args) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=list(args))
    return result.exit_code, result.output


def export(app, path) -> dict:
    code, output = run(app, "export", str(path))
    assert code == 0, output
    return json.loads(path.read_text())


def settings(app) -> tuple[list, list]:
    """The box and house rules saved, and the sheets saved under a name, as they are."""
    with app.app_context():
        defaults = db.session.execute(db.select(SavedDefaults).order_by(SavedDefaults.game))
        named = db.session.execute(db.select(SavedOptions).order_by(SavedOptions.name_key))
        found = ([(row.game, row.options, row.saved_at) for row in defaults.scalars()],
                 [(row.game, row.name, row.options, row.uses, row.saved_at)
                  for row in named.scalars()])
        db.session.remove()
    return found


def save(app, defaults: dict | None = None, *sheets: dict) -> None:
    """Save a game's box and house rules, and make a score sheet of each of `sheets`."""
    with app.app_context():
        if defaults is not None:
            seating.save_defaults(GAMES["go-big"], defaults)
        for options in sheets:
            seating.create_table("score-sheet", options)
        db.session.remove()


@pytest.fixture
def laptop(tmp_path):
    with app_on(f"sqlite:///{tmp_path / 'laptop.sqlite3'}", tmp_path) as app:
        yield app


@pytest.fixture
def server(app_with):
    return app_with()


def test_a_round_trip_keeps_the_saved_rules_and_sheets(laptop, tmp_path):
    save(laptop, BOX, WINGSPAN, {**WINGSPAN, "name": "wingspan"}, {"name": "Carcassonne"})
    document = export(laptop, tmp_path / "laptop.json")
    assert [row["game"] for row in document["saved_defaults"]] == ["go-big"]
    assert [(row["name"], row["uses"]) for row in document["saved_options"]] == [
        ("Carcassonne", 1), ("wingspan", 2)]

    (tmp_path / "server").mkdir()
    # PostgreSQL when a server is named
    with own_database(tmp_path / "server") as url, app_on(url, tmp_path) as server:
        code, output = run(server, "import", str(tmp_path / "laptop.json"))
        assert code == 0, output
        assert settings(server) == settings(laptop)
        assert export(server, tmp_path / "server.json") == document
        code, output = run(server, "import", str(tmp_path / "laptop.json"))  # twice
        assert code == 0, output
        assert export(server, tmp_path / "again.json") == document
        # Restored, they serve as they did: a new table takes the saved box.
        with server.app_context():
            assert seating.saved_defaults(GAMES["go-big"]) == BOX
            assert [named.name for named in seating.saved_by_name(GAMES["score-sheet"])] == [
                "wingspan", "Carcassonne"]

    with app_on(f"sqlite:///{tmp_path / 'back.sqlite3'}", tmp_path) as back:
        code, output = run(back, "import", str(tmp_path / "server.json"))
        assert code == 0, output
        assert settings(back) == settings(laptop)


def test_an_older_export_without_saved_settings_still_imports(laptop, server, tmp_path):
    save(laptop, BOX, WINGSPAN)
    document = export(laptop, tmp_path / "laptop.json")
    older = {key: value for key, value in document.items()
             if key not in ("saved_defaults", "saved_options")}
    (tmp_path / "older.json").write_text(json.dumps(older))
    code, output = run(server, "import", str(tmp_path / "older.json"))
    assert code == 0 and "Imported 1 table" in output, output
    assert settings(server) == ([], [])


def test_the_settings_saved_later_are_kept(laptop, server, tmp_path):
    """The server saved Carcassonne before the laptop did, and Wingspan after; the laptop
    saved its box after the server did."""
    save(server, {"copies_per_value": 5}, {"name": "Carcassonne", "rounds": 2})
    save(laptop, BOX, {"name": "Carcassonne", "rounds": 5}, WINGSPAN, WINGSPAN, WINGSPAN)
    save(server, None, {**WINGSPAN, "categories": ["Birds"]})
    export(laptop, tmp_path / "laptop.json")
    code, output = run(server, "import", str(tmp_path / "laptop.json"))
    assert code == 0, output
    (box,), (carcassonne, wingspan) = settings(server)
    assert box[:2] == ("go-big", BOX)
    assert (carcassonne[2]["rounds"], carcassonne[3]) == (5, 1)  # the laptop's, later
    assert (wingspan[2]["categories"], wingspan[3]) == (["Birds"], 3)  # the server's, later


def test_saved_settings_that_are_damaged_change_nothing(laptop, server, tmp_path):
    save(laptop, BOX, WINGSPAN)
    document = export(laptop, tmp_path / "laptop.json")
    before = export(server, tmp_path / "before.json")
    sheet = document["saved_options"][0]
    damaged = [
        ({**document, "saved_options": [{**sheet, "uses": "two"}]},
         ["The saved settings in", "saved_options.0.uses"]),
        ({**document, "saved_defaults": {"game": "go-big"}},
         ["The saved settings in", "saved_defaults"]),
        ({**document, "saved_options": [{**sheet, "game": "chess"}]},
         ["holds saved settings of 'chess', a game this server does not have"]),
        ({**document, "saved_defaults": [{**document["saved_defaults"][0],
                                          "options": {"copies_per_value": "many"}}]},
         ["The saved settings of Go Big in", "copies_per_value"]),
        ({**document, "saved_options": [{**sheet, "saved_at": "yesterday"}]},
         ["'yesterday' is not a date and time"]),
    ]
    for number, (broken, expected) in enumerate(damaged):
        path = tmp_path / f"damaged-{number}.json"
        path.write_text(json.dumps(broken))
        code, output = run(server, "import", str(path))
        assert code == 1, output
        assert "Traceback" not in output
        for words in expected:
            assert words in output, output
        assert export(server, tmp_path / "after.json") == before  # not even the tables
        assert settings(server) == ([], [])
