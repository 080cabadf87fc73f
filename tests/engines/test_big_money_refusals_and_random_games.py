"""The Big Money engine's refusals and random games: every refusal, at every step of a
turn, leaves the state untouched; malformed actions are refused by the models; and seeded
random games, of random moves from the actions' templates and of the engine's own
random_action (the bot of the trust suite and the benchmark), end with the Bank empty and
money conserved."""
from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from companion.games.big_money import Options
from companion.games.engine import HOST, IllegalAction, NotYourTurn
from tests.support.big_money_engine import (GAME, NO_CATEGORY, act, assert_refused, buy_step,
                                            conserved, fund, money, one_card_game, options, started,
                                            texts)


# -- refusals --------------------------------------------------------------------------------------
def in_setup():
    return GAME.setup([1, 2], Options(), random.Random(0))


def at_industry():
    state = started((1, 2))
    fund(state, 1, 15)
    return state


def at_number_dice():
    state = at_industry()
    act(state, 1, type="industry", face="technology")
    return state


def at_buy():
    state = at_number_dice()
    act(state, 1, type="number_dice", dice=NO_CATEGORY)
    return state


def at_buy_with_an_empty_space():
    state = started((1, 2), opts=options(asset_cards=4))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    buy_step(state, 2, NO_CATEGORY)
    return state


def at_refill():
    state = at_buy()
    act(state, 1, type="buy", slot=0)
    return state


def at_prompt():
    state = one_card_game("roll_then_pay", amount=5)
    act(state, 1, type="industry", face="biz-news")
    return state


def over():
    state = started((1, 2))
    fund(state, 2, 631)
    act(state, 1, type="industry", face="sports")
    assert state["step"] == "over"
    return state


SCENES = {"setup": in_setup, "industry": at_industry, "number_dice": at_number_dice,
          "buy": at_buy, "buy_with_an_empty_space": at_buy_with_an_empty_space,
          "refill": at_refill, "prompt": at_prompt, "over": over}


