"""The statements on the path of every move, sent straight to the database driver.
(On PostgreSQL with several processes, the path of a move made elsewhere too: reading
the row and the new events that bring a known snapshot up to date.)

SQLAlchemy builds, compiles and caches a statement and wraps its result: 0.26 ms of CPU
for a one-row SELECT through the ORM session, where the driver itself takes 0.01 ms
(README, "CPU per move").
A move makes five statements, so these few are fixed text run on the cursor of the
session's own connection: the same transaction, committed (or rolled back) by the
session as before. Values are converted as the columns' SQLAlchemy types would (JSON as
text, datetimes as SQLite stores them), so what one writes the other reads.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import JSON, DateTime
from sqlalchemy.exc import DBAPIError

from .extensions import db
from .jsontext import to_json
from .models import Event, Table

# SQLAlchemy's own text for a SQLite DATETIME, which it parses back.
SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"
_statements: dict[tuple[str, str, tuple[str, ...]], str] = {}


def _execute(statement: Callable[[str], tuple[str, Any]], result: Callable[[Any], Any]) -> Any:
    """Run `statement(dialect name)`, the SQL (written with `?` placeholders) and its
    parameters, on a cursor of the session's connection (its transaction begins as it
    would with SQLAlchemy's statements) and return `result(cursor)`. The driver's errors
    are raised as SQLAlchemy's, so that a database that drops or refuses is answered as
    anywhere else (503, never a 500)."""
    connection = db.session.connection()
    dialect = connection.dialect
    sql, params = statement(dialect.name)
    text = sql if dialect.name == "sqlite" else sql.replace("?", "%s")
    cursor = connection.connection.cursor()
    try:
        cursor.execute(text, params)
        return result(cursor)
    except dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(text, params, exc, dialect.loaded_dbapi.Error) from exc
    finally:
        cursor.close()


def _one(sql: str, *params: Any):
    return _execute(lambda _: (sql, params), lambda cursor: cursor.fetchone())


def _all(sql: str, *params: Any) -> list:
    return _execute(lambda _: (sql, params), lambda cursor: cursor.fetchall())


def _datetime(value: Any) -> datetime | None:
    """A DATETIME as SQLAlchemy gives it back: SQLite keeps it as text."""
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _from_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def table_by_code(code: str) -> tuple[int, int] | None:
    """The id and version of the table of this code, if there is one."""
    row = _one("SELECT id, version FROM tables WHERE code = ?", code)
    return (row[0], row[1]) if row else None


def table_version(table_id: int) -> int:
    return _one("SELECT version FROM tables WHERE id = ?", table_id)[0]


TABLE_ROW = ("id", "code", "game", "status", "version", "moves", "seed", "options",
             "first_player", "finished_at", "next_code", "host_token_hash", "state")
EVENT_ROW = ("seq", "kind", "actor", "notes", "at", "reveal", "version")


def table_row(table_id: int) -> SimpleNamespace:
    """The table's row, every column a snapshot holds (`row.version`, ...)."""
    row = dict(zip(TABLE_ROW, _one(f"SELECT {', '.join(TABLE_ROW)} FROM tables WHERE id = ?",
                                   table_id)))
    row.update(options=_from_json(row["options"]), state=_from_json(row["state"]),
               finished_at=_datetime(row["finished_at"]))
    return SimpleNamespace(**row)


def events_between(table_id: int, after: int, upto: int) -> list[SimpleNamespace]:
    """The events of versions `after` (excluded) to `upto`, oldest first (`event.seq`, ...)."""
    rows = _all(f"SELECT {', '.join(EVENT_ROW)} FROM events WHERE table_id = ? "
                "AND version > ? AND version <= ? ORDER BY seq", table_id, after, upto)
    return [SimpleNamespace(seq=seq, kind=kind, actor=actor, notes=_from_json(notes),
                            at=_datetime(at), reveal=bool(reveal), version=version)
            for seq, kind, actor, notes, at, reveal, version in rows]


def sent_action(table_id: int, actor_key: str, action_id: str) -> tuple[int, int, list] | None:
    """The version, seq and notes of the action this sender already sent with this id."""
    row = _one("SELECT version, seq, notes FROM events WHERE table_id = ? AND actor_key = ? "
               "AND action_id = ?", table_id, actor_key, action_id)
    return (row[0], row[1], _from_json(row[2])) if row else None


def _value(dialect: str, column, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, JSON):
        return to_json(value)
    if isinstance(column.type, DateTime) and dialect == "sqlite" and isinstance(value, datetime):
        return value.strftime(SQLITE_DATETIME)
    return value


def _placeholder(dialect: str, column) -> str:
    return "CAST(? AS JSON)" if dialect != "sqlite" and isinstance(column.type, JSON) else "?"


def _statement(dialect: str, kind: str, names: tuple[str, ...]) -> str:
    key = (dialect, kind, names)
    found = _statements.get(key)
    if found is None:
        if kind == "update":
            columns = Table.__table__.c
            sets = ", ".join(f"{n} = {_placeholder(dialect, columns[n])}" for n in names)
            found = f"UPDATE tables SET {sets} WHERE id = ? AND version = ?"
        else:
            columns = Event.__table__.c
            found = (f"INSERT INTO events ({', '.join(names)}) VALUES "
                     f"({', '.join(_placeholder(dialect, columns[n]) for n in names)})")
        _statements[key] = found
    return found


def update_table(table_id: int, expected_version: int, values: dict[str, Any]) -> int:
    """Set `values` on the table's row if its version is still `expected_version`; the
    number of rows changed (0 or 1)."""
    names = tuple(values)
    columns = Table.__table__.c

    def statement(dialect: str):
        return _statement(dialect, "update", names), (
            *(_value(dialect, columns[n], values[n]) for n in names), table_id,
            expected_version)
    return _execute(statement, lambda cursor: cursor.rowcount)


def insert_event(values: dict[str, Any]) -> None:
    names = tuple(values)
    columns = Event.__table__.c

    def statement(dialect: str):
        return (_statement(dialect, "insert", names),
                [_value(dialect, columns[n], values[n]) for n in names])
    _execute(statement, lambda cursor: None)


def notify(channel: str, payload: str) -> None:
    """PostgreSQL: tell the other processes, on commit."""
    _one("SELECT pg_notify(?, ?)", channel, payload)
