"""Bids and tricks on the score sheet (companion/games/score_sheet/bids.py): Wizard, Oh Hell
and Skull King scored from each player's bid and tricks, the tricks that must add up, secret
bids, and the dealer of each round.

Law: the contract's `bids` and `dealer` options (Score sheet); docs/rulings.md (Score sheet).
"""
from __future__ import annotations

import pydantic
import pytest

from companion.games.engine import HOST, NotYourTurn
from companion.games.score_sheet.bids import round_score
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, new, refused


def bid(state, player, round_, value):
    return act(state, player, type="bid", round=round_, bid=value)


def tricks(state, player, round_, value, **more):
    return act(state, player, type="enter", round=round_, tricks=value, **more)


def play_round(state, round_, bids, taken):
    """Everyone's bid, then everyone's tricks, in seat order."""
    for player, value in zip(state["players"], bids):
        bid(state, player, round_, value)
    lines = []
    for player, value in zip(state["players"], taken):
        lines += tricks(state, player, round_, value)
    return lines


def row(state, player, round_):
    seat = next(s for s in GAME.view(state, None)[0]["seats"] if s["player"] == player)
    return seat["rows"][round_ - 1]


# -- the formulas ------------------------------------------------------------------------
def test_wizard_round_two_a_bid_met_scores_twenty_and_ten_a_trick():
    state = new(bids="wizard")
    play_round(state, 1, (0, 1), (0, 1))
    lines = play_round(state, 2, (2, 0), (2, 0))
    assert row(state, ANN, 2) == {"round": 2, "scores": {"Points": 40}, "total": 40,
                                  "bid": 2, "tricks": 2, "bonus": 0}
    assert row(state, BEN, 2)["total"] == 20
    assert str(lines[0].text) == "{name:1} took 2 tricks (bid 2): 40."
    assert "Round 2 closed" in str(lines[-1].text)


def test_wizard_a_missed_bid_loses_ten_a_trick_either_way():
    assert round_score("wizard", 5, 3, 1) == -20
    assert round_score("wizard", 5, 1, 4) == -30
    assert round_score("wizard", 5, 0, 1) == -10


def test_oh_hell_a_bid_met_scores_ten_and_a_point_a_trick_and_a_miss_nothing():
    assert round_score("oh_hell", 5, 3, 3) == 13
    assert round_score("oh_hell", 5, 3, 2) == 0
    state = new(bids="oh_hell", rounds=3)
    play_round(state, 1, (1, 0), (1, 0))
    play_round(state, 2, (0, 1), (0, 2))
    play_round(state, 3, (3, 1), (3, 0))
    assert [r["total"] for r in GAME.view(state, None)[0]["seats"][0]["rows"]] == [11, 10, 13]
    assert state["finished"] and GAME.scores(state) == {ANN: 34, BEN: 10}


def test_skull_king_round_five_a_zero_bid_made_scores_ten_a_card_and_a_miss_ten_a_trick():
    state = new(bids="skull_king")
    for number in range(1, 5):
        play_round(state, number, (0, 0), (0, number))
    bid(state, ANN, 5, 0)
    bid(state, BEN, 5, 2)
    tricks(state, ANN, 5, 0)
    tricks(state, BEN, 5, 3, bonus=0)
    assert row(state, ANN, 5)["total"] == 50
    assert row(state, BEN, 5)["total"] == -10


def test_skull_king_bonuses_count_only_with_the_bid_met():
    assert round_score("skull_king", 5, 2, 2, bonus=30) == 70
    assert round_score("skull_king", 5, 2, 3, bonus=30) == -10
    assert round_score("skull_king", 5, 0, 0, bonus=20) == 70
    assert round_score("skull_king", 5, 0, 1, bonus=20) == -50
    state = new(bids="skull_king")
    bid(state, ANN, 1, 1)
    bid(state, BEN, 1, 0)
    assert str(tricks(state, ANN, 1, 1, bonus=30)[0].text) == \
        "{name:1} took 1 trick (bid 1, bonus 30): 50."


