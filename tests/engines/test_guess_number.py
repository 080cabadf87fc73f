"""Guess the Number, the test-only game: its rules and a worked example. What every game
must do (determinism, refusals, secrets, replay, the end) is the contract test's."""
from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.games.engine import IllegalAction, NotYourTurn
from tests.games.guess_number import GuessNumber

ANN, BEN = 1, 2
GAME = GAMES["guess-number"]


def act(state, player, **data):
    return [note.text for note in GAME.apply(state, player, GAME.parse_action(data),
                                             random.Random(0))]


def chosen(ann=7, ben=12, highest=20):
    state = GAME.setup([ANN, BEN], GAME.Options(highest=highest), random.Random(0))
    act(state, ANN, type="choose", number=ann)
    act(state, BEN, type="choose", number=ben)
    return state


def test_it_is_registered_through_the_extra_games_hook():
    assert isinstance(GAME, GuessNumber) and GAME.folder == "guess_number"


def test_both_players_choose_in_secret_then_the_first_guesses():
    state = GAME.setup([ANN, BEN], GAME.Options(), random.Random(0))
    assert GAME.waiting_for(state) == [ANN, BEN]
    assert act(state, BEN, type="choose", number=3) == ["{name:2} chose a number."]
    assert GAME.view(state, ANN)[1] == {"number": None}
    assert GAME.view(state, BEN)[1] == {"number": 3}
    assert "number" not in str(GAME.view(state, ANN)[0]["seats"])
    assert act(state, ANN, type="choose", number=9) == ["{name:1} chose a number.",
                                                        "{name:1} guesses first."]
    assert GAME.waiting_for(state) == [ANN]


def test_a_worked_game_higher_lower_right():
    state = chosen(ann=7, ben=12)
    assert act(state, ANN, type="guess", guess=10) == ["{name:1} guessed 10: higher."]
    assert act(state, BEN, type="guess", guess=3) == ["{name:2} guessed 3: higher."]
    assert act(state, ANN, type="guess", guess=15) == ["{name:1} guessed 15: lower."]
    assert act(state, BEN, type="guess", guess=8) == ["{name:2} guessed 8: lower."]
    assert GAME.result(state) is None
    assert act(state, ANN, type="guess", guess=12) == [
        "{name:1} guessed 12: right! {name:1} had chosen 7."]
    result = GAME.result(state)
    assert result.winners == [ANN] and [s.place for s in result.standings] == [1, 2]
    public, _ = GAME.view(state, None)
    assert [seat["number"] for seat in public["seats"]] == [7, 12]
    assert GAME.secrets(state) == {}


@pytest.mark.parametrize("player, data, error, message", [
    (ANN, {"type": "guess", "guess": 4}, NotYourTurn, "not your turn"),
    (BEN, {"type": "choose", "number": 4}, IllegalAction, "chosen your number already"),
    (BEN, {"type": "guess", "guess": 21}, IllegalAction, "from 1 to 20"),
    (99, {"type": "guess", "guess": 4}, NotYourTurn, "not playing"),
])
def test_refusals(player, data, error, message):
    state = chosen()
    act(state, ANN, type="guess", guess=1)
    with pytest.raises(error, match=message):
        GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def test_no_guess_before_both_numbers_are_chosen():
    state = GAME.setup([ANN, BEN], GAME.Options(), random.Random(0))
    act(state, ANN, type="choose", number=5)
    with pytest.raises(IllegalAction, match="once both numbers are chosen"):
        act(state, ANN, type="guess", guess=5)


def test_the_bot_narrows_its_guesses_to_what_it_was_told():
    state = chosen(ann=7, ben=12)
    act(state, ANN, type="guess", guess=10)
    act(state, BEN, type="guess", guess=3)
    for seed in range(30):
        assert 11 <= GAME.random_action(state, ANN, random.Random(seed))["guess"] <= 20
