"""Big Money's phone and host screens over the test client: Start-Ups and market cards,
the Industry die and who collected what, the number dice, a purchase, the reshuffled
discard pile, a Biz News choice on the asked phone only, the host's Bank adjustment, the
last bill, and refusals explained in place. Every move is posted from the form the page
shows (its hidden fields, its buttons' names and values)."""
from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from tests.support.api import Api
from tests.support.big_money_forms import ANTITRUST_ONLY, Forms
from tests.support.pages import csrf_of, page

NAMES = ("Ann", "Ben", "Cat")
STARTUPS = {"Ann": "food", "Ben": "sports", "Cat": "travel"}
MARKET = [  # (industry, price, stock, name); the Airline Stock pays 45 instead of 40
    ("food", "10", False, "Diner"), ("travel", "20", True, "Airline"),
    ("technology", "40", False, ""), ("entertainment", "30", False, "Arena"),
]


# -- helpers: a page's forms, a table --------------------------------------------------
def form_of(html: str, action_type: str) -> dict:
    """The form that posts actions of this type (one with `name="type" value=...`), not
    counting the picks from cards entered at earlier tables."""
    found = [form for form in Forms(html).forms
             if any(i.get("name") == "type" and i.get("value") == action_type
                    for i in form["inputs"])
             and "bm-catalogue-card" not in form["attrs"].get("class", "")]
    assert found, f"no {action_type} form on the page"
    return found[0]


def hidden(form: dict) -> list[tuple[str, str]]:
    return [(i["name"], i.get("value", "")) for i in form["inputs"] if i.get("type") == "hidden"]


def offers(form: dict, name: str, value: str) -> bool:
    """The form has a button, radio or checkbox posting name=value."""
    return any(c.get("name") == name and c.get("value") == value
               for c in [*form["inputs"], *form["buttons"]])


class Table:
    """A started Big Money table (made through the API), a phone per player (a test client
    holding the player's cookie) and the host screen's client."""

    def __init__(self, app, options=None, seed=7):
        self.api = Api(client=app.test_client())
        self.seated = self.api.table(game="big-money", players=NAMES, options=options, seed=seed)
        self.code = self.seated.code
        self.ids = self.seated.ids
        self.phones = {}
        for name in NAMES:
            self.phones[name] = app.test_client()
            self.phones[name].set_cookie(f"companion_{self.code}", self.seated.tokens[name])
        self.host = app.test_client()
        self.host.set_cookie(f"companion_host_{self.code}", self.seated.host)

    def client(self, name):
        return self.phones[name] if name else self.host

    def url(self, name=None) -> str:
        return f"/t/{self.code}" if name else f"/t/{self.code}/host"

    def page(self, name=None) -> str:
        return page(self.client(name), self.url(name))

    def submit(self, name, action_type, choices=(), status=200, html=None) -> str:
        """Post the page's form of `action_type` from this screen as htmx does, with
        `choices` (name, value) for its buttons and fields; the answer is the panel."""
        html = html or self.page(name)
        data = [*hidden(form_of(html, action_type)), *choices]
        response = self.client(name).post(f"/t/{self.code}/act", data=MultiDict(data),
                                          headers={"HX-Request": "true"})
        assert response.status_code == status, response.get_data(as_text=True)[:1500]
        return response.get_data(as_text=True)

    def post(self, name, data, status) -> str:
        """Post hand-made fields (a move the page does not offer) with this screen's own
        csrf token, as htmx would."""
        envelope = [("csrf_token", csrf_of(self.page(name))),
                    ("screen", "phone" if name else "host")]
        response = self.client(name).post(f"/t/{self.code}/act", data=MultiDict([*envelope, *data]),
                                          headers={"HX-Request": "true"})
        assert response.status_code == status, response.get_data(as_text=True)[:1500]
        return response.get_data(as_text=True)

    def view(self, name=None) -> dict:
        return self.seated.view(self.seated.tokens[name] if name else self.seated.host)

    def state(self) -> dict:
        return self.view()["state"]

    def money(self, name) -> int:
        return next(s["money"] for s in self.state()["seats"] if s["player"] == self.ids[name])


