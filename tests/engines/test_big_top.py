"""Big Top engine: the rulebook's example of play, each rule, hand entry, refusals,
seeded random games (Big Top and Fan Tan) and secrecy."""
from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter

import pytest
from pydantic import ValidationError

from companion.games.big_top import (DECK, RECEIPT_VALUES, SUIT_TITLES, SUITS, BigTop,
                                     card_label, chart_cards, pile_cards, shift_down,
                                     token_position)
from companion.games.engine import IllegalAction, NotYourTurn

GAME = BigTop()
PLAIN_RECEIPTS = {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3}


# -- helpers ---------------------------------------------------------------------------
def act(state, player, **data):
    return GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def refused(state, player, data, error=IllegalAction) -> str:
    """The action is refused with `error` and the state is left exactly as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as info:
        act(state, player, **data)
    assert type(info.value) is error
    assert state == before
    return info.value.message


def options(players: int, **chosen):
    return GAME.options_for(chosen, players)


def seat(state, player) -> dict:
    return next(s for s in GAME.view(state, None)[0]["seats"] if s["player"] == player)


def hand_of(state, player) -> list[str]:
    return GAME.view(state, player)[1]["hand"]


def accounted(state) -> bool:
    """Hands, charts and piles hold each of the 52 cards exactly once."""
    cards = pile_cards(state["piles"])
    for s in state["seats"]:
        cards += s["hand"] + chart_cards(s["chart"])
    return Counter(cards) == Counter(DECK)


def deal_cards(state, rng: random.Random) -> dict[int, list[str]]:
    """Shuffle and deal one card at a time, starting left of the dealer."""
    public = GAME.view(state, None)[0]
    players = [s["player"] for s in public["seats"]]
    first = players.index(public["dealer"]) + 1
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {p: [] for p in players}
    for index, card in enumerate(deck):
        hands[players[(first + index) % len(players)]].append(card)
    return hands


def enter(state, hands: dict, receipts: dict | None = None) -> None:
    for player, cards in hands.items():
        act(state, player, type="hand", cards=cards)
    if GAME.view(state, None)[0]["step"] == "receipts":
        for player in hands:
            act(state, player, type="receipts",
                receipts=(receipts or {}).get(player, PLAIN_RECEIPTS))


def arranged(players, current, hands=None, charts=None, piles=None, tracks=None,
             receipts=None, rest=None, variant="big-top"):
    """A state in play built to order. `piles` maps a suit to (poster, light, dark);
    the cards placed nowhere else go to the hand of `rest` (default: the last player)."""
    state = GAME.setup(players, options(len(players), variant=variant), random.Random(0))
    state["step"] = "play"
    state["current"] = players.index(current)
    for suit, (poster, light, dark) in (piles or {}).items():
        state["piles"][suit] = {"poster": poster, "light": light, "dark": dark}
    placed = pile_cards(state["piles"])
    for s in state["seats"]:
        player = s["player"]
        s["hand"] = list((hands or {}).get(player, []))
        s["chart"].update((charts or {}).get(player, {}))
        s["track"] = (tracks or {}).get(player, 0)
        if variant == "big-top":
            s["receipts"] = dict((receipts or {}).get(player, PLAIN_RECEIPTS))
        placed += s["hand"] + chart_cards(s["chart"])
    assert max(Counter(placed).values(), default=1) == 1, "a card is placed twice"
    leftover = [card for card in DECK if card not in placed]
    rest_seat = next(s for s in state["seats"] if s["player"] == (rest or players[-1]))
    rest_seat["hand"] += leftover
    assert accounted(state)
    return state


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


# -- the end of a deal -----------------------------------------------------------------
def player_3_about_to_go_out() -> dict:
    """Player 3 holds one card, and goes out before player 4 and the dealer (player 1)
    have played."""
    return arranged(
        [1, 2, 3, 4], current=3, piles={"clowns": (True, 6, 5), "sideshow": (True, 3, 0)},
        hands={3: ["clowns-D6"], 2: ["sideshow-L4", "sideshow-L6"], 1: ["animals-L1"]},
        charts={2: {"2": "performers-D4"}, 1: {"0": "sideshow-L5"}},
        tracks={1: 4, 2: 6, 3: 1},
        receipts={1: {"clowns": 3, "sideshow": 5, "animals": 7, "performers": 10},
                  2: {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3}})


def test_the_deal_ends_mid_round_and_scores_completed_suits():
    # Player 3 goes out before player 4 and the dealer (player 1) have played.
    state = player_3_about_to_go_out()
    notes = act(state, 3, type="play", card="clowns-D6")

    public = GAME.view(state, None)[0]
    scores = {s["player"]: s["score"] for s in public["deal_results"][0]["seats"]}
    # 1 holds animals and sideshow: clowns 3 + performers 10, never held, count.
    # 2 holds sideshow and performers: clowns 10 + animals 5.
    # 4 holds the rest of the deck: every suit but the clowns, all played out.
    assert scores == {1: 3 + 10 + 4, 2: 10 + 5 + 6, 3: 25 + 1, 4: 10}
    assert public["deal_results"][0]["out"] == 3
    assert [s["total"] for s in public["seats"]] == [17, 21, 26, 10]
    assert (public["deal"], public["step"], public["dealer"]) == (2, "hands", 2)
    assert [s["track"] for s in public["seats"]] == [0, 0, 0, 0]
    assert GAME.waiting_for(state) == [1, 2, 3, 4]
    assert [note.reveal for note in notes] == [False, True, False]


def test_playing_the_last_called_card_ends_the_deal():
    state = arranged([1, 2, 3], current=2, piles={"clowns": (True, 2, 0)},
                     hands={2: []}, charts={2: {"0": "clowns-L3"}})
    act(state, 2, type="play_called", card="clowns-L3")
    assert state["deal_results"][0]["out"] == 2
    assert seat(state, 2)["total"] == 25


def test_equal_totals_after_the_last_deal_share_the_place():
    # The same deal as above, made the last one: 2 and 4 end level on 21 and share second;
    # 3 is first alone, 1 is fourth (competition ranking).
    state = player_3_about_to_go_out()
    state["deal"] = state["deals"]
    next(s for s in state["seats"] if s["player"] == 4)["total"] = 11
    act(state, 3, type="play", card="clowns-D6")
    result = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (3, 1, 26), (2, 2, 21), (4, 2, 21), (1, 4, 17)]
    assert (result.score_label, result.ranked) == ("$", True)
    assert result.explanation == "{name:3} wins with $26, the most after 4 deals."


def play_deal(state, rng):
    """Enter a random deal and play random legal actions until the deal is over."""
    deal = state["deal"]
    hands = deal_cards(state, rng)
    enter(state, hands)
    first = GAME.waiting_for(state)
    while state["deal"] == deal and state["step"] != "over":
        player = GAME.waiting_for(state)[0]
        act(state, player, **random_choice(GAME.actions(state, player), rng, hands[player]))
    return first


@pytest.mark.parametrize("count, deals", [(3, 6), (4, 4), (5, 5), (6, 6)])
def test_each_player_deals_once_twice_with_three(count, deals):
    players = [10 * n for n in range(1, count + 1)]
    state = GAME.setup(players, GAME.default_options(count), random.Random(1))
    rng = random.Random(count)
    dealers, leaders = [], []
    while state["step"] != "over":
        dealers.append(GAME.view(state, None)[0]["dealer"])
        leaders.append(play_deal(state, rng))
    clockwise = players * 3
    assert dealers == clockwise[:deals]
    assert leaders == [[clockwise[i + 1]] for i in range(deals)]
    assert GAME.result(state) is not None


def test_host_can_set_the_number_of_deals():
    assert options(3).deals_per_player == 2
    assert options(4).deals_per_player == 1
    assert options(3, deals_per_player=1).deals_per_player == 1
    state = GAME.setup([1, 2, 3, 4], options(4, deals_per_player=3), random.Random(0))
    assert GAME.view(state, None)[0]["deals"] == 12
    with pytest.raises(ValidationError):
        options(4, deals_per_player=5)


def test_fan_tan_host_sets_the_number_of_hands_and_the_dealer_rotates_clockwise():
    players = [10, 20, 30]
    state = GAME.setup(players, options(3, variant="fan-tan", hands=5, peanuts=100),
                       random.Random(2))
    assert GAME.view(state, None)[0]["deals"] == 5
    rng = random.Random(7)
    dealers, leaders = [], []
    while state["step"] != "over":
        dealers.append(GAME.view(state, None)[0]["dealer"])
        leaders.append(play_deal(state, rng))
    public = GAME.view(state, None)[0]
    assert public["broke"] is None  # 100 peanuts each last 5 hands
    assert len(public["deal_results"]) == 5
    assert dealers == [10, 20, 30, 10, 20]
    assert leaders == [[20], [30], [10], [20], [30]]
    assert [r["dealer"] for r in public["deal_results"]] == dealers
    assert sum(s["peanuts"] for s in public["seats"]) == 300
    assert "after 5 hands" in GAME.result(state).explanation


def test_fan_tan_with_set_hands_still_ends_when_a_player_goes_broke():
    state = play_random_game([1, 2, 3], {"variant": "fan-tan", "hands": 5, "peanuts": 1}, 3)
    public = GAME.view(state, None)[0]
    assert public["step"] == "over" and public["deals"] == 5
    assert public["broke"] is not None and seat(state, public["broke"])["peanuts"] == 0
    assert len(public["deal_results"]) < 5
    assert "went broke" in GAME.result(state).explanation


def test_fan_tan_hands_announce_their_count():
    chosen = options(3, variant="fan-tan", hands=4)
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P"]}, variant="fan-tan")
    state["deals"] = GAME.setup([1, 2, 3], chosen, random.Random(0))["deals"]
    notes = act(state, 1, type="play", card="clowns-P")
    # One word for it, as on the screen: the rulebook's Fan Tan "ends the hand".
    assert notes[-1].text == "Hand 2 of 4: {name:2} deals. Everyone, enter your new hand."


@pytest.mark.parametrize("variant, word", [("fan-tan", "hand"), ("big-top", "deal")])
def test_each_variant_names_its_rounds_with_one_word(variant, word):
    """Fan Tan's rounds are hands and Big Top's deals, in the log as on the screen ("Hand 2
    of 3"). Fan Tan never says "deal" for one ("X deals" is the verb); Big Top's "hand" is
    a player's cards."""
    lines, playing = [], []

    def listen(state, player, notes):
        lines.extend(note.text for note in notes)
        if state["step"] == "play" and not playing:
            playing.append(copy.deepcopy(state))

    play_random_game([1, 2, 3], {"variant": variant, "peanuts": 100, "hands": 2}, 5,
                     check=listen)
    numbered = [line for line in lines if re.match(r"\w+ \d of \d:", line)]
    assert numbered and all(line.startswith(word.capitalize()) for line in numbered), numbered
    assert f"That was the last {word}: the game is over." in lines
    if variant == "fan-tan":
        assert not re.search(r"\bdeal\b", " ".join(lines), re.IGNORECASE), lines
    refusal = refused(playing[0], 1, {"type": "hand", "cards": ["clowns-P"]})
    assert f"at the start of a {word}; this {word} is already under way" in refusal


@pytest.mark.parametrize("count, per_player, deals",
                         [(3, None, 6), (4, None, 4), (5, None, 5), (6, None, 6),
                          (4, 3, 12), (3, 1, 3)])
def test_fan_tan_hands_zero_keeps_players_times_deals_per_player(count, per_player, deals):
    chosen = {"variant": "fan-tan"}
    if per_player is not None:
        chosen["deals_per_player"] = per_player
    assert options(count, **chosen).hands == 0
    for extra in ({}, {"hands": 0}):
        state = GAME.setup(list(range(1, count + 1)), options(count, **chosen, **extra),
                           random.Random(0))
        assert GAME.view(state, None)[0]["deals"] == deals


@pytest.mark.parametrize("count, hands, deals", [(3, 5, 6), (4, 7, 4), (4, 50, 4)])
def test_hands_is_ignored_in_big_top_proper(count, hands, deals):
    players = list(range(1, count + 1))
    state = GAME.setup(players, options(count, hands=hands), random.Random(0))
    assert GAME.view(state, None)[0]["deals"] == deals
    if hands == 7:  # play it through: every player deals once, as without `hands`
        rng = random.Random(4)
        dealers = []
        while state["step"] != "over":
            dealers.append(GAME.view(state, None)[0]["dealer"])
            play_deal(state, rng)
        assert dealers == players
        assert len(state["deal_results"]) == deals


def test_the_hands_option_is_bounded():
    assert options(3, variant="fan-tan", hands=50).hands == 50
    assert options(3, variant="fan-tan", hands="12").hands == 12  # as a form posts it
    for wrong in (51, -1, 100):
        with pytest.raises(ValidationError):
            options(3, variant="fan-tan", hands=wrong)
    schema = GAME.Options.model_json_schema()["properties"]["hands"]
    assert (schema["title"], schema["minimum"], schema["maximum"], schema["default"]) == (
        "Hands (Fan Tan)", 0, 50, 0)
    assert "Fan Tan" in schema["description"] and "0 means" in schema["description"]


# -- hand entry and receipts -----------------------------------------------------------
def test_hand_entry_can_be_fixed_before_every_hand_is_in():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(5))
    notes = act(state, 1, type="hand", cards=hands[1][:-1])
    assert notes[0].for_viewer(1) == "You entered your hand (16 cards)."
    assert notes[0].for_viewer(2) == "{name:1} entered their hand."
    assert GAME.waiting_for(state) == [2, 3]
    assert GAME.actions(state, 1)[0]["type"] == "hand"  # a fix is still open
    act(state, 1, type="hand", cards=hands[1])
    assert hand_of(state, 1) == sorted(hands[1], key=DECK.index)
    act(state, 2, type="hand", cards=hands[2])
    act(state, 3, type="hand", cards=hands[3])
    assert GAME.view(state, None)[0]["step"] == "receipts"


