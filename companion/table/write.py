"""The one way a table changes: a conditional UPDATE that bumps its version.

Of two concurrent writers exactly one succeeds, whatever the database and however many
processes share it; the other finds the version moved on and tries again (or is told the
table changed). The update carries the notice to other processes in its transaction, and
after the commit the streams of this process are woken.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import IntegrityError

from .. import driver_sql, live, snapshots
from ..errors import conflict
from ..extensions import db
from ..models import Table
from ..snapshots import Snapshot

WRITE_RETRIES = 8
ROW_FIELDS = ["version", "moves", "status", "seed", "first_player", "options", "finished_at",
              "players"]

_write_lock = threading.Lock()


def busy():
    return conflict("The table is busy right now; please try again.")


@contextmanager
def writing():
    """SQLite has one writer at a time: queueing our own threads here keeps them out of
    SQLite's busy handler, which is slow to wake. Other databases lock the row."""
    if db.engine.dialect.name == "sqlite":
        with _write_lock:
            yield
    else:
        yield


def claim(table_id: int, code: str, expected_version: int, **values: Any) -> int | None:
    """Bump the table's version if it is still `expected_version` and set `values`;
    the new version, or None when another writer got there first (the session's
    transaction is then rolled back; a move's transaction has changed nothing).
    Its statements run in the move's transaction when there is one (driver_sql)."""
    new_version = expected_version + 1
    session = db.session
    # What the change made of its ORM objects is flushed before the update. A move's
    # request has no session, and asking one would make one (15 us, and its teardown).
    in_session = session.registry.has()
    if in_session and (session.new or session.dirty or session.deleted):
        session.flush()
    notice = ((live.CHANNEL, f"{code}:{new_version}") if live.notifies(db.engine.dialect.name)
              else None)
    changed = driver_sql.update_table(table_id, expected_version,
                                      dict(version=new_version, updated_at=time.time(), **values),
                                      notice)
    if changed != 1:
        if in_session and session().in_transaction():
            session.rollback()
        return None
    return new_version


def done(code: str, new_version: int, known: Snapshot | None = None) -> None:
    """After a commit: remember the new snapshot when it was built here, wake streams."""
    if known is not None:
        snapshots.cache.put(known)
    live.publish(code, new_version)


def change(table: Snapshot, edit: Callable[[Table], dict],
           log: Callable[[Table, int], None] | None = None) -> Snapshot:
    """Make `edit` (which checks the table's row as it is now, may change its players,
    and returns the row's values to set) one versioned write, again when a concurrent
    writer got there first; the table after it. `log(row, new_version)`, if given, writes
    the change's log entry once the version is claimed (no other writer adds to the log
    then)."""
    row = db.session.get(Table, table.id)
    for _ in range(WRITE_RETRIES):
        with writing():
            db.session.refresh(row, ROW_FIELDS)
            try:
                values = edit(row)
            except IntegrityError:  # a concurrent join took the name: look again
                db.session.rollback()
                continue
            new_version = claim(row.id, table.code, row.version, **values)
            if new_version is not None:
                if log is not None:
                    log(row, new_version)
                db.session.commit()
                done(table.code, new_version)
                return snapshots.at_least(table.id, new_version)
        db.session.rollback()
    raise busy()