def test_a_bid_of_zero_in_each_game():
    assert round_score("wizard", 3, 0, 0) == 20
    assert round_score("oh_hell", 3, 0, 0) == 10
    assert round_score("oh_hell", 3, 0, 1) == 0
    assert round_score("skull_king", 3, 0, 0) == 30
    assert round_score("skull_king", 3, 0, 2) == -30


def test_every_trick_to_one_player():
    state = new(players=(ANN, BEN, CAT), bids="wizard")
    play_round(state, 1, (1, 0, 0), (1, 0, 0))
    play_round(state, 2, (0, 0, 0), (0, 0, 2))
    play_round(state, 3, (3, 1, 0), (3, 0, 0))
    assert [row(state, p, 3)["total"] for p in (ANN, BEN, CAT)] == [50, -10, 20]
    assert [row(state, p, 2)["total"] for p in (ANN, BEN, CAT)] == [20, 20, -20]


def test_the_largest_hand_round_one_hundred_deals_one_hundred_cards():
    assert round_score("wizard", 100, 100, 100) == 1020
    assert round_score("oh_hell", 100, 100, 100) == 110
    assert round_score("skull_king", 100, 100, 100) == 2000
    assert round_score("skull_king", 100, 0, 0) == 1000
    assert round_score("skull_king", 100, 0, 100) == -1000
    state = new(bids="wizard", rounds=100)
    for number in range(1, 99):
        play_round(state, number, (0, number), (0, number))
    assert "0 to 99" in refused(state, ANN, type="bid", round=99, bid=100)
    play_round(state, 99, (0, 99), (0, 99))
    with pytest.raises(pydantic.ValidationError):
        bid(state, ANN, 100, 101)
    play_round(state, 100, (100, 0), (100, 0))
    assert state["finished"] and row(state, ANN, 100)["total"] == 1020


# -- tricks that do not add up -------------------------------------------------------------
def test_tricks_that_do_not_add_up_keep_the_round_open_until_an_entry_changes():
    state = new(players=(ANN, BEN, CAT), bids="wizard")
    play_round(state, 1, (0, 0, 1), (0, 0, 1))
    for player in (ANN, BEN, CAT):
        bid(state, player, 2, 1)
    tricks(state, ANN, 2, 1)
    tricks(state, BEN, 2, 0)
    lines = tricks(state, CAT, 2, 0)
    assert str(lines[-1].text) == ("Tricks add up to 1 of 2: round 2 stays open until an "
                                   "entry is changed.")
    view = GAME.view(state, None)[0]
    assert view["round"] == 2 and view["closed"] == 1
    assert view["tricks_off"] == {"taken": 1, "hand": 2}
    assert GAME.waiting_for(state) == [ANN, BEN, CAT]  # any one of them may change theirs
    lines = tricks(state, BEN, 2, 1)
    assert "Round 2 closed" in str(lines[-1].text)
    assert GAME.view(state, None)[0]["tricks_off"] is None
    assert [row(state, p, 2)["total"] for p in (ANN, BEN, CAT)] == [30, 30, -10]


def test_oh_hell_tricks_must_add_up_too_but_skull_king_tricks_need_not():
    oh_hell = new(bids="oh_hell")
    bid(oh_hell, ANN, 1, 1)
    bid(oh_hell, BEN, 1, 1)
    tricks(oh_hell, ANN, 1, 1)
    tricks(oh_hell, BEN, 1, 1)
    assert oh_hell["closed"] == [] and GAME.view(oh_hell, None)[0]["tricks_off"] == {
        "taken": 2, "hand": 1}
    skull_king = new(bids="skull_king")
    bid(skull_king, ANN, 1, 1)
    bid(skull_king, BEN, 1, 1)
    tricks(skull_king, ANN, 1, 0)  # a kraken took the trick: no one won it
    tricks(skull_king, BEN, 1, 0)
    assert len(skull_king["closed"]) == 1


