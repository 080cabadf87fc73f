"""The Big Money engine and its Bank: the box data the Bank and the options are made from
(each value with its source), the setup (Start-Ups and the market cards), what the Industry
die and the number dice collect from the Bank (the rulebook's examples of Kate and Toby,
the categories named as the box names them), and the end when the Bank runs out, with its
result."""
from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from companion.games.big_money import Options, load_box, option_defaults
from companion.games.big_money.dice import best_category, categories_of
from companion.games.messages import text_from_json
from tests.support.big_money_engine import (GAME, MARKET, NO_CATEGORY, act, assert_refused, card,
                                            fund, give, money, options, seat, started, texts)

SOURCES = {"rulebook", "review", "default - check your board", "default - check your cards"}


# -- helpers ------------------------------------------------------------------------------
def quiet_turn(state, player):
    """A turn that moves no money: an industry nobody owns, dice that fit nothing."""
    act(state, player, type="industry", face="technology")
    act(state, player, type="number_dice", dice=NO_CATEGORY)
    act(state, player, type="end_turn")


# -- box data -------------------------------------------------------------------------------
def test_box_bills_add_up_to_120_and_make_the_bank():
    box = load_box()
    assert sum(entry["count"] for entry in box["bills"].values()) == 120
    total = sum(int(bill) * entry["count"] for bill, entry in box["bills"].items())
    assert Options().bank_total == total
    assert GAME.setup([1, 2], Options(), random.Random(0))["bank"] == total


def test_box_every_value_has_a_source():
    box = load_box()
    entries = [*box["bills"].values(), *box["number_payouts"].values(),
               *box["industry_bonus"].values(), box["startup_payout"], box["asset_cards"],
               *box["asset_payout_per_price"].values()]
    assert all(entry["source"] in SOURCES for entry in entries)
    for news in box["biz_news"]:
        numbers = [key for key, value in news["effect"].items() if isinstance(value, int)]
        assert set(news["sources"]) == {"name", "text", "count", *numbers}
        assert set(news["sources"].values()) <= SOURCES


def test_box_holds_the_rulebook_and_review_numbers():
    box = load_box()
    assert box["number_payouts"]["three_of_a_kind"] == {
        "name": "3 of a Kind", "payout": 9, "source": "rulebook"}
    assert box["number_payouts"]["little_straight"]["payout"] == 12
    assert box["number_payouts"]["full_house"] == {
        "name": "Full House", "payout": 15, "source": "review"}
    assert box["industry_bonus"]["3"] == {"bonus": 10, "source": "rulebook"}
    assert box["startup_payout"] == {"value": 5, "source": "review"}
    assert box["asset_payout_per_price"]["stock"]["value"] == 2
    names = {news["name"] for news in box["biz_news"]}
    assert {"Antitrust Fine", "Bubble Burst", "Demerger", "Liquidation",
            "Global Recession"} <= names
    recession = next(n for n in box["biz_news"] if n["name"] == "Global Recession")
    assert recession["effect"]["cap"] == 50 and recession["sources"]["cap"] == "rulebook"


def test_options_default_to_the_box_and_round_trip():
    assert Options().model_dump() == option_defaults()
    assert Options(**Options().model_dump()) == Options()
    assert Options.model_validate(json.loads(Options().model_dump_json())) == Options()


def test_load_box_hands_out_copies():
    load_box()["bills"]["1"]["count"] = 999
    assert load_box()["bills"]["1"]["count"] == 40


def test_every_option_has_a_title_and_description():
    for name, field in Options.model_fields.items():
        assert field.title and field.description, name


