"""A database from before the engines spoke in messages, upgraded: every game's history,
finished or part-played, reads exactly as it did in English.

The same history reads in German too, translated line by line.

tests/data/tables_before_messages.json holds, for a finished and a part-played table of
every game, the rows the previous schema revision stored (the log's lines as English text
with `{name:ID}` placeholders; an undo and a rejoin among them) and the history the
previous code showed from them, to the public and to a player with lines of their own."""
from __future__ import annotations

import json
import os
import random
from datetime import datetime
from pathlib import Path

import pytest
from flask_babel import force_locale
from flask_migrate import downgrade, upgrade
from sqlalchemy import JSON, column, func, insert, select
from sqlalchemy import table as sa_table

from companion import create_app, store
from companion.auth import PUBLIC, Viewer
from companion.extensions import db
from companion.games import GAMES
from companion.models import Event, Player, Table
from companion.table import moves, read
from tests.support.app import close_app, own_database
from tests.support.bots import choose_move
from tests.support.catalogs import english_in

ROOT = Path(__file__).resolve().parent.parent.parent
MIGRATIONS = str(ROOT / "migrations")
BEFORE_MESSAGES = "e3fd26843148"
BEFORE_CHECKPOINTS = "e81c5a7d2b94"
BUILT_IN = ("go-big", "big-money", "big-top", "nothing-beats-a-large")
SPEAKING_IN_MESSAGES = ("go-big", "nothing-beats-a-large")
OLD_TABLES = json.loads((ROOT / "tests/data/tables_before_messages.json").read_text())["tables"]


@pytest.fixture(params=["sqlite", "postgresql"])
def old_database_url(request, tmp_path):
    """A database of the test's own: a SQLite file always, and a PostgreSQL database when
    COMPANION_TEST_DATABASE_URL names a server (the suite's second pass)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
    elif not os.environ.get("COMPANION_TEST_DATABASE_URL"):
        pytest.skip("on PostgreSQL when COMPANION_TEST_DATABASE_URL names a server")
    else:
        with own_database(tmp_path) as url:
            yield url


@pytest.fixture
def old_database(old_database_url):
    """An app on a database at the revision before messages, holding the old rows (one
    table per game and status, codes OLDA, OLDB...), written through the models' tables
    with only the columns that revision has (later ones add more)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                      "SQLALCHEMY_DATABASE_URI": old_database_url})
    with app.app_context():
        upgrade(directory=MIGRATIONS, revision=BEFORE_MESSAGES)
        for number, old in enumerate(OLD_TABLES):
            table_id = db.session.execute(insert(Table.__table__).values(
                code=f"OLD{chr(65 + number)}", game=old["game"], options=old["options"],
                seed=old["seed"], status=old["status"], host_token_hash=f"h{number}",
                first_player=old["first_player"], version=len(old["events"]),
                moves=old["moves"], state=old["state"], finished_at=datetime(2026, 12, 1)
                if old["status"] == "finished" else None)).inserted_primary_key[0]
            for seat, player in enumerate(old["players"]):
                db.session.execute(insert(Player.__table__).values(
                    id=player["id"], table_id=table_id, seat=seat, name=player["name"],
                    name_key=player["name"].casefold(), token_hash=f"t{number}-{seat}"))
            for event in old["events"]:
                db.session.execute(insert(Event.__table__).values(
                    table_id=table_id, version=event["seq"], actor_key="host",
                    action_id=None, **event))
        db.session.commit()
    yield app
    close_app(app)


def test_an_upgraded_database_reads_its_history_as_before_and_in_german(old_database):
    assert {old["game"] for old in OLD_TABLES} == set(BUILT_IN)
    assert {old["status"] for old in OLD_TABLES} == {"finished", "playing"}
    with old_database.app_context():
        upgrade(directory=MIGRATIONS)
        for number, old in enumerate(OLD_TABLES):
            events = db.session.execute(db.select(Event).join(Table).where(
                Table.code == f"OLD{chr(65 + number)}").order_by(Event.seq)).scalars().all()
            assert [e.kind for e in events] == [e["kind"] for e in old["events"]]
            for viewer, lines in old["history"].items():
                player = None if viewer == "None" else int(viewer)
                with old_database.test_request_context("/"):
                    table = read.find(f"OLD{chr(65 + number)}")
                    history = read.log(table, PUBLIC if player is None
                                       else Viewer(player_id=player))
                assert [line["summary"] for line in history] == lines, (old["game"], viewer)
                with old_database.test_request_context("/"), force_locale("de"):
                    german = [line["summary"] for line in read.log(
                        read.find(f"OLD{chr(65 + number)}"),
                        PUBLIC if player is None else Viewer(player_id=player))]
                assert len(german) == len(lines)
                assert not english_in("\n".join(german), "de"), (old["game"], viewer)
                same = [line for line, english in zip(german, lines) if line == english]
                assert len(same) <= len(lines) // 10, (old["game"], viewer, same)
            if old["game"] in SPEAKING_IN_MESSAGES:
                assert all(isinstance(note["text"], dict)
                           for event in events for note in event.notes), old["game"]


def last_seq(table_id: int) -> int:
    return db.session.execute(select(func.max(Event.seq)).where(
        Event.table_id == table_id)).scalar_one()


def test_the_state_becomes_a_checkpoint_and_back_every_state_up_to_date(old_database):
    """Upgraded, each table's state is its checkpoint after its last event; moves then
    write their events only; going back to the revision before checkpoints writes each
    state as it is after the last event again, and coming up again finds it there."""
    with old_database.app_context():
        upgrade(directory=MIGRATIONS)
        for row in db.session.execute(db.select(Table)).scalars():
            assert row.state_seq == last_seq(row.id)
            assert store.load(row.id).state == row.state
        code = next(f"OLD{chr(65 + number)}" for number, old in enumerate(OLD_TABLES)
                    if old["game"] == "go-big" and old["status"] == "playing")
        rng = random.Random(5)
        with old_database.test_request_context("/"):
            for _ in range(3):
                table = read.find(code)
                player, action = choose_move(GAMES["go-big"], table.state, rng)
                moves.act(table, Viewer(player_id=player), action)
            state = read.find(code).state
        row = db.session.execute(db.select(Table).where(Table.code == code)).scalar_one()
        assert row.state != state and row.state_seq < last_seq(row.id)
        db.session.remove()
        downgrade(directory=MIGRATIONS, revision=BEFORE_CHECKPOINTS)
        stored = sa_table("tables", column("code"), column("state", JSON()))
        assert db.session.execute(select(stored.c.state).where(
            stored.c.code == code)).scalar_one() == state
        db.session.remove()
        upgrade(directory=MIGRATIONS)
        row = db.session.execute(db.select(Table).where(Table.code == code)).scalar_one()
        assert row.state == state and row.state_seq == last_seq(row.id)
        db.session.remove()
