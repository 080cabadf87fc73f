"""The Big Money engine's cards: Biz News (a draw, the deck and its discard pile reshuffled
with the given rng, and each card's effect, with the clarifications on ties and on paying
more than one has), the Asset market (buying, refilling, the reshuffled discard pile, and
a space left empty until the next discard, as the rulebook says), and the host's
adjustments of money and Assets."""
from __future__ import annotations

import copy
import random

from companion.games.big_money import Options
from companion.games.engine import HOST, NotYourTurn
from tests.support.big_money_engine import (GAME, NO_CATEGORY, act, assert_refused, buy_step, card,
                                            conserved, fund, give, money, one_card_game, options,
                                            seat, started, texts)


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
