"""The statements on the path of every move, sent straight to the database driver.
(On PostgreSQL with several processes, the path of a move made elsewhere too: reading
the row and the new events that bring a known snapshot up to date.)

SQLAlchemy builds, compiles and caches a statement and wraps its result: 0.26 ms of CPU
for a one-row SELECT through the ORM session, where the driver itself takes 0.01 ms
(README, "CPU per move").
A move makes four statements at most, so these few are fixed text on the driver's
cursor: in the move's transaction (`transaction()`), reads outside any transaction on a
connection of their own (`reads()`), else in the session's transaction. Values are
converted as the columns' SQLAlchemy types would (JSON as text, datetimes as SQLite
stores them), so what one writes the other reads.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from flask import g
from sqlalchemy import JSON, DateTime
from sqlalchemy.exc import DBAPIError

from .extensions import db
from .jsontext import to_json
from .models import Event, Table

# SQLAlchemy's own text for a SQLite DATETIME, which it parses back.
SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"
_statements: dict[tuple[str, str, tuple[str, ...]], str] = {}
# Where a request keeps the connection its statements share (flask.g) while a move's
# transaction, or a group of reads (`reads()`), holds one.
HELD_CONNECTION = "companion_held_connection"


def _execute(statement: Callable[[str], tuple[str, Any]], result: Callable[[Any], Any],
             reading: bool = False) -> Any:
    """Run `statement(dialect name)`, the SQL (written with `?` placeholders) and its
    parameters, and return `result(cursor)`. The driver's errors are raised as
    SQLAlchemy's, so that a database that drops or refuses is answered as anywhere else
    (503, never a 500)."""
    with _connection(reading) as (dialect, connection):
        sql, params = statement(dialect.name)
        text = sql if dialect.name == "sqlite" else sql.replace("?", "%s")
        cursor = connection.cursor()
        try:
            cursor.execute(text, params)
            return result(cursor)
        except dialect.loaded_dbapi.Error as exc:
            raise DBAPIError.instance(text, params, exc, dialect.loaded_dbapi.Error) from exc
        finally:
            cursor.close()


def _session_in_transaction() -> bool:
    registry = db.session.registry
    return registry.has() and registry().in_transaction()


@contextmanager
def _connection(reading: bool) -> Iterator[tuple[Any, Any]]:
    """The dialect and the driver's connection a statement runs on: the one a move's
    transaction or a group of reads holds, while there is one; else, for a read while
    the session holds no transaction, a connection of the pool for that read alone
    (`reads()`); else the session's (its transaction begins as it would with
    SQLAlchemy's statements)."""
    held = g.get(HELD_CONNECTION)
    if held is not None:
        yield db.engine.dialect, held
        return
    if reading and not _session_in_transaction():
        with reads():
            yield db.engine.dialect, g.get(HELD_CONNECTION)
        return
    connection = db.session.connection()
    yield connection.dialect, connection.connection


def _checkout(engine):
    """A connection of the engine's pool; a database that cannot be reached raises
    SQLAlchemy's error, as the session's connection would."""
    try:
        return engine.raw_connection()
    except engine.dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance("CONNECT", (), exc, engine.dialect.loaded_dbapi.Error) from exc


@contextmanager
def reads() -> Iterator[None]:
    """Reads outside any transaction (finding a table, bringing a snapshot up to date)
    share one connection of the pool, held for them alone and given back at the end. On
    PostgreSQL it reads in autocommit: no BEGIN and no ROLLBACK, two round trips of the
    five such a read took through the session (README, "CPU per move"); a snapshot's
    reads still agree, as the events up to a version are committed with it. A SQLite
    connection costs nothing to check out, where the session's beginning and ending a
    transaction around a request's one read cost 0.1 ms, a tenth of the request.
    Inside a move's transaction, or while the session holds one, they read in it: a
    request never holds two connections of a pool sized for one each."""
    if g.get(HELD_CONNECTION) is not None or _session_in_transaction():
        yield
        return
    engine = db.engine
    connection = _checkout(engine)
    autocommit = engine.dialect.name != "sqlite"
    setattr(g, HELD_CONNECTION, connection)
    try:
        if autocommit:
            connection.dbapi_connection.autocommit = True
        yield
    finally:
        g.pop(HELD_CONNECTION, None)
        _give_back(connection, autocommit)


