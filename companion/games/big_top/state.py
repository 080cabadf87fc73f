"""Big Top's state as the platform keeps it: plain JSON data, typed.

A card is its deck name, "sideshow-D4" (cards.py). JSON turns every key into a string: a
chart's spaces are its dollar values, "3" down to "0".
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Variant = Literal["big-top", "fan-tan"]
Step = Literal["hands", "receipts", "play", "over"]
Suit = Literal["clowns", "sideshow", "animals", "performers"]
Shade = Literal["poster", "light", "dark"]
ChartSpace = Literal["3", "2", "1", "0"]
ReceiptValue = Literal[10, 7, 5, 3]
Card = str

Chart = dict[ChartSpace, Card | None]
"""A player's called cards by the space they sit on (None: empty)."""
ReceiptPlacement = dict[Suit, ReceiptValue]


class Pile(TypedDict):
    """One suit's piles in the middle: its Poster down or not, and the highest number
    played on its light and its dark pile (0: none yet)."""

    poster: bool
    light: int
    dark: int


class Check(TypedDict):
    """A failed check of the hands against the deck."""

    missing: list[Card]
    doubled: list[Card]


class Seat(TypedDict):
    player: int
    hand: list[Card] | None  # None until the player enters it
    chart: Chart
    receipts: ReceiptPlacement | None  # None until placed (always, in Fan Tan)
    track: int  # this deal's earnings on the scoring track
    total: int  # money banked in finished deals; Fan Tan: peanuts left


class EarningSource(TypedDict):
    """An opponent's called card a play earned from, worth the space it sat on."""

    player: int
    card: Card
    value: int


Earning = TypedDict("Earning", {"player": int, "card": Card, "amount": int,
                                "from": list[EarningSource]})
"""A play from hand that earned money ("from" is a word of Python's own)."""


class DealScore(TypedDict):
    """A player's score at the end of a Big Top deal."""

    player: int
    went_out: bool
    completed: dict[Suit, ReceiptValue]  # the receipts earned: suits the player held none of
    receipts: int
    track: int
    score: int


class DealResult(TypedDict):
    deal: int
    dealer: int
    out: int  # the player who went out
    seats: NotRequired[list[DealScore]]  # Big Top
    pot: NotRequired[int]  # Fan Tan: the peanuts the player who went out took


class BigTopState(TypedDict):
    variant: Variant
    deals: int
    deal: int  # the deal being played, from 1
    dealer_seat: int
    step: Step
    current: int | None  # the seat on turn, in play
    piles: dict[Suit, Pile]
    check: Check | None
    earnings: list[Earning]  # this deal's
    deal_results: list[DealResult]
    seats: list[Seat]
    pot: NotRequired[int]  # Fan Tan
    broke: NotRequired[int | None]  # Fan Tan: the player whose last peanut ended the game
