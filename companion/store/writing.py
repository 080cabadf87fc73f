"""The one way a table changes: a versioned transaction, tried again when another writer
got there first.

The change's row values are set by a conditional UPDATE that bumps the table's version:
of two concurrent writers exactly one succeeds, whatever the database and however many
processes share it; the other computes its change again on the table as it is then (or
is refused, by what it computes). On PostgreSQL the update carries the notice to other
processes, delivered on commit. After the commit the new snapshot is in this process's
cache and the table's streams here are woken.

A change's state is written as the table's checkpoint (`checkpoint_due`): the log is the
truth, and an action that does not write it costs its event, not the whole state again
(a score sheet of a hundred rounds is hundreds of kilobytes). Whoever loads the table
brings the checkpoint on by the actions logged after it (`loading`).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext
from sqlalchemy import Connection, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import live
from ..errors import CompanionError, conflict
from ..models import utcnow
from ..snapshots import Entry, Snapshot
from . import reads, saved
from .connections import transaction
from .loading import at_least, cache, latest
from .reads import EVENTS, PLAYERS, TABLES

WRITE_RETRIES = 8
CHECKPOINT_EVERY = 20  # events at most between a table's checkpoints of its state


def busy() -> CompanionError:
    return conflict(lazy_gettext("The table is busy right now; please try again."))


@dataclass(frozen=True)
class NewTable:
    """A table to create: its row's values, its players' (in seat order) and, for a table
    imported whole, its log's events."""

    values: dict[str, Any]
    seats: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Change:
    """What one write changes: the table row's new values (the store sets its version;
    a `state` is written when a checkpoint is due),
    the log's new events (the store numbers them), seats added (in seat order), edited
    (by player id) or removed, and a table created with it (the next game's), its options
    kept under their name (`named`) as a table created on its own would keep them."""

    row: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    add_seats: list[dict[str, Any]] = field(default_factory=list)
    edit_seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    remove_seats: list[int] = field(default_factory=list)
    new_table: NewTable | None = None
    named: saved.Named | None = None

    def is_one_action(self) -> bool:
        """One action and nothing else: the snapshot after it is built in memory."""
        return (len(self.events) == 1 and self.events[0]["kind"] == "action"
                and not (self.add_seats or self.edit_seats or self.remove_seats
                         or self.new_table or self.named))


@dataclass(frozen=True)
class Written:
    """The table after a write, the version it made, and its first event's seq and notes
    (for an action sent again, its own, with the table as it is now)."""

    table: Snapshot
    version: int
    seq: int | None = None
    notes: list = field(default_factory=list)


class _Lost(Exception):
    """Another writer moved the table on first."""


def write(table: Snapshot, compute: Callable[[Snapshot], Change | None],
          action_id: str | None = None, actor_key: str | None = None) -> Written:
    """Make `compute(table)` (which checks the table as it is and returns what changes,
    None for nothing) one versioned write, computed again on the newer table when a
    concurrent writer got there first. With an `action_id`, the action this sender
    already sent with it is answered instead of being made again (its event's unique
    index tells, or the refusal it would now get)."""
    for attempt in range(WRITE_RETRIES):
        before = table if attempt == 0 else latest(table)
        try:
            change = compute(before)
        except CompanionError:
            sent = _sent_again(table, action_id, actor_key)
            if sent is not None:
                return sent
            raise
        if change is None:
            return Written(before, before.version)
        try:
            with transaction() as connection:
                version, at, state_seq = _commit(connection, before, change)
        except _Lost:
            continue
        except IntegrityError:  # an action sent again, a code or a name taken meanwhile
            sent = _sent_again(table, action_id, actor_key)
            if sent is not None:
                return sent
            continue
        return _done(before, change, version, at, state_seq)
    raise busy()


def _sent_again(table: Snapshot, action_id: str | None,
                actor_key: str | None) -> Written | None:
    if not action_id or actor_key is None:
        return None
    sent = reads.sent_action(table.id, actor_key, action_id)
    return Written(latest(table), *sent) if sent is not None else None


def checkpoint_due(before: Snapshot, change: Change) -> bool:
    """Whether the state a change carries is written: always but for one action, which
    writes it when it ends the game or when CHECKPOINT_EVERY events followed the last
    checkpoint (a table loaded afresh then applies at most that many actions to it)."""
    last = before.last_seq + len(change.events)
    return (not change.is_one_action() or change.row.get("status") != "playing"
            or last - before.state_seq >= CHECKPOINT_EVERY)