def start_ups_and_market(table: Table) -> None:
    """Every player taps their Start-Up; Ann turns over the four market cards."""
    for name, industry in STARTUPS.items():
        html = table.page(name)
        form = form_of(html, "startup")
        assert all(offers(form, "industry", ind) for ind in
                   ("sports", "food", "travel", "entertainment", "technology"))
        table.submit(name, "startup", [("industry", industry)], html=html)
    for slot, (industry, price, stock, name) in enumerate(MARKET):
        card = [("asset.industry", industry), ("asset.price", price),
                ("asset.name", name)] + ([("asset.stock", "true")] if stock else [])
        html = table.page("Ann")
        form = form_of(html, "reveal")
        if slot < 3:  # a radio per empty space; the last one is a hidden field
            assert offers(form, "slot", str(slot)) and offers(form, "slot", "3")
            card.insert(0, ("slot", str(slot)))
        else:
            assert ("slot", "3") in hidden(form)
        assert offers(form, "asset.industry", industry) and offers(form, "asset.stock", "true")
        if stock:  # the preview proposes the payout; the card says 45: the player changes it
            query = "&".join(f"{k}={v}" for k, v in [*hidden(form), *card] if k != "csrf_token")
            preview = page(table.phones["Ann"], f"/t/{table.code}/preview?{query}")
            assert 'form="bm-reveal-form" name="asset.payout" value="40"' in preview
            assert "Airline Stock</strong>" in preview and "Put it in the market" in preview
            # The preview's field and button belong to the entry form: it posts all of it.
            table.submit("Ann", "reveal", [*card, ("asset.payout", "45")], html=html)
        else:  # no payout field: the proposed one (also what the form does without htmx)
            table.submit("Ann", "reveal", card, html=html)


@pytest.fixture
def table(app):
    table = Table(app)
    start_ups_and_market(table)
    return table


def turn(table: Table, name: str, face: str, dice=(1, 2, 4, 5, 6)) -> str:
    table.submit(name, "industry", [("face", face)])
    return table.submit(name, "number_dice",
                        [(f"dice[{i}]", str(die)) for i, die in enumerate(dice)])


# -- the table ------------------------------------------------------------------------------
def test_start_ups_and_market_cards_through_the_forms(table):
    state = table.state()
    assert state["step"] == "industry"
    assert [a["industry"] for s in state["seats"] for a in s["assets"]] == [
        "food", "sports", "travel"]
    assert [(a["name"], a["price"], a["payout"], a["stock"]) for a in state["market"]] == [
        ("Diner", 10, 10, False), ("Airline", 20, 45, True),
        ("Technology Asset", 40, 40, False), ("Arena", 30, 30, False)]
    ben = table.page("Ben")
    assert "Airline Stock" in ben and "pays <strong>45</strong> then discarded" in ben
    assert "Waiting for Ann." in ben and 'name="face"' not in ben
    ann = table.page("Ann")
    form = form_of(ann, "industry")
    for face in ("sports", "food", "travel", "entertainment", "technology", "biz-news"):
        assert offers(form, "face", face)
    # The roller's moves carry the version the screen shows: a stale one is refused.
    assert dict(hidden(form))["version"] == str(table.view()["version"])


def test_the_setup_says_what_each_screen_waits_for_in_the_games_own_turn_text(app):
    """Big Money's own turn text (the one game with a `_turn_text.html`) replaces "Your
    turn (with ...)" while the Start-Ups are chosen; the other games have none."""
    table = Table(app)
    ann = table.page("Ann")
    assert "Your turn: choose your Start-Up. Waiting for Ben and Cat to choose theirs." in ann
    assert "Then you enter the 4 market cards." in ann and "Your turn (with" not in ann
    table.submit("Ann", "startup", [("industry", "food")])
    host = table.page()
    assert "Waiting for Ben and Cat to choose a Start-Up." in host
    assert "Then Ann enters the 4 market cards." in host