def test_the_check_names_missing_cards_to_all_and_a_doubled_one_to_its_holders_only():
    """A missing card is in nobody's hand: everyone is told. A card entered twice is in
    the hand of one of the two who entered it: naming it to anyone else (another player,
    the host) would tell them who holds it, so only those two are told which it is."""
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(6))
    mine, theirs = hands[2][0], hands[3][0]
    act(state, 1, type="hand", cards=hands[1])
    act(state, 2, type="hand", cards=[theirs] + hands[2][1:])
    notes = act(state, 3, type="hand", cards=hands[3])

    public = GAME.view(state, None)[0]
    assert public["check"] == {"missing": [mine], "doubled_count": 1}
    assert public["step"] == "hands"
    assert GAME.waiting_for(state) == [1, 2, 3]
    assert all(GAME.actions(state, p)[0]["type"] == "hand" for p in (1, 2, 3))
    note = notes[-1]
    assert card_label(mine) in note.text and card_label(theirs) not in note.text
    assert "1 card was entered more than once" in note.text
    assert set(note.private) == {2, 3}
    for holder in (2, 3):
        assert card_label(theirs) in note.private[holder]
        assert card_label(mine) in note.private[holder]
        assert GAME.view(state, holder)[1]["doubled"] == [theirs]
    assert GAME.view(state, 1)[1]["doubled"] == []
    assert theirs not in json.dumps(GAME.view(state, 1)) + json.dumps(GAME.view(state, None))
    assert "{name:" not in note.text + "".join(note.private.values())

    act(state, 1, type="hand", cards=hands[1])  # a correct entry again: still off
    assert GAME.view(state, None)[0]["check"] == {"missing": [mine], "doubled_count": 1}
    act(state, 2, type="hand", cards=hands[2])
    public = GAME.view(state, None)[0]
    assert (public["check"], public["step"]) == (None, "receipts")


