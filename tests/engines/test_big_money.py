"""The Big Money engine: the rulebook's examples, the Biz News clarifications, the market,
every refusal, and seeded random games through the engine."""
from __future__ import annotations

import copy
import json
import random

import pytest
from pydantic import ValidationError

from companion.games.big_money import BigMoney, Options, load_box, option_defaults
from companion.games.big_money.assets import new_asset
from companion.games.big_money.dice import best_category, categories_of
from companion.games.engine import HOST, IllegalAction, NotYourTurn
from companion.games.messages import text_from_json

GAME = BigMoney()
SOURCES = {"rulebook", "review", "default - check your board", "default - check your cards"}
MARKET = [
    {"industry": "food", "price": 10, "stock": False, "name": "Diner"},
    {"industry": "travel", "price": 20, "stock": True, "name": "Airline"},
    {"industry": "technology", "price": 40},
    {"industry": "entertainment", "price": 60},
]
NO_CATEGORY = [1, 2, 4, 5, 6]


# -- helpers ------------------------------------------------------------------------------
def act(state, actor, /, **data):
    return GAME.apply(state, actor, GAME.parse_action(data), random.Random(0))


def texts(notes):
    return [note.text for note in notes]


def options(**changes) -> Options:
    return Options(**{**option_defaults(), **changes})


def card(kind, name="Test Card", count=1, **effect):
    return {"name": name, "text": f"{name} text.", "count": count,
            "effect": {"kind": kind, **effect}}


def one_card_game(kind, players=(1, 2), startups=None, **effect):
    return started(players, startups, options(biz_news=[card(kind, **effect)]))


def started(players=(1, 2), startups=None, opts=None, seed=0):
    """A game past its setup: everyone took a Start-Up, the market is full."""
    state = GAME.setup(list(players), opts or Options(), random.Random(seed))
    for player, industry in zip(players, startups or ["sports"] * len(players)):
        act(state, player, type="startup", industry=industry)
    for slot, asset in enumerate(MARKET):
        act(state, players[0], type="reveal", slot=slot, asset=asset)
    assert state["step"] == "industry"
    return state


def give(state, player, industry, price=10, stock=False, name="", payout=None):
    """Put an Asset card in front of a player (arranging a scene; no money moves)."""
    payout = payout if payout is not None else price * (2 if stock else 1)
    asset = new_asset(state, industry, price, payout, stock, name)
    seat(state, player)["assets"].append(asset)
    return asset


def seat(state, player):
    return next(s for s in state["seats"] if s["player"] == player)


def money(state, player):
    return seat(state, player)["money"]


def fund(state, player, amount):
    act(state, HOST, type="adjust", player=player, amount=amount, note="arranging the scene")


def quiet_turn(state, player):
    """A turn that moves no money: an industry nobody owns, dice that fit nothing."""
    act(state, player, type="industry", face="technology")
    act(state, player, type="number_dice", dice=NO_CATEGORY)
    act(state, player, type="end_turn")


def conserved(state):
    return state["bank"] + sum(s["money"] for s in state["seats"]) == state["start_total"]


def assert_refused(state, player, data, error=IllegalAction):
    before = copy.deepcopy(state)
    with pytest.raises(error) as refused:
        act(state, player, **data)
    assert state == before
    assert refused.type is error
    assert refused.value.message.endswith(".")


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


# -- Biz News -------------------------------------------------------------------------------------
def test_a_biz_news_draw_is_a_reveal_and_the_deck_is_reshuffled_when_empty():
    state = one_card_game("manual")
    notes = act(state, 1, type="industry", face="biz-news")
    assert notes[1].text == "Biz News: Test Card. Test Card text." and notes[1].reveal
    assert not notes[0].reveal
    assert state["step"] == "number_dice"
    view, _ = GAME.view(state, 2)
    assert view["biz_news"] == {"deck": 0, "discard": 1, "resolving": False, "industry": None,
                                "last": {"name": "Test Card", "text": "Test Card text."}}
    act(state, 1, type="number_dice", dice=NO_CATEGORY)
    act(state, 1, type="end_turn")
    notes = act(state, 2, type="industry", face="biz-news")
    assert "The Biz News deck is empty: the discard pile is shuffled into a new deck." in texts(
        notes)
    assert state["biz_news"]["discard"] == [0] and state["biz_news"]["deck"] == []


