"""A first game taught at the table. The first time each kind of step comes to a player,
their screen says what to do and why, until they say "Got it" (kept with the table, so a
reload or another of their screens does not ask again); the table display explains each
kind of step once for the table: while no move of that kind has been made yet."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext

from .. import store
from ..auth import Viewer
from ..errors import CompanionError, bad_request
from ..games import GAMES
from ..snapshots import Snapshot
from ..store import Change

MAX_STEP_LENGTH = 40


def step_awaiting(table: Snapshot, player: int) -> str | None:
    """The kind of step the game awaits from `player` now: the type of the first move it
    offers them that has a lesson (None: nothing awaited, or nothing to teach)."""
    engine = GAMES[table.game]
    if table.status != "playing" or table.state is None:
        return None
    offered = engine.actions(table.state, player)
    return next((a["type"] for a in offered if a["type"] in engine.lessons), None)


def got(table: Snapshot, player: int) -> list[str]:
    return list(((table.teaching or {}).get("got_it") or {}).get(str(player), []))


def lesson_for(table: Snapshot, player: int | None) -> tuple[str, str] | None:
    """The step `player`'s screen explains now and its lesson (a message), if any."""
    if table.teaching is None or player is None:
        return None
    step = step_awaiting(table, player)
    if step is None or step in got(table, player):
        return None
    return step, GAMES[table.game].lessons[step]


def made_so_far(table: Snapshot) -> frozenset[str]:
    """The kinds of move made at this table (undone ones aside)."""
    return table.memo(("teaching", "made"), lambda: frozenset(
        event.action["type"] for event in store.actions_in_effect(table.id)
        if event.kind == "action" and event.action))


def lessons_for_the_table(table: Snapshot) -> list[tuple[str, str]]:
    """What the table display explains now: the steps the game awaits that no one has
    made yet, each once."""
    if table.teaching is None or table.status != "playing":
        return []
    engine = GAMES[table.game]
    steps: list[str] = []
    for player in engine.waiting_for(table.state):
        step = step_awaiting(table, player)
        if step is not None and step not in steps:
            steps.append(step)
    made = made_so_far(table) if steps else frozenset()
    return [(step, engine.lessons[step]) for step in steps if step not in made]


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
