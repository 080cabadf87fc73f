"""Big Top engine, the play of a deal: the rulebook's examples (of play, and of the end of
play and its scoring), called cards shifting down as a turn starts, what a player must, may
and may not play, call or pass (and only in their turn), what a play earns from the
others' called cards, and the scoring token's place on the track."""
from __future__ import annotations

import random

import pytest

from companion.games.big_top import DECK, shift_down, token_position
from companion.games.engine import NotYourTurn
from tests.support.big_top_engine import (GAME, accounted, act, arranged, enter, options, refused,
                                          seat)


# -- the rulebook's example of play ----------------------------------------------------
ALF, HENRY, CHARLES, JOHN, OTTO = 1, 2, 3, 4, 5
EXAMPLE_PLAYERS = [ALF, HENRY, CHARLES, JOHN, OTTO]  # clockwise; Alf deals
ALF_HAND = ["clowns-P", "clowns-L1", "sideshow-L1", "sideshow-L5", "sideshow-D2",
            "sideshow-D3", "performers-D2", "performers-D4", "performers-L5", "animals-D6"]
ALF_RECEIPTS = {"clowns": 10, "sideshow": 7, "performers": 5, "animals": 3}


def example_hands() -> dict[int, list[str]]:
    """Alf's printed hand; the others hold the cards the example has them play, and
    the rest of the deck is shared out (52 cards: Henry and Charles get 11)."""
    hands = {ALF: list(ALF_HAND), HENRY: ["sideshow-P", "animals-P", "animals-D2"],
             CHARLES: ["performers-L1", "animals-D1"], JOHN: ["sideshow-D4", "performers-D3"],
             OTTO: ["sideshow-D1", "performers-P"]}
    sizes = {HENRY: 11, CHARLES: 11, JOHN: 10, OTTO: 10}
    placed = {card for cards in hands.values() for card in cards}
    rest = [card for card in DECK if card not in placed]
    for player, size in sizes.items():
        while len(hands[player]) < size:
            hands[player].append(rest.pop())
    assert not rest
    return hands


def test_example_of_play_rounds_one_and_two():
    state = GAME.setup(EXAMPLE_PLAYERS, options(5), random.Random(0))
    enter(state, example_hands(), {ALF: ALF_RECEIPTS})
    assert GAME.waiting_for(state) == [HENRY]  # left of the dealer

    # Round 1
    act(state, HENRY, type="play", card="sideshow-P")
    act(state, CHARLES, type="call", card="performers-L1")
    assert seat(state, CHARLES)["chart"]["3"] == "performers-L1"
    act(state, JOHN, type="call", card="sideshow-D4")
    notes = act(state, OTTO, type="play", card="sideshow-D1")
    assert notes[0].text == ("{name:5} played the dark 1 Sideshow: +$3 from {name:4}'s "
                             "called dark 4 Sideshow.")
    act(state, ALF, type="play", card="sideshow-D2")
    assert seat(state, OTTO)["track"] == 3
    assert seat(state, ALF)["track"] == 3

    # Round 2
    act(state, HENRY, type="play", card="animals-P")
    assert seat(state, CHARLES)["chart"] == {"3": None, "2": "performers-L1", "1": None,
                                             "0": None}
    act(state, CHARLES, type="play", card="animals-D1")
    assert seat(state, JOHN)["chart"]["2"] == "sideshow-D4"
    act(state, JOHN, type="call", card="performers-D3")
    act(state, OTTO, type="play", card="performers-P")
    assert seat(state, OTTO)["track"] == 3 + 5
    assert GAME.view(state, None)[0]["earnings"][-1] == {
        "player": OTTO, "card": "performers-P", "amount": 5,
        "from": [{"player": CHARLES, "card": "performers-L1", "value": 2},
                 {"player": JOHN, "card": "performers-D3", "value": 3}]}
    act(state, ALF, type="play", card="sideshow-D3")
    assert seat(state, ALF)["track"] == 3 + 2

    # Round 3: Charles and John must play their called cards.
    act(state, HENRY, type="play", card="animals-D2")
    assert GAME.actions(state, CHARLES) == [{"type": "play_called", "card": ["performers-L1"]}]
    act(state, CHARLES, type="play_called", card="performers-L1")
    assert GAME.actions(state, JOHN) == [{"type": "play_called", "card": ["sideshow-D4"]}]
    act(state, JOHN, type="play_called", card="sideshow-D4")
    assert seat(state, JOHN)["chart"] == {"3": None, "2": "performers-D3", "1": None,
                                          "0": None}
    assert [seat(state, p)["track"] for p in (CHARLES, JOHN)] == [0, 0]
    assert accounted(state)


