"""Partnerships on the score sheet: the player in seat S plays for team S mod `teams`, as
partners sit at a card table. "together": a team keeps one row a round, entered by any of
its members (or the scorer) and kept under each member's id, so every member's seat shows
it; "members": each member enters their own row and the team's round is their sum.
Places, winners and tie-breaks are the teams'."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import IllegalAction
from ..messages import Message, Param, Player, message
from . import sheet
from .state import RoundEntries, ScoreSheetState, Scores


def count(state: ScoreSheetState) -> int:
    return sheet.options(state).get("teams") or 0


def on(state: ScoreSheetState) -> bool:
    return count(state) > 0


def together(state: ScoreSheetState) -> bool:
    return on(state) and sheet.options(state).get("team_scoring", "together") == "together"


def check_seats(teams: int, players: int) -> None:
    if teams and teams > players:
        raise IllegalAction(message(
            "%(teams)s teams need at least %(teams)s players: this table has %(players)s.",
            teams=teams, players=players), rule="teams")


def team_of(state: ScoreSheetState, player: int) -> int:
    return state["players"].index(player) % count(state)


def members(state: ScoreSheetState, team: int) -> list[int]:
    return [p for seat, p in enumerate(state["players"]) if seat % count(state) == team]


def partners(state: ScoreSheetState, player: int) -> list[int]:
    """Whose rows an entry of `player`'s row fills: the whole team's when it scores
    together, else the player's own."""
    if together(state) and player in state["players"]:
        return members(state, team_of(state, player))
    return [player]


def row_keepers(state: ScoreSheetState) -> list[int]:
    """Whose rows are entered: each team's first member when it scores together, else
    every player."""
    if together(state):
        return [members(state, team)[0] for team in range(count(state))]
    return list(state["players"])


def own_rows_only(state: ScoreSheetState) -> Message:
    if together(state):
        return message("You can only enter your own team's scores.")
    return message("You can only enter your own scores.")


def name(state: ScoreSheetState, team: int) -> Param:
    names = sheet.options(state).get("team_names") or []
    return names[team] if team < len(names) else message("Team %(number)s", number=team + 1)


def units(state: ScoreSheetState) -> list[int]:
    """What is ranked: the teams' numbers, or without teams the players."""
    return list(range(count(state))) if on(state) else list(state["players"])


def called(state: ScoreSheetState, unit: int) -> Param:
    return name(state, unit) if on(state) else Player(unit)


def players_of(state: ScoreSheetState, unit: int) -> list[int]:
    return members(state, unit) if on(state) else [unit]


def round_total(state: ScoreSheetState, entries: RoundEntries, unit: int) -> int:
    return sum(sheet.row_total(row) for row in scoring_rows(state, entries, unit))


def scoring_rows(state: ScoreSheetState, entries: Mapping[str, Scores],
                 unit: int | None = None) -> list[Scores]:
    """The rows that count among `entries` (a round's, by player), of one unit or of
    all: a team scoring together counts its row once."""
    chosen = [unit] if unit is not None else units(state)
    rows = []
    for one in chosen:
        team_players = players_of(state, one)
        if together(state):
            team_players = team_players[:1]
        rows += [entries[str(p)] for p in team_players if str(p) in entries]
    return rows


def total(state: ScoreSheetState, unit: int) -> int:
    if not on(state):  # a player's own rows (a view reads every total at every entry)
        return sheet.total(state, unit)
    return sum(round_total(state, closed, unit) for closed in state["closed"])


def category_total(state: ScoreSheetState, unit: int, category: str) -> int:
    return sum(row[category] for closed in state["closed"]
               for row in scoring_rows(state, closed, unit))


def last_round(state: ScoreSheetState, unit: int) -> int:
    return round_total(state, state["closed"][-1], unit) if state["closed"] else 0


def rounds_won(state: ScoreSheetState, unit: int) -> int:
    won = 0
    pick = min if sheet.options(state)["lowest_wins"] else max
    for closed in state["closed"]:
        scores = {u: round_total(state, closed, u) for u in units(state)}
        won += scores[unit] == pick(scores.values())
    return won


def seconds_used(state: ScoreSheetState, used_ms: Mapping[int, int], unit: int) -> int:
    return sum(used_ms.get(p, 0) for p in players_of(state, unit)) // 1000


def unit_totals(state: ScoreSheetState, player_totals: Mapping[int, int]) -> dict[int, int]:
    """Each unit's total on the closed rounds: each team's, or without teams each
    player's (`player_totals`, already summed)."""
    return {u: total(state, u) if on(state) else player_totals[u] for u in units(state)}


def leaders(state: ScoreSheetState, totals: Mapping[int, int]) -> list[int]:
    """The players of the leading units on the closed rounds (`totals`: `unit_totals`)."""
    best = (min if sheet.options(state)["lowest_wins"] else max)(totals.values())
    return [p for p in state["players"]
            if any(p in players_of(state, u) for u in totals if totals[u] == best)]


def reaching(state: ScoreSheetState, target: int) -> list[Param]:
    """Who has reached the target: players, or teams by name."""
    return [called(state, u) for u in units(state) if total(state, u) >= target]


def public_part(state: ScoreSheetState, totals: Mapping[int, int]) -> dict[str, Any]:
    """The teams as every screen shows them (`totals`: `unit_totals`)."""
    return {"teams": [{"team": team, "name": name(state, team),
                       "players": members(state, team), "total": totals[team]}
                      for team in range(count(state))],
            "team_scoring": (sheet.options(state).get("team_scoring", "together")
                             if on(state) else None)}


def check_winners(state: ScoreSheetState, winners: list[int]) -> None:
    """A game won without points at a table of teams is won by whole teams."""
    if not on(state):
        return
    for team in range(count(state)):
        named = [p for p in members(state, team) if p in winners]
        if named and len(named) != len(members(state, team)):
            raise IllegalAction(message("Name every member of the winning team."),
                                rule="teams")


def offered(state: ScoreSheetState) -> dict[str, Any]:
    """The host's finish at a table of teams: the teams to pick the winners from."""
    if not on(state):
        return {}
    return {"teams": [{"team": team, "name": name(state, team), "players": members(state, team)}
                      for team in range(count(state))]}


def winners_of(state: ScoreSheetState, teams: list[int] | None,
               winners: list[int] | None) -> list[int]:
    """The winners a finish names: its players, or the members of its teams (not both)."""
    if teams is None:
        return list(winners or [])
    if not on(state):
        raise IllegalAction(message("This table plays without teams."), rule="teams")
    if winners is not None:
        raise IllegalAction(message("Name the winners or the winning teams, not both."),
                            rule="without-points")
    if len(set(teams)) != len(teams) or any(team >= count(state) for team in teams):
        raise IllegalAction(message("That team is not at this table."), rule="teams")
    return [p for team in teams for p in members(state, team)]
