"""Big Money's "why not" on the roller's phone: why a market card cannot be bought now (the
step of the turn, then the money), each line with a link to the rule that says so; the
other phones say nothing of it."""
from __future__ import annotations

import re

from tests.support.api import Api
from tests.support.pages import page, text_of

STARTUPS = {"Ann": "food", "Ben": "sports", "Cat": "travel"}
MARKET = [{"industry": "food", "price": 10, "name": "Diner"},
          {"industry": "travel", "price": 20, "stock": True, "name": "Airline"},
          {"industry": "technology", "price": 40}, {"industry": "entertainment", "price": 30}]
WHY_NOT = re.compile(r'<ul class="why-not"[^>]*>(.*?)</ul>', re.S)


def big_money_table(app):
    """Ann, Ben and Cat past the setup: Ann rolls first, with nothing in hand."""
    table = Api(client=app.test_client()).table("big-money", players=tuple(STARTUPS), seed=7)
    for name, industry in STARTUPS.items():
        assert table.act(table.tokens[name], type="startup", industry=industry)[0] == 200
    for slot, asset in enumerate(MARKET):
        status, body = table.act(table.tokens["Ann"], type="reveal", slot=slot, asset=asset)
        assert status == 200, body
    assert table.view()["turn"] == table.ids["Ann"]
    return table


def why_not_on_the_phone(app, table, name: str, language: str = "en") -> list[str]:
    """The lines under the moves on this player's phone, each as it reads with its link."""
    phone = app.test_client()
    phone.set_cookie(f"companion_{table.code}", table.tokens[name])
    html = page(phone, f"/t/{table.code}") if language == "en" else phone.get(
        f"/t/{table.code}", headers={"Accept-Language": language}).get_data(as_text=True)
    found = WHY_NOT.search(html)
    if found is None:
        return []
    return [text_of(line) + " -> " + " ".join(re.findall(r'href="([^"]+)"', line))
            for line in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def test_the_rollers_phone_says_why_no_card_can_be_bought_before_the_dice(app):
    table = big_money_table(app)
    assert why_not_on_the_phone(app, table, "Ann") == [
        "You cannot buy now: enter the Industry die first. Rule: A turn, step by step "
        "-> /rules/big-money#turn"]
    assert why_not_on_the_phone(app, table, "Ben") == []


def test_at_the_buy_step_each_card_beyond_the_rollers_money_is_named_with_its_rule(app):
    table = big_money_table(app)
    ann = table.tokens["Ann"]
    assert table.act(ann, type="industry", face="technology")[0] == 200
    assert table.act(ann, type="number_dice", dice=[3, 4, 5, 6, 6])[0] == 200  # 12
    assert table.view()["state"]["seats"][0]["money"] == 12
    assert why_not_on_the_phone(app, table, "Ann") == [
        f"The {card} costs {price}; you have 12. Rule: Buying an Asset -> /rules/big-money#buy"
        for card, price in (("Airline Stock", 20), ("Technology Asset", 40),
                            ("Entertainment Asset", 30))]
    german = why_not_on_the_phone(app, table, "Ann", "de")
    assert len(german) == 3 and all("Regel: Eine Firma kaufen" in line for line in german)
    assert why_not_on_the_phone(app, table, "Cat") == []