@pytest.mark.parametrize("scene, player, action, error", [
    ("setup", 1, {"type": "industry", "face": "sports"}, IllegalAction),
    ("setup", 1, {"type": "buy", "slot": 0}, IllegalAction),
    ("setup", 1, {"type": "choose", "choice": "sports"}, IllegalAction),
    ("industry", 2, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("industry", 1, {"type": "buy", "slot": 0}, IllegalAction),
    ("industry", 1, {"type": "end_turn"}, IllegalAction),
    ("industry", 1, {"type": "startup", "industry": "food"}, IllegalAction),
    ("industry", 1, {"type": "choose", "choice": "food"}, IllegalAction),
    ("industry", 1, {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 5}},
     IllegalAction),
    ("industry", 99, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", HOST, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", 1, {"type": "adjust", "player": 1, "amount": 5, "note": "me"}, NotYourTurn),
    ("industry", HOST, {"type": "adjust", "player": 42, "amount": 5, "note": "who"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 626, "note": "too much"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": -16, "note": "too much"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 0, "note": "nothing"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 0, "note": "not theirs",
                        "discard_asset": 2}, IllegalAction),
    ("number_dice", 1, {"type": "industry", "face": "food"}, IllegalAction),
    ("number_dice", 2, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, NotYourTurn),
    ("buy", 1, {"type": "buy", "slot": 2}, IllegalAction),
    ("buy", 2, {"type": "buy", "slot": 0}, NotYourTurn),
    ("buy", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("buy_with_an_empty_space", 2, {"type": "buy", "slot": 0}, IllegalAction),
    ("refill", 1, {"type": "buy", "slot": 1}, IllegalAction),
    ("refill", 2, {"type": "reveal", "slot": 1, "asset": {"industry": "food", "price": 5}},
     IllegalAction),
    ("refill", 2, {"type": "reveal", "slot": 0, "asset_id": 1}, IllegalAction),
    ("prompt", 1, {"type": "choose", "choice": "nowhere"}, IllegalAction),
    ("prompt", 2, {"type": "choose", "choice": "food"}, NotYourTurn),
    ("prompt", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("over", 1, {"type": "industry", "face": "sports"}, IllegalAction),
    ("over", HOST, {"type": "adjust", "player": 1, "amount": -1, "note": "late"},
     IllegalAction),
])
def test_every_refusal_leaves_the_state_untouched(scene, player, action, error):
    assert_refused(SCENES[scene](), player, action, error)


@pytest.mark.parametrize("action", [
    {"type": "number_dice", "dice": [1, 2, 3, 4]},
    {"type": "number_dice", "dice": [1, 2, 3, 4, 5, 6]},
    {"type": "number_dice", "dice": [0, 2, 3, 4, 5]},
    {"type": "number_dice", "dice": [1, 2, 3, 4, 7]},
    {"type": "number_dice", "dice": "12345"},
    {"type": "industry", "face": "mining"},
    {"type": "startup", "industry": "biz-news"},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": -5}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 0}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 5, "payout": -1}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "farming", "price": 5}},
    {"type": "reveal", "slot": 4, "asset": {"industry": "food", "price": 5}},
    {"type": "reveal", "slot": 0},
    {"type": "reveal", "slot": 0, "asset_id": 3, "asset": {"industry": "food", "price": 5}},
    {"type": "buy", "slot": -1},
    {"type": "choose", "choice": ""},
    {"type": "adjust", "player": 1, "amount": 5, "note": ""},
    {"type": "end_turn", "now": True},
    {"type": "toString"},
])
def test_malformed_actions_are_refused_by_the_models(action):
    with pytest.raises(ValidationError):
        GAME.parse_action(action)


# -- seeded random games ----------------------------------------------------------------------
def random_action(template, state, rng):
    kind = template["type"]
    if kind == "startup":
        return {"type": kind, "industry": rng.choice(template["industry"])}
    if kind == "reveal":
        action = {"type": kind, "slot": rng.choice(template["slot"])}
        if "asset_id" in template:
            return {**action, "asset_id": rng.choice(template["asset_id"])}
        stock = rng.random() < 0.3
        asset = {"industry": rng.choice(template["asset"]["industry"]),
                 "price": rng.randint(1, 60), "stock": stock, "name": rng.choice(["", "Corp"])}
        if rng.random() < 0.3:
            asset["payout"] = rng.randint(0, 120)
        return {**action, "asset": asset}
    if kind == "industry":
        return {"type": kind, "face": rng.choice(template["face"])}
    if kind == "number_dice":
        return {"type": kind, "dice": [rng.randint(1, 6) for _ in range(5)]}
    if kind == "buy":
        return {"type": kind, "slot": rng.choice(template["slot"])}
    if kind == "choose":
        return {"type": kind, "choice": rng.choice(template["choice"])}
    if kind == "adjust":
        target = rng.choice(template["player"])
        amount = rng.randint(-money(state, target), min(state["bank"], 20))
        return {"type": kind, "player": target, "amount": amount or 1, "note": "random"}
    return {"type": kind}


def random_table(seed):
    """(the driver's rng, the players, the options) of a seeded random game."""
    rng = random.Random(seed)
    players = list(range(10, 10 + rng.randint(2, 5)))
    # A small Asset deck brings the reshuffled discard pile and the empty market spaces.
    return rng, players, options(asset_cards=rng.choice([4, 6, 32]))


def play_random_game(seed, max_actions=20_000):
    rng, players, opts = random_table(seed)
    state = GAME.setup(players, opts, random.Random(seed))
    log = []
    for step in range(max_actions):
        if state["step"] == "over":
            return state, log
        assert GAME.waiting_for(state)
        actors = [*players, HOST] if rng.random() < 0.02 else players
        choices = [(actor, template) for actor in actors
                   for template in GAME.actions(state, actor)]
        actor, template = rng.choice(choices)
        action = random_action(template, state, rng)
        notes = GAME.apply(state, actor, GAME.parse_action(action),
                           random.Random(seed * 100_003 + step))
        log.append((actor, action, texts(notes)))
        assert conserved(state), (seed, step, action)
        assert all(s["money"] >= 0 for s in state["seats"]) and state["bank"] >= 0
        json.dumps(state)
        json.dumps(GAME.view(state, HOST))
    raise AssertionError(f"seed {seed}: the game did not end in {max_actions} actions")


@pytest.mark.parametrize("seed_block", range(10))
def test_random_games_end_with_the_bank_empty_and_money_conserved(seed_block):
    for seed in range(seed_block * 10, seed_block * 10 + 10):
        state, log = play_random_game(seed)
        assert state["bank"] == 0 and state["last_bill"] is not None
        result = GAME.result(state)
        best = max(s["money"] for s in state["seats"])
        assert {s["player"] for s in state["seats"] if s["money"] == best} == set(result.winners)
        assert log[-1][2][-1].endswith("took the last bill and the game is over.")


# -- the engine's own random player (the bot of the trust suite and the benchmark) ------------
def play_with_random_action(seed, kinds, max_actions=20_000):
    """A game driven only by BigMoney.random_action: a waiting player is picked at random
    and posts what the bot chose, exactly as a phone would (through parse_action)."""
    rng, players, opts = random_table(seed)
    state = GAME.setup(players, opts, random.Random(seed))
    for step in range(max_actions):
        if state["step"] == "over":
            return state
        waiting = GAME.waiting_for(state)
        for idle in set(players) - set(waiting):
            assert GAME.random_action(state, idle, rng) is None
        assert GAME.random_action(state, HOST, rng) is None
        player = rng.choice(waiting)
        action = GAME.random_action(state, player, rng)
        assert action is not None and json.loads(json.dumps(action)) == action
        GAME.apply(state, player, GAME.parse_action(action), random.Random(seed * 7 + step))
        kinds.add(action["type"] + (" of a known card" if "asset_id" in action else ""))
        assert conserved(state), (seed, step, action)
        assert all(s["money"] >= 0 for s in state["seats"]) and state["bank"] >= 0
    raise AssertionError(f"seed {seed}: the game did not end in {max_actions} actions")


@pytest.mark.parametrize("seed_block", range(4))
def test_random_action_games_end_with_the_bank_empty_and_money_conserved(seed_block):
    kinds = set()
    for seed in range(seed_block * 10, seed_block * 10 + 10):
        state = play_with_random_action(seed, kinds)
        assert state["bank"] == 0 and state["last_bill"] is not None
        assert sum(s["money"] for s in state["seats"]) == state["start_total"]
        assert GAME.result(state).winners
        assert GAME.random_action(state, state["seats"][0]["player"], random.Random(0)) is None
    assert kinds >= {"startup", "reveal", "industry", "number_dice", "buy", "end_turn",
                     "choose"}


def test_random_action_reveals_known_cards_from_the_reshuffled_pile():
    kinds = set()
    for seed in range(40):
        play_with_random_action(seed, kinds)
    assert "reveal of a known card" in kinds


def test_random_action_is_legal_at_every_step_and_follows_the_rng():
    state = at_prompt()
    assert GAME.random_action(state, 2, random.Random(1)) is None
    choice = GAME.random_action(state, 1, random.Random(1))
    assert choice["type"] == "choose" and choice["choice"] in GAME.actions(state, 1)[0]["choice"]
    state = at_refill()
    reveal = GAME.random_action(state, 1, random.Random(3))
    assert reveal == GAME.random_action(state, 1, random.Random(3))
    if reveal["type"] == "reveal":
        assert reveal["slot"] == state["refill_slot"]
    GAME.apply(state, 1, GAME.parse_action(reveal), random.Random(0))
    setup = in_setup()
    first = GAME.random_action(setup, 1, random.Random(5))
    assert first["type"] in ("startup", "reveal")
    GAME.parse_action(first)