def test_the_deck_order_never_shows_in_the_view():
    state = started((1, 2), seed=4)
    other = copy.deepcopy(state)
    other["biz_news"]["deck"].reverse()
    assert other["biz_news"]["deck"] != state["biz_news"]["deck"]
    for viewer in (None, 1, 2):
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    assert GAME.view(state, 1)[1] is None and GAME.secrets(state) == {}


def test_a_biz_news_deck_is_shuffled_with_the_given_rng():
    decks = {tuple(GAME.setup([1, 2], Options(), random.Random(seed))["biz_news"]["deck"])
             for seed in range(10)}
    assert len(decks) > 1
    again = GAME.setup([1, 2], Options(), random.Random(5))["biz_news"]["deck"]
    assert again == GAME.setup([1, 2], Options(), random.Random(5))["biz_news"]["deck"]


def test_the_biz_news_discard_pile_is_reshuffled_with_the_given_rng():
    cards = [card("manual", name=f"Card {number}") for number in range(5)]
    drawn = set()
    for seed in range(10):
        state = started((1, 2), opts=options(biz_news=cards))
        news = state["biz_news"]
        news["discard"], news["deck"] = news["deck"], []  # every card in the discard pile
        GAME.apply(state, 1, GAME.parse_action({"type": "industry", "face": "biz-news"}),
                   random.Random(seed))
        assert len(news["deck"]) == 4 and news["discard"] == [news["last"]]
        drawn.add(news["last"])
    assert len(drawn) > 1


def test_antitrust_tie_is_chosen_by_the_tied_player():
    state = one_card_game("fine_largest_industry", players=(1, 2, 3),
                          startups=["sports", "travel", "food"], amount=5)
    give(state, 1, "sports")
    give(state, 1, "food", price=20)
    give(state, 1, "food", price=30)
    give(state, 3, "food")
    give(state, 3, "food")
    for player in (1, 2, 3):
        fund(state, player, 100)
    notes = act(state, 1, type="industry", face="biz-news")
    assert "{name:1} chooses which tied industry to pay the fine for." in texts(notes)
    assert "{name:2} pays 5 for Test Card (1 Travel Asset x 5)." in texts(notes)
    assert "{name:3} pays 15 for Test Card (3 Food Assets x 5)." in texts(notes)
    assert state["step"] == "biz_news" and GAME.waiting_for(state) == [1]
    assert GAME.actions(state, 1) == [{
        "type": "choose",
        "prompt": "Test Card: your largest industries are tied. Choose the one you pay the "
                  "fine for.",
        "choice": ["sports", "food"],
        "labels": {"sports": "Sports: 2 Assets, fine 10", "food": "Food: 2 Assets, fine 10"}}]
    assert GAME.actions(state, 2) == []
    assert_refused(state, 1, {"type": "choose", "choice": "travel"})
    assert_refused(state, 2, {"type": "choose", "choice": "sports"}, NotYourTurn)
    assert_refused(state, 1, {"type": "number_dice", "dice": [1, 1, 1, 1, 1]})
    notes = act(state, 1, type="choose", choice="food")
    assert texts(notes)[0] == "{name:1} pays 10 for Test Card (2 Food Assets x 5)."
    assert [money(state, p) for p in (1, 2, 3)] == [90, 95, 85]
    assert state["step"] == "number_dice" and state["pending"] is None
    assert state["biz_news"]["discard"] == [0] and conserved(state)


