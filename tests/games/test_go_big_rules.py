"""Go Big's rules page as the engine cites it: the section of each step, the setup a table
needs for its options and players, the section each refusal names, and the "why not" lines
of the player whose turn it is."""
from __future__ import annotations

import random

import pytest

from companion.games.engine import IllegalAction, NotYourTurn
from companion.games.go_big import GoBig


@pytest.fixture
def game() -> GoBig:
    return GoBig()


def new(game, players=(1, 2, 3), **options):
    return game.setup(list(players), game.Options(**options), random.Random(0))


def act(game, state, player, **data):
    return game.apply(state, player, game.parse_action(data), None)


def seat(state, player):
    return next(s for s in state["seats"] if s["player"] == player)


def refusal(game, state, player, **data) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        act(game, state, player, **data)
    return info.value


def reasons(game, state, player) -> dict[str, str]:
    """Each line of `why_not`, as its English text, with the section it cites."""
    found = game.why_not(state, player)
    assert all(isinstance(reason, IllegalAction) for reason in found)
    return {str(reason.message): reason.rule for reason in found}


# -- the section of each step ------------------------------------------------------------
def test_the_rules_open_at_the_step_the_table_is_at(game):
    state = new(game)
    assert game.rule_for(state) == "play"
    act(game, state, 1, type="play", value=4, count=1)
    assert game.rule_for(state) == "draw"
    act(game, state, 1, type="draw", source="deck")
    assert game.rule_for(state) == "play"
    state["finished"] = True
    assert game.rule_for(state) == "end"
    assert {"play", "draw", "end"} <= set(game.rule_sections)


# -- the setup checklist -----------------------------------------------------------------
def test_the_checklist_of_two_players_with_the_box(game):
    lines = game.setup_checklist(game.Options(), 2)
    text = "\n".join(lines)
    assert "13 cards of each value from 1 to 7: 91 number cards" in text
    assert "deal 6 cards to each of the 2 players" in text
    assert "The other 77 cards stay face down" in text  # 91 - 2 x 6 - 2
    assert "Banks are secret" in text and "Open banks" not in text


def test_the_checklist_of_six_players_with_fewer_copies_and_open_banks(game):
    lines = game.setup_checklist(game.Options(copies_per_value=10, open_banks=True), 6)
    text = "\n".join(lines)
    assert "10 cards of each value from 1 to 7: 70 number cards" in text
    assert "deal 6 cards to each of the 6 players" in text
    assert "The other 32 cards stay face down" in text  # 70 - 6 x 6 - 2
    assert "Open banks (house rule)" in text and "Banks are secret" not in text


# -- the section each refusal names ------------------------------------------------------
def test_too_few_cards_for_the_players_cites_the_setup(game):
    with pytest.raises(IllegalAction) as info:
        new(game, players=(1, 2, 3, 4, 5, 6), copies_per_value=4)
    assert info.value.rule == "setup"


def test_refusals_of_the_turn_order_cite_the_turn(game):
    state = new(game)
    out_of_turn = refusal(game, state, 2, type="play", value=4, count=1)
    assert isinstance(out_of_turn, NotYourTurn) and out_of_turn.rule == "turn"
    assert refusal(game, state, 1, type="draw", source="deck").rule == "turn"
    act(game, state, 1, type="play", value=4, count=1)
    assert refusal(game, state, 1, type="play", value=5, count=1).rule == "turn"


def test_a_set_the_hand_cannot_hold_cites_the_play(game):
    state = new(game)
    seat(state, 1)["hand"] = 2
    assert refusal(game, state, 1, type="play", value=4, count=3).rule == "play"
    state["seen"]["6"] = 12
    assert refusal(game, state, 1, type="play", value=6, count=2).rule == "play"


def test_an_empty_deck_cites_the_draw(game):
    state = new(game)
    act(game, state, 1, type="play", value=4, count=1)
    seat(state, 1)["hand"] += state["deck"]
    state["deck"] = 0
    assert refusal(game, state, 1, type="draw", source="deck").rule == "draw"


