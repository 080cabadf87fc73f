"""The goal cards: when a player's pieces complete a goal, and the winning sentence."""
from __future__ import annotations

from ..engine import Note
from ..messages import Message, Param, Player, message
from .models import SIZES, Color
from .pieces import color_name, remove_one
from .state import NothingBeatsALargeState, Seat


def holds_trio(seat: Seat, color: str) -> bool:
    return all(f"{color}-{size}" in seat["pieces"] for size in SIZES)


def second_goal_colors(state: NothingBeatsALargeState, seat: Seat) -> list[Color]:
    """The colours that complete the second goal: the other card's colour, or any
    other colour when both cards show the first goal's colour."""
    first = seat["completed"][0]
    other_card = remove_one(seat["goals"], first)[0]
    if other_card != first:
        return [other_card]
    return [c for c in state["colors"] if c != first]


def check_player_goals(state: NothingBeatsALargeState, seat: Seat) -> list[Note]:
    """Count the goals the seat's pieces complete now; a second one wins the game."""
    notes: list[Note] = []
    player = seat["player"]
    if not seat["completed"]:
        first = next((c for c in seat["goals"] if holds_trio(seat, c)), None)
        if first is None:
            return notes
        seat["completed"].append(first)
        seat["revealed_goals"].append(first)
        notes.append(Note(message("%(player)s holds all three %(color)s pieces and reveals "
                                  "a %(color)s goal card: a first goal completed.",
                                  player=Player(player), color=color_name(first)),
                          reveal=True))
    second = next((c for c in second_goal_colors(state, seat) if holds_trio(seat, c)), None)
    if second is not None:
        seat["completed"].append(second)
        seat["revealed_goals"] = list(seat["goals"])
        state["winner"] = player
        state["step"] = "over"
        state["steals"] = []
        notes.append(Note(win_sentence(seat), reveal=True))
    return notes


def win_sentence(seat: Seat) -> Message:
    first, second = seat["completed"]
    colors: dict[str, Param] = {"player": Player(seat["player"]), "first": color_name(first),
                                "second": color_name(second)}
    if seat["goals"][0] == seat["goals"][1]:
        return message("%(player)s completed a second goal (%(second)s after %(first)s; "
                       "both goal cards are %(first)s, so any other colour counts) and "
                       "wins.", **colors)
    return message("%(player)s completed a second goal (%(second)s after %(first)s) and "
                   "wins.", **colors)
