"""Big Money's engine, played directly by its rule tests (tests/engines/test_big_money_*.py):
moves applied to a state, options and Biz News cards of a test's own, a game past its
setup (everyone's Start-Up taken, the market full), Asset cards and money put in front of
a player to arrange a scene, a turn rolled on to the buy step, money read back and checked
to be conserved, and a refusal checked to leave the state untouched."""
from __future__ import annotations

import copy
import random

import pytest

from companion.games.big_money import BigMoney, Options, option_defaults
from companion.games.big_money.assets import new_asset
from companion.games.engine import HOST, IllegalAction

GAME = BigMoney()
MARKET = [
    {"industry": "food", "price": 10, "stock": False, "name": "Diner"},
    {"industry": "travel", "price": 20, "stock": True, "name": "Airline"},
    {"industry": "technology", "price": 40},
    {"industry": "entertainment", "price": 60},
]
NO_CATEGORY = [1, 2, 4, 5, 6]


def act(state, actor, /, **data):
    return GAME.apply(state, actor, GAME.parse_action(data), random.Random(0))


def texts(notes):
    return [note.text for note in notes]


def options(**changes) -> Options:
    return Options(**{**option_defaults(), **changes})


def card(kind, name="Test Card", count=1, **effect):
    return {"name": name, "text": f"{name} text.", "count": count,
            "effect": {"kind": kind, **effect}}


def one_card_game(kind, players=(1, 2), startups=None, **effect):
    return started(players, startups, options(biz_news=[card(kind, **effect)]))


def started(players=(1, 2), startups=None, opts=None, seed=0):
    """A game past its setup: everyone took a Start-Up, the market is full."""
    state = GAME.setup(list(players), opts or Options(), random.Random(seed))
    for player, industry in zip(players, startups or ["sports"] * len(players)):
        act(state, player, type="startup", industry=industry)
    for slot, asset in enumerate(MARKET):
        act(state, players[0], type="reveal", slot=slot, asset=asset)
    assert state["step"] == "industry"
    return state


def give(state, player, industry, price=10, stock=False, name="", payout=None):
    """Put an Asset card in front of a player (arranging a scene; no money moves)."""
    payout = payout if payout is not None else price * (2 if stock else 1)
    asset = new_asset(state, industry, price, payout, stock, name)
    seat(state, player)["assets"].append(asset)
    return asset


def seat(state, player):
    return next(s for s in state["seats"] if s["player"] == player)


def money(state, player):
    return seat(state, player)["money"]


def fund(state, player, amount):
    act(state, HOST, type="adjust", player=player, amount=amount, note="arranging the scene")


def conserved(state):
    return state["bank"] + sum(s["money"] for s in state["seats"]) == state["start_total"]


def assert_refused(state, player, data, error=IllegalAction):
    before = copy.deepcopy(state)
    with pytest.raises(error) as refused:
        act(state, player, **data)
    assert state == before
    assert refused.type is error
    assert refused.value.message.endswith(".")


def buy_step(state, player, dice=(1, 2, 3, 4, 5)):
    act(state, player, type="industry", face="technology")
    act(state, player, type="number_dice", dice=list(dice))
