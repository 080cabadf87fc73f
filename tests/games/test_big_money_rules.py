"""Big Money's rules page as the engine names it: the section of each step, the setup
checklist for a table's options and players, the section each refusal cites, and why a
market card cannot be bought now."""
from __future__ import annotations

import random

import pytest

from companion.games.big_money import BigMoney, Options, option_defaults
from companion.games.engine import HOST, IllegalAction, NotYourTurn

GAME = BigMoney()
MARKET = [{"industry": "food", "price": 10}, {"industry": "travel", "price": 20, "stock": True},
          {"industry": "technology", "price": 40}, {"industry": "entertainment", "price": 60}]
NOTHING = [1, 2, 4, 5, 6]  # number dice that fit no category


def act(state, actor, /, **data):
    return GAME.apply(state, actor, GAME.parse_action(data), random.Random(0))


def options(**changes) -> Options:
    return Options(**{**option_defaults(), **changes})


def started(opts=None):
    """Ann (1) and Ben (2) past the setup, Ann to roll with 15 in hand."""
    state = GAME.setup([1, 2], opts or Options(), random.Random(0))
    for player in (1, 2):
        act(state, player, type="startup", industry="sports")
    for slot, asset in enumerate(MARKET):
        act(state, 1, type="reveal", slot=slot, asset=asset)
    act(state, HOST, type="adjust", player=1, amount=15, note="arranging the scene")
    return state


def at_buy(opts=None):
    state = started(opts)
    act(state, 1, type="industry", face="technology")
    act(state, 1, type="number_dice", dice=NOTHING)
    return state


def refusal(state, actor, data) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        act(state, actor, **data)
    return refused.value


def test_the_sections_begin_with_the_setup_and_end_with_our_rulings():
    sections = list(GAME.rule_sections)
    assert sections[0] == "setup" and sections[-2:] == ["end", "rulings"]
    assert {"turn", "industry", "biz-news", "number-dice", "buy", "market", "bank"} <= set(
        sections)


def test_each_step_opens_its_own_section():
    state = GAME.setup([1, 2], Options(), random.Random(0))
    assert GAME.rule_for(state) == "setup"
    state = started()
    assert GAME.rule_for(state) == "industry"
    act(state, 1, type="industry", face="technology")
    assert GAME.rule_for(state) == "number-dice"
    act(state, 1, type="number_dice", dice=NOTHING)
    assert GAME.rule_for(state) == "buy"
    act(state, 1, type="buy", slot=0)
    assert GAME.rule_for(state) == "market"

    news = started(options(biz_news=[{"name": "Tax", "text": "Pay.", "count": 1,
                                      "effect": {"kind": "roll_then_pay", "amount": 5}}]))
    act(news, 1, type="industry", face="biz-news")
    assert news["step"] == "biz_news" and GAME.rule_for(news) == "biz-news"

    over = started()
    act(over, HOST, type="adjust", player=2, amount=over["bank"] - 5, note="nearly empty")
    act(over, 1, type="industry", face="sports")
    assert over["step"] == "over" and GAME.rule_for(over) == "end"


def test_the_checklist_counts_the_players_and_the_boxs_cards():
    two = GAME.setup_checklist(Options(), 2)
    assert two[0] == ("Each player takes one Start-Up Asset (green back) and lays it face "
                      "up: 2 cards in all.")
    assert f"the app is the Bank, which starts with {Options().bank_total}." in two[4]
    five = GAME.setup_checklist(options(asset_cards=20, biz_news=[
        {"name": "Tax", "text": "Pay.", "count": 3, "effect": {"kind": "manual"}}]), 5)
    assert five[0].endswith("5 cards in all.")
    assert five[2] == "Shuffle the Asset deck (gold backs, 20 cards) face down onto the board."
    assert "Biz News deck (3 cards)" in five[5]
    assert [line for line in two if line not in five] == [two[0], two[2], two[5]]


@pytest.mark.parametrize("scene, actor, data, section", [
    ("industry", 2, {"type": "industry", "face": "sports"}, "turn"),
    ("industry", 1, {"type": "buy", "slot": 0}, "turn"),
    ("industry", 1, {"type": "startup", "industry": "food"}, "setup"),
    ("industry", 1, {"type": "reveal", "slot": 0, "asset": {"industry": "food", "price": 5}},
     "market"),
    ("industry", 1, {"type": "choose", "choice": "food"}, "biz-news"),
    ("industry", 1, {"type": "adjust", "player": 1, "amount": 5, "note": "me"}, "bank"),
    ("industry", HOST, {"type": "adjust", "player": 1, "amount": -16, "note": "too much"},
     "bank"),
    ("buy", 1, {"type": "buy", "slot": 3}, "buy"),
])
def test_a_refusal_cites_the_section_that_forbids_the_move(scene, actor, data, section):
    state = started() if scene == "industry" else at_buy()
    assert refusal(state, actor, data).rule == section


def test_after_the_last_bill_every_move_cites_the_end():
    state = started()
    act(state, HOST, type="adjust", player=2, amount=state["bank"] - 5, note="nearly empty")
    act(state, 1, type="industry", face="sports")
    assert refusal(state, 2, {"type": "industry", "face": "food"}).rule == "end"


def test_why_not_names_each_card_the_roller_cannot_afford_as_buying_it_would():
    state = at_buy()
    reasons = GAME.why_not(state, 1)
    assert [reason.rule for reason in reasons] == ["buy", "buy", "buy"]
    assert [str(reason) for reason in reasons] == [
        str(refusal(state, 1, {"type": "buy", "slot": slot})) for slot in (1, 2, 3)]
    assert str(reasons[0]) == "The Travel Stock costs 20; you have 15."
    assert GAME.why_not(state, 2) == [] and GAME.why_not(state, HOST) == []


def test_why_not_says_once_that_buying_comes_after_the_dice():
    state = started()
    [reason] = GAME.why_not(state, 1)
    assert (str(reason), reason.rule) == (
        "You cannot buy now: enter the Industry die first.", "turn")
    assert not isinstance(reason, NotYourTurn)
    act(state, 1, type="industry", face="technology")
    [reason] = GAME.why_not(state, 1)
    assert str(reason) == "You cannot buy now: enter the number dice first."
    assert GAME.why_not(GAME.setup([1, 2], Options(), random.Random(0)), 1) == []


def test_why_not_is_quiet_when_every_card_is_affordable():
    state = at_buy()
    act(state, HOST, type="adjust", player=1, amount=100, note="rich")
    assert GAME.why_not(state, 1) == []
