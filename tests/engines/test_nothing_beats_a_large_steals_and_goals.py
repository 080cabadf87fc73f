"""Nothing Beats a Large engine, after a cast: the winner's steal, the steals from every
other player when one is left with no pieces (skipping whoever has none left), whom the
loser may challenge next, and the goals: a first goal completed and revealed, a second one
that wins at once, and two goal cards of one colour."""
from __future__ import annotations

import copy

import pytest

from companion.games.engine import IllegalAction
from tests.support.nothing_beats_a_large_engine import (ANN, BOB, CAT, DAN, EVEN_3, GAME, GOALS_3,
                                                        act, arranged, assert_pieces_accounted,
                                                        cast_both, completed_red, pieces, seat,
                                                        start, win_cast_and_steal)


# -- steals and zero pieces ------------------------------------------------------------------
def test_the_winner_steals_a_piece_of_their_choice_then_the_loser_challenges():
    state = arranged(EVEN_3, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "red-L", BOB: "green-M"})
    assert GAME.actions(state, ANN) == [{"type": "steal", "piece": pieces(state, BOB),
                                         "from": BOB}]
    act(state, ANN, {"type": "steal", "piece": "red-S"})
    assert "red-S" in pieces(state, ANN) and "red-S" not in pieces(state, BOB)
    assert state["step"] == "challenge" and state["challenger"] == BOB
    assert state["cast"] is None
    assert_pieces_accounted(state)


def test_zero_pieces_steals_one_piece_from_every_other_player():
    state = arranged({ANN: ["red-L"], BOB: ["yellow-S"],
                      CAT: ["red-M", "red-S", "yellow-L", "yellow-M", "green-L", "green-M",
                            "green-S"]}, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "red-L", BOB: "yellow-S"})
    notes = act(state, ANN, {"type": "steal", "piece": "yellow-S"})
    assert "no pieces left" in notes[-1].text
    assert pieces(state, BOB) == []
    # Clockwise from the player at zero: Cat, then Ann.
    assert GAME.actions(state, BOB) == [{"type": "steal", "piece": pieces(state, CAT),
                                         "from": CAT}]
    act(state, BOB, {"type": "steal", "piece": "green-L"})
    assert GAME.actions(state, BOB) == [{"type": "steal", "piece": ["red-L", "yellow-S"],
                                         "from": ANN}]
    act(state, BOB, {"type": "steal", "piece": "yellow-S"})
    assert pieces(state, BOB) == ["yellow-S", "green-L"]
    assert [len(s["pieces"]) for s in state["seats"]] == [1, 2, 6]
    assert state["step"] == "challenge" and state["challenger"] == BOB
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT]}]
    assert_pieces_accounted(state)


def test_zero_steals_cascade_and_skip_players_with_nothing_left():
    dan = ["blue-L", "red-M", "red-S", "yellow-M", "yellow-S", "green-M", "green-S",
           "blue-M", "blue-S"]
    state = arranged({ANN: ["red-L"], BOB: ["yellow-L"], CAT: ["green-L"], DAN: dan},
                     {ANN: ["red", "blue"], BOB: ["red", "yellow"], CAT: ["blue", "green"],
                      DAN: ["yellow", "green"]})
    act(state, ANN, {"type": "challenge", "opponent": DAN})  # the first challenge: anyone
    cast_both(state, {ANN: None, DAN: "blue-S"})
    taken = [(DAN, ANN, "red-L"), (ANN, BOB, "yellow-L"), (ANN, CAT, "green-L"),
             (ANN, DAN, "blue-M"), (BOB, DAN, "red-M"), (BOB, ANN, "blue-M"),
             (CAT, DAN, "red-S"), (CAT, ANN, "yellow-L")]
    skipped = []
    for thief, victim, piece in taken:
        assert GAME.waiting_for(state) == [thief]
        assert GAME.actions(state, thief)[0]["from"] == victim
        notes = act(state, thief, {"type": "steal", "piece": piece})
        skipped += [n.text for n in notes if "no piece left" in n.text]
        assert_pieces_accounted(state)
    # Bob's steal from Cat was skipped: Cat had been emptied by then.
    assert skipped == [f"{{name:{CAT}}} has no piece left for {{name:{BOB}}} to take."]
    assert [len(s["pieces"]) for s in state["seats"]] == [1, 2, 2, 7]
    assert state["step"] == "challenge" and state["challenger"] == ANN
    assert GAME.actions(state, ANN) == [{"type": "challenge", "opponent": [BOB, CAT]}]