def test_a_card_entered_twice_fails_the_check_even_with_nothing_missing():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(4))
    extra = hands[3][0]
    act(state, 1, type="hand", cards=hands[1])
    act(state, 2, type="hand", cards=hands[2] + [extra])
    act(state, 3, type="hand", cards=hands[3])
    assert GAME.view(state, None)[0]["check"] == {"missing": [], "doubled_count": 1}
    assert GAME.view(state, 2)[1]["doubled"] == GAME.view(state, 3)[1]["doubled"] == [extra]
    assert GAME.waiting_for(state) == [1, 2, 3]


def test_hand_entry_refusals_leave_the_state_as_it_was():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(7))
    act(state, 1, type="hand", cards=hands[1])
    assert "clowns-L7" in refused(state, 2, {"type": "hand", "cards": ["clowns-L7"]})
    assert "more than once" in refused(
        state, 2, {"type": "hand", "cards": hands[2] + [hands[2][0]]})
    refused(state, 2, {"type": "hand", "cards": []})
    refused(state, None, {"type": "hand", "cards": hands[2]}, NotYourTurn)
    refused(state, 99, {"type": "hand", "cards": hands[2]}, NotYourTurn)
    refused(state, 2, {"type": "receipts", "receipts": PLAIN_RECEIPTS})
    refused(state, 2, {"type": "play", "card": hands[2][0]})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "hand", "cards": ["x" * 40]})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "hand", "cards": list(DECK) * 2})