def test_bubble_burst_rerolls_biz_news_and_a_player_pays_no_more_than_they_have():
    state = one_card_game("roll_then_pay", startups=["food", "sports"], amount=10)
    give(state, 1, "food")
    fund(state, 1, 100)
    fund(state, 2, 3)
    act(state, 1, type="industry", face="biz-news")
    roll = GAME.actions(state, 1)[0]
    assert roll["choice"] == ["sports", "food", "travel", "entertainment", "technology",
                              "biz-news"]
    assert GAME.waiting_for(state) == [1] and GAME.actions(state, 2) == []
    notes = act(state, 1, type="choose", choice="biz-news")
    assert texts(notes) == ["{name:1} rolled Biz News: roll the Industry die again."]
    assert GAME.actions(state, 1) == [roll] and money(state, 1) == 100
    notes = act(state, 1, type="choose", choice="food")
    assert texts(notes)[:2] == ["{name:1} rolled Food for Test Card.",
                                "{name:1} pays 20 for Test Card (2 Food Assets x 10)."]
    assert money(state, 1) == 80 and state["step"] == "number_dice"
    act(state, 1, type="number_dice", dice=NO_CATEGORY)
    act(state, 1, type="end_turn")
    act(state, 2, type="industry", face="biz-news")
    notes = act(state, 2, type="choose", choice="sports")
    assert ("{name:2} pays 3, all they have (10 owed) for Test Card (1 Sports Asset x 10)."
            in texts(notes))
    assert money(state, 2) == 0 and conserved(state)


def test_demerger_rerolls_and_a_tied_player_chooses_the_asset():
    state = one_card_game("roll_then_discard", players=(1, 2, 3),
                          startups=["food", "food", "sports"])
    first = give(state, 1, "food", price=20, name="Bakery")
    second = give(state, 1, "food", price=20, stock=True, name="Grocer")
    cheap = give(state, 2, "food", price=10)
    dear = give(state, 2, "food", price=30, name="Chain")
    act(state, 1, type="industry", face="biz-news")
    act(state, 1, type="choose", choice="biz-news")
    assert GAME.actions(state, 1)[0]["choice"][-1] == "biz-news"
    notes = act(state, 1, type="choose", choice="food")
    assert "{name:2}'s Chain is discarded." in texts(notes)
    assert "{name:1} chooses which tied Asset to discard." in texts(notes)
    assert GAME.waiting_for(state) == [1]
    prompt = GAME.actions(state, 1)[0]
    assert prompt["choice"] == [str(first["id"]), str(second["id"])]
    assert prompt["labels"][str(second["id"])] == "Grocer Stock (price 20, pays 40)"
    assert_refused(state, 1, {"type": "choose", "choice": str(cheap["id"])})
    act(state, 1, type="choose", choice=str(second["id"]))
    assert [a["name"] for a in seat(state, 1)["assets"]] == ["Food Start-Up", "Bakery"]
    assert seat(state, 2)["assets"][1:] == [cheap]
    assert state["asset_discard"] == [dear, second] and state["step"] == "number_dice"


def test_liquidation_ties_discard_every_tied_player_and_start_ups_stay():
    state = one_card_game("liquidation", players=(1, 2, 3),
                          startups=["sports", "sports", "travel"])
    for player in (1, 2):
        give(state, player, "travel")
        give(state, player, "travel", price=15)
    give(state, 3, "travel")
    give(state, 3, "sports")
    act(state, 1, type="industry", face="biz-news")
    notes = act(state, 1, type="choose", choice="travel")
    assert ("{name:1} owns the most Travel Assets (2): the Travel Asset is discarded; the "
            "Travel Asset is discarded." in texts(notes))
    assert [len(seat(state, p)["assets"]) for p in (1, 2, 3)] == [1, 1, 3]
    assert len(state["asset_discard"]) == 4
    assert seat(state, 3)["assets"][0]["startup"]


def test_global_recession_pays_per_industry_at_most_50_for_every_industry():
    state = one_card_game("pay_per_industry", players=(1, 2, 3),
                          startups=["sports", "food", "travel"], amount=10, cap=50)
    for industry in ("food", "travel", "entertainment", "technology", "sports", "sports"):
        give(state, 1, industry)
    give(state, 2, "travel")
    fund(state, 1, 200)
    fund(state, 2, 200)
    fund(state, 3, 7)
    notes = act(state, 1, type="industry", face="biz-news")
    assert texts(notes)[2:5] == [
        "{name:1} pays 50 for Test Card (5 industries x 10).",
        "{name:2} pays 20 for Test Card (2 industries x 10).",
        "{name:3} pays 7, all they have (10 owed) for Test Card (1 industry x 10)."]
    assert [money(state, p) for p in (1, 2, 3)] == [150, 180, 0] and conserved(state)


