"""The score sheet's options (the shape of the sheet, who wins, how it is entered, the
tie-break chain) and the actions posted to it, as fixed by the API contract."""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, StringConstraints, field_validator, model_validator

from ..engine import PlayerId, StrictModel

LOWEST_ENTRY = -1_000_000
HIGHEST_ENTRY = 1_000_000
MAX_ROUNDS = 100
MAX_CATEGORIES = 20
HIGHEST_TARGET = HIGHEST_ENTRY * MAX_ROUNDS * MAX_CATEGORIES

Entry = Annotated[int, Field(ge=LOWEST_ENTRY, le=HIGHEST_ENTRY)]
# Words a host types, kept and shown: printable characters only (no control character, no
# NUL, which a database's text cannot hold).
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"
CategoryName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                                max_length=24, pattern=PRINTABLE)]
GameName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                            max_length=40, pattern=PRINTABLE)]
Round = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
EntryBy = Literal["players", "scorer"]
BidsRule = Literal["wizard", "oh_hell", "skull_king"]
Outcome = Literal["points", "winners", "cooperative"]
Tricks = Annotated[int, Field(ge=0, le=MAX_ROUNDS)]
MAX_TEAMS = 10
TeamName = GameName
TeamScoring = Literal["together", "members"]


class ByCategory(StrictModel):
    """Most (or fewest) points in one category, summed over the rounds."""

    by: Literal["category"]
    category: CategoryName
    most: bool = True


class ByRoundsWon(StrictModel):
    """Most rounds won (a round is won by the best round score; a tied best is won by
    each of the tied)."""

    by: Literal["rounds_won"]


class ByLastRound(StrictModel):
    """Highest (or lowest) score in the last round played."""

    by: Literal["last_round"]
    most: bool = True


class ByTime(StrictModel):
    """Less (or more) time used on the table clock: only for a table with a clock."""

    by: Literal["time"]
    most: bool = False


TieBreak = Annotated[Union[ByCategory, ByRoundsWon, ByLastRound, ByTime],
                     Field(discriminator="by")]


class Options(StrictModel):
    name: GameName = Field(
        title="Game", description="The name of the game this sheet scores, e.g. Wingspan.")
    rounds: Optional[Round] = Field(
        default=None, title="Rounds",
        description="A fixed number of rounds, or none: open until the host ends the game.",
        json_schema_extra={"default_words": "open until the host ends the game"})
    categories: list[CategoryName] = Field(
        default_factory=lambda: ["Points"], min_length=1, max_length=MAX_CATEGORIES,
        title="Categories",
        description="What a round is scored in; a round's score is the sum of its categories.")
    lowest_wins: bool = Field(
        default=False, title="Lowest total wins", description="As in Golf or Hearts.")
    target: Optional[int] = Field(
        default=None, ge=1, le=HIGHEST_TARGET, title="Target score",
        description="The game ends at the end of the round in which someone reaches it.",
        json_schema_extra={"default_words": "none"})
    negative: bool = Field(
        default=False, title="Negative scores", description="An entry may be below 0.")
    entry: EntryBy = Field(
        default="players", title="Who enters the scores",
        description="Each player enters their own row on their phone, or the host enters "
                    "every row.",
        json_schema_extra={"labels": {"players": "Each player", "scorer": "The host"}})
    secret: bool = Field(
        default=False, title="Secret entry",
        description="A round's entries stay hidden from everyone, the host included, until "
                    "every player has entered; then they are revealed together.")
    tiebreaks: list[TieBreak] = Field(
        default_factory=list, max_length=MAX_CATEGORIES + 2, title="Tie-breaks",
        description="In order; after the last, a tie is shared.",
        json_schema_extra={"default_words": "none: a tie is shared"})
    bids: Optional[BidsRule] = Field(
        default=None, title="Bids and tricks",
        description="A trick-taking game: round N deals N cards, each player bids, then "
                    "enters the tricks taken, and the sheet computes the round's score.",
        json_schema_extra={"default_words": "none",
                           "labels": {"wizard": "Wizard", "oh_hell": "Oh Hell",
                                      "skull_king": "Skull King"}})
    dealer: bool = Field(
        default=False, title="Dealer",
        description="The sheet names who deals each round: the first player, then the next "
                    "seat each round.")

    zero_sum: bool = Field(
        default=False, title="Zero-sum rounds",
        description="Every round's entries must add up to 0, as in Mahjong, Tarot or poker "
                    "chips: a round that does not stays open until an entry is changed.")
    outcome: Outcome = Field(
        default="points", title="How the game is won",
        description="By points on the sheet; by winners the host names at the end, with no "
                    "score kept; or together, won or lost by everyone.",
        json_schema_extra={"labels": {"points": "By points",
                                      "winners": "The host names the winners",
                                      "cooperative": "Together: won or lost"}})
    teams: int = Field(
        default=0, ge=0, le=MAX_TEAMS, title="Teams",
        description="Partnerships: the player in seat S plays for team S mod the number of "
                    "teams, as partners sit at a card table (0: no teams).",
        json_schema_extra={"default_words": "none"})
    team_names: list[TeamName] = Field(
        default_factory=list, max_length=MAX_TEAMS, title="Team names",
        description="One name for each team, in seat order; none: Team 1, Team 2 and so on.",
        json_schema_extra={"default_words": "Team 1, Team 2 and so on"})
    team_scoring: TeamScoring = Field(
        default="together", title="How a team scores",
        description="One row per team and round, entered by any member; or each member "
                    "enters their own row and the team's round is their sum.",
        json_schema_extra={"labels": {"together": "One row for the team",
                                      "members": "Each member's row, added up"}})

    @model_validator(mode="after")
    def _consistent(self) -> "Options":
        if len({name.casefold() for name in self.categories}) != len(self.categories):
            raise ValueError("each category can be named only once")
        for tiebreak in self.tiebreaks:
            if isinstance(tiebreak, ByCategory) and tiebreak.category not in self.categories:
                raise ValueError("a tie-break names a category the sheet does not have")
        kinds = [(t.by, getattr(t, "category", None)) for t in self.tiebreaks]
        if len(set(kinds)) != len(kinds):
            raise ValueError("each tie-break can be used only once")
        if self.bids is not None and len(self.categories) != 1:
            raise ValueError("a sheet of bids and tricks has one category")
        if self.zero_sum and self.bids is not None:
            raise ValueError("a sheet of bids and tricks cannot be zero-sum")
        if self.outcome != "points" and self.bids is not None:
            raise ValueError("a game won without points takes no bids")
        if self.teams == 1:
            raise ValueError("a table of teams has at least 2 teams")
        if self.team_names and len(self.team_names) != self.teams:
            raise ValueError("give one name for each team, or none")
        if len({name.casefold() for name in self.team_names}) != len(self.team_names):
            raise ValueError("each team can be named only once")
        if self.teams and self.bids is not None:
            raise ValueError("a sheet of bids and tricks cannot have teams")
        return self


