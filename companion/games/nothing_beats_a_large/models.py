"""Nothing Beats a Large's pieces, its options and the actions a player posts."""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field, StringConstraints, field_validator

from ..engine import PlayerId, StrictModel

Color = Literal["red", "yellow", "green", "blue", "black"]
Casting = Literal["phones", "by-hand"]
COLORS: tuple[Color, ...] = ("red", "yellow", "green", "blue", "black")
SIZES = ("L", "M", "S")
NOTHING = "N"  # the size of an empty hand in a cast
SIZE_NAMES = {"L": "Large", "M": "Medium", "S": "Small", NOTHING: "Nothing"}
BEATS = {"L": {"M", "S"}, "M": {"S", NOTHING}, "S": {NOTHING}, NOTHING: {"L"}}

Piece = Annotated[str, StringConstraints(pattern=rf"^({'|'.join(COLORS)})-[LMS]$",
                                         max_length=8)]


class Options(StrictModel):
    colors: list[Color] = Field(
        default_factory=lambda: list(COLORS), min_length=3, max_length=5,
        title="Colours in play",
        description="One colour per player, at least 3: 3 colours for 2 or 3 players, "
                    "4 for 4, all 5 for 5. Set the other pyramids aside.",
        json_schema_extra={"default_words": "one per player (at least 3), in this order",
                           "labels": {"red": "Red", "yellow": "Yellow", "green": "Green",
                                      "blue": "Blue", "black": "Black"}})
    casting: Casting = Field(
        default="phones", title="How to cast",
        description="On the phones: each caster picks a piece (or nothing) in secret and "
                    "both are revealed together. By hand: the casters reveal real pieces "
                    "and one of them records both.",
        json_schema_extra={"labels": {"phones": "On the phones", "by-hand": "By hand"}})

    @field_validator("colors")
    @classmethod
    def _distinct(cls, colors: list[str]) -> list[str]:
        if len(set(colors)) != len(colors):
            raise ValueError("each colour can be chosen only once")
        return colors


class Challenge(StrictModel):
    type: Literal["challenge"]
    opponent: PlayerId


class Cast(StrictModel):
    type: Literal["cast"]
    piece: Optional[Piece]


class RecordCast(StrictModel):
    type: Literal["record_cast"]
    pieces: dict[PlayerId, Optional[Piece]] = Field(min_length=2, max_length=2, json_schema_extra={
        "asks": "Tap what each of the two casters showed."})


class Steal(StrictModel):
    type: Literal["steal"]
    piece: Piece
