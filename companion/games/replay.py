"""A game is the replay of its log: the one way to rebuild a state from a table's seed and
its actions in effect, used by undo, a record's replay, an import and the score chart;
the one way to bring a state on by the actions logged after it (a checkpoint's, another
process's); and the two things every replay needs, the order of play and the actions in
effect.

Pure like the engines: no Flask, no database.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from .engine import Game, Note, StateT


class LoggedEvent(Protocol):
    """An event of a table's log as a replay reads it (a stored row, an imported record's
    entry...)."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def undoes(self) -> int | None: ...

    @property
    def action(self) -> Any: ...


Logged = TypeVar("Logged", bound=LoggedEvent)


def seat_order(player_ids: Sequence[int], first_player: int | None) -> list[int]:
    """Player ids clockwise (in seat order), starting with the one who goes first."""
    ids = list(player_ids)
    start = ids.index(first_player) if first_player in ids else 0
    return ids[start:] + ids[:start]


def in_effect(log: Iterable[Logged]) -> list[Logged]:
    """The actions of a log (its events oldest first, each with `seq`, `kind` and, for
    an undo, the seq it `undoes`) that no undo took back, oldest first."""
    log = list(log)
    taken_back = {event.undoes for event in log if event.kind == "undo"}
    return [event for event in log if event.kind == "action" and event.seq not in taken_back]


def setup_rng(seed: int) -> random.Random:
    """The generator of a game's setup (the shuffles before the first move)."""
    return random.Random(f"{seed}:setup")


def first_player_rng(seed: int) -> random.Random:
    """The generator of the first player picked at random when the game starts."""
    return random.Random(f"{seed}:first player")


def action_rng(seed: int, index: int) -> random.Random:
    """The generator of the index-th action in effect: an undone draw made again comes
    out the same."""
    return random.Random(f"{seed}:{index}")


def replay(engine: Game[StateT, Any], players: list[int], options: dict[str, Any], seed: int,
           actions: Iterable[tuple[int | None, dict[str, Any]]],
           after_each: Callable[[StateT], Any] | None = None,
           lines: Callable[[list[Note]], Any] | None = None) -> StateT:
    """The state after setting up `players` (ids in seat order, the first to act first)
    with `options` and `seed`, then applying `actions`, each (actor, posted action data),
    in order. `after_each` sees the state after setup and after every action (read only);
    `lines` gets the log lines each action made, in order.
    Raises IllegalAction, or pydantic's ValidationError, for a log that does not replay."""
    state = engine.setup(players, engine.Options.model_validate(options), setup_rng(seed))
    if after_each:
        after_each(state)
    for index, (actor, action) in enumerate(actions):
        notes = engine.apply(state, actor, engine.parse_action(action), action_rng(seed, index))
        if lines:
            lines(notes)
        if after_each:
            after_each(state)
    return state


def advanced(engine: Game[StateT, Any], state: StateT, seed: int, moves: int,
             actions: Iterable[tuple[int | None, dict[str, Any]]]) -> StateT:
    """`state`, the state after `moves` actions in effect, brought on by `actions` (each
    (actor, posted action data), the actions logged after it, in order): each applied to
    a copy of what it may change, so `state` itself is left as it was.
    Raises IllegalAction, or pydantic's ValidationError, for a log that does not replay."""
    for index, (actor, data) in enumerate(actions, start=moves):
        action = engine.parse_action(data)
        state = engine.move_copy(state, action)
        engine.apply(state, actor, action, action_rng(seed, index))
    return state


class UndoOutOfOrder(ValueError):
    """A log whose undo does not take back the last action in effect."""

    def __init__(self, seq: int):
        super().__init__(seq)
        self.seq = seq


def replayed_lines(engine: Game[StateT, Any], players: list[int], options: dict[str, Any],
                   seed: int, log: Iterable[Logged], actor: Callable[[Logged], int | None]
                   ) -> tuple[StateT, dict[int, list[Note]]]:
    """The state after a log (its events oldest first, each with `seq`, `kind`, `action`
    and, for an undo, the seq it `undoes`; `actor` reads an event's actor) and each
    action's log lines as they were made: an action an undo took back made its lines after
    the actions then in effect. Raises UndoOutOfOrder, IllegalAction or pydantic's
    ValidationError for a log that does not replay."""
    effective: list[Logged] = []
    undone: list[tuple[Logged, list[Logged]]] = []
    for event in log:
        if event.kind == "action":
            effective.append(event)
        elif event.kind == "undo":
            if not effective or effective[-1].seq != event.undoes:
                raise UndoOutOfOrder(event.seq)
            undone.append((effective.pop(), list(effective)))

    def play(events: list[Logged]) -> tuple[StateT, list[list[Note]]]:
        made: list[list[Note]] = []
        state = replay(engine, players, options, seed,
                       [(actor(e), e.action) for e in events], lines=made.append)
        return state, made

    state, made = play(effective)
    lines = {event.seq: notes for event, notes in zip(effective, made)}
    for event, before in undone:
        lines[event.seq] = play(before + [event])[1][-1]
    return state, lines
