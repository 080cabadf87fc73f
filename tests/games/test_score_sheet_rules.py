"""The score sheet's rules page as the engine gives it (companion/games/score_sheet/rules.py):
the section of the step a sheet is at, what to set out for a sheet's options, and the
section each refusal cites."""
from __future__ import annotations

import random

import pytest

from companion.games.engine import HOST, IllegalAction, NotYourTurn
from companion.games.score_sheet.rules import SECTIONS, team_seats
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, enter, new


def refusal(state, actor, error=IllegalAction, **data) -> IllegalAction:
    """The refusal of a move, the state left as it was."""
    before = repr(state)
    with pytest.raises(error) as caught:
        act(state, actor, **data)
    assert repr(state) == before
    return caught.value


def checklist(players, **options):
    options.setdefault("name", "Wingspan")
    return [str(line) for line in GAME.setup_checklist(GAME.options_for(options, players),
                                                       players)]


def test_the_sections_are_the_sheets_own_options_from_the_setup_to_the_end():
    assert GAME.rule_sections is SECTIONS
    assert list(SECTIONS) == ["setup", "turn", "entering", "secret", "corrections", "bids",
                              "teams", "zero-sum", "without-points", "end"]


def test_the_rules_open_at_the_step_the_sheet_is_at():
    state = new(rounds=2)
    assert GAME.rule_for(state) == "turn"
    enter(state, ANN, 1, Points=3)
    assert GAME.rule_for(state) == "turn"
    enter(state, BEN, 1, Points=4)
    enter(state, ANN, 2, Points=1)
    enter(state, BEN, 2, Points=1)
    assert state["finished"] and GAME.rule_for(state) == "end"


def test_a_sheet_of_bids_a_round_that_is_off_and_a_game_without_points_open_their_own():
    assert GAME.rule_for(new(bids="wizard")) == "bids"
    off = new(zero_sum=True)
    enter(off, ANN, 1, Points=5)
    assert GAME.rule_for(off) == "turn"  # not every entry is in: nothing is off yet
    enter(off, BEN, 1, Points=-3)
    assert GAME.rule_for(off) == "zero-sum"
    act(off, BEN, type="enter", round=1, scores={"Points": -5})
    assert GAME.rule_for(off) == "turn"
    assert GAME.rule_for(new(outcome="winners")) == "without-points"
    assert GAME.rule_for(new(outcome="cooperative")) == "without-points"


def test_a_plain_sheet_needs_its_games_box_and_says_who_enters():
    assert checklist(3) == [
        "Set out Wingspan as its own rules say: the sheet needs nothing of its own.",
        "Each player enters their own row on their phone; the host enters the rows of "
        "anyone without one."]
    assert checklist(2, entry="scorer")[-1] == ("Keep the host screen at hand: the host "
                                                "enters every row.")


def test_a_sheet_of_bids_says_who_deals_first_and_the_cards_of_each_round():
    lines = checklist(4, name="Wizard", bids="wizard", rounds=15, dealer=True)
    assert lines[1:4] == [
        "The first player in the seat order deals round 1; the deal passes to the next "
        "seat each round.",
        "Round 1 deals 1 card to each player, round 2 deals 2, and so on: each round one "
        "card more.",
        "The last round, round 15, deals 15 cards to each player."]
    one_round = checklist(5, name="Wizard", bids="oh_hell", rounds=1)
    assert "The last round, round 1, deals 1 card to each player." in one_round
    assert not any("deals round 1" in line for line in one_round)  # no dealer chosen
    open_ended = checklist(5, name="Skull King", bids="skull_king")
    assert not any(line.startswith("The last round") for line in open_ended)


def test_a_game_won_without_points_leaves_the_end_to_the_host():
    assert checklist(4, name="Codenames", outcome="winners") == [
        "Set out Codenames as its own rules say: the sheet needs nothing of its own.",
        "The host ends the game on the host screen: no one enters scores."]


def test_partners_sit_as_at_a_card_table():
    assert team_seats(2, 4) == [[1, 3], [2, 4]]
    assert team_seats(3, 7) == [[1, 4, 7], [2, 5], [3, 6]]


@pytest.mark.parametrize("options, actor, move, error, section", [
    ({}, ANN, {"type": "enter", "round": 2, "scores": {"Points": 1}}, IllegalAction, "turn"),
    ({}, ANN, {"type": "enter", "round": 1, "scores": {"Points": -1}}, IllegalAction,
     "entering"),
    ({}, ANN, {"type": "enter", "round": 1, "scores": {"Points": 1}, "player": BEN},
     NotYourTurn, "entering"),
    ({"entry": "scorer"}, ANN, {"type": "enter", "round": 1, "scores": {"Points": 1}},
     NotYourTurn, "entering"),
    ({}, CAT, {"type": "enter", "round": 1, "scores": {"Points": 1}}, NotYourTurn, "setup"),
    ({}, ANN, {"type": "correct", "player": ANN, "round": 1, "category": "Points",
               "value": 2}, IllegalAction, "corrections"),
    ({"rounds": 3}, HOST, {"type": "end"}, IllegalAction, "end"),
    ({}, ANN, {"type": "end"}, NotYourTurn, "end"),
    ({"bids": "wizard"}, ANN, {"type": "bid", "round": 1, "bid": 2}, IllegalAction, "bids"),
    ({"bids": "wizard"}, ANN, {"type": "enter", "round": 1, "tricks": 1}, IllegalAction,
     "bids"),
    ({}, ANN, {"type": "bid", "round": 1, "bid": 0}, IllegalAction, "bids"),
    ({"outcome": "winners"}, HOST, {"type": "finish", "winners": []}, IllegalAction,
     "without-points"),
    ({"outcome": "cooperative"}, ANN, {"type": "enter", "round": 1,
                                       "scores": {"Points": 1}}, IllegalAction,
     "without-points"),
])
def test_a_refusal_cites_the_section_a_player_reads_to_understand_it(options, actor, move,
                                                                    error, section):
    refused = refusal(new(**options), actor, error, **move)
    assert type(refused) is error and refused.rule == section


def test_a_finished_sheet_refuses_everything_citing_its_end():
    state = new(rounds=1)
    enter(state, ANN, 1, Points=2)
    enter(state, BEN, 1, Points=2)
    refused = refusal(state, ANN, type="enter", round=2, scores={"Points": 1})
    assert refused.rule == "end"


def test_the_platforms_refusal_of_too_many_players_cites_the_setup():
    with pytest.raises(IllegalAction) as caught:
        GAME.setup(list(range(1, 22)), GAME.options_for({"name": "Rummy"}, 21),
                   random.Random(0))
    assert caught.value.rule == "setup"
