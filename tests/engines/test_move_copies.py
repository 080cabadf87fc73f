"""A move's copy of a state (`Game.move_copy`): whatever the move does to the copy, or
however the rules refuse it, the state it was copied from stays as it was, and the state
after the move is the one a whole copy would give. A score sheet copies only what a move
may change, sharing its closed rounds with the state before: checked over seeded random
games of every registered game and of sheets of every kind (bids, teams, zero-sum, a
scorer, secret entry, games won without points), with the scorer's whole rounds and
corrections of closed rounds, refused ones included."""
from __future__ import annotations

import copy
import random

import pytest

from companion.games import GAMES
from companion.games.engine import HOST, IllegalAction
from companion.games.replay import action_rng, setup_rng
from companion.games.score_sheet import sheet
from companion.games.state_copy import deep_copy
from tests.support.bots import choose_move

SEEDS = range(3)
MOVES = 400
SHEETS = [
    {"rounds": 4}, {"rounds": 3, "bids": "wizard"},
    {"rounds": 3, "bids": "skull_king", "secret": True}, {"rounds": 4, "teams": 2},
    {"rounds": 4, "zero_sum": True}, {"rounds": 4, "entry": "scorer", "teams": 2},
    {"rounds": 4, "entry": "scorer", "categories": ["Birds", "Eggs"]},
    {"rounds": 4, "secret": True}, {"rounds": None}, {"outcome": "winners"},
    {"outcome": "cooperative"},
]


def moved(engine, state, player, data, rng):
    """The move made on `move_copy(state)` and on a whole copy: the state after it (None
    when refused), checked to be the same both ways, with `state` left as it was."""
    before = copy.deepcopy(state)
    action = engine.parse_action(data)
    outcomes = []
    for made in (engine.move_copy(state, action), deep_copy(state)):
        try:
            lines = engine.apply(made, player, action, copy.deepcopy(rng))
        except IllegalAction as refusal:
            outcomes.append((None, str(refusal.message)))
        else:
            outcomes.append((made, [line.to_json() for line in lines]))
        assert state == before, f"{data} changed the state it was copied from"
    assert outcomes[0] == outcomes[1], data
    return outcomes[0][0]


def play(game_id: str, options: dict, seed: int, tries=None) -> int:
    """A seeded random game, every move made on its copy; `tries` adds moves the bot
    does not make (some refused). The number of moves made."""
    engine = GAMES[game_id]
    players = [11, 12, 13, 14][:max(engine.min_players, min(4, engine.max_players))]
    state = engine.setup(players, engine.options_for(dict(options), len(players)),
                         setup_rng(seed))
    bot = random.Random(seed)
    for index in range(MOVES):
        if engine.result(state) is not None:
            return index
        for player, data in (tries(state, bot) if tries else []):
            moved(engine, state, player, data, action_rng(seed, index))
        player, data = choose_move(engine, state, bot)
        state = moved(engine, state, player, data, action_rng(seed, index))
        assert state is not None, f"the bot's move {data} was refused"
    return MOVES


def sheet_tries(state, rng: random.Random) -> list[tuple[int | None, dict]]:
    """A correction of a closed round (refused on a zero-sum sheet, or below the sheet's
    floor), and the scorer's whole round, one row of it refused now and then."""
    tries: list[tuple[int | None, dict]] = []
    players = state["players"]
    if state["closed"]:
        number = rng.randint(1, len(state["closed"]))
        category = rng.choice(sheet.options(state)["categories"])
        tries.append((HOST, {"type": "correct", "player": rng.choice(players),
                             "round": number, "category": category,
                             "value": rng.randint(-3, 40)}))
    if sheet.options(state)["entry"] == "scorer" and not state["finished"]:
        rows = [{"player": player, "scores": {category: rng.randint(0, 20) for category
                                              in sheet.options(state)["categories"]}}
                for player in players if str(player) not in state["open"]]
        if rows and rng.random() < 0.3:
            rows[-1]["player"] = 99  # not at the table: the whole round is refused
        number = len(state["closed"]) + 1
        tries.append((HOST, {"type": "enter_round", "round": number, "rows": rows}))
    return tries


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_move_leaves_the_state_it_was_copied_from_as_it_was(game_id):
    assert all(play(game_id, {}, seed) for seed in SEEDS)


@pytest.mark.parametrize("options", SHEETS, ids=lambda options: "-".join(
    f"{key}={value}" for key, value in options.items()))
def test_a_sheet_copies_only_what_a_move_changes_and_leaves_the_rest_as_it_was(options):
    least = 1 if "outcome" in options else 4  # a game won without points: its finish
    for seed in SEEDS:
        assert play("score-sheet", options, seed, tries=sheet_tries) >= least


def test_a_sheet_shares_its_closed_rounds_with_the_state_before_but_the_one_corrected():
    engine = GAMES["score-sheet"]
    state = engine.setup([1, 2], engine.options_for({"name": "Test"}, 2), setup_rng(0))
    for number in (1, 2, 3):
        for player in (1, 2):
            state = moved(engine, state, player, {"type": "enter", "round": number,
                                                  "scores": {"Points": number}}, None)
    correction = {"type": "correct", "player": 2, "round": 2, "category": "Points",
                  "value": 9}
    after = moved(engine, state, HOST, correction, None)
    assert [a is b for a, b in zip(after["closed"], state["closed"])] == [True, False, True]
    assert after["closed"][1]["2"]["Points"] == 9 and state["closed"][1]["2"]["Points"] == 2