# -- the challenge restriction -------------------------------------------------------------
def cast_then_steal(state, challenger, opponent, picks, steal):
    act(state, challenger, {"type": "challenge", "opponent": opponent})
    cast_both(state, picks)
    act(state, state["last_cast"]["winner"], {"type": "steal", "piece": steal})


def test_the_loser_challenges_someone_who_did_not_just_cast():
    state = arranged({ANN: ["red-L", "green-M", "blue-S"], BOB: ["yellow-L", "red-M", "green-S"],
                      CAT: ["green-L", "blue-M", "red-S"], DAN: ["blue-L", "yellow-M", "yellow-S"]},
                     {ANN: ["red", "blue"], BOB: ["red", "yellow"], CAT: ["blue", "green"],
                      DAN: ["yellow", "green"]})
    cast_then_steal(state, ANN, BOB, {ANN: "red-L", BOB: "red-M"}, "green-S")
    assert GAME.waiting_for(state) == [BOB]
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT, DAN]}]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="did not just cast"):
        act(state, BOB, {"type": "challenge", "opponent": ANN})
    assert state == before
    act(state, BOB, {"type": "challenge", "opponent": DAN})
    assert state["cast"]["between"] == [BOB, DAN]


def test_with_three_players_the_loser_must_challenge_the_third():
    state = arranged(EVEN_3, GOALS_3)
    cast_then_steal(state, ANN, BOB, {ANN: "red-L", BOB: "green-M"}, "red-S")
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT]}]


def test_with_two_players_the_loser_challenges_the_winner():
    state = start(2, seed=3)
    ann_large = next(p for p in pieces(state, ANN) if p.endswith("-L"))
    bob_small = next(p for p in pieces(state, BOB) if p.endswith("-S"))
    cast_then_steal(state, ANN, BOB, {ANN: None, BOB: bob_small}, ann_large)
    # Ann cast Nothing against Bob's Small: Bob won, Ann lost and challenges Bob.
    assert state["challenger"] == ANN
    assert GAME.actions(state, ANN) == [{"type": "challenge", "opponent": [BOB]}]
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    assert state["step"] == "cast"


