"""A table's clock: its setting when the table is made, its figures in the view (worked
out from the log by `games.clock`), and the host pausing and resuming it.

What the clock reads of the log is read once per version per process; the figures are
worked out at each reading, as of the server's time then, so that a screen can count on
from the view's `at` by itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask_babel import lazy_gettext
from pydantic import ValidationError

from .. import store
from ..auth import Viewer
from ..errors import bad_request, conflict, forbidden
from ..games import GAMES, Game
from ..games.clock import CLOCK_SETTING, Figures, Pause, Tick, figures
from ..games.engine import Note, Result
from ..games.messages import message
from ..games.replay import replay, seat_order
from ..models import utcnow
from ..snapshots import Snapshot
from ..store import Change
from .checks import validation_message

PAUSED_LINE = Note(message("The host paused the clock."))
RESUMED_LINE = Note(message("The host resumed the clock."))
NO_CLOCK = lazy_gettext("This table has no clock.")


def setting_of(data: Any) -> dict | None:
    """The clock a table is made with, as its row keeps it (None: no clock); a setting
    the contract does not take is refused, saying why."""
    if data is None:
        return None
    try:
        return CLOCK_SETTING.validate_python(data).model_dump(mode="json")
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None


def awaiting(engine: Game, state: dict, finished: bool) -> list[int]:
    """Who the game awaits after a change, as the log keeps it for the clock: no one
    once the game is over."""
    return [] if finished else list(engine.waiting_for(state))


@dataclass(frozen=True)
class ClockLog:
    """What the clock reads of a table's log at one version."""

    awaiting_at_start: tuple[int, ...]
    ticks: tuple[Tick, ...]
    pauses: tuple[Pause, ...]
    end: datetime | None

    @property
    def paused(self) -> bool:
        return bool(self.pauses) and self.pauses[-1].paused


def clock_log(table: Snapshot) -> ClockLog:
    """The table's log as the clock reads it, read once per version in this process."""
    return table.memo("clock log", lambda: _read_log(table))


def _read_log(table: Snapshot) -> ClockLog:
    if table.state is None:
        return ClockLog((), (), (), None)
    engine = GAMES[table.game]
    dealt = replay(engine, seat_order([p.id for p in table.players], table.first_player),
                   table.options, table.dealt_seed, [])
    rows = store.clock_log(table.id, table.version)
    undone = {row.undoes for row in rows if row.kind == "undo"}
    ticks: list[Tick] = []
    pauses: list[Pause] = []
    last_change: datetime | None = None
    for row in rows:
        if row.kind in ("pause", "resume"):
            pauses.append(Pause(row.at, row.kind == "pause"))
            continue
        ticks.append(Tick(row.at, None if row.awaiting is None else tuple(row.awaiting),
                          row.actor if row.kind == "action" else None, row.seq in undone))
        if row.kind in ("action", "undo", "end"):
            last_change = row.at
    over = table.status in ("finished", "ended")
    return ClockLog(tuple(engine.waiting_for(dealt)), tuple(ticks), tuple(pauses),
                    last_change if over else None)


def figures_of(table: Snapshot, now: datetime) -> Figures:
    """The table's clock as of `now` (a table with a clock)."""
    setting = CLOCK_SETTING.validate_python(table.clock)
    players = [p.id for p in table.players]
    log = clock_log(table)
    if table.started_at is None:  # in the lobby: nobody's time has begun
        return figures(setting, players, now, (), (), (), None, now)
    return figures(setting, players, table.started_at, log.awaiting_at_start, log.ticks,
                   log.pauses, log.end, now)


def view_of(table: Snapshot) -> dict | None:
    """The view's `clock`: the figures as of `at`, the server's time now (None for a table
    without a clock)."""
    if table.clock is None:
        return None
    now = utcnow()
    # `at` says milliseconds: rounded up, so no event already written lies after it.
    now += timedelta(microseconds=-now.microsecond % 1000)
    seen = figures_of(table, now)
    return {**table.clock, "paused": seen.paused, "running": seen.running,
            "players": [{"player": p.id, "used_ms": seen.used_ms[p.id],
                         "left_ms": seen.left_ms[p.id]} for p in table.players],
            "admin_ms": seen.admin_ms, "at": now.isoformat(timespec="milliseconds") + "Z"}


def at_the_end(table: Snapshot) -> Figures | None:
    """The clock's figures over the whole game, once it is over (None without a clock)."""
    if table.clock is None or table.status not in ("finished", "ended"):
        return None
    end = clock_log(table).end
    return figures_of(table, end or utcnow())


def used_at_the_end(table: Snapshot) -> dict[int, int] | None:
    """Each player's time used over the game, once it is over (None without a clock)."""
    seen = at_the_end(table)
    return None if seen is None else seen.used_ms


def outcome(table: Snapshot, state: dict | None = None) -> Result | None:
    """The game's result (None before the end), each player's time used handed to the
    engine when the table had a clock: a score sheet may break a tie on it. `state`: the
    table's own unless given."""
    state = table.state if state is None else state
    if state is None:
        return None
    return GAMES[table.game].result_with_times(state, used_at_the_end(table))


def record_of(table: Snapshot) -> dict | None:
    """The clock in a finished game's record: its setting, each player's time used and
    the table's own (None without a clock)."""
    seen = at_the_end(table)
    if seen is None or table.clock is None:
        return None
    return {**table.clock,
            "players": [{"player": p.id, "used_ms": seen.used_ms[p.id]} for p in table.players],
            "admin_ms": seen.admin_ms}


def pause(table: Snapshot, viewer: Viewer, paused: bool) -> Snapshot:
    """The host pauses (or resumes) the clock: a public line of the log, which no undo
    takes back."""
    if not viewer.is_host:
        raise forbidden(lazy_gettext("Only the host can do that."))

    def write_line(before: Snapshot) -> Change:
        if before.clock is None:
            raise conflict(NO_CLOCK)
        if before.status == "lobby":
            raise conflict(lazy_gettext("The game has not started yet."))
        if before.status == "ended":
            raise conflict(lazy_gettext("The host ended this table before the game was over."))
        if before.status != "playing":
            raise conflict(lazy_gettext("The game is over."))
        if clock_log(before).paused == paused:
            raise conflict(lazy_gettext("The clock is already paused.") if paused
                           else lazy_gettext("The clock is not paused."))
        line = PAUSED_LINE if paused else RESUMED_LINE
        return Change(events=[{"kind": "pause" if paused else "resume", "actor": None,
                               "actor_key": viewer.actor_key, "notes": [line.to_json()]}])

    return store.write(table, write_line).table
