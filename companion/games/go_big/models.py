"""Go Big's options and the actions a player reports."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..engine import StrictModel

VALUES = range(1, 8)
Source = Literal["deck", "market"]
SOURCES: tuple[Source, ...] = ("deck", "market")


class Options(StrictModel):
    copies_per_value: int = Field(default=13, ge=4, le=20, title="Copies of each value",
                                  description="13 in the box: 91 number cards, 1 to 7.")
    open_banks: bool = Field(default=False, title="Open banks (house rule)",
                             description="Everyone sees every bank total during the game.")


class Play(StrictModel):
    type: Literal["play"]
    value: int = Field(ge=1, le=7)
    count: int = Field(ge=1, le=3)


class Draw(StrictModel):
    type: Literal["draw"]
    source: Source