def test_switching_the_start_up_before_the_game_starts(app):
    table = Table(app)
    html = table.submit("Ann", "startup", [("industry", "food")])
    # The market cards are entered once everyone has a Start-Up, by the first player
    # (the others may, behind a tap).
    assert "Once everyone has taken a Start-Up" in html and 'value="reveal"' not in html
    table.submit("Ben", "startup", [("industry", "food")])
    html = table.submit("Cat", "startup", [("industry", "food")])
    assert "Entering the market cards instead of <span class=\"player-name\">Ann</span>?" in html
    assert "<h2>Turn over the market cards</h2>" in table.page("Ann")
    for kind in ("startup", "reveal"):  # made at once by several players: no version
        assert "version" not in dict(hidden(form_of(html, kind)))
    html = table.submit("Ann", "startup", [("industry", "technology")])
    assert 'value="technology" class="button bm-face-button bm-ind-technology bm-current"' in html
    assert "Ann switches their Start-Up to Technology." in html


def test_an_industry_roll_shows_who_collected_what_on_every_screen(table):
    table.submit("Ann", "industry", [("face", "food")])
    assert table.state()["bank"] == 635
    for name in (*NAMES, None):
        html = table.page(name)
        assert 'class="bm-bank-amount">635<' in html  # the Bank, on every screen
        ledger = html[html.index('class="bm-ledger"'):]
        assert re.search(r"\+5</span>\s*<span class=\"player-name\">Ann</span>\s*"
                         r"<span class=\"bm-reason\">from the Bank: Food Assets", ledger)
        assert "Industry die:" in html and "Food" in html
    # The log says the same, with the assets that paid.
    assert "Ann rolled Food. Ann collects 5: Food asset 5." in table.page("Cat")


def test_the_number_dice_preview_and_the_single_highest_payout(table):
    table.submit("Ann", "industry", [("face", "technology")])
    html = table.page("Ann")
    form = form_of(html, "number_dice")
    dice = [i for i in form["inputs"] if i.get("name", "").startswith("dice[")]
    assert len(dice) == 30 and {i["value"] for i in dice} == set("123456")
    assert {i["name"] for i in dice} == {f"dice[{n}]" for n in range(5)}  # a radio group a die
    assert all(re.search(rf'<label for="{i["id"]}">', html) for i in dice)  # every box is labelled
    preview = page(table.phones["Ann"], f"/t/{table.code}/preview?type=number_dice"
                   + "".join(f"&dice[{i}]={d}" for i, d in enumerate((3, 4, 5, 6, 6))))
    assert "Little Straight, collects 12." in preview and "<form" not in preview
    html = table.submit("Ann", "number_dice", [(f"dice[{i}]", d) for i, d in enumerate("34566")])
    assert table.money("Ann") == 12 and table.state()["bank"] == 628
    assert "Little Straight: <strong>12</strong>" in html
    assert "Buy Diner for 10" in html and "End the turn without buying" in html
    # Only the assets she can afford are offered.
    assert (offers(form_of(html, "buy"), "slot", "0")
            and not offers(form_of(html, "buy"), "slot", "1"))


def test_a_purchase_then_the_next_card_is_turned_over(table):
    turn(table, "Ann", "technology", (3, 4, 5, 6, 6))
    html = table.submit("Ann", "buy", [("slot", "0")])
    assert table.money("Ann") == 2 and "bought the Diner" in html
    for name in NAMES:  # anyone may turn the next card over; the roller may leave it empty
        html = table.page(name)
        assert "Market space 1: the next Asset card" in html
        assert ("Leave market space 1 empty" in html) == (name == "Ann")
    table.submit("Ben", "reveal", [("asset.industry", "sports"),
                                   ("asset.price", "15"), ("asset.name", "Arena Club")])
    view = table.view("Ben")
    assert view["turn"] == table.ids["Ben"] and view["state"]["market"][0]["payout"] == 15
    assert 'name="face"' in table.page("Ben")


