"""Big Top engine, deals from start to end: the end of a deal and its scores, equal totals
sharing a place, who deals and how many deals (or, in Fan Tan, hands) a game has, Fan
Tan's peanuts, pot and broke player, and seeded random games (Big Top and Fan Tan) that
end and add up."""
from __future__ import annotations

import copy
import random
import re

import pytest
from pydantic import ValidationError

from companion.games.big_top import DECK
from tests.support.big_top_engine import (GAME, accounted, act, arranged, deal_cards, enter,
                                          options, play_random_game, random_choice, refused, seat)


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


# -- seeded random games ---------------------------------------------------------------
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