def test_example_end_of_play_alf_scores_20_in_receipts_plus_his_track():
    state = arranged(
        EXAMPLE_PLAYERS, current=OTTO,
        piles={"clowns": (True, 6, 5), "sideshow": (True, 6, 6), "animals": (True, 4, 6),
               "performers": (True, 3, 6)},
        hands={OTTO: ["clowns-D6"], ALF: [], CHARLES: ["animals-L5"],
               JOHN: ["animals-L6"]},
        charts={ALF: {"0": "performers-L5"}},
        tracks={ALF: 13, OTTO: 17}, receipts={ALF: ALF_RECEIPTS}, rest=HENRY)
    notes = act(state, OTTO, type="play", card="clowns-D6")

    assert any(note.reveal for note in notes)
    scores = {s["player"]: s for s in state["deal_results"][0]["seats"]}
    assert scores[ALF]["completed"] == {"clowns": 10, "sideshow": 7, "animals": 3}
    assert (scores[ALF]["receipts"], scores[ALF]["track"], scores[ALF]["score"]) == (20, 13, 33)
    assert scores[OTTO]["went_out"] and scores[OTTO]["score"] == 25 + 17
    assert seat(state, ALF)["total"] == 33


# -- the start of a turn ---------------------------------------------------------------
@pytest.mark.parametrize("before, after", [
    ({"3": "clowns-L3", "2": None, "1": None, "0": None},
     {"3": None, "2": "clowns-L3", "1": None, "0": None}),
    ({"3": "clowns-L3", "2": None, "1": "animals-D2", "0": None},
     {"3": None, "2": "clowns-L3", "1": None, "0": "animals-D2"}),
    # lowest space first: the $2 card makes room for the $3 card
    ({"3": "clowns-L3", "2": "animals-D2", "1": None, "0": "sideshow-L4"},
     {"3": None, "2": "clowns-L3", "1": "animals-D2", "0": "sideshow-L4"}),
    ({"3": "clowns-L3", "2": "animals-D2", "1": "sideshow-L4", "0": "performers-D5"},
     {"3": "clowns-L3", "2": "animals-D2", "1": "sideshow-L4", "0": "performers-D5"}),
    ({"3": None, "2": None, "1": None, "0": "performers-D5"},
     {"3": None, "2": None, "1": None, "0": "performers-D5"}),
])
def test_called_cards_shift_down_into_empty_spaces_only(before, after):
    chart = dict(before)
    shift_down(chart)
    assert chart == after


def test_called_cards_shift_when_the_turn_starts():
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P", "clowns-D4"]},
                     charts={2: {"3": "sideshow-L3", "1": "animals-D2"}})
    act(state, 1, type="play", card="clowns-P")
    assert seat(state, 2)["chart"] == {"3": None, "2": "sideshow-L3", "1": None,
                                       "0": "animals-D2"}


# -- obligations -----------------------------------------------------------------------
def test_a_playable_called_card_must_be_played_and_earns_nothing():
    state = arranged([1, 2, 3], current=2, piles={"clowns": (True, 1, 0)},
                     hands={2: ["clowns-D1", "sideshow-L4"]},
                     charts={2: {"2": "clowns-L2", "1": "animals-D3"},
                             3: {"3": "clowns-L4"}})
    assert GAME.actions(state, 2) == [{"type": "play_called", "card": ["clowns-L2"]}]
    refused(state, 2, {"type": "play", "card": "clowns-D1"})
    refused(state, 2, {"type": "call", "card": "sideshow-L4"})
    refused(state, 2, {"type": "pass"})
    refused(state, 2, {"type": "play_called", "card": "animals-D3"})

    act(state, 2, type="play_called", card="clowns-L2")
    assert seat(state, 2)["track"] == 0  # though player 3 has called a light Clown
    assert state["piles"]["clowns"]["light"] == 2
    assert GAME.waiting_for(state) == [3]


def test_with_several_playable_called_cards_the_player_picks():
    state = arranged([1, 2, 3], current=2, piles={"clowns": (True, 1, 0),
                                                  "animals": (True, 0, 2)},
                     hands={2: ["sideshow-L4"]},
                     charts={2: {"2": "clowns-L2", "1": "animals-D3"}})
    assert GAME.actions(state, 2) == [{"type": "play_called",
                                       "card": ["clowns-L2", "animals-D3"]}]
    act(state, 2, type="play_called", card="animals-D3")
    assert seat(state, 2)["chart"]["2"] == "clowns-L2"


def test_calling_restrictions():
    state = arranged([1, 2, 3], current=1, piles={"sideshow": (True, 0, 0)},
                     hands={1: ["clowns-P", "clowns-L3", "sideshow-L1", "sideshow-D2",
                                "animals-L5", "performers-D2"]},
                     charts={1: {"2": "animals-D4"}})
    assert GAME.actions(state, 1) == [
        {"type": "play", "card": ["clowns-P", "sideshow-L1"]},
        {"type": "call", "card": ["clowns-L3", "sideshow-D2", "performers-D2"]}]
    assert "Poster" in refused(state, 1, {"type": "call", "card": "clowns-P"})
    assert "can play" in refused(state, 1, {"type": "call", "card": "sideshow-L1"})
    assert "Animal card" in refused(state, 1, {"type": "call", "card": "animals-L5"})
    assert "do not hold" in refused(state, 1, {"type": "call", "card": "clowns-L4"})
    act(state, 1, type="call", card="sideshow-D2")
    assert seat(state, 1)["chart"]["3"] == "sideshow-D2"