# -- the bids ------------------------------------------------------------------------------
def test_bids_come_first_then_the_tricks_and_a_bid_changes_only_until_all_have_bid():
    state = new(bids="wizard")
    assert GAME.waiting_for(state) == [ANN, BEN]
    assert [a["type"] for a in GAME.actions(state, ANN)] == ["bid"]
    assert "after the bids" in refused(state, ANN, type="enter", round=1, tricks=1)
    bid(state, ANN, 1, 0)
    assert str(bid(state, ANN, 1, 1)[0].text) == "{name:1} changed their bid to 1."
    assert GAME.waiting_for(state) == [BEN]
    lines = bid(state, BEN, 1, 0)
    assert str(lines[-1].text) == "Every player has bid for round 1: {name:1} 1, {name:2} 0."
    assert "no longer change" in refused(state, ANN, type="bid", round=1, bid=0)
    assert [a["type"] for a in GAME.actions(state, ANN)] == ["enter"]
    assert row(state, ANN, 1) == {"round": 1, "open": True, "bid": 1, "tricks": None,
                                  "bonus": 0}


def test_bad_bids_and_tricks_are_refused_and_change_nothing():
    state = new(bids="wizard")
    assert "0 to 1" in refused(state, ANN, type="bid", round=1, bid=2)
    assert "round 1 is" in refused(state, ANN, type="bid", round=2, bid=0)
    assert "takes no bids" in refused(new(), ANN, type="bid", round=1, bid=0)
    assert "not tricks" in refused(new(), ANN, type="enter", round=1, tricks=1,
                                   scores={"Points": 3})
    assert "round's scores" in refused(new(), ANN, type="enter", round=1)
    with pytest.raises(pydantic.ValidationError):
        act(state, ANN, type="bid", round=1, bid=-1)
    assert "own" in refused(state, ANN, NotYourTurn, type="bid", round=1, bid=0, player=BEN)
    bid(state, ANN, 1, 1)
    bid(state, BEN, 1, 0)
    assert "tricks taken are from 0 to 1" in refused(state, ANN, type="enter", round=1, tricks=2)
    assert "Only Skull King" in refused(state, ANN, type="enter", round=1, tricks=1, bonus=10)
    assert "computes the score" in refused(state, ANN, type="enter", round=1,
                                           scores={"Points": 40})
    assert "how many tricks" in refused(state, ANN, type="enter", round=1)
    skull_king = new(bids="skull_king")
    bid(skull_king, ANN, 1, 1)
    bid(skull_king, BEN, 1, 0)
    assert "0 or more" in refused(skull_king, ANN, type="enter", round=1, tricks=1, bonus=-10)


def test_bids_need_one_category_and_are_wizard_oh_hell_or_skull_king():
    with pytest.raises(pydantic.ValidationError, match="one category"):
        new(bids="wizard", categories=["Points", "Bonus"])
    with pytest.raises(pydantic.ValidationError):
        new(bids="hearts")
    assert GAME.options_for({"name": "Wizard"}).bids is None


def test_the_host_bids_and_enters_tricks_for_anyone_as_scorer():
    state = new(bids="wizard", entry="scorer")
    assert GAME.waiting_for(state) == [] and GAME.host_may_act(state)
    offered = GAME.actions(state, HOST)[0]
    assert offered["type"] == "bid" and offered["players"] == [ANN, BEN]
    act(state, HOST, type="bid", round=1, bid=1, player=ANN)
    act(state, HOST, type="bid", round=1, bid=1, player=BEN)
    act(state, HOST, type="enter", round=1, tricks=1, player=ANN)
    act(state, HOST, type="enter", round=1, tricks=0, player=BEN)
    assert [row(state, p, 1)["total"] for p in (ANN, BEN)] == [30, -10]