def _give_back(connection, autocommit: bool) -> None:
    """Return a connection to the pool as the session expects it: in a transaction of
    its own (a connection the database dropped is thrown away)."""
    if autocommit:
        try:
            connection.dbapi_connection.autocommit = False
        except Exception:
            connection.invalidate()
    connection.close()


@contextmanager
def transaction() -> Iterator[None]:
    """A move's transaction: every statement of this module runs in it, and it is
    committed when the block ends (rolled back when it raises). It runs on a connection
    of the pool for it alone: the session's own bookkeeping of a transaction was a fifth
    of a move's CPU (README, "CPU per move"). Unless the session holds a transaction
    already (it read the table through the ORM): then on the session's connection, as a
    request never holds two of a pool sized for one each. Not for the ORM: a change that
    writes ORM objects goes through the session."""
    if g.get(HELD_CONNECTION) is not None:
        raise RuntimeError("A move's transaction, or a group of reads, is open already.")
    if _session_in_transaction():
        setattr(g, HELD_CONNECTION, db.session.connection().connection)
        try:
            yield
        except BaseException:
            db.session.rollback()
            raise
        finally:
            g.pop(HELD_CONNECTION, None)
        db.session.commit()
        return
    engine = db.engine
    connection = _checkout(engine)
    setattr(g, HELD_CONNECTION, connection)
    try:
        try:
            yield
        except BaseException:
            with suppress(engine.dialect.loaded_dbapi.Error):  # a dropped connection
                connection.rollback()
            raise
        try:
            connection.commit()
        except engine.dialect.loaded_dbapi.Error as exc:
            raise DBAPIError.instance("COMMIT", (), exc, engine.dialect.loaded_dbapi.Error) from exc
    finally:
        g.pop(HELD_CONNECTION, None)
        connection.close()


def _one(sql: str, *params: Any):
    return _execute(lambda _: (sql, params), lambda cursor: cursor.fetchone(), reading=True)


def _all(sql: str, *params: Any) -> list:
    return _execute(lambda _: (sql, params), lambda cursor: cursor.fetchall(), reading=True)


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
        if kind.startswith("update"):
            columns = Table.__table__.c
            sets = ", ".join(f"{n} = {_placeholder(dialect, columns[n])}" for n in names)
            found = f"UPDATE tables SET {sets} WHERE id = ? AND version = ?"
            if kind == "update-notify":
                found += " RETURNING pg_notify(?, ?)"
        else:
            columns = Event.__table__.c
            found = (f"INSERT INTO events ({', '.join(names)}) VALUES "
                     f"({', '.join(_placeholder(dialect, columns[n]) for n in names)})")
        _statements[key] = found
    return found


def update_table(table_id: int, expected_version: int, values: dict[str, Any],
                 notice: tuple[str, str] | None = None) -> int:
    """Set `values` on the table's row if its version is still `expected_version`; the
    number of rows changed (0 or 1). PostgreSQL: `notice` (channel, payload) is notified
    on commit, when the row changed, by the update itself (a statement, and a round trip,
    fewer per move)."""
    names = tuple(values)
    columns = Table.__table__.c
    kind = "update" if notice is None else "update-notify"

    def statement(dialect: str):
        return _statement(dialect, kind, names), (
            *(_value(dialect, columns[n], values[n]) for n in names), table_id,
            expected_version, *(notice or ()))
    return _execute(statement, lambda cursor: cursor.rowcount)


def insert_event(values: dict[str, Any]) -> None:
    names = tuple(values)
    columns = Event.__table__.c

    def statement(dialect: str):
        return (_statement(dialect, "insert", names),
                [_value(dialect, columns[n], values[n]) for n in names])
    _execute(statement, lambda cursor: None)
