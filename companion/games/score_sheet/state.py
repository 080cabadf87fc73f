"""The score sheet's state as the platform keeps it (plain JSON data), typed.

A player's id is a key of a round's entries as JSON keeps every key: a string
(`PlayerKey`). A category is named as the host typed it.
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, cast

from .models import BidsRule, EntryBy, Outcome, TeamScoring

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


class ByTimeTieBreak(TypedDict):
    by: Literal["time"]
    most: bool


TieBreak = ByCategoryTieBreak | ByRoundsWonTieBreak | ByLastRoundTieBreak | ByTimeTieBreak


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
    # Absent from the options of a sheet stored before there were bids or a dealer.
    bids: NotRequired[BidsRule | None]
    dealer: NotRequired[bool]
    zero_sum: NotRequired[bool]
    outcome: NotRequired[Outcome]
    teams: NotRequired[int]
    team_names: NotRequired[list[str]]
    team_scoring: NotRequired[TeamScoring]


class Played(TypedDict):
    """One player's bid and tricks in a round of a sheet of bids; `tricks` and `bonus`
    are absent until the player has entered them."""

    bid: int
    tricks: NotRequired[int]
    bonus: NotRequired[int]


class ScoreSheetState(TypedDict):
    options: SheetOptions
    players: list[int]
    closed: list[RoundEntries]
    open: RoundEntries
    finished: bool
    # A sheet of bids: the open round's bids and tricks, and each closed round's, by player
    # (absent from a sheet without bids).
    bidding: NotRequired[dict[PlayerKey, Played]]
    played: NotRequired[list[dict[PlayerKey, Played]]]
    # A game won without points, once the host has ended it (see `outcome`).
    ending: NotRequired["Ending"]


class Ending(TypedDict):
    """How the host ended a game won without points: the winners named, or a cooperative
    game won or lost (with its score, or None)."""

    winners: list[int]
    won: NotRequired[bool]
    score: NotRequired[int | None]


def copy_for_move(state: ScoreSheetState, corrected: int | None = None) -> ScoreSheetState:
    """A copy of the state that a move may change: the open round's entries and bids, the
    lists a closing round is appended to, and closed round number `corrected` (a
    correction changes it in place). The other closed rounds, the options and the players
    are shared with `state`: no move changes them, and a sheet of a hundred rounds copies
    one."""
    copied = cast(ScoreSheetState, dict(state))
    copied["open"] = {key: dict(scores) for key, scores in state["open"].items()}
    copied["closed"] = list(state["closed"])
    if corrected is not None and 1 <= corrected <= len(copied["closed"]):
        copied["closed"][corrected - 1] = {
            key: dict(scores) for key, scores in copied["closed"][corrected - 1].items()}
    if "bidding" in state:
        copied["bidding"] = {key: cast(Played, dict(played))
                             for key, played in state["bidding"].items()}
    if "played" in state:
        copied["played"] = list(state["played"])
    return copied