def test_global_recession_cap_binds_when_the_rate_is_higher():
    state = one_card_game("pay_per_industry", startups=["sports", "food"], amount=15, cap=50)
    for industry in ("food", "travel", "entertainment", "technology"):
        give(state, 1, industry)
    fund(state, 1, 200)
    fund(state, 2, 200)
    notes = act(state, 1, type="industry", face="biz-news")
    assert "{name:1} pays 50 for Test Card (5 industries x 15, at most 50)." in texts(notes)
    assert [money(state, p) for p in (1, 2)] == [150, 185]


def test_a_card_the_bank_pays_collects_in_order_and_can_empty_the_bank():
    state = one_card_game("pay_per_asset", players=(1, 2, 3), amount=5, payer="bank")
    fund(state, 3, 632)
    give(state, 2, "food")
    notes = act(state, 1, type="industry", face="biz-news")
    assert texts(notes)[2:] == [
        "{name:1} collects 5 for Test Card (1 Asset x 5).",
        "{name:2} collects 3 of 10 (all the Bank had left) for Test Card (2 Assets x 5).",
        "The Bank is empty: {name:2} took the last bill and the game is over."]
    assert state["step"] == "over" and state["pending"] is None
    assert GAME.result(state).winners == [3]


def test_a_manual_card_only_tells_the_host():
    state = one_card_game("manual")
    notes = act(state, 1, type="industry", face="biz-news")
    assert "The host applies this card by hand with a Bank adjustment." in texts(notes)
    assert state["bank"] == 640 and state["step"] == "number_dice"


def test_a_game_without_biz_news_cards_goes_on():
    state = started((1, 2), opts=options(biz_news=[]))
    act(state, 1, type="industry", face="biz-news")
    assert state["step"] == "number_dice"


# -- the market --------------------------------------------------------------------------------
def buy_step(state, player, dice=(1, 2, 3, 4, 5)):
    act(state, player, type="industry", face="technology")
    act(state, player, type="number_dice", dice=list(dice))


def test_buying_pays_the_bank_and_the_space_is_refilled():
    state = started((1, 2))
    buy_step(state, 1)
    assert GAME.actions(state, 1)[0] == {"type": "buy", "slot": [0, 1]}
    notes = act(state, 1, type="buy", slot=1)
    assert texts(notes) == [
        "{name:1} buys the Airline Stock (Travel, price 20, pays 40) for 20.",
        "Reveal the next Asset into Market space 2."]
    assert money(state, 1) == 5 and state["bank"] == 635
    assert state["step"] == "refill" and state["market"][1] is None
    assert {"type": "end_turn", "leaves_empty": 1} in GAME.actions(state, 1)
    assert any(t["type"] == "reveal" and t["awaited"] for t in GAME.actions(state, 2))
    notes = act(state, 2, type="reveal", slot=1, asset={"industry": "sports", "price": 15})
    assert notes[-1].text == "{name:2} rolls next."
    assert state["step"] == "industry" and GAME.waiting_for(state) == [2]
    assert state["asset_deck"]["unseen"] == 32 - 5


def test_an_empty_deck_takes_the_reshuffled_discard_pile():
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=4))
    stock = give(state, 2, "travel", price=5, stock=True, name="Cruise")
    act(state, 1, type="industry", face="travel")
    act(state, 1, type="number_dice", dice=[6, 6, 6, 6, 6])
    notes = act(state, 1, type="buy", slot=0)
    assert notes[-1].text == ("The Asset deck is empty: shuffle the discard pile (1 Asset) into "
                              "a new deck and reveal the top card into Market space 1.")
    assert state["asset_discard"] == [] and state["asset_deck"]["reshuffled"] == [stock]
    reveal = next(t for t in GAME.actions(state, 2) if t["type"] == "reveal")
    assert reveal["asset_id"] == [stock["id"]] and "asset" not in reveal
    assert_refused(state, 2, {"type": "reveal", "slot": 0,
                              "asset": {"industry": "food", "price": 5}})
    assert_refused(state, 2, {"type": "reveal", "slot": 0, "asset_id": 999})
    act(state, 2, type="reveal", slot=0, asset_id=stock["id"])
    assert state["market"][0] == stock and state["step"] == "industry"


