"""Games won without points on the score sheet (companion/games/score_sheet/outcome.py):
"winners" (the host ends the game naming them) and "cooperative" (won or lost together).

Law: the contract's `outcome` option and `finish` action (Score sheet).
"""
from __future__ import annotations

import pydantic
import pytest

from companion.games.engine import HOST, NotYourTurn
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, enter, new, refused


def places(state):
    return {s["player"]: s["place"] for s in GAME.result(state).to_json()["standings"]}


def test_winners_the_host_names_them_and_the_others_share_place_two():
    state = new((ANN, BEN, CAT), outcome="winners")
    assert GAME.waiting_for(state) == []
    assert GAME.actions(state, HOST) == [{"type": "finish", "players": [ANN, BEN, CAT]}]
    assert GAME.actions(state, ANN) == []
    lines = act(state, HOST, type="finish", winners=[CAT, ANN])
    assert str(lines[-1].text) == "The host ended the game: {name:1} and {name:3} won."
    result = GAME.result(state)
    assert result.winners == [ANN, CAT]
    assert places(state) == {ANN: 1, CAT: 1, BEN: 2}
    assert str(result.explanation) == "The host ended the game: {name:1} and {name:3} won."
    assert GAME.view(state, None)[0]["ending"] == {"winners": [ANN, CAT]}


def test_winners_keeps_no_rounds_and_only_the_host_finishes():
    state = new(outcome="winners")
    assert "no score sheet" in refused(state, ANN, type="enter", round=1,
                                       scores={"Points": 3})
    refused(state, ANN, NotYourTurn, type="finish", winners=[ANN])
    assert refused(state, HOST, type="finish", winners=[]) == "Name at least one winner."
    assert refused(state, HOST, type="finish", winners=[9]) == (
        "That player is not at this table.")
    refused(state, HOST, type="finish", won=True)


def test_cooperative_won_everyone_is_first_and_a_winner_with_the_score():
    state = new((ANN, BEN, CAT), outcome="cooperative")
    assert GAME.actions(state, HOST) == [{"type": "finish", "won": [True, False],
                                          "score": True}]
    lines = act(state, HOST, type="finish", won=True, score=4)
    assert str(lines[-1].text) == "The table won together, with a score of 4."
    result = GAME.result(state)
    assert result.winners == [ANN, BEN, CAT] and result.cooperative
    assert places(state) == {ANN: 1, BEN: 1, CAT: 1}
    assert [s.score for s in result.standings] == [4, 4, 4]


def test_cooperative_lost_everyone_is_first_and_no_one_wins():
    state = new(outcome="cooperative")
    act(state, HOST, type="finish", won=False)
    result = GAME.result(state)
    assert result.winners == [] and result.to_json()["winners"] == []
    assert places(state) == {ANN: 1, BEN: 1}
    assert str(result.explanation) == "The table lost together."


def test_cooperative_needs_won_or_lost_not_winners():
    state = new(outcome="cooperative")
    assert refused(state, HOST, type="finish", winners=[ANN]) == (
        "Say whether the game was won or lost.")
    refused(state, HOST, type="finish")


def test_a_finished_game_takes_no_second_finish():
    state = new(outcome="winners")
    act(state, HOST, type="finish", winners=[BEN])
    assert refused(state, HOST, type="finish", winners=[ANN]) == "The game is over."


def test_outcome_without_points_does_not_go_with_bids():
    with pytest.raises(pydantic.ValidationError):
        new(outcome="cooperative", bids="oh_hell")


def test_points_sheet_refuses_finish():
    state = new()
    enter(state, ANN, 1, Points=1)
    assert "finish" not in [a["type"] for a in GAME.actions(state, HOST)]
    refused(state, HOST, type="finish", winners=[ANN])