def test_ending_a_turn_without_buying(table):
    turn(table, "Ann", "technology")
    html = table.submit("Ann", "end_turn")
    assert "Ann ends the turn without buying. Ben rolls next." in html
    assert table.view()["turn"] == table.ids["Ben"]


def adjust(table: Table, name: str, amount: int, note: str, discard: str | None = None) -> str:
    """The host's adjustment of one player, from the host screen's form for that player."""
    html = table.page()
    form = next(f for f in Forms(html).forms if ("player", str(table.ids[name])) in hidden(f))
    data = [*hidden(form), ("amount", str(amount)), ("note", note)]
    if discard is not None:
        assert offers(form, "discard_asset", discard)
        data.append(("discard_asset", discard))
    response = table.host.post(f"/t/{table.code}/act", data=MultiDict(data),
                               headers={"HX-Request": "true"})
    assert response.status_code == 200, response.get_data(as_text=True)[:800]
    return response.get_data(as_text=True)


def test_the_reshuffled_discard_pile_is_picked_from_the_cards_the_app_knows(app):
    table = Table(app, options={"asset_cards": 5})
    start_ups_and_market(table)
    adjust(table, "Ann", 100, "a loan from the bank")
    turn(table, "Ann", "technology")
    table.submit("Ann", "buy", [("slot", "0")])
    table.submit("Ann", "reveal",
                 [("asset.industry", "sports"), ("asset.price", "5")])  # the last unseen card
    diner = next(a for a in table.state()["seats"][0]["assets"] if a["name"] == "Diner")
    adjust(table, "Ann", 0, "the Diner closed", discard=str(diner["id"]))
    adjust(table, "Ben", 100, "a loan from the bank")
    turn(table, "Ben", "technology")
    html = table.submit("Ben", "buy", [("slot", "1")])
    assert "shuffle the discard pile (1 Asset) into a new deck" in html
    for name in NAMES:
        form = form_of(table.page(name), "reveal")
        assert offers(form, "asset_id", str(diner["id"])) and ("slot", "1") in hidden(form)
        assert not offers(form, "asset.industry", "food")  # nothing to type: the app knows it
    assert "Diner</span>" in table.page("Cat") and "price 10 · pays 10" in table.page("Cat")
    table.submit("Cat", "reveal", [("asset_id", str(diner["id"]))])
    state = table.state()
    assert state["market"][1]["name"] == "Diner" and state["asset_deck"]["reshuffled"] == []
    assert table.view()["turn"] == table.ids["Cat"]


def test_a_biz_news_choice_is_asked_on_the_right_phone_only(app):
    table = Table(app, options={"biz_news": ANTITRUST_ONLY})
    start_ups_and_market(table)
    turn(table, "Ann", "technology", (1, 1, 2, 3, 5))  # a pair: 3
    table.submit("Ann", "end_turn")
    turn(table, "Ben", "technology", (3, 4, 5, 6, 6))  # 12: Ben buys the Food Diner
    table.submit("Ben", "buy", [("slot", "0")])
    table.submit("Ann", "reveal", [("asset.industry", "sports"), ("asset.price", "50")])
    # Cat rolls Biz News: Ben owns one Sports and one Food Asset, a tie he must settle.
    html = table.submit("Cat", "industry", [("face", "biz-news")])
    assert ("Biz News: Antitrust Fine" in html
            and "Pay 5 per Asset of your largest industry." in html)
    ben = table.page("Ben")
    form = form_of(ben, "choose")
    assert offers(form, "choice", "sports") and offers(form, "choice", "food")
    assert "your largest industries are tied" in ben
    for name in ("Ann", "Cat", None):
        html = table.page(name)
        assert 'name="choice"' not in html
        assert ("Waiting for <span class=\"player-name\">Ben</span> to choose: Sports: 1 Asset, "
                "fine 5 or Food: 1 Asset, fine 5.") in html
        assert "Biz News: Antitrust Fine" in html
    assert table.money("Ann") == 0 and table.money("Cat") == 0  # fined 5 each already
    text = table.post("Cat", [("type", "choose"), ("choice", "food")], status=403)
    assert "The Biz News card is not asking you anything." in text
    html = table.submit("Ben", "choose", [("choice", "food")])
    assert "Ben pays 2, all they have (5 owed) for Antitrust Fine (1 Food Asset x 5)." in html
    assert table.state()["step"] == "number_dice" and 'name="dice[0]"' in table.page("Cat")