# -- goals ---------------------------------------------------------------------------------------
def test_completing_a_first_goal_reveals_it():
    state = arranged({ANN: ["red-L", "red-M", "green-S"], BOB: ["yellow-L", "red-S", "green-M"],
                      CAT: ["green-L", "yellow-M", "yellow-S"]},
                     {ANN: ["green", "red"], BOB: ["yellow", "green"], CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "red-S")
    [reveal] = [n for n in notes if n.reveal]
    assert "red" in reveal.text and f"{{name:{ANN}}}" in reveal.text
    assert seat(state, ANN)["revealed_goals"] == ["red"]
    assert seat(state, ANN)["completed"] == ["red"]
    assert GAME.result(state) is None
    public, _ = GAME.view(state, CAT)
    assert public["seats"][0]["revealed_goals"] == ["red"]
    assert "goals" not in public["seats"][0]
    assert GAME.secrets(state)[ANN] == [{"goals": ["green"]}]
    assert state["step"] == "challenge" and state["challenger"] == BOB


@pytest.mark.parametrize("still_holds_red", [True, False])
def test_completing_the_second_goal_wins_even_without_the_first_colour(still_holds_red):
    if still_holds_red:
        layout = {ANN: ["red-L", "red-M", "red-S", "green-L", "green-M"],
                  BOB: ["green-S", "yellow-L", "yellow-M"], CAT: ["yellow-S"]}
    else:
        layout = {ANN: ["green-L", "green-M", "red-L"], BOB: ["green-S", "yellow-L", "red-M"],
                  CAT: ["yellow-M", "red-S", "yellow-S"]}
    state = completed_red(layout, {ANN: ["red", "green"], BOB: ["yellow", "green"],
                                   CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "green-S", ann_cast="green-L")
    assert notes[-1].reveal
    assert notes[-1].text == f"{{name:{ANN}}} completed a second goal (green after red) and wins."
    result = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (ANN, 1, 2), (BOB, 2, 0), (CAT, 2, 0)]
    assert result.winners == [ANN]
    assert result.explanation == notes[-1].text
    # Only the winner is ranked: the others share place 2 whatever they completed.
    assert result.to_json()["ranked"] is False and result.score_label == "goals completed"
    assert state["step"] == "over" and GAME.waiting_for(state) == []
    assert all(GAME.actions(state, p) == [] for p in (ANN, BOB, CAT))
    public, _ = GAME.view(state, None)
    assert [s["goals"] for s in public["seats"]] == [["red", "green"], ["yellow", "green"],
                                                     ["red", "yellow"]]
    assert GAME.secrets(state) == {}


def test_a_trio_of_a_colour_that_is_not_the_second_goal_does_not_win():
    state = completed_red({ANN: ["yellow-L", "yellow-M", "red-L"],
                           BOB: ["yellow-S", "green-L", "red-M"],
                           CAT: ["green-M", "red-S", "green-S"]},
                          {ANN: ["red", "green"], BOB: ["yellow", "green"],
                           CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "yellow-S")
    assert not any(n.reveal for n in notes)
    assert GAME.result(state) is None and state["step"] == "challenge"


RED_RED = {ANN: ["red", "red"], BOB: ["yellow", "green"], CAT: ["yellow", "green"]}


def test_two_goal_cards_of_one_colour_reveal_only_the_first():
    state = arranged({ANN: ["red-L", "red-M", "yellow-L", "yellow-M"],
                      BOB: ["red-S", "yellow-S", "green-M"], CAT: ["green-L", "green-S"]},
                     RED_RED)
    notes = win_cast_and_steal(state, "red-S")
    assert [n.reveal for n in notes] == [False, True]
    assert seat(state, ANN)["revealed_goals"] == ["red"]
    assert GAME.secrets(state)[ANN] == [{"goals": ["red"]}]
    assert GAME.result(state) is None


def test_two_goal_cards_of_one_colour_are_not_won_by_that_colour_again():
    state = completed_red({ANN: ["red-L", "red-M", "green-L"],
                           BOB: ["red-S", "yellow-M", "green-M"],
                           CAT: ["yellow-L", "yellow-S", "green-S"]}, RED_RED)
    notes = win_cast_and_steal(state, "red-S")
    assert not any(n.reveal for n in notes)
    assert GAME.result(state) is None


def test_two_goal_cards_of_one_colour_are_won_by_a_trio_of_any_other_colour():
    state = completed_red({ANN: ["yellow-L", "yellow-M", "red-L"],
                           BOB: ["yellow-S", "red-M", "green-M"],
                           CAT: ["red-S", "green-L", "green-S"]}, RED_RED)
    notes = win_cast_and_steal(state, "yellow-S")
    assert GAME.result(state).winners == [ANN]
    assert notes[-1].reveal
    assert "yellow after red" in notes[-1].text and "both goal cards are red" in notes[-1].text
    assert seat(state, ANN)["revealed_goals"] == ["red", "red"]


def test_holding_a_second_trio_when_completing_the_first_wins_at_once():
    layout = {ANN: ["red-L", "red-M", "yellow-L", "yellow-M", "yellow-S"],
              BOB: ["red-S", "green-M", "green-S"], CAT: ["green-L"]}
    state = arranged(layout, {ANN: ["red", "red"], BOB: ["yellow", "green"],
                              CAT: ["yellow", "green"]})
    notes = win_cast_and_steal(state, "red-S")
    assert [n.reveal for n in notes] == [False, True, True]
    assert GAME.result(state).winners == [ANN]


def test_a_win_ends_the_game_at_once_and_drops_pending_steals():
    state = completed_red({ANN: ["green-L", "green-M", "red-L"],
                           BOB: ["green-S", "yellow-L", "red-M"],
                           CAT: ["yellow-M", "red-S", "yellow-S"]},
                          {ANN: ["red", "green"], BOB: ["yellow", "green"],
                           CAT: ["red", "yellow"]})
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "green-L", BOB: "red-M"})
    state["steals"].append({"thief": CAT, "victim": BOB, "reason": "zero"})
    act(state, ANN, {"type": "steal", "piece": "green-S"})
    assert GAME.result(state).winners == [ANN]
    assert state["steals"] == [] and GAME.view(state, None)[0]["steals"] == []
    assert GAME.waiting_for(state) == []