@pytest.mark.parametrize("changes", [
    {"bills": {"1": -1, "5": 40, "10": 40}},
    {"bills": {"1": 501, "5": 40, "10": 40}},
    {"bills": {"1": 40, "5": 40}},
    {"bills": {"1": 0, "5": 0, "10": 0}},
    {"bills": {"1": 40, "5": 40, "10": 40, "20": 1}},
    {"number_payouts": {"pair": 1001}},
    {"number_payouts": {"pair": -1}},
    {"number_payouts": {"six_of_a_kind": 3}},
    {"industry_bonus": {"2": 5, "3": 10, "4": 15}},
    {"startup_payout": -5},
    {"asset_cards": 3},
    {"biz_news": [card("manual", count=21)]},
    {"biz_news": [card("manual", count=20)] * 6},
    {"biz_news": [card("earthquake")]},
    {"biz_news": [card("pay_per_asset", amount=-3)]},
    {"starting_money": 10},
])
def test_options_refuse_out_of_bounds(changes):
    with pytest.raises(ValidationError):
        Options(**changes)


# -- number dice ----------------------------------------------------------------------------
@pytest.mark.parametrize("dice, fits", [
    ([1, 1, 6, 5, 2], {"pair"}),
    ([3, 3, 5, 5, 1], {"pair", "two_pair"}),
    ([4, 4, 4, 6, 3], {"pair", "three_of_a_kind"}),
    ([2, 3, 4, 5, 4], {"pair", "little_straight"}),
    ([2, 2, 2, 6, 6], {"pair", "two_pair", "three_of_a_kind", "full_house"}),
    ([3, 3, 3, 3, 1], {"pair", "three_of_a_kind", "four_of_a_kind"}),
    ([1, 2, 3, 4, 5], {"little_straight", "big_straight"}),
    ([6, 5, 4, 3, 2], {"little_straight", "big_straight"}),
    ([5, 5, 5, 5, 5], {"pair", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind"}),
    ([3, 4, 5, 6, 6], {"pair", "little_straight"}),
    ([1, 2, 4, 5, 6], set()),
])
def test_every_category_and_the_rolls_that_fit_several(dice, fits):
    assert categories_of(dice) == fits


@pytest.mark.parametrize("dice, best", [
    ([3, 4, 5, 6, 6], ("little_straight", 12)),  # Toby's first roll
    ([6, 6, 6, 3, 2], ("three_of_a_kind", 9)),  # Toby's last roll
    ([1, 1, 6, 5, 2], ("pair", 3)),
    ([3, 3, 5, 5, 1], ("two_pair", 6)),
    ([2, 2, 2, 6, 6], ("full_house", 15)),
    ([3, 3, 3, 3, 1], ("four_of_a_kind", 20)),
    ([1, 2, 3, 4, 5], ("big_straight", 25)),
    ([5, 5, 5, 5, 5], ("five_of_a_kind", 50)),
    (NO_CATEGORY, (None, 0)),
])
def test_the_single_highest_payout_with_the_box_table(dice, best):
    assert best_category(dice, Options().number_payouts.model_dump()) == best


def test_a_lower_category_that_pays_more_wins():
    payouts = {**Options().number_payouts.model_dump(), "pair": 100}
    assert best_category([2, 2, 2, 6, 6], payouts) == ("pair", 100)
    assert best_category([1, 2, 3, 4, 5], payouts) == ("big_straight", 25)


def test_toby_collects_for_his_last_roll():
    state = started((1, 2))
    act(state, 1, type="industry", face="technology")
    notes = act(state, 1, type="number_dice", dice=[6, 6, 6, 3, 2])
    assert texts(notes) == ["{name:1} rolled 6 6 6 3 2: 3 of a Kind, collects 9."]
    assert money(state, 1) == 9 and state["step"] == "buy"
    view, _ = GAME.view(state, 1)
    assert view["dice"] == {"dice": [6, 6, 6, 3, 2], "category": "three_of_a_kind",
                            "name": "3 of a Kind", "payout": 9}


def test_dice_that_fit_nothing_pay_nothing():
    state = started((1, 2))
    act(state, 1, type="industry", face="technology")
    assert texts(act(state, 1, type="number_dice", dice=NO_CATEGORY)) == [
        "{name:1} rolled 1 2 4 5 6: no payout."]
    assert money(state, 1) == 0 and state["bank"] == 640


def test_the_categories_are_named_as_the_box_names_them():
    """The board's names of the number-dice categories are messages, read in each screen's
    language; in English they are box.json's, in the log and in the view."""
    rolls = {"pair": [1, 1, 6, 5, 2], "two_pair": [3, 3, 5, 5, 1],
             "three_of_a_kind": [4, 4, 4, 6, 3], "little_straight": [2, 3, 4, 5, 4],
             "full_house": [2, 2, 2, 6, 6], "four_of_a_kind": [3, 3, 3, 3, 1],
             "big_straight": [1, 2, 3, 4, 5], "five_of_a_kind": [5, 5, 5, 5, 5]}
    # Each category paying more than the ones below it, so each roll is named by its own.
    rising = {category: 10 + index for index, category in enumerate(rolls)}
    box = GAME.box_data()["number_payouts"]
    assert set(box) == set(rolls)
    for category, dice in rolls.items():
        state = started((1, 2), opts=options(number_payouts=rising))
        act(state, 1, type="industry", face="technology")
        notes = act(state, 1, type="number_dice", dice=dice)
        name = box[category]["name"]
        assert texts(notes) == [f"{{name:1}} rolled {' '.join(map(str, dice))}: {name}, "
                                f"collects {rising[category]}."]
        view, _ = GAME.view(state, 2)
        assert (view["dice"]["category"], view["dice"]["name"]) == (category, name)


# -- setup ------------------------------------------------------------------------------------
def test_setup_starts_the_bank_and_waits_for_start_ups_and_the_market():
    state = GAME.setup([7, 8, 9], Options(), random.Random(3))
    assert state["bank"] == 640 and [s["money"] for s in state["seats"]] == [0, 0, 0]
    assert state["step"] == "setup" and GAME.waiting_for(state) == [7, 8, 9]
    assert sorted(state["biz_news"]["deck"]) == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    act(state, 8, type="startup", industry="food")
    # Ben has his Start-Up: the market's cards are the first player's to enter, not his.
    assert GAME.waiting_for(state) == [7, 9]
    act(state, 7, type="startup", industry="food")
    act(state, 9, type="startup", industry="food")
    assert state["step"] == "setup" and GAME.waiting_for(state) == [7]
    state = GAME.setup([7, 8, 9], Options(), random.Random(3))
    for slot, asset in enumerate(MARKET):
        act(state, 9, type="reveal", slot=slot, asset=asset)
    assert GAME.waiting_for(state) == [7, 8, 9]
    act(state, 8, type="startup", industry="food")
    assert GAME.waiting_for(state) == [7, 9]
    act(state, 8, type="startup", industry="travel")  # a change of mind before the start
    assert [a["industry"] for a in seat(state, 8)["assets"]] == ["travel"]
    act(state, 7, type="startup", industry="sports")
    notes = act(state, 9, type="startup", industry="sports")
    assert notes[-1].text.endswith("{name:7} rolls first.")
    assert state["step"] == "industry" and GAME.waiting_for(state) == [7]
    assert state["asset_deck"]["unseen"] == 32 - 4
    startup = seat(state, 9)["assets"][0]
    assert (startup["payout"], startup["startup"], startup["price"]) == (5, True, 0)


def test_a_revealed_asset_gets_its_proposed_payout_unless_entered():
    state = GAME.setup([1, 2], Options(), random.Random(0))
    act(state, 1, type="reveal", slot=0,
        asset={"industry": "entertainment", "price": 30, "stock": True, "name": "Book Publisher"})
    act(state, 2, type="reveal", slot=1, asset={"industry": "food", "price": 25})
    notes = act(state, 2, type="reveal", slot=2,
                asset={"industry": "food", "price": 25, "payout": 30})
    assert [a["payout"] for a in state["market"][:3]] == [60, 25, 30]
    assert texts(notes) == ["{name:2} reveals the Food Asset (Food, price 25, pays 30) into "
                            "Market space 3."]


# -- the Industry die --------------------------------------------------------------------------
def test_kate_collects_85_and_discards_the_book_publisher_stock():
    toby, kate = 1, 2
    state = started((toby, kate), ["sports", "entertainment"])
    give(state, kate, "entertainment", price=10)
    stock = give(state, kate, "entertainment", price=30, stock=True, name="Book Publisher")
    notes = act(state, toby, type="industry", face="entertainment")
    assert texts(notes) == [
        "{name:1} rolled Entertainment.",
        "{name:2} collects 85: Entertainment assets 5 + 10 + 60, bonus 10; the Book "
        "Publisher Stock is discarded."]
    assert money(state, kate) == 85 and state["bank"] == 640 - 85
    assert stock not in seat(state, kate)["assets"] and state["asset_discard"] == [stock]
    assert [dict(entry, reason=text_from_json(entry["reason"])) for entry in state["ledger"]] \
        == [{"player": kate, "amount": 85, "reason": "Entertainment Assets"}]
    assert state["step"] == "number_dice"


@pytest.mark.parametrize("count, bonus", [(1, 0), (2, 5), (3, 10), (4, 15), (5, 20), (7, 20)])
def test_the_industry_bonus_grows_with_the_assets(count, bonus):
    state = started((1, 2), ["food", "sports"])
    for _ in range(count - 1):
        give(state, 2, "sports", price=1)
    act(state, 1, type="industry", face="sports")
    assert money(state, 2) == 5 + (count - 1) * 1 + bonus


def test_collection_order_and_a_bank_that_runs_out_midway():
    state = started((1, 2, 3), ["sports"] * 3)
    quiet_turn(state, 1)
    fund(state, 1, 632)
    assert state["bank"] == 8
    notes = act(state, 2, type="industry", face="sports")
    assert texts(notes) == [
        "{name:2} rolled Sports.",
        "{name:2} collects 5: Sports asset 5.",
        "{name:3} collects 3 of 5 (all the Bank had left): Sports asset 5.",
        "The Bank is empty: {name:3} took the last bill and the game is over."]
    assert [money(state, p) for p in (1, 2, 3)] == [632, 5, 3]
    assert state["bank"] == 0 and state["step"] == "over" and state["last_bill"] == 3
    assert GAME.waiting_for(state) == [] and GAME.actions(state, 1) == []
    result = GAME.result(state)
    assert result.winners == [1]
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (1, 1, 632), (2, 2, 5), (3, 3, 3)]
    assert result.explanation == ("The Bank ran out when {name:3} took the last bill. "
                                  "{name:1} wins with the most money, 632.")
    assert_refused(state, 3, {"type": "number_dice", "dice": [1, 1, 1, 1, 1]})


def test_the_player_who_empties_the_bank_exactly_ends_the_game():
    state = started((1, 2))
    fund(state, 2, 628)
    act(state, 1, type="industry", face="technology")
    act(state, 1, type="number_dice", dice=[3, 4, 5, 6, 6])
    assert state["bank"] == 0 and state["step"] == "over" and state["last_bill"] == 1
    assert GAME.result(state).winners == [2]


def test_equal_money_shares_the_place():
    state = started((1, 2, 3), ["sports", "sports", "food"])
    fund(state, 1, 300)
    fund(state, 2, 300)
    fund(state, 3, 30)
    assert state["bank"] == 10
    act(state, 1, type="industry", face="sports")
    assert [money(state, p) for p in (1, 2, 3)] == [305, 305, 30]
    assert state["last_bill"] == 2
    result = GAME.result(state)
    assert [(s.player, s.place) for s in result.standings] == [(1, 1), (2, 1), (3, 3)]
    assert result.winners == [1, 2]
    assert "{name:1} and {name:2} share the win with 305 each" in result.explanation
    assert result.to_json()["score_label"] == "$" and result.ranked


def test_no_result_before_the_bank_runs_out():
    assert GAME.result(started((1, 2))) is None