def test_receipts_use_each_value_once_and_can_change_until_all_are_placed():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(8))
    for player, cards in hands.items():
        act(state, player, type="hand", cards=cards)
    twice = {"clowns": 10, "sideshow": 10, "animals": 5, "performers": 3}
    assert "exactly once" in refused(state, 1, {"type": "receipts", "receipts": twice})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "receipts", "receipts": {"clowns": 10, "sideshow": 7,
                                                            "animals": 5}})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "receipts", "receipts": {**PLAIN_RECEIPTS, "clowns": 4}})

    notes = act(state, 1, type="receipts", receipts=PLAIN_RECEIPTS)
    assert notes[0].for_viewer(2) == "{name:1} placed their gate receipts."
    assert "$10 on Clowns" in notes[0].for_viewer(1)
    changed = {"clowns": 3, "sideshow": 5, "animals": 7, "performers": 10}
    act(state, 1, type="receipts", receipts=changed)
    assert GAME.view(state, 1)[1]["receipts"] == changed
    assert GAME.waiting_for(state) == [2, 3]
    act(state, 2, type="receipts", receipts=PLAIN_RECEIPTS)
    act(state, 3, type="receipts", receipts=PLAIN_RECEIPTS)
    assert GAME.waiting_for(state) == [2]  # left of the first dealer, player 1
    refused(state, 1, {"type": "receipts", "receipts": PLAIN_RECEIPTS})
    refused(state, 1, {"type": "hand", "cards": hands[1]})