def test_the_host_adjusts_the_bank_from_the_host_screen(table):
    turn(table, "Ann", "technology", (3, 4, 5, 6, 6))
    table.submit("Ann", "buy", [("slot", "0")])
    html = table.page()
    assert "Adjust the Bank" in html and 'name="face"' not in html
    forms = [f for f in Forms(html).forms
             if any(i.get("name") == "type" and i.get("value") == "adjust" for i in f["inputs"])]
    assert len(forms) == 3 and all(("screen", "host") in hidden(f) for f in forms)
    ann = next(f for f in forms if ("player", str(table.ids["Ann"])) in hidden(f))
    diner = next(a for s in table.state()["seats"] for a in s["assets"] if a["name"] == "Diner")
    assert offers(ann, "discard_asset", str(diner["id"])) and offers(ann, "discard_asset", "null")
    data = [*hidden(ann), ("amount", "-2"), ("discard_asset", str(diner["id"])),
            ("note", "spilled coffee")]
    response = table.host.post(f"/t/{table.code}/act", data=MultiDict(data),
                               headers={"HX-Request": "true"})
    assert response.status_code == 200, response.get_data(as_text=True)[:800]
    text = response.get_data(as_text=True)
    assert ("The host adjusts: the Diner of Ann is discarded; Ann pays the Bank 2 "
            "(spilled coffee).") in text
    assert table.money("Ann") == 0 and not any(a["name"] == "Diner"
                                               for a in table.state()["seats"][0]["assets"])
    # A phone cannot adjust the Bank.
    text = table.post("Ann", [("type", "adjust"), ("player", str(table.ids["Ann"])),
                              ("amount", "50"), ("note", "me")], status=403)
    assert "Only the host can do that." in text and table.money("Ann") == 0


def test_the_last_bill_ends_the_game_and_every_screen_says_who_took_it(table):
    html = table.page()
    ben = next(f for f in Forms(html).forms if ("player", str(table.ids["Ben"])) in hidden(f))
    data = [*hidden(ben), ("amount", str(table.state()["bank"])), ("note", "the end")]
    response = table.host.post(f"/t/{table.code}/act", data=MultiDict(data),
                               headers={"HX-Request": "true"})
    assert response.status_code == 200
    for name in (*NAMES, None):
        html = table.page(name)
        assert "The Bank ran out when Ben took the last bill." in html
        assert "took the last bill</span>" in html and 'class="bm-bank-amount">0<' in html
        assert 'name="type"' not in html


def test_an_illegal_action_is_explained_in_place_and_changes_nothing(table):
    version = table.view()["version"]
    # Ben taps a face on Ann's turn: 403, the panel with the message, nothing changed.
    text = table.post("Ben", [("type", "industry"), ("face", "food"), ("version", str(version))],
                      status=403)
    assert text.startswith('<section id="panel"') and "It is not your turn." in text
    assert 'class="error"' in text and "Waiting for Ann." in text
    # Ann tries to buy before the dice: 422 and the rule in words, her move still offered.
    text = table.post("Ann", [("type", "buy"), ("slot", "0"), ("version", str(version))],
                      status=422)
    assert "You cannot buy now: enter the Industry die first." in text and 'name="face"' in text
    assert table.view()["version"] == version
    # Six dice: the form's list is refused by the model, in the words the field asks for.
    table.submit("Ann", "industry", [("face", "sports")])
    text = table.submit("Ann", "number_dice", [(f"dice[{i}]", d) for i, d in enumerate("123456")],
                        status=400)
    assert "Tap one face on each of the five dice, then send them." in text
    assert 'name="dice[0]"' in text
    assert table.view()["version"] == version + 1 and table.state()["step"] == "number_dice"
