"""Nothing Beats a Large's state as the platform keeps it (plain JSON data), typed.

A player's id is a key of a cast's picks as JSON keeps every key: a string (`PlayerKey`).
A piece is its colour and size, "red-L"; None in a cast is Nothing.
"""
from __future__ import annotations

from typing import Literal, TypedDict

from ..messages import TextJSON
from .models import Casting, Color

PlayerKey = str
"""A player's id as a JSON key: str(player)."""

Piece = str
"""A pyramid, "<colour>-<size>": "red-L", "blue-S"."""

Step = Literal["challenge", "cast", "steal", "over"]


class OpenCast(TypedDict):
    """The cast under way between two players; `picks` holds the locked pieces."""

    between: list[int]
    round: int
    picks: dict[PlayerKey, Piece | None]
    revealed: bool


class CastRecord(TypedDict):
    """The latest revealed cast, with who won it (None for both on a tie) and why."""

    between: list[int]
    pieces: dict[PlayerKey, Piece | None]
    winner: int | None
    loser: int | None
    explanation: TextJSON


class PendingSteal(TypedDict):
    thief: int
    victim: int
    reason: Literal["won", "zero"]


class Seat(TypedDict):
    player: int
    pieces: list[Piece]
    goals: list[Color]
    revealed_goals: list[Color]
    completed: list[Color]


class NothingBeatsALargeState(TypedDict):
    colors: list[Color]
    casting: Casting
    step: Step
    challenger: int
    cast: OpenCast | None
    last_cast: CastRecord | None
    steals: list[PendingSteal]
    winner: int | None
    seats: list[Seat]
