"""A table's log lines made again from its log: what the engines say of each action,
replayed through the game's rules, and the line of each rejoin. Used where lines were
stored as English text, before the engines spoke in messages (an older database, an
export or a record of version 1), so that every line is a message again."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..games import GAMES
from ..games.engine import Note
from ..games.messages import NAME_PLACEHOLDER, message, text_from_json
from ..games.replay import replayed_lines, seat_order
from .seating import picked_in, picked_line, rejoin_line

SOMEONE_REJOINED = Note(message("The host gave a seat to a new phone."))
SOMEONE_PICKED = Note(message("A player was picked at random to start."))


def rejoin_notes(notes: list[dict], local_of: dict[int, bool]) -> list[dict]:
    """A rejoin's line as a message: the line that names its player when the stored one
    does (and the player is at the table), else the line that says the same without the
    name."""
    for note in notes:
        text = str(text_from_json(note.get("text", "")))
        found = NAME_PLACEHOLDER.search(text)
        player = int(found.group(1)) if found else None
        if player in local_of and text == rejoin_line(player, local_of[player]).text:
            return [rejoin_line(player, local_of[player]).to_json()]
    return [SOMEONE_REJOINED.to_json()]


def pick_notes(notes: list[dict], seated: set[int], role: str) -> list[dict]:
    """A random pick's line as a message: the line naming its player when the stored one
    does (and the player is at the table), else the line that says the same without the
    name."""
    player = picked_in(notes)
    if player is not None and player in seated:
        return [picked_line(player, role).to_json()]
    return [SOMEONE_PICKED.to_json()]


def rebuilt(game: str, seats: list[int], first_player: int | None, options: dict,
            seed: int | None, events: Iterable[Any], local_of: dict[int, bool],
            actor: Callable[[Any], int | None] = lambda event: event.actor
            ) -> dict[int, list[dict]]:
    """Each event's lines (by seq) made again: `seats` are the player ids in seat order,
    `events` the log oldest first (each with `seq`, `kind`, `action`, `undoes` and its
    stored `notes`). An undo keeps its lines (it has none of its own). Raises what a
    replay raises for a log the rules refuse."""
    events = list(events)
    lines: dict[int, list[Note]] = {}
    if seed is not None and any(event.kind == "action" for event in events):
        _, lines = replayed_lines(GAMES[game], seat_order(seats, first_player), options, seed,
                                  events, actor)
    made = {}
    for event in events:
        if event.kind == "action":
            made[event.seq] = [note.to_json() for note in lines[event.seq]]
        elif event.kind == "rejoin":
            made[event.seq] = rejoin_notes(list(event.notes or []), local_of)
        elif event.kind == "end":
            made[event.seq] = [ended_line().to_json()]
        else:
            made[event.seq] = list(event.notes or [])
    return made


def ended_line() -> Note:
    """The log's line when the host ends a table before its game is over."""
    return Note(message("The host ended this table before the game was over."))
