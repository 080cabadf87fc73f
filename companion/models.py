"""The database: tables (a game being played), their players, and the append-only log."""
from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, deferred, mapped_column, relationship

from .extensions import Base, db

if TYPE_CHECKING:
    # db.Model is made at run time from Base, the declarative base the checker can see.
    Model = Base
else:
    Model = db.Model


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Table(Model):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    host_token_hash: Mapped[str] = mapped_column(String(64))
    first_player: Mapped[int | None] = mapped_column()
    # Bumped by every change (a join, a start, an action, an undo): what streams announce
    # and what a client's "version" is checked against.
    version: Mapped[int] = mapped_column(default=0)
    # How many actions are in effect (actions minus undos): the index of the next action,
    # from which its random generator is derived.
    moves: Mapped[int] = mapped_column(default=0)
    # A checkpoint of the log: the state after the event `state_seq` (the log is the truth).
    # Written with every change but an action, with an action that ends the game and with
    # an action CHECKPOINT_EVERY events after the last checkpoint (store.writing); a process
    # that loads the table brings it on by the actions logged after it. Deferred: read
    # when the cache misses.
    state: Mapped[dict[str, Any] | None] = deferred(mapped_column(JSON))
    state_seq: Mapped[int | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[float] = mapped_column(default=time.time, index=True)
    started_at: Mapped[datetime | None] = mapped_column()  # when the game was dealt
    finished_at: Mapped[datetime | None] = mapped_column()
    # "Play again": the table the same players moved on to.
    next_code: Mapped[str | None] = mapped_column(String(8))
    # The table clock's setting (games.clock), None for a table without a clock; it counts
    # from started_at.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # A first game taught at the table (None: not taught): {"got_it": {"PLAYER_ID": [STEP,
    # ...]}}, the kinds of step each player has said "Got it" to.
    teaching: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    players: Mapped[list["Player"]] = relationship(
        back_populates="table", order_by="Player.seat", cascade="all, delete-orphan")


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # A player without a phone: the host acts for them on the host device.
    local: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # A rejoin code the host screen showed, for the new phone to type instead of scanning
    # the rejoin QR: kept hashed, good once and for a short time (seating.rejoin).
    rejoin_code_hash: Mapped[str | None] = mapped_column(String(64))
    rejoin_code_until: Mapped[datetime | None] = mapped_column()
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[Table] = relationship(back_populates="players")


class Event(Model):
    """One entry of a table's log: an action, the undo of an earlier action, the host
    giving a seat to a new phone (a rejoin), ending the table, or pausing or resuming its
    clock (public lines, never undone)."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        Index("ix_events_action_id", "table_id", "actor_key", "action_id", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column()
    # "action" | "undo" | "rejoin" | "end" | "pick" | "pause" | "resume" (the table clock's)
    kind: Mapped[str] = mapped_column(String(8))
    actor: Mapped[int | None] = mapped_column()  # a player id; None for the host
    actor_key: Mapped[str] = mapped_column(String(16))  # "host" or "p<id>": who sent it
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    notes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    reveal: Mapped[bool] = mapped_column(default=False)
    undoes: Mapped[int | None] = mapped_column()  # the seq an undo takes back
    action_id: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[int] = mapped_column()  # the table's version after this event
    # The players the game awaits after this event (None: the same as before it), from
    # which the table clock is worked out.
    awaiting: Mapped[list[int] | None] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class SavedDefaults(Model):
    """Option values a host saved as this server's defaults for a game (Big Money's box
    data as printed on their own board and cards)."""

    __tablename__ = "saved_defaults"

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(default=utcnow)


class SavedOptions(Model):
    """The options a table was created with, saved under the name the host gave them (a
    score sheet's game name: "Wingspan"), for the next table of that name to take in one
    tap. Saved again, under the same name in any case, whenever a table of it is created."""

    __tablename__ = "saved_options"
    __table_args__ = (UniqueConstraint("game", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # How many tables were created with these options: the most used are offered first.
    uses: Mapped[int] = mapped_column(default=1)
    saved_at: Mapped[datetime] = mapped_column(default=utcnow)