def test_acting_out_of_turn_is_refused():
    state = arranged([1, 2, 3], current=2, hands={1: ["clowns-P"], 2: ["sideshow-P"]})
    refused(state, 1, {"type": "play", "card": "clowns-P"}, NotYourTurn)
    refused(state, 3, {"type": "pass"}, NotYourTurn)
    refused(state, None, {"type": "play", "card": "sideshow-P"}, NotYourTurn)
    assert GAME.actions(state, 1) == [] and GAME.actions(state, None) == []


# -- Fan Tan ---------------------------------------------------------------------------
def test_fan_tan_has_no_receipts_no_calling_and_a_pass_costs_a_peanut():
    state = GAME.setup([1, 2, 3], options(3, variant="fan-tan", peanuts=5),
                       random.Random(0))
    hands = deal_cards(state, random.Random(9))
    for player, cards in hands.items():
        act(state, player, type="hand", cards=cards)
    public = GAME.view(state, None)[0]
    assert (public["step"], public["pot"]) == ("play", 0)

    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-L3", "sideshow-D1"],
                                                  2: ["clowns-P", "clowns-D2"]},
                     variant="fan-tan")
    assert GAME.actions(state, 1) == [{"type": "pass"}]
    refused(state, 1, {"type": "call", "card": "clowns-L3"})
    act(state, 1, type="pass")
    public = GAME.view(state, None)[0]
    assert (public["pot"], seat(state, 1)["peanuts"]) == (1, 24)
    assert GAME.actions(state, 2) == [{"type": "play", "card": ["clowns-P"]}]
    refused(state, 2, {"type": "pass"})


def test_fan_tan_first_out_takes_the_pot():
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P"]}, variant="fan-tan")
    state["pot"] = 4
    for s in state["seats"]:
        s["total"] -= 4 if s["player"] == 2 else 0
    act(state, 1, type="play", card="clowns-P")
    public = GAME.view(state, None)[0]
    assert [s["peanuts"] for s in public["seats"]] == [29, 21, 25]
    assert public["pot"] == 0 and public["deal_results"][0]["pot"] == 4


def test_fan_tan_a_broke_player_ends_the_game():
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-L3"]}, variant="fan-tan")
    state["seats"][0]["total"] = 1
    act(state, 1, type="pass")
    assert GAME.waiting_for(state) == []
    result = GAME.result(state)
    assert [s.player for s in result.standings if s.place == 1] == [2, 3]
    assert "went broke" in result.explanation
    assert result.score_label == "peanuts"


