"""Reading a score sheet's state: rounds, totals, rounds won. The state keeps the options
(`options`), the players in seat order, the closed rounds (`closed`, one {player: {category:
score}} per round) and the open round's entries (`open`): see `state`."""
from __future__ import annotations

from .state import ScoreSheetState, Scores, SheetOptions


def options(state: ScoreSheetState) -> SheetOptions:
    return state["options"]


def row_total(scores: Scores) -> int:
    return sum(scores.values())


def closed_rows(state: ScoreSheetState, player: int) -> list[Scores]:
    """The player's closed rounds' scores, in order."""
    return [closed[str(player)] for closed in state["closed"]]


def largest_shown(state: ScoreSheetState, category: str) -> int | None:
    """The largest entry of `category` (by its size, below 0 or above) everyone has seen:
    the closed rounds, and the open round's entries unless they are secret. None before
    any."""
    rows = [row for closed in state["closed"] for row in closed.values()]
    if not options(state)["secret"]:
        rows += list(state["open"].values())
    sizes = [abs(row[category]) for row in rows if category in row]
    return max(sizes) if sizes else None


def total(state: ScoreSheetState, player: int) -> int:
    """The sum of the player's closed rounds."""
    return sum(row_total(scores) for scores in closed_rows(state, player))


def category_total(state: ScoreSheetState, player: int, category: str) -> int:
    return sum(scores[category] for scores in closed_rows(state, player))


def better(state: ScoreSheetState, first: int, second: int) -> bool:
    """Whether score `first` beats `second` as this sheet counts (lowest or highest wins)."""
    return first < second if options(state)["lowest_wins"] else first > second


def round_winners(state: ScoreSheetState, index: int) -> list[int]:
    """Who won closed round `index` (0-based): the best round score, each of a tied best."""
    scores = {int(p): row_total(s) for p, s in state["closed"][index].items()}
    best = (min if options(state)["lowest_wins"] else max)(scores.values())
    return [p for p in state["players"] if scores[p] == best]


def rounds_won(state: ScoreSheetState, player: int) -> int:
    return sum(player in round_winners(state, index) for index in range(len(state["closed"])))


def last_round(state: ScoreSheetState, player: int) -> int:
    return row_total(state["closed"][-1][str(player)]) if state["closed"] else 0


def leaders(state: ScoreSheetState) -> list[int]:
    """Who leads on the closed rounds (everyone before the first closes)."""
    totals = {p: total(state, p) for p in state["players"]}
    best = (min if options(state)["lowest_wins"] else max)(totals.values())
    return [p for p in state["players"] if totals[p] == best]
