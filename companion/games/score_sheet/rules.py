"""The score sheet's rules page: its sections (the sheet's own options, as it is a sheet for
any other game and has no rulebook), the section of the step a sheet is at, and what to set
out at the table for a sheet's options."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..messages import Message, listed, message, plural
from . import bids, outcome, zero_sum
from .models import Options
from .state import ScoreSheetState

SECTIONS: dict[str, str] = {
    "setup": message("Setting up the table"),
    "turn": message("A round, step by step"),
    "entering": message("Entering the scores"),
    "secret": message("Secret entry"),
    "corrections": message("Correcting a closed round"),
    "bids": message("Bids and tricks"),
    "teams": message("Partnerships"),
    "zero-sum": message("Zero-sum rounds"),
    "without-points": message("Games won without points"),
    "end": message("The end and the tie-breaks"),
}


def rule_for(state: ScoreSheetState) -> str:
    """The section of the step the sheet is at."""
    if state["finished"]:
        return "end"
    if outcome.without_points(state):
        return "without-points"
    if bids.rule(state):
        return "bids"
    if zero_sum.off_by(state) is not None:
        return "zero-sum"
    return "turn"


def team_seats(teams: int, players: int) -> list[list[int]]:
    """The seats (from 1) of each team: seat S plays for team S mod `teams`, counted from 0."""
    return [[seat + 1 for seat in range(players) if seat % teams == team]
            for team in range(teams)]


def setup_checklist(options: Options, players: int) -> list[Message]:
    """What a sheet needs at the table: the game's own box, whose turn it is to deal, the
    partners' seats, the cards of each round of bids, and who keeps the sheet."""
    # A sheet left under the app's own name reads it in the screen's language.
    game = message("Score sheet") if options.name == "Score sheet" else options.name
    lines = [message("Set out %(game)s as its own rules say: the sheet needs nothing of "
                     "its own.", game=game)]
    if options.outcome != "points":
        lines.append(message("The host ends the game on the host screen: no one enters "
                             "scores."))
        return lines
    teams = int(getattr(options, "teams", 0) or 0)  # partnerships: an option of newer sheets
    names = list(getattr(options, "team_names", None) or [])
    for team, seats in enumerate(team_seats(teams, players) if teams else []):
        if team < len(names):
            lines.append(plural("%(team)s: seat %(seats)s.", "%(team)s: seats %(seats)s.",
                                "count", team=names[team], seats=listed(seats),
                                count=len(seats)))
        else:
            lines.append(plural("Team %(number)s: seat %(seats)s.",
                                "Team %(number)s: seats %(seats)s.", "count",
                                number=team + 1, seats=listed(seats), count=len(seats)))
    if options.dealer:
        lines.append(message("The first player in the seat order deals round 1; the deal "
                             "passes to the next seat each round."))
    if options.bids:
        lines.append(message("Round 1 deals 1 card to each player, round 2 deals 2, and so "
                             "on: each round one card more."))
        if options.rounds is not None:
            lines.append(plural("The last round, round %(count)s, deals %(count)s card to "
                                "each player.", "The last round, round %(count)s, deals "
                                "%(count)s cards to each player.", "count",
                                count=options.rounds))
    if options.entry == "scorer":
        lines.append(message("Keep the host screen at hand: the host enters every row."))
    else:
        lines.append(message("Each player enters their own row on their phone; the host "
                             "enters the rows of anyone without one."))
    return lines


class SheetRules:
    """The rules page's part of the score sheet's engine."""

    rule_sections: ClassVar[Mapping[str, str]] = SECTIONS

    def rule_for(self, state: ScoreSheetState) -> str | None:
        return rule_for(state)

    def setup_checklist(self, options: Any, players: int) -> list[Message]:
        return setup_checklist(options, players)