class Enter(StrictModel):
    """A row for the open round: its scores, or on a sheet of bids the tricks taken (and
    Skull King's bonus), from which the sheet computes the score."""

    type: Literal["enter"]
    round: Round
    scores: Optional[dict[CategoryName, Entry]] = Field(
        default=None, min_length=1, max_length=MAX_CATEGORIES)
    tricks: Optional[Tricks] = None
    bonus: Optional[Entry] = None
    player: Optional[PlayerId] = None


class Bid(StrictModel):
    """A player's bid for the open round, on a sheet of bids and tricks."""

    type: Literal["bid"]
    round: Round
    bid: Tricks = Field(json_schema_extra={"asks": "Enter how many tricks you bid."})
    player: Optional[PlayerId] = None


class RoundRow(StrictModel):
    player: PlayerId
    scores: dict[CategoryName, Entry] = Field(min_length=1, max_length=MAX_CATEGORIES)


class EnterRound(StrictModel):
    """The scorer's entries of several players for the open round, made at once."""

    type: Literal["enter_round"]
    round: Round
    rows: list[RoundRow] = Field(min_length=1, max_length=20)


class Correct(StrictModel):
    type: Literal["correct"]
    player: PlayerId
    round: Round
    category: CategoryName
    value: Entry


class End(StrictModel):
    type: Literal["end"]


class Finish(StrictModel):
    """The host ends a game won without points: naming the winners, or (cooperative) won
    or lost, with the game's own score if it has one."""

    type: Literal["finish"]
    winners: Optional[list[PlayerId]] = Field(default=None, max_length=20)
    # At a table of teams, the winning teams by number (0 first): their members win.
    teams: Optional[list[Annotated[int, Field(ge=0, lt=MAX_TEAMS)]]] = Field(
        default=None, max_length=MAX_TEAMS)
    won: Optional[bool] = None
    score: Optional[Entry] = None

    @field_validator("score", mode="before")
    @classmethod
    def _blank_is_no_score(cls, value: object) -> object:
        # A form's score field left empty: the game has no score.
        return None if value == "" else value
