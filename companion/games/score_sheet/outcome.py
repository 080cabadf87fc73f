"""Games won without points on the score sheet: "winners" (Codenames, Werewolf: the host
ends the game naming the winners) and "cooperative" (Pandemic: everyone wins or loses
together, with the game's own score if it has one). Neither keeps rounds or entries; the
host's `finish` action ends the game and is kept as the state's `ending`."""
from __future__ import annotations

import random
from typing import Any

from ..engine import HOST, IllegalAction, Result, Standing
from ..messages import Message, listed, message, players
from . import sheet, teams
from .models import Finish
from .state import Ending, ScoreSheetState


def kind(state: ScoreSheetState) -> str:
    return sheet.options(state).get("outcome") or "points"


def without_points(state: ScoreSheetState) -> bool:
    return kind(state) != "points"


def no_rounds(state: ScoreSheetState) -> Message:
    if kind(state) == "cooperative":
        return message("This game keeps no score sheet: the host ends it, won or lost.")
    return message("This game keeps no score sheet: the host ends it, naming the winners.")


def offered(state: ScoreSheetState, player: int | None) -> list[dict[str, Any]]:
    if player is not HOST:
        return []
    if kind(state) == "cooperative":
        return [{"type": "finish", "won": [True, False], "score": True}]
    return [{"type": "finish", "players": state["players"], **teams.offered(state)}]


def finish(state: ScoreSheetState, action: Finish) -> Message:
    """Check the host's ending, keep it, and say how the game ended."""
    if not without_points(state):
        raise IllegalAction(message("This game is won on points: it ends on the sheet."),
                            rule="without-points")
    if kind(state) == "cooperative":
        if action.winners is not None or action.teams is not None or action.won is None:
            raise IllegalAction(message("Say whether the game was won or lost."),
                                rule="without-points")
        won = action.won
        state["ending"] = {"winners": list(state["players"]) if won else [],
                           "won": won, "score": action.score}
        return ended_line(state)
    if action.won is not None or action.score is not None:
        raise IllegalAction(message("Name the winners: this game keeps no score."),
                            rule="without-points")
    winners = teams.winners_of(state, action.teams, action.winners)
    if not winners:
        raise IllegalAction(message("Name at least one winner."), rule="without-points")
    if len(set(winners)) != len(winners) or any(p not in state["players"] for p in winners):
        raise IllegalAction(message("That player is not at this table."), rule="without-points")
    teams.check_winners(state, winners)
    named = [p for p in state["players"] if p in winners]
    state["ending"] = {"winners": named}
    return ended_line(state)


def ended_line(state: ScoreSheetState) -> Message:
    ending: Ending = state.get("ending") or {"winners": []}
    if "won" not in ending:
        won_teams = [team for team in range(teams.count(state))
                     if set(teams.members(state, team)) <= set(ending["winners"])]
        if teams.on(state) and won_teams:
            return message("The host ended the game: %(teams)s won (%(players)s).",
                           teams=listed(teams.name(state, team) for team in won_teams),
                           players=players(ending["winners"]))
        return message("The host ended the game: %(players)s won.",
                       players=players(ending["winners"]))
    score = ending.get("score")
    if ending["won"]:
        return (message("The table won together.") if score is None else
                message("The table won together, with a score of %(score)s.", score=score))
    return (message("The table lost together.") if score is None else
            message("The table lost together, with a score of %(score)s.", score=score))


def result(state: ScoreSheetState) -> Result:
    """Winners: place 1, everyone else place 2. Cooperative: everyone place 1, winners
    all when won, no one when lost."""
    ending = state.get("ending") or {"winners": []}
    cooperative = "won" in ending
    score = ending.get("score") or 0
    standings = [Standing(p, 1 if cooperative or p in ending["winners"] else 2,
                          score if cooperative else 0)
                 for p in state["players"]]
    standings.sort(key=lambda s: s.place)
    return Result(standings, ended_line(state), message("score"), ranked=False,
                  named_winners=list(ending["winners"]), cooperative=cooperative,
                  scored=cooperative and ending.get("score") is not None)


def public_part(state: ScoreSheetState) -> dict[str, Any]:
    ending = state.get("ending")
    return {"outcome": kind(state),
            "ending": dict(ending) if ending else None}


def bot_move(state: ScoreSheetState, rng: random.Random) -> dict[str, Any]:
    if kind(state) == "cooperative":
        return {"type": "finish", "won": rng.random() < 0.5,
                "score": rng.choice((None, rng.randint(0, 10)))}
    if teams.on(state):
        return {"type": "finish", "teams": rng.sample(range(teams.count(state)),
                                                      rng.randint(1, teams.count(state)))}
    return {"type": "finish", "winners": rng.sample(state["players"],
                                                    rng.randint(1, len(state["players"])))}
