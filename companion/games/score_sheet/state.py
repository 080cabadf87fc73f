"""The score sheet's state as the platform keeps it (plain JSON data), typed.

A player's id is a key of a round's entries as JSON keeps every key: a string
(`PlayerKey`). A category is named as the host typed it.
"""
from __future__ import annotations

from typing import Literal, TypedDict

from .models import EntryBy

PlayerKey = str
"""A player's id as a JSON key: str(player)."""

Scores = dict[str, int]
"""One player's entry for a round: each category's score."""

RoundEntries = dict[PlayerKey, Scores]
"""A round's entries, by player."""


class ByCategoryTieBreak(TypedDict):
    by: Literal["category"]
    category: str
    most: bool


class ByRoundsWonTieBreak(TypedDict):
    by: Literal["rounds_won"]


class ByLastRoundTieBreak(TypedDict):
    by: Literal["last_round"]
    most: bool


TieBreak = ByCategoryTieBreak | ByRoundsWonTieBreak | ByLastRoundTieBreak


class SheetOptions(TypedDict):
    """The table's options (`Options`) as JSON, kept in the state."""

    name: str
    rounds: int | None
    categories: list[str]
    lowest_wins: bool
    target: int | None
    negative: bool
    entry: EntryBy
    secret: bool
    tiebreaks: list[TieBreak]


class ScoreSheetState(TypedDict):
    options: SheetOptions
    players: list[int]
    closed: list[RoundEntries]
    open: RoundEntries
    finished: bool
