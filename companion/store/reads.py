"""The store's reads: each statement once, built from the tables' SQLAlchemy columns
(compiled once, then taken from SQLAlchemy's cache), with SQLAlchemy's own parameter and
type handling (JSON, datetimes) and error types."""
from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import Connection, Row, bindparam, func, select

from ..games.replay import in_effect
from ..models import Event, Player, Table
from .connections import read_connection

TABLES, PLAYERS, EVENTS = Table.__table__, Player.__table__, Event.__table__

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: no words, no 0/O or 1/I mix-ups
CODE_LENGTH = 4

BY_CODE = select(TABLES.c.id, TABLES.c.version).where(TABLES.c.code == bindparam("code"))
VERSION = select(TABLES.c.version).where(TABLES.c.id == bindparam("table_id"))
HEAD_COLUMNS = ("id", "code", "game", "status", "version", "moves", "seed", "options",
                "first_player", "finished_at", "next_code", "host_token_hash", "state_seq",
                "clock", "started_at", "teaching")
# The row without its state, and with it (the checkpoint: `state_seq` says where).
HEAD = select(*(TABLES.c[name] for name in HEAD_COLUMNS)).where(
    TABLES.c.id == bindparam("table_id"))
ROW = select(*(TABLES.c[name] for name in HEAD_COLUMNS), TABLES.c.state).where(
    TABLES.c.id == bindparam("table_id"))
SEATS = select(*(PLAYERS.c[name] for name in (
    "id", "seat", "name", "name_key", "local", "token_hash", "rejoin_code_hash",
    "rejoin_code_until"))).where(PLAYERS.c.table_id == bindparam("table_id")).order_by(
    PLAYERS.c.seat)
# The whole log without its notes and actions: what is in effect, what was undone.
LOG_OUTLINE = select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.reveal,
                     EVENTS.c.undoes, EVENTS.c.version, EVENTS.c.at).where(
    EVENTS.c.table_id == bindparam("table_id"),
    EVENTS.c.version <= bindparam("version")).order_by(EVENTS.c.seq)
# What the table clock reads of the log: each event's time and kind, and who it leaves
# awaited.
CLOCK_LOG = select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.undoes,
                   EVENTS.c.awaiting, EVENTS.c.at).where(
    EVENTS.c.table_id == bindparam("table_id"),
    EVENTS.c.version <= bindparam("version")).order_by(EVENTS.c.seq)
NOTES = select(EVENTS.c.seq, EVENTS.c.notes).where(
    EVENTS.c.table_id == bindparam("table_id"),
    EVENTS.c.seq.in_(bindparam("seqs", expanding=True)))
# Read from the log's index on (table_id, seq): after a seq, not after a version, so a long
# log is not scanned for its last few events.
MOVES_SINCE = select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.action,
                     EVENTS.c.notes, EVENTS.c.at, EVENTS.c.reveal, EVENTS.c.version).where(
    EVENTS.c.table_id == bindparam("table_id"), EVENTS.c.seq > bindparam("after"),
    EVENTS.c.version <= bindparam("upto")).order_by(EVENTS.c.seq)
# The actions logged after a checkpoint, up to a version: each brings its state on.
ACTIONS_AFTER = select(EVENTS.c.actor, EVENTS.c.action).where(
    EVENTS.c.table_id == bindparam("table_id"), EVENTS.c.seq > bindparam("after"),
    EVENTS.c.version <= bindparam("upto"), EVENTS.c.kind == "action").order_by(EVENTS.c.seq)
SENT = select(EVENTS.c.version, EVENTS.c.seq, EVENTS.c.notes).where(
    EVENTS.c.table_id == bindparam("table_id"), EVENTS.c.actor_key == bindparam("actor_key"),
    EVENTS.c.action_id == bindparam("action_id"))
FULL_LOG = select(EVENTS.c.seq, EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.action,
                  EVENTS.c.notes, EVENTS.c.reveal, EVENTS.c.undoes, EVENTS.c.version,
                  EVENTS.c.at, EVENTS.c.awaiting).where(
    EVENTS.c.table_id == bindparam("table_id")).order_by(EVENTS.c.seq)