# -- why not -------------------------------------------------------------------------------
def test_only_the_player_whose_turn_it_is_gets_reasons(game):
    state = new(game)
    assert game.why_not(state, 2) == [] and game.why_not(state, None) == []
    state["finished"] = True
    assert game.why_not(state, 1) == []


def test_the_first_turn_says_why_there_is_no_bank_step_and_nothing_to_beat(game):
    assert reasons(game, new(game), 1) == {
        "There is no banking step to tap: the app banks your display as your turn begins.":
            "bank",
        "No one else shows a set: whatever you play now beats nothing.": "beating",
    }


@pytest.mark.parametrize(("hand", "line"), [
    (1, "You hold only one card: you can play a single, no pair or trio."),
    (2, "You hold only two cards: a trio needs three of a kind."),
])
def test_a_short_hand_says_which_sizes_it_cannot_hold(game, hand, line):
    state = new(game)
    seat(state, 1)["hand"] = hand
    assert reasons(game, state, 1)[line] == "play"
    seat(state, 1)["hand"] = 3
    assert line not in reasons(game, state, 1)


def test_a_value_used_up_says_which_sets_of_it_cannot_be_in_a_hand(game):
    state = new(game)
    state["seen"].update({"2": 13, "5": 12, "6": 11, "7": 10})
    lines = reasons(game, state, 1)
    assert lines["No 2s are left to play: every one is displayed, banked or out of the game."] \
        == "play"
    assert lines["Only one 5 can still be in a hand: no pair or trio of 5s."] == "play"
    assert lines["Only two 6s can still be in a hand: no trio of 6s."] == "play"
    assert not any("7" in line for line in lines)  # three 7s can still be in a hand


def test_a_value_left_for_as_many_cards_as_the_hand_holds_is_not_a_reason(game):
    state = new(game)
    seat(state, 1)["hand"] = 2
    state["seen"]["6"] = 11  # two 6s are left: a pair is still possible
    assert not any("6" in line for line in reasons(game, state, 1))


def test_a_display_of_1s_can_never_be_beaten(game):
    state = new(game)
    seat(state, 2)["display"] = {"value": 1, "count": 2}
    seat(state, 3)["display"] = {"value": 4, "count": 2}
    lines = reasons(game, state, 1)
    assert lines["No one can beat {name:2}'s pair of 1s: no value is lower than 1."] \
        == "beating"
    assert not any("{name:3}" in line for line in lines)  # a pair of 1s to 3s beats it


def test_a_display_whose_beaters_are_used_up_is_out_of_reach(game):
    state = new(game)
    seat(state, 2)["display"] = {"value": 3, "count": 1}
    seat(state, 3)["display"] = {"value": 5, "count": 1}
    state["seen"].update({"3": 13, "4": 13})  # only a 3 or a 4 beats the 5 behind the 3
    lines = reasons(game, state, 1)
    assert lines["No set you can play beats {name:3}'s single 5: the values that would "
                 "beat it are used up."] == "beating"
    assert not any("{name:2}" in line for line in lines)


def test_a_display_larger_than_the_hand_is_told_by_the_hand_alone(game):
    state = new(game)
    seat(state, 1)["hand"] = 2
    seat(state, 2)["display"] = {"value": 1, "count": 3}
    lines = reasons(game, state, 1)
    assert "You hold only two cards: a trio needs three of a kind." in lines
    assert not any("{name:2}" in line for line in lines)


def test_the_draw_step_says_which_source_is_empty(game):
    state = new(game)
    act(game, state, 1, type="play", value=4, count=1)
    assert reasons(game, state, 1) == {}
    seat(state, 1)["hand"] += state["deck"]
    state["deck"] = 0
    assert reasons(game, state, 1) == {"The deck is empty.": "draw"}
    assert [action["source"] for action in game.actions(state, 1)] == [["market"]]


def test_with_nothing_left_to_draw_the_play_ends_the_turn(game):
    state = new(game)
    seat(state, 2)["hand"] += state["deck"] + state["market"]
    state["deck"] = state["market"] = 0
    assert reasons(game, state, 1)["Nothing is left to draw: your turn ends with your play."] \
        == "draw"
