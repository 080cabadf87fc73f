"""Nothing Beats a Large's engine, played directly by its rule tests
(tests/engines/test_nothing_beats_a_large_*.py): the players, a game started or arranged
with chosen pieces and goal cards (and the even three-player layout most tests start from),
moves applied to a state, a cast made in the table's casting mode, Ann's winning cast and
steal, a first goal already completed, and every piece accounted for."""
from __future__ import annotations

import random

from companion.games.nothing_beats_a_large import COLORS, NothingBeatsALarge, sorted_pieces

GAME = NothingBeatsALarge()
ANN, BOB, CAT, DAN, EVE = 11, 22, 33, 44, 55
PLAYERS = [ANN, BOB, CAT, DAN, EVE]

# Three colours, everyone holding one Large, one Medium and one Small.
EVEN_3 = {ANN: ["red-L", "yellow-M", "green-S"],
          BOB: ["yellow-L", "green-M", "red-S"],
          CAT: ["green-L", "red-M", "yellow-S"]}
# Goals no one can complete with EVEN_3 in a single steal.
GOALS_3 = {ANN: ["yellow", "green"], BOB: ["red", "green"], CAT: ["red", "yellow"]}


def all_pieces(colors) -> list[str]:
    return sorted(f"{c}-{s}" for c in colors for s in "LMS")


def start(count: int = 3, seed: int = 1, casting: str = "phones") -> dict:
    options = GAME.Options(colors=list(COLORS[:max(3, count)]), casting=casting)
    return GAME.setup(PLAYERS[:count], options, random.Random(seed))


def arranged(layout: dict, goals: dict | None = None, casting: str = "phones") -> dict:
    """A fresh game whose seats hold exactly the pieces of `layout` (and `goals`)."""
    state = start(len(layout), casting=casting)
    for place in state["seats"]:
        place["pieces"] = sorted_pieces(layout[place["player"]])
        if goals and place["player"] in goals:
            place["goals"] = list(goals[place["player"]])
    assert_pieces_accounted(state)
    return state


def act(state: dict, player, data: dict):
    return GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def cast_both(state: dict, picks: dict):
    """Both casters cast, in the table's casting mode; returns the notes of the last call."""
    if state["casting"] == "by-hand":
        first = state["cast"]["between"][0]
        return act(state, first, {"type": "record_cast",
                                  "pieces": {str(p): piece for p, piece in picks.items()}})
    notes = []
    for player, piece in picks.items():
        notes = act(state, player, {"type": "cast", "piece": piece})
    return notes


def seat(state: dict, player: int) -> dict:
    return next(s for s in state["seats"] if s["player"] == player)


def pieces(state: dict, player: int) -> list[str]:
    return seat(state, player)["pieces"]


def assert_pieces_accounted(state: dict) -> None:
    held = sorted(p for s in state["seats"] for p in s["pieces"])
    assert held == all_pieces(state["colors"])


def win_cast_and_steal(state, piece_to_steal, ann_cast="red-L"):
    """Ann challenges Bob, wins with a Large against Bob's Medium-or-smaller, and steals."""
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    bob_cast = next(p for p in pieces(state, BOB) if not p.endswith("-L"))
    cast_both(state, {ANN: ann_cast, BOB: bob_cast})
    assert state["last_cast"]["winner"] == ANN
    return act(state, ANN, {"type": "steal", "piece": piece_to_steal})


def completed_red(pieces_by_player, goals):
    state = arranged(pieces_by_player, goals)
    target = seat(state, ANN)
    target["completed"], target["revealed_goals"] = ["red"], ["red"]
    return state
