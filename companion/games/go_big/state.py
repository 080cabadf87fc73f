"""Go Big's state as the platform keeps it (plain JSON data), typed.

A card value (1 to 7) is a key of `seen` and of a bank as JSON keeps every key: a string,
"1" to "7" (`ValueKey`).
"""
from __future__ import annotations

from typing import Literal, TypedDict

ValueKey = str
"""A card value as a JSON key: str(value)."""

Step = Literal["play", "draw"]


class Display(TypedDict):
    """The set a player reported last, in front of them until it is beaten or banked."""

    value: int
    count: int


class Seat(TypedDict):
    player: int
    hand: int
    display: Display | None
    bank: dict[ValueKey, int]


class GoBigState(TypedDict):
    copies: int
    open_banks: bool
    deck: int
    market: int
    current: int
    step: Step
    finished: bool
    seen: dict[ValueKey, int]
    beaten: int
    hands_discarded: int
    seats: list[Seat]