# -- secret bids -----------------------------------------------------------------------------
def test_secret_bids_are_in_no_view_the_hosts_included_until_all_have_bid():
    state = new(players=(ANN, BEN, CAT), bids="wizard", secret=True)
    lines = bid(state, ANN, 1, 1) + bid(state, BEN, 1, 0)
    assert [str(n.text) for n in lines] == ["{name:1} bid.", "{name:2} bid."]
    assert GAME.secrets(state) == {
        ANN: [{"bid": {"round": 1, "bid": 1}},
              {"rows": [{"round": 1, "open": True, "bid": 1, "tricks": None, "bonus": 0}]}],
        BEN: [{"bid": {"round": 1, "bid": 0}},
              {"rows": [{"round": 1, "open": True, "bid": 0, "tricks": None, "bonus": 0}]}]}
    for viewer in (None, BEN, CAT):
        public, private = GAME.view(state, viewer)
        assert all(seat["rows"] == [] for seat in public["seats"])
        assert private is None or private["bid"] != {"round": 1, "bid": 1}
    assert GAME.view(state, None)[0]["bidden"] == [ANN, BEN]
    assert GAME.view(state, ANN)[1]["bid"] == {"round": 1, "bid": 1}
    assert GAME.keeps_secrets(state)
    lines = bid(state, CAT, 1, 0)
    assert str(lines[-1].text) == ("Bids revealed for round 1: {name:1} 1, {name:2} 0, "
                                   "{name:3} 0.")
    assert lines[-1].reveal
    assert GAME.secrets(state) == {} and not GAME.keeps_secrets(state)
    assert row(state, ANN, 1)["bid"] == 1
    assert str(GAME.preview(state, CAT, GAME.parse_action(
        {"type": "bid", "round": 1, "bid": 0}))) == "Your bid for round 1: 0."


def test_the_host_screen_cannot_post_a_secret_bid_for_a_player():
    assert "bid" in GAME.secret_actions


# -- the dealer ------------------------------------------------------------------------------
def test_the_dealer_is_the_first_player_then_the_next_seat_each_round():
    state = new(players=(BEN, CAT, ANN), bids="wizard", dealer=True, rounds=4)
    dealers = []
    for number in range(1, 5):
        dealers.append(GAME.view(state, None)[0]["dealer"])
        play_round(state, number, (0, 0, number), (0, 0, number))
    assert dealers == [BEN, CAT, ANN, BEN]
    assert state["finished"] and GAME.view(state, None)[0]["dealer"] is None


def test_a_sheet_without_the_dealer_names_none_and_any_sheet_may_have_one():
    assert GAME.view(new(), None)[0]["dealer"] is None
    state = new(dealer=True)
    act(state, ANN, type="enter", round=1, scores={"Points": 3})
    act(state, BEN, type="enter", round=1, scores={"Points": 4})
    assert GAME.view(state, None)[0]["dealer"] == BEN


def test_a_sheet_without_bids_keeps_its_shape():
    public, private = GAME.view(new(), ANN)
    assert private == {"entry": None}
    assert public["bids"] is None and public["hand"] is None


# -- the bots --------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["wizard", "oh_hell", "skull_king"])
@pytest.mark.parametrize("entry", ["players", "scorer"])
def test_the_bots_play_every_game_of_bids_to_the_end(rule, entry):
    import random

    from tests.support.bots import choose_move

    state = new(players=(ANN, BEN, CAT), bids=rule, entry=entry, secret=True, dealer=True,
                rounds=6)
    rng = random.Random(rule)
    moves = 0
    while not state["finished"]:
        player, data = choose_move(GAME, state, rng)
        act(state, player, **data)
        moves += 1
        assert moves < 500, "the bots do not finish"
    assert len(state["played"]) == 6
    rows = GAME.view(state, None)[0]["seats"][0]["rows"]
    assert all(row["tricks"] is not None for row in rows)


def test_a_closed_round_of_bids_may_be_corrected_below_zero():
    state = new(bids="wizard")
    play_round(state, 1, (1, 0), (1, 0))
    act(state, ANN, type="correct", player=ANN, round=1, category="Points", value=-10)
    assert row(state, ANN, 1)["total"] == -10 and row(state, ANN, 1)["bid"] == 1