def test_no_call_with_a_full_chart():
    full = {"3": "clowns-L3", "2": "sideshow-L2", "1": "animals-L6", "0": "performers-L4"}
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-D4", "sideshow-D6"]},
                     charts={1: full})
    assert "$3 space is taken" in refused(state, 1, {"type": "call", "card": "clowns-D4"})
    assert GAME.actions(state, 1) == [{"type": "pass"}]
    act(state, 1, type="pass")
    assert GAME.waiting_for(state) == [2]


def test_pass_only_when_nothing_can_be_played_or_called():
    # Only a call is possible: passing is refused.
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-L3"]})
    assert GAME.actions(state, 1) == [{"type": "call", "card": ["clowns-L3"]}]
    assert "cannot pass" in refused(state, 1, {"type": "pass"})
    # Only a play is possible: passing is refused.
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P"]},
                     charts={1: {"3": "sideshow-L3"}})
    assert GAME.actions(state, 1) == [{"type": "play", "card": ["clowns-P"]}]
    refused(state, 1, {"type": "pass"})
    # An empty hand and an unplayable called card: the player must pass.
    state = arranged([1, 2, 3], current=1, hands={1: []}, charts={1: {"0": "clowns-L3"}})
    assert GAME.actions(state, 1) == [{"type": "pass"}]
    act(state, 1, type="pass")
    assert GAME.waiting_for(state) == [2]


def test_illegal_plays_are_refused():
    state = arranged([1, 2, 3], current=1, piles={"clowns": (True, 2, 0)},
                     hands={1: ["clowns-L4", "clowns-D2", "sideshow-L1", "clowns-L3"]})
    assert "light 3 Clown" in refused(state, 1, {"type": "play", "card": "clowns-L4"})
    assert "dark 1 Clown" in refused(state, 1, {"type": "play", "card": "clowns-D2"})
    assert "Sideshow Poster" in refused(state, 1, {"type": "play", "card": "sideshow-L1"})
    refused(state, 1, {"type": "play", "card": "animals-P"})  # held by someone else
    refused(state, 1, {"type": "play_called", "card": "clowns-L3"})  # not on the chart
    refused(state, 1, {"type": "play", "card": "clowns-L9"})
    act(state, 1, type="play", card="clowns-L3")


def test_acting_out_of_turn_is_refused():
    state = arranged([1, 2, 3], current=2, hands={1: ["clowns-P"], 2: ["sideshow-P"]})
    refused(state, 1, {"type": "play", "card": "clowns-P"}, NotYourTurn)
    refused(state, 3, {"type": "pass"}, NotYourTurn)
    refused(state, None, {"type": "play", "card": "sideshow-P"}, NotYourTurn)
    assert GAME.actions(state, 1) == [] and GAME.actions(state, None) == []


# -- earnings --------------------------------------------------------------------------
def test_a_play_earns_from_opponents_called_cards_of_its_suit_and_shade():
    state = arranged([1, 2, 3, 4], current=1, piles={"sideshow": (True, 1, 0)},
                     hands={1: ["sideshow-L2"]},
                     charts={1: {"1": "sideshow-L6"}, 2: {"3": "sideshow-L4"},
                             3: {"1": "sideshow-L5"}, 4: {"2": "sideshow-D3"}})
    notes = act(state, 1, type="play", card="sideshow-L2")
    assert seat(state, 1)["track"] == 3 + 1  # not its own L6, not the dark 3
    assert notes[0].text == ("{name:1} played the light 2 Sideshow: +$4 from {name:2}'s "
                             "called light 4 Sideshow ($3) and {name:3}'s called light 5 "
                             "Sideshow ($1).")
    assert [seat(state, p)["track"] for p in (2, 3, 4)] == [0, 0, 0]


def test_a_poster_earns_from_both_shades_and_zero_from_the_zero_space():
    state = arranged([1, 2, 3, 4], current=1, hands={1: ["performers-P", "clowns-L6"]},
                     charts={2: {"3": "performers-L1"}, 3: {"2": "performers-D1"},
                             4: {"0": "performers-L3", "3": "animals-D2"}})
    act(state, 1, type="play", card="performers-P")
    assert seat(state, 1)["track"] == 3 + 2
    assert [source["player"] for source in state["earnings"][-1]["from"]] == [2, 3]


@pytest.mark.parametrize("track, text", [
    (0, "beside the chart ($0)"), (7, "face down on 7"), (20, "face down on 20"),
    (23, "+$20 side up on 3"), (40, "+$20 side up on 20")])
def test_scoring_token_position(track, text):
    assert token_position(track)["text"] == text