def test_an_empty_deck_and_discard_pile_leave_the_space_for_the_next_discard():
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=4))
    buy_step(state, 1)
    notes = act(state, 1, type="buy", slot=0)
    assert texts(notes)[1:] == [
        "The Asset deck and the discard pile are empty: Market space 1 stays empty until the "
        "next Asset is discarded.",
        "{name:2} rolls next."]
    assert state["market"][0] is None and state["step"] == "industry"
    stock = give(state, 2, "travel", price=5, stock=True, name="Cruise")
    notes = act(state, 2, type="industry", face="travel")
    assert texts(notes)[-1].endswith("the Cruise Stock is discarded into the empty Market "
                                     "space 1.")
    assert state["market"][0] == stock and state["asset_discard"] == []


def test_ending_the_turn_instead_of_revealing_leaves_the_space_empty():
    state = started((1, 2))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    notes = act(state, 1, type="end_turn")
    assert texts(notes) == ["{name:1} ends the turn; Market space 1 stays empty.",
                            "{name:2} rolls next."]
    act(state, 1, type="reveal", slot=0, asset={"industry": "food", "price": 5})
    assert state["market"][0]["price"] == 5 and state["step"] == "industry"


# -- the host --------------------------------------------------------------------------------------
def test_the_host_adjusts_money_and_discards_an_asset():
    state = started((1, 2))
    asset = give(state, 2, "food", name="Diner")
    assert GAME.actions(state, HOST)[0]["type"] == "adjust"
    notes = act(state, HOST, type="adjust", player=2, amount=12, note="card text",
                discard_asset=asset["id"])
    assert texts(notes) == ["The host adjusts: the Diner of {name:2} is discarded; the Bank "
                            "pays {name:2} 12 (card text)."]
    assert money(state, 2) == 12 and state["asset_discard"] == [asset]
    act(state, HOST, type="adjust", player=2, amount=-2, note="change")
    assert money(state, 2) == 10 and state["bank"] == 630 and conserved(state)
    assert GAME.actions(state, 1)[0]["type"] == "industry"
    assert all(t["type"] != "adjust" for t in GAME.actions(state, 1))


# -- refusals --------------------------------------------------------------------------------------
def in_setup():
    return GAME.setup([1, 2], Options(), random.Random(0))


def at_industry():
    state = started((1, 2))
    fund(state, 1, 15)
    return state


def at_number_dice():
    state = at_industry()
    act(state, 1, type="industry", face="technology")
    return state


def at_buy():
    state = at_number_dice()
    act(state, 1, type="number_dice", dice=NO_CATEGORY)
    return state


def at_buy_with_an_empty_space():
    state = started((1, 2), opts=options(asset_cards=4))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    buy_step(state, 2, NO_CATEGORY)
    return state


def at_refill():
    state = at_buy()
    act(state, 1, type="buy", slot=0)
    return state


def at_prompt():
    state = one_card_game("roll_then_pay", amount=5)
    act(state, 1, type="industry", face="biz-news")
    return state


def over():
    state = started((1, 2))
    fund(state, 2, 631)
    act(state, 1, type="industry", face="sports")
    assert state["step"] == "over"
    return state


SCENES = {"setup": in_setup, "industry": at_industry, "number_dice": at_number_dice,
          "buy": at_buy, "buy_with_an_empty_space": at_buy_with_an_empty_space,
          "refill": at_refill, "prompt": at_prompt, "over": over}


