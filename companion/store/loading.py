"""A table's snapshot, read from the database once per version per process and kept in
this process's cache, where a write made here puts the snapshot it built."""
from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace

from ..extensions import db
from ..games import GAMES
from ..games.replay import advanced, in_effect
from ..snapshots import LOG_TAIL, UNDO_TAIL, Entry, InEffect, Seat, Snapshot
from . import reads
from .connections import read_connection


def find_version(code: str) -> tuple[int, int] | None:
    """The id and version of the table of this code, if there is one."""
    if not re.fullmatch(f"[A-Z]{{{reads.CODE_LENGTH}}}", code):
        return None
    with read_connection() as connection:
        return reads.table_by_code(connection, code)


def latest(table: Snapshot) -> Snapshot:
    """The table at its current version, which another writer may have moved on."""
    with read_connection() as connection:
        version = reads.table_version(connection, table.id)
    return at_least(table.id, version)


def log_entries(rows: Sequence, undone: set[int], notes: Mapping[int, list]) -> list[Entry]:
    """The log entries of these events, with the notes of each (and, for an undo, of
    the action it took back)."""
    return [Entry(seq=row.seq, kind=row.kind, actor=row.actor, notes=notes[row.seq],
                  at=row.at, undone=row.seq in undone, undoes=row.undoes,
                  undone_notes=notes.get(row.undoes) if row.kind == "undo" else None)
            for row in rows]


def load(table_id: int, known: Snapshot | None = None) -> Snapshot:
    """The table's snapshot at its current version. The row is read first and the log up
    to its version, so the parts agree (players are read after the row: they may be
    newer, never older). From a `known` older snapshot, when only moves were made since
    (one event per version), only those are read, and applied to its state; else the
    state is the row's checkpoint brought on by the actions logged after it."""
    with read_connection() as connection:
        if known is not None and known.status != "lobby":
            head = reads.table_head(connection, table_id)
            later = reads.moves_since(connection, table_id, known.last_seq, head.version)
            if 0 < len(later) == head.version - known.version and all(
                    event.kind == "action" for event in later):
                return _after_actions(known, head, later)
        row = reads.table_row(connection, table_id)
        players = tuple(Seat(*seat) for seat in reads.seats(connection, table_id))
        outline = reads.log_outline(connection, table_id, row.version)
        newest = outline[-LOG_TAIL:]
        notes = reads.notes_of(connection, table_id, {e.seq for e in newest} | {
            e.undoes for e in newest if e.kind == "undo"})
        state = None
        if row.status != "lobby" and row.state is not None:
            state = brought_on(row, reads.actions_after(connection, table_id,
                                                        row.state_seq or 0, row.version))
    undone = {event.undoes for event in outline if event.kind == "undo"}
    return Snapshot(
        id=row.id, code=row.code, game=row.game, status=row.status, version=row.version,
        moves=row.moves, seed=row.seed, options=row.options, first_player=row.first_player,
        finished_at=row.finished_at, next_code=row.next_code,
        host_token_hash=row.host_token_hash, players=players, clock=row.clock,
        started_at=row.started_at, teaching=row.teaching, state=state,
        state_seq=row.state_seq or 0,
        recent=tuple(log_entries(newest, undone, notes)),
        in_effect=tuple(InEffect(e.seq, e.actor, e.reveal)
                        for e in in_effect(outline)[-UNDO_TAIL:]),
        last_seq=outline[-1].seq if outline else 0)


def brought_on(row, actions: Sequence) -> dict:
    """The state of a table's row (its checkpoint) brought on by the actions logged after
    it (each with `actor` and `action`; every one in effect, since an undo writes a
    checkpoint), the last of them the row's `moves`-th."""
    if not actions:
        return row.state
    return advanced(GAMES[row.game], row.state, row.seed, row.moves - len(actions),
                    [(action.actor, action.action) for action in actions])


def _after_actions(known: Snapshot, head, later: Sequence) -> Snapshot:
    state = advanced(GAMES[known.game], known.dealt_state, known.dealt_seed, known.moves,
                     [(event.actor, event.action) for event in later])
    for event in later:
        known = known.after_action(
            event.version, state, head.status, head.finished_at,
            Entry(seq=event.seq, kind="action", actor=event.actor, notes=event.notes,
                  at=event.at), event.reveal, head.state_seq or 0)
    return replace(known, moves=head.moves, next_code=head.next_code)


_database_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def database_name() -> str:
    """The app's database URL as text, worked out once per engine (it is part of the key
    of every read of the cache): what keeps apart the tables of several apps in one
    process."""
    engine = db.engine
    name = _database_names.get(engine)
    if name is None:
        name = _database_names[engine] = str(engine.url)
    return name


class Cache:
    """The newest known snapshot of recently used tables in this process. Keyed by the
    database as well as the table's id: several apps in one process (the tests, a second
    app on another database) never see each other's tables."""

    def __init__(self, size: int = 1024):
        self._items: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()
        self._loading: dict[tuple[str, int], list] = {}

    @staticmethod
    def _key(table_id: int) -> tuple[str, int]:
        return database_name(), table_id

    def get(self, table_id: int) -> Snapshot | None:
        key = self._key(table_id)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    @contextmanager
    def loading(self, table_id: int) -> Iterator[None]:
        """Held while this table's snapshot is read from the database: one reader of a
        table at a time in this process (a lock of its own, dropped once unused)."""
        key = self._key(table_id)
        with self._lock:
            entry = self._loading.setdefault(key, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._lock:
                entry[1] -= 1
                if not entry[1]:
                    del self._loading[key]

    def put(self, snapshot: Snapshot) -> None:
        key = self._key(snapshot.id)
        with self._lock:
            current = self._items.get(key)
            if current is not None and current.version > snapshot.version:
                return
            self._items[key] = snapshot
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


cache = Cache()


def at_least(table_id: int, version: int) -> Snapshot:
    """The table's snapshot at `version` or newer: from memory when this process knows
    it, else from the database. A move made by another process wakes every stream of
    the table here at once: one of them reads the new version, the others wait for it."""
    known = cache.get(table_id)
    if known is not None and known.version >= version:
        return known
    with cache.loading(table_id):
        known = cache.get(table_id)
        if known is not None and known.version >= version:
            return known
        found = load(table_id, known)
        cache.put(found)
        return found
