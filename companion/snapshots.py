"""A table as it is at one version: everything a view, a screen or a stream reads.

A snapshot is loaded from the database once per version per process, or built in
memory by the process that made the change, and then shared by every request and every
stream of that table: telling six phones of a move reads memory, not the database.
Snapshots are immutable; the state inside one is never mutated (copy it first).
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from . import driver_sql
from .extensions import db
from .models import Event, Player

LOG_TAIL = 8  # the newest log entries a snapshot keeps (a screen shows 6)
UNDO_TAIL = 50  # the newest actions in effect it keeps: the most the host undoes at once


@dataclass(frozen=True)
class Seat:
    id: int
    seat: int
    name: str
    name_key: str
    local: bool
    token_hash: str

    @classmethod
    def of(cls, player: Player) -> "Seat":
        return cls(player.id, player.seat, player.name, player.name_key, player.local,
                   player.token_hash)

    def public(self) -> dict:
        return {"id": self.id, "name": self.name, "seat": self.seat, "local": self.local}


@dataclass(frozen=True)
class Entry:
    """One event of the log, with what its line needs: for an undo, the notes of the
    action it took back; for an action, whether an undo took it back since."""

    seq: int
    kind: str
    actor: int | None
    notes: list
    at: datetime
    undone: bool = False
    undoes: int | None = None
    undone_notes: list | None = None


@dataclass(frozen=True)
class InEffect:
    """An action still in effect (no undo took it back)."""

    seq: int
    actor: int | None
    reveal: bool


@dataclass(frozen=True)
class Snapshot:
    id: int
    code: str
    game: str
    status: str
    version: int
    moves: int
    seed: int | None
    options: dict
    first_player: int | None
    finished_at: datetime | None
    next_code: str | None
    host_token_hash: str
    players: tuple[Seat, ...]
    state: dict | None
    recent: tuple[Entry, ...]  # the newest LOG_TAIL events, oldest first
    in_effect: tuple[InEffect, ...]  # the newest UNDO_TAIL actions in effect, oldest first
    last_seq: int
    # What several readers of this version work out alike (names, log lines, the parts
    # of a view every viewer shares): worked out once. A new version starts empty.
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()`, worked out once for this version; never change what it gives."""
        try:
            return self._memo[key]
        except KeyError:
            found = self._memo[key] = compute()
            return found

    def seat(self, player_id: int | None) -> Seat | None:
        """The player of this id at the table, if there is one."""
        return next((p for p in self.players if p.id == player_id), None)

    def after_action(self, version: int, state: dict, status: str,
                     finished_at: datetime | None, entry: Entry, reveal: bool) -> "Snapshot":
        """The snapshot after one more action (an action never changes earlier lines)."""
        return replace(
            self, version=version, moves=self.moves + 1, status=status,
            finished_at=finished_at, state=state,
            recent=(self.recent + (entry,))[-LOG_TAIL:],
            in_effect=(self.in_effect + (InEffect(entry.seq, entry.actor, reveal),))[-UNDO_TAIL:],
            last_seq=entry.seq)


SEAT = [Player.id, Player.seat, Player.name, Player.name_key, Player.local, Player.token_hash]


def entries(events: list[Event], table_id: int, version: int | None = None) -> list[Entry]:
    """The log entries of `events` (oldest first), as of `version` (None: now)."""
    def upto(query):
        return query if version is None else query.where(Event.version <= version)

    by_seq = {e.seq: e.notes for e in events}
    targets = {e.undoes for e in events if e.kind == "undo"} - set(by_seq)
    if targets:
        by_seq.update(db.session.execute(db.select(Event.seq, Event.notes).where(
            Event.table_id == table_id, Event.seq.in_(targets))).all())
    shown = [e.seq for e in events if e.kind == "action"]
    undone = set(db.session.execute(upto(db.select(Event.undoes).where(
        Event.table_id == table_id, Event.kind == "undo",
        Event.undoes.in_(shown)))).scalars()) if shown else set()
    return [Entry(seq=e.seq, kind=e.kind, actor=e.actor, notes=e.notes, at=e.at,
                  undone=e.seq in undone, undoes=e.undoes,
                  undone_notes=by_seq.get(e.undoes) if e.kind == "undo" else None)
            for e in events]


def taken_back(table_id: int, version: int | None = None):
    """The seqs of the actions an undo took back (as of `version`)."""
    query = db.select(Event.undoes).where(Event.table_id == table_id, Event.kind == "undo")
    return query if version is None else query.where(Event.version <= version)


def load(table_id: int, known: Snapshot | None = None) -> Snapshot:
    """The table's snapshot at its current version, read from the database. The row is
    read first and the log up to its version, so the parts agree (players are read
    after the row: they may be newer, never older). From a `known` older snapshot, when
    only moves were made since (one event per version), only those are read."""
    with driver_sql.reads():
        row = driver_sql.table_row(table_id)
        later = (driver_sql.events_between(table_id, known.version, row.version)
                 if known is not None and known.status != "lobby"
                 and known.version < row.version else None)
    if later is not None and len(later) == row.version - known.version and all(
            e.kind == "action" for e in later):
        return _after_actions(known, row, later)
    version = row.version
    players = tuple(Seat(*p) for p in db.session.execute(
        db.select(*SEAT).where(Player.table_id == table_id).order_by(Player.seat)).all())
    newest = db.session.execute(db.select(Event).where(
        Event.table_id == table_id, Event.version <= version)
        .order_by(Event.seq.desc()).limit(LOG_TAIL)).scalars().all()
    recent = tuple(entries(list(reversed(newest)), table_id, version))
    in_effect = tuple(reversed([InEffect(*r) for r in db.session.execute(
        db.select(Event.seq, Event.actor, Event.reveal).where(
            Event.table_id == table_id, Event.kind == "action", Event.version <= version,
            Event.seq.not_in(taken_back(table_id, version)))
        .order_by(Event.seq.desc()).limit(UNDO_TAIL)).all()]))
    return Snapshot(
        id=row.id, code=row.code, game=row.game, status=row.status, version=version,
        moves=row.moves, seed=row.seed, options=row.options, first_player=row.first_player,
        finished_at=row.finished_at, next_code=row.next_code,
        host_token_hash=row.host_token_hash, players=players,
        state=row.state if row.status != "lobby" else None, recent=recent,
        in_effect=in_effect, last_seq=newest[0].seq if newest else 0)


def _after_actions(known: Snapshot, row, later: list[Event]) -> Snapshot:
    for event in later:
        known = known.after_action(
            event.version, row.state, row.status, row.finished_at,
            Entry(seq=event.seq, kind="action", actor=event.actor, notes=event.notes,
                  at=event.at), event.reveal)
    return replace(known, moves=row.moves, next_code=row.next_code)


_database_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def database_name(engine) -> str:
    """The engine's database URL as text, worked out once per engine (rendering it
    anew for every read of the cache cost a twentieth of a move)."""
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
        return database_name(db.engine), table_id

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
    the table here at once: one of them reads the new version, the others wait for it
    (on PostgreSQL they each read it, a connection and three round trips apiece)."""
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
