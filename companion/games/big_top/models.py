"""Big Top's options and the actions a player posts."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BeforeValidator, Field

from ..engine import StrictModel
from .cards import DECK
from .state import ReceiptValue as ReceiptLiteral

# Shaped like a card but checked against the deck in `apply`, so that an unknown card
# gets a sentence rather than a validation error.
Card = Annotated[str, Field(min_length=3, max_length=16, pattern=r"^[a-z]+-[A-Z0-9]+$")]


def _whole_number(value: Any) -> Any:
    """A form posts "10" where JSON posts 10; a Literal of ints does not convert it."""
    return int(value) if isinstance(value, str) and value.strip().isdigit() else value


ReceiptValue = Annotated[ReceiptLiteral, BeforeValidator(_whole_number)]


class Options(StrictModel):
    variant: Literal["big-top", "fan-tan"] = Field(
        default="big-top", title="Game",
        description="Big Top, or Fan Tan from the designer's notes: no calling, no charts "
                    "or receipts; a player who cannot play pays a peanut to the pot.",
        json_schema_extra={"labels": {"big-top": "Big Top", "fan-tan": "Fan Tan"}})
    # None: by the player count (the rulebook's 1, or 2 with 3 players), settled at the
    # start, once the players are known.
    deals_per_player: Optional[int] = Field(
        default=None, ge=1, le=4, title="Deals per player",
        description="Each player deals this many times (the rulebook: once, twice with "
                    "3 players). In Fan Tan this sets the number of hands when Hands is 0.",
        json_schema_extra={"default_words": "by the player count: 1, or 2 with 3 players"})
    peanuts: int = Field(
        default=25, ge=1, le=100, title="Peanuts each (Fan Tan)",
        description="The peanuts each player starts with in Fan Tan (25 in the designer's "
                    "notes).")
    hands: int = Field(
        default=0, ge=0, le=50, title="Hands (Fan Tan)",
        description="The number of hands to play in the Fan Tan variant; 0 means one "
                    "round of deals (one per player) times Deals per player. Big Top "
                    "ignores it.",
        json_schema_extra={"default_words": "0, a hand for each deal"})


class Hand(StrictModel):
    type: Literal["hand"]
    cards: list[Card] = Field(max_length=len(DECK))


class ReceiptPlacement(StrictModel):
    clowns: ReceiptValue
    sideshow: ReceiptValue
    animals: ReceiptValue
    performers: ReceiptValue


class Receipts(StrictModel):
    type: Literal["receipts"]
    receipts: ReceiptPlacement = Field(json_schema_extra={
        "asks": "Place one receipt on each of the four suits."})


class PlayCalled(StrictModel):
    type: Literal["play_called"]
    card: Card


class Play(StrictModel):
    type: Literal["play"]
    card: Card


class Call(StrictModel):
    type: Literal["call"]
    card: Card


class Pass(StrictModel):
    type: Literal["pass"]
