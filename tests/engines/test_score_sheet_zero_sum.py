"""Zero-sum rounds on the score sheet (companion/games/score_sheet/zero_sum.py): a round
whose entries do not add up to 0 stays open, everyone awaited, and all anyone is told is by
how much it is off.

Law: the contract's `zero_sum` option (Score sheet).
"""
from __future__ import annotations

import json
import random

import pydantic
import pytest

from companion.games.engine import HOST
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, enter, new

MAHJONG = dict(zero_sum=True, categories=["Points"])


def public(state, viewer=None):
    return GAME.view(state, viewer)[0]


def test_a_round_that_adds_up_to_zero_closes():
    state = new((ANN, BEN, CAT), **MAHJONG)
    enter(state, ANN, 1, Points=24)
    enter(state, BEN, 1, Points=-8)
    lines = enter(state, CAT, 1, Points=-16)
    assert "Round 1 closed" in str(lines[-1].text)
    assert public(state)["round"] == 2
    assert public(state)["off_by"] is None
    assert [s["total"] for s in public(state)["seats"]] == [24, -8, -16]


def test_a_round_that_is_off_stays_open_with_everyone_awaited_until_an_entry_changes():
    state = new((ANN, BEN, CAT), **MAHJONG)
    enter(state, ANN, 1, Points=24)
    enter(state, BEN, 1, Points=-8)
    lines = enter(state, CAT, 1, Points=-11)
    assert str(lines[-1].text) == ("Round 1 is off by 5: the entries must add up to 0. "
                                   "It stays open until an entry is changed.")
    assert public(state)["round"] == 1
    assert public(state)["off_by"] == 5
    assert GAME.waiting_for(state) == [ANN, BEN, CAT]
    lines = enter(state, BEN, 1, Points=-13)
    assert "Round 1 closed" in str(lines[-1].text)
    assert public(state)["off_by"] is None
    assert [s["total"] for s in public(state)["seats"]] == [24, -13, -11]


def test_off_by_below_zero_is_said_as_it_is():
    state = new(**MAHJONG)
    enter(state, ANN, 1, Points=-10)
    enter(state, BEN, 1, Points=3)
    assert public(state)["off_by"] == -7


def test_entries_below_zero_are_taken_without_the_negative_option():
    state = new(**MAHJONG)
    enter(state, ANN, 1, Points=-4)
    enter(state, BEN, 1, Points=4)
    assert public(state)["closed"] == 1


def test_with_secret_entry_an_off_round_shows_no_entry_and_names_no_one():
    state = new((ANN, BEN, CAT), secret=True, **MAHJONG)
    enter(state, ANN, 1, Points=30)
    enter(state, BEN, 1, Points=-10)
    lines = enter(state, CAT, 1, Points=-15)
    seen = json.dumps(public(state))
    assert public(state)["off_by"] == 5
    assert all(seat["rows"] == [] for seat in public(state)["seats"])
    assert "30" not in seen and "-15" not in seen
    assert all("{name:" not in str(line.text) for line in lines[1:])
    assert GAME.keeps_secrets(state)
    host_seen = json.dumps(GAME.view(state, HOST)[0])
    assert "30" not in host_seen and "-15" not in host_seen
    lines = enter(state, CAT, 1, Points=-20)
    assert any(line.reveal for line in lines)
    assert [s["total"] for s in public(state)["seats"]] == [30, -10, -20]


def test_the_scorer_fixes_an_off_round_by_entering_a_row_again():
    state = new(entry="scorer", **MAHJONG)
    enter(state, HOST, 1, player=ANN, Points=5)
    enter(state, HOST, 1, player=BEN, Points=-4)
    assert public(state)["off_by"] == 1
    enter(state, HOST, 1, player=BEN, Points=-5)
    assert public(state)["closed"] == 1


def test_the_sheet_is_unchanged_without_the_option():
    state = new()
    enter(state, ANN, 1, Points=3)
    enter(state, BEN, 1, Points=4)
    assert public(state)["closed"] == 1
    assert public(state)["zero_sum"] is False and public(state)["off_by"] is None


def test_zero_sum_does_not_go_with_bids():
    with pytest.raises(pydantic.ValidationError):
        new(zero_sum=True, bids="wizard")


def test_the_bots_play_a_zero_sum_sheet_to_its_end():
    state = new((ANN, BEN, CAT), rounds=3, **MAHJONG)
    rng = random.Random(4)
    for _ in range(200):
        if state["finished"]:
            break
        for player in GAME.waiting_for(state):
            move = GAME.random_action(state, player, rng)
            if move is not None:
                GAME.apply(state, player, GAME.parse_action(move), rng)
    assert state["finished"]
    for closed in state["closed"]:
        assert sum(sum(row.values()) for row in closed.values()) == 0