def _commit(connection: Connection, before: Snapshot, change: Change
            ) -> tuple[int, Any, int]:
    """The version the change made, when, and the event after which the database's
    state is (its checkpoint)."""
    version = before.version + 1
    values = {**change.row, "version": version, "updated_at": time.time()}
    state_seq = before.state_seq
    if "state" in values:
        if checkpoint_due(before, change):
            state_seq = values["state_seq"] = before.last_seq + len(change.events)
        else:
            del values["state"]
    notice = live.notice(connection.dialect.name, before.code, version)
    statement = _table_update(tuple(values), notice is not None)
    params = {"table_id": before.id, "expected": before.version,
              **{"new_" + name: value for name, value in values.items()}}
    if notice is not None:
        params.update(channel=notice[0], payload=notice[1])
        changed = len(connection.execute(statement, params).all())
    else:
        changed = connection.execute(statement, params).rowcount
    if changed != 1:
        raise _Lost
    at = utcnow()
    for offset, event in enumerate(change.events, start=1):
        connection.execute(INSERT_EVENT, {
            "action": None, "notes": [], "reveal": False, "undoes": None, "action_id": None,
            "awaiting": None, **event, "table_id": before.id, "seq": before.last_seq + offset,
            "version": version, "at": at})
    for player_id in change.remove_seats:
        connection.execute(delete(PLAYERS).where(PLAYERS.c.id == player_id))
    for player_id, edits in change.edit_seats.items():
        connection.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(edits))
    _seat(connection, before.id, change.add_seats)
    if change.new_table is not None:
        _insert_table(connection, change.new_table)
    if change.named is not None:
        saved.save(connection, change.named)
    return version, at, state_seq


def _done(before: Snapshot, change: Change, version: int, at, state_seq: int) -> Written:
    if change.is_one_action():
        event, row = change.events[0], change.row
        entry = Entry(seq=before.last_seq + 1, kind="action", actor=event["actor"],
                      notes=event["notes"], at=at)
        after = before.after_action(version, row["state"], row["status"],
                                    row["finished_at"], entry, event.get("reveal", False),
                                    state_seq)
        cache.put(after)
    else:
        after = None
    live.publish(before.code, version)
    if after is None:
        after = at_least(before.id, version)
    if not change.events:
        return Written(after, version)
    return Written(after, version, before.last_seq + 1, change.events[0].get("notes", []))


_table_updates: dict[tuple[tuple[str, ...], bool], Any] = {}
INSERT_EVENT = insert(EVENTS)


def _table_update(names: tuple[str, ...], notify: bool) -> Any:
    """The conditional UPDATE of these columns, built once per set of columns."""
    key = (names, notify)
    statement = _table_updates.get(key)
    if statement is None:
        statement = update(TABLES).where(
            TABLES.c.id == bindparam("table_id"),
            TABLES.c.version == bindparam("expected")).values(
            {name: bindparam("new_" + name, type_=TABLES.c[name].type) for name in names})
        if notify:
            statement = statement.returning(
                func.pg_notify(bindparam("channel"), bindparam("payload")))
        _table_updates[key] = statement
    return statement


def _seat(connection: Connection, table_id: int, seats: list[dict[str, Any]]) -> None:
    if seats:
        connection.execute(insert(PLAYERS), [{**seat, "table_id": table_id} for seat in seats])


def _insert_table(connection: Connection, table: NewTable) -> int:
    inserted = connection.execute(insert(TABLES), table.values).inserted_primary_key
    if inserted is None:
        raise RuntimeError("the database gave no id for the table it inserted")
    table_id = inserted[0]
    _seat(connection, table_id, table.seats)
    if table.events:
        connection.execute(insert(EVENTS), [{**event, "table_id": table_id}
                                            for event in table.events])
    return table_id


def import_tables(tables: list[NewTable], defaults: list[dict[str, Any]] | None = None,
                  named: list[dict[str, Any]] | None = None) -> None:
    """Tables brought whole from elsewhere (an export), their players keeping their ids,
    with the saved settings it holds (`saved.merge`): all in one transaction, or none. On
    PostgreSQL the players' id sequence is moved past them (SQLite takes the largest id
    plus one by itself)."""
    with transaction() as connection:
        for table in tables:
            _insert_table(connection, table)
        saved.merge(connection, defaults or [], named or [])
        if connection.dialect.name == "postgresql":
            largest = connection.execute(select(func.max(PLAYERS.c.id))).scalar() or 0
            connection.execute(select(func.setval(
                func.pg_get_serial_sequence("players", "id"), func.greatest(largest, 1))))


def create_table(values: dict[str, Any], seats: list[dict[str, Any]] | None = None,
                 named: saved.Named | None = None) -> str:
    """A new table in its lobby (with these players, if any): its code. Only a code a
    concurrent creation took is drawn again; a database that refuses is answered as
    anywhere else. `named`: its options kept under their name, in the same transaction."""
    for _ in range(WRITE_RETRIES):
        code = reads.free_code()
        try:
            with transaction() as connection:
                _insert_table(connection, NewTable(
                    {**values, "code": code, "status": "lobby", "version": 0}, seats or []))
                if named is not None:
                    saved.save(connection, named)
        except IntegrityError:
            continue
        return code
    raise conflict(lazy_gettext("Could not find a free room code; please try again."))