NEWEST_EVENTS = select(EVENTS.c.kind, EVENTS.c.action, EVENTS.c.version).where(
    EVENTS.c.table_id == bindparam("table_id")).order_by(EVENTS.c.seq.desc()).limit(
    bindparam("most"))
CODE_TAKEN = select(func.count()).select_from(TABLES).where(
    TABLES.c.code == bindparam("code"))


def table_by_code(connection: Connection, code: str) -> tuple[int, int] | None:
    row = connection.execute(BY_CODE, {"code": code}).first()
    return (row[0], row[1]) if row else None


def table_version(connection: Connection, table_id: int) -> int:
    return connection.execute(VERSION, {"table_id": table_id}).scalar_one()


def table_head(connection: Connection, table_id: int) -> Row:
    """The table's row without its state."""
    return connection.execute(HEAD, {"table_id": table_id}).one()


def table_row(connection: Connection, table_id: int) -> Row:
    """The table's row with its state (the checkpoint after event `state_seq`)."""
    return connection.execute(ROW, {"table_id": table_id}).one()


def actions_after(connection: Connection, table_id: int, after: int, upto: int
                  ) -> Sequence[Row]:
    """The actor and action of each action logged after event `after`, up to version
    `upto`, oldest first."""
    return connection.execute(ACTIONS_AFTER, {"table_id": table_id, "after": after,
                                              "upto": upto}).all()


def seats(connection: Connection, table_id: int) -> Sequence[Row]:
    return connection.execute(SEATS, {"table_id": table_id}).all()


def log_outline(connection: Connection, table_id: int, version: int) -> Sequence[Row]:
    return connection.execute(LOG_OUTLINE, {"table_id": table_id, "version": version}).all()


def notes_of(connection: Connection, table_id: int, seqs: set[int]) -> dict[int, list]:
    if not seqs:
        return {}
    return dict(connection.execute(NOTES, {"table_id": table_id, "seqs": sorted(seqs)}).all())


def moves_since(connection: Connection, table_id: int, after: int, upto: int) -> Sequence[Row]:
    """The events after event `after` up to version `upto`, oldest first."""
    return connection.execute(MOVES_SINCE, {"table_id": table_id, "after": after,
                                            "upto": upto}).all()


def sent_action(table_id: int, actor_key: str, action_id: str) -> tuple[int, int, list] | None:
    """The version, seq and notes of the action this sender already sent with this id."""
    with read_connection() as connection:
        row = connection.execute(SENT, {"table_id": table_id, "actor_key": actor_key,
                                        "action_id": action_id}).first()
    return (row[0], row[1], row[2]) if row else None


def clock_log(table_id: int, version: int) -> Sequence[Row]:
    """The log up to `version` as the table clock reads it, oldest first (`event.at`,
    `event.awaiting`, ...)."""
    with read_connection() as connection:
        return connection.execute(CLOCK_LOG, {"table_id": table_id, "version": version}).all()


def events(table_id: int) -> Sequence[Row]:
    """The table's whole log, oldest first (`event.seq`, `event.action`, ...)."""
    with read_connection() as connection:
        return connection.execute(FULL_LOG, {"table_id": table_id}).all()


def actions_since(table_id: int, after: int, upto: int) -> list[Row] | None:
    """The kind and action of each event of versions `after` (excluded) to `upto`, oldest
    first; None when more than one event may share a version among them (the undo of
    several moves). Read newest first, no further back than one event per version, so a
    long log is not read for the last few versions."""
    most = upto - after + 1
    with read_connection() as connection:
        newest = connection.execute(NEWEST_EVENTS, {"table_id": table_id,
                                                    "most": most}).all()
    later = [event for event in newest if after < event.version <= upto]
    if len(newest) == most and all(event.version > after for event in newest):
        return None
    return later[::-1]


def actions_in_effect(table_id: int) -> list[Row]:
    """The log's actions no undo took back, oldest first."""
    return in_effect(events(table_id))


def free_code() -> str:
    """A room code no table has (a concurrent creation may still take it: the code's
    unique index tells, and the creation draws again)."""
    with read_connection() as connection:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if not connection.execute(CODE_TAKEN, {"code": code}).scalar():
                return code
