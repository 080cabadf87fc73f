"""Which connection a statement of the store runs on, and SQLite's one writer at a time.

A read outside a write takes a connection of the pool for itself (in autocommit on
PostgreSQL: no BEGIN and no ROLLBACK around it, two round trips of a read's five); a
write holds one for its transaction. Either uses the ORM session's connection instead
while the session holds a transaction: a request never holds two connections of a pool
sized for one each.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, text

from ..extensions import db

_sqlite_writer = threading.Lock()


def _session_in_transaction() -> bool:
    registry = db.session.registry
    return registry.has() and registry().in_transaction()


@contextmanager
def read_connection() -> Iterator[Connection]:
    if _session_in_transaction():
        yield db.session.connection()
        return
    with db.engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        yield connection


@contextmanager
def transaction() -> Iterator[Connection]:
    """Committed when the block ends, rolled back when it raises."""
    with _one_writer():
        if not _session_in_transaction():
            with db.engine.begin() as connection:
                yield connection
            return
        connection = db.session.connection()
        try:
            yield connection
        except BaseException:
            db.session.rollback()
            raise
        db.session.commit()


@contextmanager
def _one_writer() -> Iterator[None]:
    """SQLite has one writer at a time: queueing this process's writers here keeps them
    out of SQLite's busy handler, which is slow to wake. Other databases lock the row."""
    if db.engine.dialect.name == "sqlite":
        with _sqlite_writer:
            yield
    else:
        yield


def release_session_connection() -> None:
    """Give back the connection this thread's ORM session holds, if it holds one (a stream
    must not hold one while it waits)."""
    db.session.remove()


def database_answers() -> None:
    """One trivial statement on a connection of the pool: raises what the database
    raises when it cannot be reached."""
    with read_connection() as connection:
        connection.execute(SELECT_ONE)


SELECT_ONE = text("SELECT 1")


def close_pooled_connections() -> None:
    """Close every connection the pool keeps: a process about to fork its workers keeps
    none for them to share."""
    db.engine.dispose()


# Any fixed number: the PostgreSQL advisory lock held while one server upgrades the schema.
SCHEMA_LOCK = 0x636F6D70


@contextmanager
def schema_upgrade_lock() -> Iterator[None]:
    """Held while this server brings the schema up to date: servers starting together on
    one PostgreSQL take turns (the first upgrades, the others then find nothing to do).
    SQLite has one server."""
    if db.engine.dialect.name != "postgresql":
        yield
        return
    with db.engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK})
        try:
            yield
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK})
            lock.commit()
