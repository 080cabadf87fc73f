"""A finished table replayed move by move: the table as it was after each move in effect
(an undone move is not one), with that move's line of the log.

Once a game is over its secrets are part of its record, so a step may show each player's
own part too; before the end there is no replay (it would give the secrets away). A step
is derived from the table's options, seed and the log up to that move, replayed through
the game's rules, cheap enough even for the longest games (docs/performance.md) that
nothing but the log read at the table's version is kept.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from flask_babel import lazy_gettext

from .. import store
from ..errors import bad_request, conflict
from ..games import GAMES
from ..games.replay import in_effect
from ..snapshots import Snapshot
from .moves import replay_table

NOT_OVER = lazy_gettext("The replay opens when the game is over: before the end it would "
                        "give away what the players keep secret.")


def no_such_step(number: int | str, last: int) -> str:
    return lazy_gettext("There is no move %(number)s in this game: it has moves 0 (the start) "
                        "to %(last)s.", number=number, last=last)


@dataclass(frozen=True)
class Move:
    """One move of the replay: who made it, what, and its lines of the log."""

    seq: int
    actor: int | None
    action: dict
    notes: list


@dataclass(frozen=True)
class Step:
    """The table as it was after `number` moves (0: set up, before the first move)."""

    number: int
    last: int
    table: Snapshot
    move: Move | None
    moves: tuple[Move, ...]  # every move up to this one, oldest first


def moves_of(table: Snapshot) -> tuple[Move, ...]:
    """The moves in effect of a finished table, oldest first."""
    if table.status != "finished":
        raise conflict(NOT_OVER)
    return _moves(store.database_name(), table.id, table.version)


@lru_cache(maxsize=32)
def _moves(_database: str, table_id: int, version: int) -> tuple[Move, ...]:
    events = [event for event in store.events(table_id) if event.version <= version]
    return tuple(Move(e.seq, e.actor, e.action, e.notes) for e in in_effect(events))


def step(table: Snapshot, number: int | str | None) -> Step:
    """The step `number` of a finished table's replay (None: the start)."""
    moves = moves_of(table)
    last = len(moves)
    if number is None or number == "":
        number = 0
    if isinstance(number, str):
        if not number.isdigit() or len(number) > 6:
            raise bad_request(no_such_step(number[:12], last))
        number = int(number)
    if not 0 <= number <= last:
        raise bad_request(no_such_step(number, last))
    state = replay_table(table, list(moves[:number]))
    finished = GAMES[table.game].result(state) is not None
    then = replace(table, state=state, moves=number,
                   status="finished" if finished else "playing")
    return Step(number, last, then, moves[number - 1] if number else None, moves[:number])
