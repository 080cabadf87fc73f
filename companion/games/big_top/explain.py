"""Why the winners of a Big Top (or Fan Tan) game won, in one sentence."""
from __future__ import annotations

from ..engine import Standing
from ..messages import Message, Player, message, players, plural
from .state import BigTopState


def explain(state: BigTopState, standings: list[Standing], fan_tan: bool) -> Message:
    first = [s for s in standings if s.place == 1]
    names = players(s.player for s in first)
    best = first[0].score
    if not fan_tan:
        if len(first) > 1:
            return plural("%(players)s share first place with $%(amount)s each after "
                          "%(deals)s deal (the rulebook has no tie-break).",
                          "%(players)s share first place with $%(amount)s each after "
                          "%(deals)s deals (the rulebook has no tie-break).", "deals",
                          players=names, amount=best, deals=state["deals"])
        return plural("%(players)s wins with $%(amount)s, the most after %(deals)s deal.",
                      "%(players)s wins with $%(amount)s, the most after %(deals)s deals.",
                      "deals", players=names, amount=best, deals=state["deals"])
    amount = plural("%(count)s peanut", "%(count)s peanuts", "count", count=best)
    hands = len(state["deal_results"])
    span = plural("after %(count)s hand", "after %(count)s hands", "count", count=hands)
    broke = state.get("broke")
    if broke is not None:  # in a hand still being played
        span = (message("when %(player)s went broke in the first hand",
                        player=Player(broke)) if hands == 0 else
                message("when %(player)s went broke in hand %(hand)s",
                        player=Player(broke), hand=hands + 1))
    if len(first) > 1:
        return message("%(players)s share first place with %(amount)s each %(span)s (the "
                       "rulebook has no tie-break).", players=names, amount=amount, span=span)
    return message("%(players)s wins with %(amount)s, the most %(span)s.",
                   players=names, amount=amount, span=span)
