"""The table clock: its setting, and its figures worked out from the log.

A player's time runs exactly while the game awaits that player and the clock is not
paused, from the start of the game to its end; in a step that awaits several players at
once, each one's time runs until that player has acted. Time while the game awaits no
player (only the host), or while the clock is paused, is the table's own (`admin_ms`).
In bank mode each player starts with the bank and gains the increment after each of their
actions in effect (an undone action's increment goes with it, so acting and undoing gains
nothing); a bank may run below zero. An undo gives no time back: time spent is spent.

Pure like the engines: the figures come from times given to it (the start, each event's,
each pause's, the end, and the moment they are asked for), never from a clock of its own.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

WARN_MOST = 600


class CountUpClock(BaseModel):
    """Each player's time counted up from zero."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    mode: Literal["count_up"]
    warn_seconds: int = Field(0, ge=0, le=WARN_MOST, description="0: no warning.")


class BankClock(BaseModel):
    """A time bank per player, with an increment after each of their moves."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    mode: Literal["bank"]
    bank_seconds: int = Field(ge=60, le=36000)
    increment_seconds: int = Field(0, ge=0, le=600)
    warn_seconds: int = Field(0, ge=0, le=WARN_MOST, description=(
        "A bank below this many seconds is shown as running short; 0: no warning."))


ClockSetting = Annotated[Union[CountUpClock, BankClock], Field(discriminator="mode")]
CLOCK_SETTING: TypeAdapter[CountUpClock | BankClock] = TypeAdapter(ClockSetting)


@dataclass(frozen=True)
class Tick:
    """An event of the log as the clock reads it: when it was written, who the game
    awaits after it (None: the same players as before, such as a seat given to a new
    phone), and for an action of a player, that player and whether an undo took it
    back since (only an action in effect earns the increment)."""

    at: datetime
    awaiting: tuple[int, ...] | None
    actor: int | None = None
    undone: bool = False


@dataclass(frozen=True)
class Pause:
    """The host pausing (`paused` True) or resuming the clock."""

    at: datetime
    paused: bool


@dataclass(frozen=True)
class Figures:
    """The clock as of one moment. `left_ms` is None for every player in count_up mode."""

    used_ms: dict[int, int]
    left_ms: dict[int, int | None]
    running: list[int]
    admin_ms: int
    paused: bool


def _microseconds(start: datetime, end: datetime) -> int:
    if end <= start:
        return 0
    delta = end - start
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def figures(setting: CountUpClock | BankClock, players: Sequence[int], start: datetime,
            awaiting_at_start: Iterable[int], ticks: Iterable[Tick],
            pauses: Iterable[Pause], end: datetime | None, now: datetime) -> Figures:
    """The clock of a game that started at `start` awaiting `awaiting_at_start`, after
    the `ticks` and `pauses` of its log (each oldest first), that ended at `end` (None:
    it is still being played), as of `now`. `players` are the player ids in seat order."""
    seated = set(players)
    stop = now if end is None else min(now, end)
    used = dict.fromkeys(players, 0)
    earned = dict.fromkeys(players, 0)
    admin = 0
    awaiting = seated & set(awaiting_at_start)
    paused = False
    moment = start
    changes: list[tuple[datetime, Tick | Pause]] = [(tick.at, tick) for tick in ticks]
    changes += [(pause.at, pause) for pause in pauses]
    changes.sort(key=lambda change: change[0])  # stable: at the same moment, log order
    for at, change in changes:
        if at > stop:
            break
        spent = _microseconds(moment, at)
        if paused or not awaiting:
            admin += spent
        for player in () if paused else awaiting:
            used[player] += spent
        moment = max(moment, at)
        if isinstance(change, Pause):
            paused = change.paused
            continue
        if change.awaiting is not None:
            awaiting = seated & set(change.awaiting)
        if change.actor in seated and not change.undone:
            earned[change.actor] += 1
    spent = _microseconds(moment, stop)
    if paused or not awaiting:
        admin += spent
    for player in () if paused else awaiting:
        used[player] += spent
    over = end is not None and now >= end
    used_ms = {player: micro // 1000 for player, micro in used.items()}
    if isinstance(setting, BankClock):
        left: dict[int, int | None] = {
            player: (setting.bank_seconds + earned[player] * setting.increment_seconds)
            * 1000 - used_ms[player] for player in players}
    else:
        left = dict.fromkeys(players, None)
    return Figures(used_ms=used_ms, left_ms=left,
                   running=[] if paused or over else [p for p in players if p in awaiting],
                   admin_ms=admin // 1000, paused=paused and not over)
