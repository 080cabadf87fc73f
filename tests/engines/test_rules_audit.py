"""Rules found wrong by an audit, each against its rulebook text."""
from __future__ import annotations

import random

from companion.games.engine import HOST
from companion.games.go_big import GoBig
from tests.engines.test_big_money import (GAME as BIG_MONEY, act, assert_refused, buy_step,
                                          give, options, started, texts)
from tests.engines.test_big_top import GAME as BIG_TOP
from tests.engines.test_big_top import options as big_top_options
from tests.engines.test_big_top import play_deal
from tests.engines.test_go_big import finished_with_banks


# -- Big Money ---------------------------------------------------------------------------
# "If the Asset deck is empty, shuffle the discard pile to create a new deck. If there is no
# discard pile, leave that space in the Market empty and continue playing. The next time an
# Asset is discarded, fill the empty space in the Market with it."

def market_left_empty():
    """A game whose Asset deck (4 cards, all in the market) and discard pile are empty
    when player 1 buys from space 1."""
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=4))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    assert state["market"][0] is None and state["asset_deck"]["unseen"] == 0
    assert state["asset_discard"] == [] and state["asset_deck"]["reshuffled"] == []
    return state


def test_big_money_offers_nobody_a_card_from_an_empty_deck():
    state = market_left_empty()
    for actor in (1, 2, HOST):
        assert all(template["type"] != "reveal" for template in BIG_MONEY.actions(state, actor))
    for seed in range(20):
        assert BIG_MONEY.random_action(state, 2, random.Random(seed))["type"] != "reveal"


def test_big_money_refuses_a_card_revealed_from_nowhere():
    state = market_left_empty()
    for player in (1, 2):
        assert_refused(state, player, {"type": "reveal", "slot": 0,
                                       "asset": {"industry": "food", "price": 5}})
        assert_refused(state, player, {"type": "reveal", "slot": 0, "asset_id": 1})


def test_big_money_fills_the_waiting_space_with_the_next_discard_the_host_included():
    state = market_left_empty()
    asset = give(state, 2, "food", name="Diner")
    notes = act(state, HOST, type="adjust", player=2, amount=0, note="the box",
                discard_asset=asset["id"])
    assert texts(notes) == ["The host adjusts: the Diner of {name:2} is discarded into the "
                            "empty Market space 1 (the box)."]
    assert state["market"][0] == asset and state["asset_discard"] == []
    stock = give(state, 1, "travel", price=5, stock=True, name="Cruise")
    act(state, 2, type="industry", face="travel")
    assert state["asset_discard"] == [stock]  # no space waits: the discard pile again


def test_big_money_a_space_left_empty_waits_once_the_deck_runs_out():
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=5))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    act(state, 1, type="end_turn")  # space 1 left empty with one card still in the deck
    assert any(t["type"] == "reveal" for t in BIG_MONEY.actions(state, 2))
    buy_step(state, 2)
    act(state, 2, type="buy", slot=1)
    act(state, 1, type="reveal", slot=1, asset={"industry": "food", "price": 5})
    assert state["asset_deck"]["unseen"] == 0
    assert all(t["type"] != "reveal" for t in BIG_MONEY.actions(state, 1))
    assert_refused(state, 1, {"type": "reveal", "slot": 0,
                              "asset": {"industry": "food", "price": 5}})
    stock = give(state, 2, "sports", price=5, stock=True, name="Arena")
    act(state, 1, type="industry", face="sports")
    assert state["market"][0] == stock


# -- Go Big ------------------------------------------------------------------------------
# "4. Highest total wins! 5. Tie? The tied player with the most banked cards wins."

def go_big_explanation(banks: dict[int, dict[int, int]]) -> str:
    game = GoBig()
    return game.result(finished_with_banks(game, banks, last=(1, 1))).explanation


def test_go_big_explains_a_tie_of_two():
    assert go_big_explanation({1: {}, 2: {6: 2}, 3: {3: 4}}) == (
        "{name:3} and {name:2} both banked 12; {name:3} wins the tie with more banked cards "
        "(4 against 2).")


def test_go_big_explains_a_tie_of_three():
    assert go_big_explanation({1: {}, 2: {6: 2}, 3: {3: 4}, 4: {4: 3}}) == (
        "{name:3}, {name:4} and {name:2} all banked 12; {name:3} wins the tie with more "
        "banked cards (4 against 3).")


def test_go_big_explains_a_tie_of_four():
    assert go_big_explanation({1: {}, 2: {6: 2}, 3: {3: 4}, 4: {4: 3}, 5: {2: 6}}) == (
        "{name:5}, {name:3}, {name:4} and {name:2} all banked 12; {name:5} wins the tie with "
        "more banked cards (6 against 4).")


# -- Big Top, the Fan Tan variant ---------------------------------------------------------
# "If you cannot play you must put a peanut in the pot and pass. [...] Play a predetermined
# number of rounds, for a set time limit, or until one player goes 'broke'."

def fan_tan_until_broke(peanuts: int, seed: int) -> dict:
    state = BIG_TOP.setup([1, 2, 3], big_top_options(3, variant="fan-tan", peanuts=peanuts),
                          random.Random(seed))
    rng = random.Random(seed)
    while state["step"] != "over":
        play_deal(state, rng)
    return state


def test_fan_tan_broke_in_the_first_hand_says_so():
    state = fan_tan_until_broke(peanuts=2, seed=1)
    assert (state["broke"], state["deal_results"]) == (2, [])
    assert BIG_TOP.result(state).explanation == (
        "{name:3} wins with 2 peanuts, the most when {name:2} went broke in the first hand.")


def test_fan_tan_broke_later_counts_the_hand_in_play():
    state = fan_tan_until_broke(peanuts=3, seed=8)
    assert (state["broke"], len(state["deal_results"])) == (3, 3)
    assert BIG_TOP.result(state).explanation == (
        "{name:1} wins with 5 peanuts, the most when {name:3} went broke in hand 4.")