@pytest.mark.parametrize("scene, player, action, error", [
    ("setup", 1, {"type": "industry", "face": "sports"}, IllegalAction),
    ("setup", 1, {"type": "buy", "slot": 0}, IllegalAction),
    ("setup", 1, {"type": "choose", "choice": "sports"}, IllegalAction),
    ("industry", 2, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("industry", 1, {"type": "buy", "slot": 0}, IllegalAction),
    ("industry", 1, {"type": "end_turn"}, IllegalAction),
    ("industry", 1, {"type": "startup", "industry": "food"}, IllegalAction),
    ("industry", 1, {"type": "choose", "choice": "food"}, IllegalAction),
    ("industry", 1, {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 5}},
     IllegalAction),
    ("industry", 99, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", HOST, {"type": "industry", "face": "sports"}, NotYourTurn),
    ("industry", 1, {"type": "adjust", "player": 1, "amount": 5, "note": "me"}, NotYourTurn),
    ("industry", HOST, {"type": "adjust", "player": 42, "amount": 5, "note": "who"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 626, "note": "too much"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": -16, "note": "too much"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 0, "note": "nothing"},
     IllegalAction),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": 0, "note": "not theirs",
                        "discard_asset": 2}, IllegalAction),
    ("number_dice", 1, {"type": "industry", "face": "food"}, IllegalAction),
    ("number_dice", 2, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, NotYourTurn),
    ("buy", 1, {"type": "buy", "slot": 2}, IllegalAction),
    ("buy", 2, {"type": "buy", "slot": 0}, NotYourTurn),
    ("buy", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("buy_with_an_empty_space", 2, {"type": "buy", "slot": 0}, IllegalAction),
    ("refill", 1, {"type": "buy", "slot": 1}, IllegalAction),
    ("refill", 2, {"type": "reveal", "slot": 1, "asset": {"industry": "food", "price": 5}},
     IllegalAction),
    ("refill", 2, {"type": "reveal", "slot": 0, "asset_id": 1}, IllegalAction),
    ("prompt", 1, {"type": "choose", "choice": "nowhere"}, IllegalAction),
    ("prompt", 2, {"type": "choose", "choice": "food"}, NotYourTurn),
    ("prompt", 1, {"type": "number_dice", "dice": [1, 2, 3, 4, 5]}, IllegalAction),
    ("over", 1, {"type": "industry", "face": "sports"}, IllegalAction),
    ("over", HOST, {"type": "adjust", "player": 1, "amount": -1, "note": "late"},
     IllegalAction),
])
def test_every_refusal_leaves_the_state_untouched(scene, player, action, error):
    assert_refused(SCENES[scene](), player, action, error)


@pytest.mark.parametrize("action", [
    {"type": "number_dice", "dice": [1, 2, 3, 4]},
    {"type": "number_dice", "dice": [1, 2, 3, 4, 5, 6]},
    {"type": "number_dice", "dice": [0, 2, 3, 4, 5]},
    {"type": "number_dice", "dice": [1, 2, 3, 4, 7]},
    {"type": "number_dice", "dice": "12345"},
    {"type": "industry", "face": "mining"},
    {"type": "startup", "industry": "biz-news"},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": -5}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 0}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 5, "payout": -1}},
    {"type": "reveal", "slot": 0, "asset": {"industry": "farming", "price": 5}},
    {"type": "reveal", "slot": 4, "asset": {"industry": "food", "price": 5}},
    {"type": "reveal", "slot": 0},
    {"type": "reveal", "slot": 0, "asset_id": 3, "asset": {"industry": "food", "price": 5}},
    {"type": "buy", "slot": -1},
    {"type": "choose", "choice": ""},
    {"type": "adjust", "player": 1, "amount": 5, "note": ""},
    {"type": "end_turn", "now": True},
    {"type": "toString"},
])
def test_malformed_actions_are_refused_by_the_models(action):
    with pytest.raises(ValidationError):
        GAME.parse_action(action)


# -- seeded random games ----------------------------------------------------------------------
def random_action(template, state, rng):
    kind = template["type"]
    if kind == "startup":
        return {"type": kind, "industry": rng.choice(template["industry"])}
    if kind == "reveal":
        action = {"type": kind, "slot": rng.choice(template["slot"])}
        if "asset_id" in template:
            return {**action, "asset_id": rng.choice(template["asset_id"])}
        stock = rng.random() < 0.3
        asset = {"industry": rng.choice(template["asset"]["industry"]),
                 "price": rng.randint(1, 60), "stock": stock, "name": rng.choice(["", "Corp"])}
        if rng.random() < 0.3:
            asset["payout"] = rng.randint(0, 120)
        return {**action, "asset": asset}
    if kind == "industry":
        return {"type": kind, "face": rng.choice(template["face"])}
    if kind == "number_dice":
        return {"type": kind, "dice": [rng.randint(1, 6) for _ in range(5)]}
    if kind == "buy":
        return {"type": kind, "slot": rng.choice(template["slot"])}
    if kind == "choose":
        return {"type": kind, "choice": rng.choice(template["choice"])}
    if kind == "adjust":
        target = rng.choice(template["player"])
        amount = rng.randint(-money(state, target), min(state["bank"], 20))
        return {"type": kind, "player": target, "amount": amount or 1, "note": "random"}
    return {"type": kind}


def random_table(seed):
    """(the driver's rng, the players, the options) of a seeded random game."""
    rng = random.Random(seed)
    players = list(range(10, 10 + rng.randint(2, 5)))
    # A small Asset deck brings the reshuffled discard pile and the empty market spaces.
    return rng, players, options(asset_cards=rng.choice([4, 6, 32]))


def play_random_game(seed, max_actions=20_000):
    rng, players, opts = random_table(seed)
    state = GAME.setup(players, opts, random.Random(seed))
    log = []
    for step in range(max_actions):
        if state["step"] == "over":
            return state, log
        assert GAME.waiting_for(state)
        actors = [*players, HOST] if rng.random() < 0.02 else players
        choices = [(actor, template) for actor in actors
                   for template in GAME.actions(state, actor)]
        actor, template = rng.choice(choices)
        action = random_action(template, state, rng)
        notes = GAME.apply(state, actor, GAME.parse_action(action),
                           random.Random(seed * 100_003 + step))
        log.append((actor, action, texts(notes)))
        assert conserved(state), (seed, step, action)
        assert all(s["money"] >= 0 for s in state["seats"]) and state["bank"] >= 0
        json.dumps(state)
        json.dumps(GAME.view(state, HOST))
    raise AssertionError(f"seed {seed}: the game did not end in {max_actions} actions")


@pytest.mark.parametrize("seed_block", range(10))
def test_random_games_end_with_the_bank_empty_and_money_conserved(seed_block):
    for seed in range(seed_block * 10, seed_block * 10 + 10):
        state, log = play_random_game(seed)
        assert state["bank"] == 0 and state["last_bill"] is not None
        result = GAME.result(state)
        best = max(s["money"] for s in state["seats"])
        assert {s["player"] for s in state["seats"] if s["money"] == best} == set(result.winners)
        assert log[-1][2][-1].endswith("took the last bill and the game is over.")


# -- the engine's own random player (the bot of the trust suite and the benchmark) ------------
def play_with_random_action(seed, kinds, max_actions=20_000):
    """A game driven only by BigMoney.random_action: a waiting player is picked at random
    and posts what the bot chose, exactly as a phone would (through parse_action)."""
    rng, players, opts = random_table(seed)
    state = GAME.setup(players, opts, random.Random(seed))
    for step in range(max_actions):
        if state["step"] == "over":
            return state
        waiting = GAME.waiting_for(state)
        for idle in set(players) - set(waiting):
            assert GAME.random_action(state, idle, rng) is None
        assert GAME.random_action(state, HOST, rng) is None
        player = rng.choice(waiting)
        action = GAME.random_action(state, player, rng)
        assert action is not None and json.loads(json.dumps(action)) == action
        GAME.apply(state, player, GAME.parse_action(action), random.Random(seed * 7 + step))
        kinds.add(action["type"] + (" of a known card" if "asset_id" in action else ""))
        assert conserved(state), (seed, step, action)
        assert all(s["money"] >= 0 for s in state["seats"]) and state["bank"] >= 0
    raise AssertionError(f"seed {seed}: the game did not end in {max_actions} actions")


@pytest.mark.parametrize("seed_block", range(4))
def test_random_action_games_end_with_the_bank_empty_and_money_conserved(seed_block):
    kinds = set()
    for seed in range(seed_block * 10, seed_block * 10 + 10):
        state = play_with_random_action(seed, kinds)
        assert state["bank"] == 0 and state["last_bill"] is not None
        assert sum(s["money"] for s in state["seats"]) == state["start_total"]
        assert GAME.result(state).winners
        assert GAME.random_action(state, state["seats"][0]["player"], random.Random(0)) is None
    assert kinds >= {"startup", "reveal", "industry", "number_dice", "buy", "end_turn",
                     "choose"}


def test_random_action_reveals_known_cards_from_the_reshuffled_pile():
    kinds = set()
    for seed in range(40):
        play_with_random_action(seed, kinds)
    assert "reveal of a known card" in kinds


def test_random_action_is_legal_at_every_step_and_follows_the_rng():
    state = at_prompt()
    assert GAME.random_action(state, 2, random.Random(1)) is None
    choice = GAME.random_action(state, 1, random.Random(1))
    assert choice["type"] == "choose" and choice["choice"] in GAME.actions(state, 1)[0]["choice"]
    state = at_refill()
    reveal = GAME.random_action(state, 1, random.Random(3))
    assert reveal == GAME.random_action(state, 1, random.Random(3))
    if reveal["type"] == "reveal":
        assert reveal["slot"] == state["refill_slot"]
    GAME.apply(state, 1, GAME.parse_action(reveal), random.Random(0))
    setup = in_setup()
    first = GAME.random_action(setup, 1, random.Random(5))
    assert first["type"] in ("startup", "reveal")
    GAME.parse_action(first)


# -- Big Money ---------------------------------------------------------------------------
# "If the Asset deck is empty, shuffle the discard pile to create a new deck. If there is no
# discard pile, leave that space in the Market empty and continue playing. The next time an
# Asset is discarded, fill the empty space in the Market with it."

def market_left_empty():
    """A game whose Asset deck (4 cards, all in the market) and discard pile are empty
    when player 1 buys from space 1."""
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=4))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    assert state["market"][0] is None and state["asset_deck"]["unseen"] == 0
    assert state["asset_discard"] == [] and state["asset_deck"]["reshuffled"] == []
    return state


