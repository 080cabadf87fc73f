"""A table as it is at one version: everything a view, a screen or a stream reads.

A snapshot is loaded by the store (`store.loading`) once per version per process, or
built in memory by the process that made the change, and then shared by every request
and every stream of that table: telling six phones of a move reads memory, not the
database. Snapshots are immutable; the state inside one is never mutated (copy it first).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

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
    # A rejoin code the host screen showed (hashed), and until when it is good.
    rejoin_code_hash: str | None = None
    rejoin_code_until: datetime | None = None

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
    # Its line as each reader reads it, worked out once: the snapshots after the next
    # moves keep this entry in their tail, so a new version renders only its new line.
    _read: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def line(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()`, worked out once per `key` (who reads it, how, in which language,
        with which names) for this entry."""
        try:
            return self._read[key]
        except KeyError:
            found = self._read[key] = compute()
            return found


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
    # The log's event after which the database holds the state (its checkpoint), 0 for a
    # table without a state.
    state_seq: int = 0
    # The table clock's setting (None: no clock), and when the game was dealt.
    clock: dict | None = None
    started_at: datetime | None = None
    # A first game taught at the table (None: not taught): who has said "Got it" to what.
    teaching: dict | None = None
    # What several readers of this version work out alike (names, log lines, the parts
    # of a view every viewer shares): worked out once. A new version starts empty.
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    # Held while a reader works something out, so that the streams of a threaded server
    # waking together at a version wait for the first instead of each working it out.
    # Reentrant: what is worked out may read other parts of the same version.
    _working: threading.RLock = field(default_factory=threading.RLock, init=False,
                                      repr=False, compare=False)

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()`, worked out once for this version; never change what it gives."""
        try:
            return self._memo[key]
        except KeyError:
            pass
        with self._working:
            try:
                return self._memo[key]
            except KeyError:
                found = self._memo[key] = compute()
                return found

    @property
    def dealt_state(self) -> dict:
        """The state of a table whose game was dealt (playing, finished or ended)."""
        if self.state is None:
            raise ValueError(f"table {self.code} was not dealt: it has no state")
        return self.state

    @property
    def dealt_seed(self) -> int:
        """The seed of a table whose game was dealt, from which each move's draws come."""
        if self.seed is None:
            raise ValueError(f"table {self.code} was not dealt: it has no seed")
        return self.seed

    def seat(self, player_id: int | None) -> Seat | None:
        """The player of this id at the table, if there is one."""
        return next((p for p in self.players if p.id == player_id), None)

    def after_action(self, version: int, state: dict, status: str,
                     finished_at: datetime | None, entry: Entry, reveal: bool,
                     state_seq: int) -> "Snapshot":
        """The snapshot after one more action (an action never changes earlier lines), the
        database's checkpoint being then after event `state_seq`."""
        return replace(
            self, version=version, moves=self.moves + 1, status=status,
            finished_at=finished_at, state=state, state_seq=state_seq,
            recent=(self.recent + (entry,))[-LOG_TAIL:],
            in_effect=(self.in_effect + (InEffect(entry.seq, entry.actor, reveal),))[-UNDO_TAIL:],
            last_seq=entry.seq)
