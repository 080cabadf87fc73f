"""The score sheet's bot (the suites' players): sane entries, now and then a correction;
as the host, the scorer's entries and, on an open-ended sheet, the end after a few rounds."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..engine import HOST
from . import bids, outcome, sheet, zero_sum
from .state import ScoreSheetState, Scores

if TYPE_CHECKING:
    from .engine import ScoreSheet

SMALL_SCORE = 30  # the bot's entries: 0 to 30 per category, a few below 0 when allowed


def sane_scores(state: ScoreSheetState, rng: random.Random) -> Scores:
    lowest = -5 if sheet.options(state)["negative"] else 0
    return {c: rng.randint(lowest, SMALL_SCORE) for c in sheet.options(state)["categories"]}


def correction(game: ScoreSheet, state: ScoreSheetState, player: int,
               rng: random.Random) -> dict[str, Any]:
    number = rng.randint(1, len(state["closed"]))
    category = rng.choice(sheet.options(state)["categories"])
    old = state["closed"][number - 1][str(player)][category]
    floor = game.bounds(state)["min"]
    value = old + rng.choice([-2, -1, 1, 2])
    if value < floor:
        value = old + 1
    return {"type": "correct", "player": player, "round": number, "category": category,
            "value": value}


def random_action(game: ScoreSheet, state: ScoreSheetState, player: int | None,
                  rng: random.Random) -> dict[str, Any] | None:
    number = game.open_round(state)
    if outcome.without_points(state):
        return outcome.bot_move(state, rng) if player is HOST and not state["finished"] \
            else None
    if player is HOST:
        if not game.host_may_act(state):
            return None
        options = sheet.options(state)
        if options["rounds"] is None and state["closed"] and (
                options["entry"] == "players" or rng.random() < 0.15):
            return {"type": "end"}
        if state["closed"] and not zero_sum.on(state) and rng.random() < 0.1:
            return correction(game, state, rng.choice(state["players"]), rng)
        if bids.rule(state):
            named = rng.choice(bids.waiting(state))
            return {**bids.bot_move(state, named, rng), "player": named}
        waiting = [p for p in state["players"] if str(p) not in state["open"]] or list(
            state["players"])  # a zero-sum round that is off: anyone may change
        named = rng.choice(waiting)
        return {"type": "enter", "round": number, "player": named, "scores":
                zero_sum.balanced(state, named, sane_scores(state, rng))}
    if player not in game.waiting_for(state):
        return None
    if state["closed"] and not zero_sum.on(state) and rng.random() < 0.1:
        return correction(game, state, player, rng)
    if bids.rule(state):
        return bids.bot_move(state, player, rng)
    return {"type": "enter", "round": number,
            "scores": zero_sum.balanced(state, player, sane_scores(state, rng))}
