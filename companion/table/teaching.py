"""A first game taught at the table. The first time each kind of step comes to a player,
their screen says what to do and why, until they say "Got it" (kept with the table, so a
reload or another of their screens does not ask again); the table display explains each
kind of step once for the table: while no move of that kind has been made yet."""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask_babel import lazy_gettext

from .. import store
from ..auth import Viewer
from ..errors import CompanionError, bad_request
from ..games import GAMES
from ..snapshots import Snapshot
from ..store import Change

MAX_STEP_LENGTH = 40


def made_so_far(table: Snapshot) -> dict[str, frozenset[int | None]]:
    """Each kind of move made at this table (undone ones aside), with who made one."""
    def made() -> dict[str, frozenset[int | None]]:
        by_kind: dict[str, set[int | None]] = {}
        for event in store.actions_in_effect(table.id):
            if event.kind == "action" and event.action:
                by_kind.setdefault(event.action["type"], set()).add(event.actor)
        return {kind: frozenset(actors) for kind, actors in by_kind.items()}
    return table.memo(("teaching", "made"), made)


def new_steps(table: Snapshot, player: int, known: Collection[str] = ()) -> list[str]:
    """The kinds of step the game offers `player` now that have a lesson, that the player
    has not made yet, and that are not `known`; the main one first."""
    engine = GAMES[table.game]
    if table.status != "playing" or table.state is None:
        return []
    made = made_so_far(table)
    offered = [a["type"] for a in engine.actions(table.state, player)]
    return [step for step in dict.fromkeys(offered) if step in engine.lessons
            and player not in made.get(step, ()) and step not in known]


def got(table: Snapshot, player: int) -> list[str]:
    return list(((table.teaching or {}).get("got_it") or {}).get(str(player), []))


def lesson_for(table: Snapshot, player: int | None) -> tuple[str, str] | None:
    """The step `player`'s screen explains now and its lesson (a message), if any: the
    first kind of step new to them that they have not said "Got it" to."""
    if table.teaching is None or player is None:
        return None
    steps = new_steps(table, player, got(table, player))
    return (steps[0], GAMES[table.game].lessons[steps[0]]) if steps else None


def lessons_for_the_table(table: Snapshot) -> list[tuple[str, str]]:
    """What the table display explains now: the main kind of step the game awaits of each
    player, while no one has made a move of that kind yet."""
    if table.teaching is None or table.status != "playing" or table.state is None:
        return []
    engine = GAMES[table.game]
    made = made_so_far(table)
    steps: list[str] = []
    for player in engine.waiting_for(table.state):
        offered = [a["type"] for a in engine.actions(table.state, player)
                   if a["type"] in engine.lessons]
        fresh = [step for step in offered if step not in made]
        if fresh and fresh[0] not in steps:
            steps.append(fresh[0])
    return [(step, engine.lessons[step]) for step in steps]


def got_it(table: Snapshot, viewer: Viewer, step: Any) -> Snapshot:
    """The player has read the lesson of this kind of step: their screens stop showing it."""
    player = viewer.player_id
    if player is None:
        raise CompanionError("unauthorized", lazy_gettext("Join the table to play."))
    if not isinstance(step, str) or not 0 < len(step) <= MAX_STEP_LENGTH:
        raise bad_request(lazy_gettext("That is not a step of this game."))

    def note(before: Snapshot) -> Change:
        if before.teaching is None:
            raise bad_request(lazy_gettext("This table is not taught."))
        if step not in GAMES[before.game].lessons:
            raise bad_request(lazy_gettext("That is not a step of this game."))
        taught = dict((before.teaching or {}).get("got_it") or {})
        taught[str(player)] = sorted({*got(before, player), step})
        return Change(row={"teaching": {**before.teaching, "got_it": taught}})

    return store.write(table, note).table
