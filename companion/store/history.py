"""Reads of tables as a whole, off the path of a move: the lists of games (finished, in
play), the entries of past logs, a table whole for an export, and what an import must
know of the tables and players already here."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, func, select

from .connections import read_connection
from .loading import brought_on
from .reads import EVENTS, PLAYERS, TABLES


@dataclass(frozen=True)
class Listed:
    """A table as the lists of games show it, with its players (id and name) in seat order."""

    code: str
    game: str
    options: dict[str, Any]
    state: dict[str, Any] | None
    created_at: datetime
    updated_at: float
    finished_at: datetime | None
    players: tuple[tuple[int, str], ...]
    clock: dict[str, Any] | None = None


LISTED = (TABLES.c.id, TABLES.c.code, TABLES.c.game, TABLES.c.options, TABLES.c.created_at,
          TABLES.c.updated_at, TABLES.c.finished_at, TABLES.c.clock)


def finished_tables(limit: int) -> list[Listed]:
    """The finished tables, the last finished first, with their state."""
    return _listed(select(*LISTED, TABLES.c.state).where(TABLES.c.status == "finished")
                   .order_by(TABLES.c.finished_at.desc()).limit(limit))


def tables_in_status(status: str, limit: int) -> list[Listed]:
    """The tables of this status, the last changed first (without their state)."""
    return _listed(select(*LISTED).where(TABLES.c.status == status)
                   .order_by(TABLES.c.updated_at.desc()).limit(limit))


def _listed(statement) -> list[Listed]:
    with read_connection() as connection:
        rows = connection.execute(statement).all()
        players: dict[int, list[tuple[int, str]]] = defaultdict(list)
        if rows:
            for seat in connection.execute(
                    select(PLAYERS.c.table_id, PLAYERS.c.id, PLAYERS.c.name)
                    .where(PLAYERS.c.table_id.in_([row.id for row in rows]))
                    .order_by(PLAYERS.c.table_id, PLAYERS.c.seat)):
                players[seat.table_id].append((seat.id, seat.name))
    return [Listed(row.code, row.game, row.options, getattr(row, "state", None), row.created_at,
                   row.updated_at, row.finished_at, tuple(players[row.id]), row.clock)
            for row in rows]


LOG_ENTRIES = select(EVENTS.c.table_id, EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.undoes,
                     EVENTS.c.action).where(EVENTS.c.kind.in_(("action", "undo")))


def latest_log_entries(game: str, most: int) -> Sequence[Row]:
    """The latest `most` actions and undos of this game's tables (table_id, seq, kind,
    undoes, action), newest first."""
    with read_connection() as connection:
        return connection.execute(
            LOG_ENTRIES.join(TABLES, TABLES.c.id == EVENTS.c.table_id)
            .where(TABLES.c.game == game).order_by(EVENTS.c.id.desc()).limit(most)).all()


def log_entries_of(table_id: int, version: int) -> Sequence[Row]:
    """The actions and undos of one table up to a version, as `latest_log_entries` gives
    them."""
    with read_connection() as connection:
        return connection.execute(LOG_ENTRIES.where(
            EVENTS.c.table_id == table_id, EVENTS.c.version <= version)).all()


def created_at(table_id: int) -> datetime:
    with read_connection() as connection:
        return connection.execute(select(TABLES.c.created_at)
                                  .where(TABLES.c.id == table_id)).scalar_one()


def started_at(table_id: int) -> datetime:
    """When the table's game was dealt; for a game dealt before that was kept, when its
    table was created."""
    with read_connection() as connection:
        row = connection.execute(select(TABLES.c.started_at, TABLES.c.created_at)
                                 .where(TABLES.c.id == table_id)).one()
    return row.started_at or row.created_at


@dataclass(frozen=True)
class Whole:
    """Every column of a table's row, of its players' (in seat order) and of its events
    (oldest first)."""

    row: Row
    players: Sequence[Row]
    events: Sequence[Row]

    def state(self) -> dict[str, Any] | None:
        """The state after the table's last event (the row holds a checkpoint)."""
        if self.row.state is None:
            return None
        after = self.row.state_seq or 0
        return brought_on(self.row, [event for event in self.events
                                     if event.kind == "action" and event.seq > after])


def whole_tables() -> Iterator[Whole]:
    """Every table whole, the oldest created first, read one at a time (a long history
    never sits in memory whole)."""
    with read_connection() as connection:
        ids = connection.execute(select(TABLES.c.id)
                                 .order_by(TABLES.c.created_at, TABLES.c.code)).scalars().all()
    for table_id in ids:
        with read_connection() as connection:
            whole = _whole(connection, table_id)
        yield whole


def _whole(connection: Connection, table_id: int) -> Whole:
    row = connection.execute(select(TABLES).where(TABLES.c.id == table_id)).one()
    players = connection.execute(select(PLAYERS).where(PLAYERS.c.table_id == table_id)
                                 .order_by(PLAYERS.c.seat)).all()
    # Up to the row's version: a move written meanwhile belongs to a later version.
    events = connection.execute(select(EVENTS).where(
        EVENTS.c.table_id == table_id, EVENTS.c.version <= row.version)
        .order_by(EVENTS.c.seq)).all()
    return Whole(row, players, events)


def creation_times(codes: list[str]) -> dict[str, datetime]:
    """When each table of these codes here was created, by code (a code no table has is
    left out)."""
    if not codes:
        return {}
    with read_connection() as connection:
        return {row.code: row.created_at for row in connection.execute(
            select(TABLES.c.code, TABLES.c.created_at).where(TABLES.c.code.in_(codes)))}


def code_of_game(game: str, seed: int | None, created: datetime) -> str | None:
    """The code of the table here of this game, seed and creation time, if there is one."""
    with read_connection() as connection:
        return connection.execute(select(TABLES.c.code).where(
            TABLES.c.game == game, TABLES.c.seed == seed,
            TABLES.c.created_at == created)).scalars().first()


def code_taken(code: str) -> bool:
    with read_connection() as connection:
        return connection.execute(select(TABLES.c.id)
                                  .where(TABLES.c.code == code)).first() is not None


def taken_player_ids(ids: list[int]) -> set[int]:
    """Those of these player ids that players here have."""
    with read_connection() as connection:
        return set(connection.execute(select(PLAYERS.c.id)
                                      .where(PLAYERS.c.id.in_(ids))).scalars())


def largest_player_id() -> int:
    with read_connection() as connection:
        return connection.execute(select(func.max(PLAYERS.c.id))).scalar() or 0


def versions_of(codes: list[str]) -> dict[str, int]:
    """The version of each table of these codes, by code."""
    with read_connection() as connection:
        return {row.code: row.version for row in connection.execute(
            select(TABLES.c.code, TABLES.c.version).where(TABLES.c.code.in_(codes)))}