# -- seeded random games ---------------------------------------------------------------
def random_choice(templates, rng, dealt: list[str]) -> dict:
    """A random action among the templates; `dealt` is the player's real hand."""
    template = rng.choice(templates)
    kind = template["type"]
    if kind == "hand":
        return {"type": "hand", "cards": dealt}
    if kind == "receipts":
        values = list(RECEIPT_VALUES)
        rng.shuffle(values)
        return {"type": "receipts", "receipts": dict(zip(SUITS, values))}
    if kind == "pass":
        return {"type": "pass"}
    return {"type": kind, "card": rng.choice(template["card"])}


def play_random_game(players, chosen, seed, check=None):
    """Play a whole game with random legal actions; `check(state, player, notes)` runs
    after every action. Returns the final state."""
    rng = random.Random(seed)
    state = GAME.setup(players, options(len(players), **chosen), random.Random(seed))
    hands, dealt = {}, 0
    for _ in range(20000):
        waiting = GAME.waiting_for(state)
        if not waiting:
            return state
        if state["deal"] != dealt:
            hands, dealt = deal_cards(state, rng), state["deal"]
        player = rng.choice(waiting)
        templates = GAME.actions(state, player)
        assert templates, "a waited-for player has something to do"
        notes = act(state, player, **random_choice(templates, rng, hands[player]))
        if check:
            check(state, player, notes)
    raise AssertionError("the game never ended")


def probe_templates(state, player, rng):
    """A move that the templates do not list is refused; one they list is accepted."""
    offered = {(t["type"], c) for t in GAME.actions(state, player) for c in t.get("card", [])}
    kind, card = rng.choice(["play", "call", "play_called"]), rng.choice(DECK)
    trial = copy.deepcopy(state)
    if (kind, card) in offered:
        act(trial, player, type=kind, card=card)
    else:
        refused(trial, player, {"type": kind, "card": card})


@pytest.mark.parametrize("seed", range(100))
def test_random_big_top_games_end_and_add_up(seed):
    players = random.Random(seed).sample(range(1, 100), 3 + seed % 4)
    rng = random.Random(-seed)

    def check(state, player, notes):
        if state["step"] == "play":
            assert accounted(state)
            for s in state["seats"]:
                earned = [e["amount"] for e in state["earnings"] if e["player"] == s["player"]]
                assert s["track"] == sum(earned)
            if seed % 5 == 0:
                probe_templates(state, GAME.waiting_for(state)[0], rng)

    state = play_random_game(players, {}, seed, check)
    deals = len(players) * (2 if len(players) == 3 else 1)
    public = GAME.view(state, None)[0]
    assert len(public["deal_results"]) == deals
    for s in public["seats"]:
        scores = [r["score"] for deal in public["deal_results"] for r in deal["seats"]
                  if r["player"] == s["player"]]
        assert s["total"] == sum(scores)
    for deal in public["deal_results"]:
        assert sum(r["went_out"] for r in deal["seats"]) == 1
        assert all(r["score"] == r["receipts"] + r["track"] for r in deal["seats"])
    result = GAME.result(state)
    assert [s.score for s in result.standings] == sorted(
        (s["total"] for s in public["seats"]), reverse=True)
    assert result.standings[0].place == 1


@pytest.mark.parametrize("seed", range(60))
def test_random_fan_tan_games_conserve_peanuts(seed):
    players = random.Random(seed).sample(range(1, 100), 3 + seed % 4)
    peanuts = 2 + seed % 6
    start = peanuts * len(players)

    def check(state, player, notes):
        public = GAME.view(state, None)[0]
        assert sum(s["peanuts"] for s in public["seats"]) + public["pot"] == start
        if public["step"] == "play":
            assert accounted(state)

    state = play_random_game(players, {"variant": "fan-tan", "peanuts": peanuts}, seed,
                             check)
    public = GAME.view(state, None)[0]
    assert public["step"] == "over"
    if public["broke"] is None:
        assert len(public["deal_results"]) == public["deals"]
        assert public["pot"] == 0
    else:
        assert seat(state, public["broke"])["peanuts"] == 0
    assert GAME.result(state) is not None