def test_big_money_offers_nobody_a_card_from_an_empty_deck():
    state = market_left_empty()
    for actor in (1, 2, HOST):
        assert all(template["type"] != "reveal" for template in GAME.actions(state, actor))
    for seed in range(20):
        assert GAME.random_action(state, 2, random.Random(seed))["type"] != "reveal"


def test_big_money_refuses_a_card_revealed_from_nowhere():
    state = market_left_empty()
    for player in (1, 2):
        assert_refused(state, player, {"type": "reveal", "slot": 0,
                                       "asset": {"industry": "food", "price": 5}})
        assert_refused(state, player, {"type": "reveal", "slot": 0, "asset_id": 1})


def test_big_money_fills_the_waiting_space_with_the_next_discard_the_host_included():
    state = market_left_empty()
    asset = give(state, 2, "food", name="Diner")
    notes = act(state, HOST, type="adjust", player=2, amount=0, note="the box",
                discard_asset=asset["id"])
    assert texts(notes) == ["The host adjusts: the Diner of {name:2} is discarded into the "
                            "empty Market space 1 (the box)."]
    assert state["market"][0] == asset and state["asset_discard"] == []
    stock = give(state, 1, "travel", price=5, stock=True, name="Cruise")
    act(state, 2, type="industry", face="travel")
    assert state["asset_discard"] == [stock]  # no space waits: the discard pile again


def test_big_money_a_space_left_empty_waits_once_the_deck_runs_out():
    state = started((1, 2), ["sports", "travel"], opts=options(asset_cards=5))
    buy_step(state, 1)
    act(state, 1, type="buy", slot=0)
    act(state, 1, type="end_turn")  # space 1 left empty with one card still in the deck
    assert any(t["type"] == "reveal" for t in GAME.actions(state, 2))
    buy_step(state, 2)
    act(state, 2, type="buy", slot=1)
    act(state, 1, type="reveal", slot=1, asset={"industry": "food", "price": 5})
    assert state["asset_deck"]["unseen"] == 0
    assert all(t["type"] != "reveal" for t in GAME.actions(state, 1))
    assert_refused(state, 1, {"type": "reveal", "slot": 0,
                              "asset": {"industry": "food", "price": 5}})
    stock = give(state, 2, "sports", price=5, stock=True, name="Arena")
    act(state, 1, type="industry", face="sports")
    assert state["market"][0] == stock


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
