"""Guess the Number's options and the actions a player posts."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.games.engine import StrictModel

MOST = 100


class Options(StrictModel):
    highest: int = Field(20, ge=2, le=MOST, title="Highest number",
                         description="Each player secretly chooses a number from 1 to this.")


class Choose(StrictModel):
    type: Literal["choose"]
    number: int = Field(ge=1, le=MOST)


class Guess(StrictModel):
    type: Literal["guess"]
    guess: int = Field(ge=1, le=MOST)