def test_random_fan_tan_games_end_both_ways():
    endings = set()
    for seed in range(30):
        state = play_random_game([1, 2, 3, 4], {"variant": "fan-tan", "peanuts": 3 + seed},
                                 seed)
        endings.add(state["broke"] is None)
    assert endings == {True, False}


# -- secrecy ---------------------------------------------------------------------------
def receipt_shaped(value):
    """Every mapping in `value` that looks like (part of) a receipts placement."""
    if isinstance(value, dict):
        if value and set(value) <= set(SUITS) and all(v in RECEIPT_VALUES
                                                      for v in value.values()):
            yield value
        for item in value.values():
            yield from receipt_shaped(item)
    elif isinstance(value, list):
        for item in value:
            yield from receipt_shaped(item)


def assert_nothing_leaks(game, state, notes):
    """No view or note line for another viewer holds a player's hand cards; no public
    view holds a receipts placement (past deals' results set aside) and no line tells
    a viewer any placement but their own."""
    state = copy.deepcopy(state)
    state["deal_results"] = []  # the receipts they show were revealed at the deal's end
    secrets = game.secrets(state)
    players = [s["player"] for s in state["seats"]]
    for viewer in [None] + players:
        public, private = game.view(state, viewer)
        seen = json.dumps([public, private])
        lines = [note.for_viewer(viewer) for note in notes]
        for owner in players:
            if owner == viewer:
                continue
            hand = game.view(state, owner)[1]["hand"]
            if state["step"] != "over":  # at the end the game's record opens every entry
                assert set(hand) <= {s for s in secrets[owner] if isinstance(s, str)}
            assert not [card for card in hand if card in seen]
            assert not [card for card in hand for line in lines if card_label(card) in line]
        assert not list(receipt_shaped(public))
        own = (private or {}).get("receipts") or {}
        told = {(int(value), title) for line in lines
                for value, title in re.findall(r"\$(\d+) on (\w+)", line)}
        assert told <= {(value, SUIT_TITLES[suit]) for suit, value in own.items()}


@pytest.mark.parametrize("variant", ["big-top", "fan-tan"])
@pytest.mark.parametrize("seed", range(8))
def test_no_view_or_note_shows_another_players_hand_or_receipts(seed, variant):
    def check(state, player, notes):
        assert_nothing_leaks(GAME, state, notes)

    play_random_game([3, 1, 2, 4][: 3 + seed % 2], {"variant": variant}, seed, check)


class LeakyBigTop(BigTop):
    def view(self, state, viewer):
        public, private = super().view(state, viewer)
        first = state["seats"][0]
        return dict(public, first_hand=first["hand"], first_receipts=first["receipts"]), private


def test_the_secrecy_check_sees_a_leak():
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P"]})
    assert_nothing_leaks(GAME, state, [])
    with pytest.raises(AssertionError):
        assert_nothing_leaks(LeakyBigTop(), state, [])
    state["seats"][0]["hand"] = []  # the receipts alone leak too
    with pytest.raises(AssertionError):
        assert_nothing_leaks(LeakyBigTop(), state, [])


# -- Big Top, the Fan Tan variant ---------------------------------------------------------
# "If you cannot play you must put a peanut in the pot and pass. [...] Play a predetermined
# number of rounds, for a set time limit, or until one player goes 'broke'."

def fan_tan_until_broke(peanuts: int, seed: int) -> dict:
    state = GAME.setup([1, 2, 3], options(3, variant="fan-tan", peanuts=peanuts),
                          random.Random(seed))
    rng = random.Random(seed)
    while state["step"] != "over":
        play_deal(state, rng)
    return state


def test_fan_tan_broke_in_the_first_hand_says_so():
    state = fan_tan_until_broke(peanuts=2, seed=1)
    assert (state["broke"], state["deal_results"]) == (2, [])
    assert GAME.result(state).explanation == (
        "{name:3} wins with 2 peanuts, the most when {name:2} went broke in the first hand.")


def test_fan_tan_broke_later_counts_the_hand_in_play():
    state = fan_tan_until_broke(peanuts=3, seed=8)
    assert (state["broke"], len(state["deal_results"])) == (3, 3)
    assert GAME.result(state).explanation == (
        "{name:1} wins with 5 peanuts, the most when {name:3} went broke in hand 4.")
