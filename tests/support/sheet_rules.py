"""The score sheet's engine, played directly by the rules tests (tests/engines/): a sheet
set up for chosen players and options, and moves applied to its state."""
from __future__ import annotations

import random

import pytest

from companion.games.engine import IllegalAction
from companion.games.score_sheet import ScoreSheet

GAME = ScoreSheet()
ANN, BEN, CAT = 1, 2, 3


def new(players=(ANN, BEN), **options):
    options.setdefault("name", "Test")
    return GAME.setup(list(players), GAME.options_for(options, len(players)),
                      random.Random(0))


def act(state, actor, **data):
    return GAME.apply(state, actor, GAME.parse_action(data), random.Random(0))


def enter(state, actor, round_, player=None, **scores):
    """A row of scores for `round_` (a sheet of one category, Points, when none given)."""
    data = {"type": "enter", "round": round_, "scores": scores or {"Points": 0}}
    if player is not None:
        data["player"] = player
    return act(state, actor, **data)


def refused(state, actor, error=IllegalAction, **data):
    """The message of the move the rules refuse, the state left as it was."""
    before = repr(state)
    with pytest.raises(error) as caught:
        act(state, actor, **data)
    assert repr(state) == before
    return str(caught.value.message)
