"""Go Big's engine, played directly by its rule tests (tests/engines/test_go_big_*.py): the
fixture of a fresh engine (`g`), a game set up for chosen players and options, plays and
draws applied to its state, a seat and its bank read back, every card counted wherever it
is, the player whose turn it is, a refusal checked to leave the state as it was, and a
state with the deck and the market empty, the end in sight. The app tracks hand counts,
not card contents: a play reports (value, count)."""
from __future__ import annotations

import copy
import random

import pytest

from companion.games.engine import IllegalAction
from companion.games.go_big import GoBig

VALUES = range(1, 8)


@pytest.fixture
def g() -> GoBig:
    return GoBig()


def new(players=(1, 2, 3), seed=0, **options):
    game = GoBig()
    return game.setup(list(players), game.Options(**options), random.Random(seed))


def act(game, state, player, **data):
    return game.apply(state, player, game.parse_action(data), None)


def play(game, state, player, value, count):
    return act(game, state, player, type="play", value=value, count=count)


def draw(game, state, player, source="deck"):
    return act(game, state, player, type="draw", source=source)


def seat(state, player):
    return next(s for s in state["seats"] if s["player"] == player)


def bank_total(s):
    return sum(int(v) * n for v, n in s["bank"].items())


def bank_cards(s):
    return sum(s["bank"].values())


def cards_accounted(state) -> int:
    seats = state["seats"]
    return (state["deck"] + state["market"]
            + sum(s["hand"] for s in seats)
            + sum(s["display"]["count"] for s in seats if s["display"])
            + sum(bank_cards(s) for s in seats)
            + state["beaten"] + state["hands_discarded"])


def current(game, state):
    waiting = game.waiting_for(state)
    assert len(waiting) == 1
    return waiting[0]


def assert_refused(game, state, player, data, exc=IllegalAction):
    before = copy.deepcopy(state)
    with pytest.raises(exc) as info:
        game.apply(state, player, game.parse_action(data), None)
    assert state == before, "a refused action changed the state"
    assert isinstance(info.value.message, str) and info.value.message
    return info.value


def endgame_state(players=(1, 2, 3, 4)):
    """A state with the deck and market empty: the next play of a last card ends it."""
    state = new(players)
    # Move the deck and market into the hands so that the cards stay accounted for.
    extra = state["deck"] + state["market"]
    state["deck"] = state["market"] = 0
    state["seats"][1]["hand"] += extra
    return state
