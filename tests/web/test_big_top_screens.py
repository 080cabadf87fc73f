"""Big Top's phone and host screens over the test client: hands entered by tapping card
tiles, the combined check, gate receipts, a call and a play from the forms, refusals, and
what each screen must never show."""
from __future__ import annotations

import re
import secrets

import pytest

from companion.games.big_top import DECK, SUITS, card_label
from tests.support.api import Api
from tests.support.pages import page
from tests.support.screens import post

NAMES = ("Ann", "Ben", "Cat")
PLAIN = {"clowns": "10", "sideshow": "7", "animals": "5", "performers": "3"}
# Ann is the first dealer, so Ben plays first. Dealing DECK in order round Cat, Ann, Ben
# gives Cat the Clown Poster and Ben the light 2 Clown: Ben can call it at once and Cat
# then earns $3 by playing the Poster.
HANDS = {name: [card for index, card in enumerate(DECK) if ("Cat", "Ann", "Ben")[index % 3] == name]
         for name in NAMES}


# -- helpers ---------------------------------------------------------------------------
class Table:
    """A started Big Top table made through the API, with a phone (a test client holding
    the player's cookie) per player and the host screen's client."""

    def __init__(self, app, options=None):
        self.api = Api(client=app.test_client())
        self.seated = self.api.table(game="big-top", players=NAMES, options=options)
        self.code = self.seated.code
        self.phones = {}
        for name in NAMES:
            phone = app.test_client()
            phone.set_cookie(f"companion_{self.code}", self.seated.tokens[name])
            self.phones[name] = phone
        self.host = app.test_client()
        self.host.set_cookie(f"companion_host_{self.code}", self.seated.host)

    def url(self, name: str | None = None) -> str:
        return f"/t/{self.code}" if name else f"/t/{self.code}/host"

    def page(self, name: str | None = None) -> str:
        return page(self.phones[name] if name else self.host, self.url(name))

    def panel(self, name: str) -> str:
        return page(self.phones[name], f"/t/{self.code}/panel")

    def act(self, name: str, data: dict, status: int = 200) -> str:
        """Post a form from this player's phone as htmx does; the answer is the panel."""
        envelope = {"action_id": secrets.token_urlsafe(9)}
        return post(self.phones[name], f"/t/{self.code}/act", dict(envelope, **data),
                    self.url(name), status=status, htmx=True).get_data(as_text=True)

    def view(self, name: str | None = None) -> dict:
        return self.seated.view(self.seated.tokens[name] if name else None)

    def version(self) -> int:
        return self.view()["version"]


def enter_hand(table: Table, name: str, cards: list[str]) -> str:
    return table.act(name, {"type": "hand", "cards[]": cards})


def place(table: Table, name: str, receipts: dict) -> str:
    return table.act(name, {"type": "receipts",
                            **{f"receipts.{suit}": value for suit, value in receipts.items()}})


def checked_cards(html: str) -> list[str]:
    return re.findall(r'name="cards\[\]" value="([a-z]+-[A-Z0-9]+)"[^>]*\bchecked\b', html)


def normalised(html: str) -> str:
    """A screen without what changes on every render or with every event (the log)."""
    html = re.sub(r'<section class="log".*?</section>|<template id="own-lines">.*?</template>',
                  "", html, flags=re.S)
    html = re.sub(r'name="(csrf_token|action_id|version)" value="[^"]*"|data-action-id="[^"]*"',
                  "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    return re.sub(r'data-version="\d+"|value="\d+" id="panel-since"'
                  r'|name="since" value="\d+"|since=\d+', "", html)


def place_by_api(table: Table, name: str, receipts: dict) -> None:
    """Receipts placed through the JSON API (the form is tested on its own)."""
    status, body = table.seated.act(table.seated.tokens[name], type="receipts",
                                    receipts={suit: int(value) for suit, value in receipts.items()})
    assert status == 200, body


def to_play(table: Table) -> None:
    for name in NAMES:
        enter_hand(table, name, HANDS[name])
    for name in NAMES:
        place_by_api(table, name, PLAIN)
    assert table.view()["state"]["step"] == "play"


@pytest.fixture
def table(app):
    return Table(app)


# -- hands ---------------------------------------------------------------------------------
def test_each_phone_gets_the_tile_grid_and_the_host_gets_none(table):
    html = table.page("Ann")
    assert html.count('name="cards[]"') == 52 and not checked_cards(html)
    for card in ("clowns-P", "sideshow-L3", "performers-D6"):
        assert f'value="{card}"' in html
    # Every tile is a labelled control: the label wraps the checkbox and names the card.
    assert re.search(r'<label class="bt-tile bt-light">\s*<input class="bt-sr" type="checkbox" '
                     r'name="cards\[\]" value="sideshow-L3"[^>]*>\s*<span class="bt-face" '
                     r'aria-hidden="true">3<small class="bt-shade">light</small></span>\s*'
                     r'<span class="bt-sr">light 3 Sideshow</span>', html)
    assert "0</strong> of 17 cards ticked" in html
    assert ("Usually 17 cards" in html and "Ann</span> deals" in html
            and "Ben</span> plays first" in html)
    assert 'name="version"' not in re.search(r'<form[^>]*class="bt-entry".*?</form>', html,
                                             re.S).group(0)
    host = table.page()
    assert 'name="cards[]"' not in host and "Deal <strong>1</strong> of 6" in host


def test_hands_from_the_tiles_a_failed_check_names_a_doubled_card_only_to_its_holders(table):
    short = [c for c in HANDS["Ann"] if c != "clowns-L1"]
    panel = enter_hand(table, "Ann", short)
    assert panel.startswith('<section id="panel"')
    assert sorted(checked_cards(panel)) == sorted(short)  # the entry comes back ticked
    assert "16 cards entered" in panel
    assert "✓ hand entered" in table.page("Ben")
    enter_hand(table, "Ben", HANDS["Ben"] + ["clowns-P"])  # Cat's Poster, tapped by mistake
    enter_hand(table, "Cat", HANDS["Cat"])
    assert table.view()["state"]["check"] == {"missing": ["clowns-L1"], "doubled_count": 1}

    for html in (table.page("Ann"), table.page("Ben"), table.page("Cat"), table.page()):
        check = re.search(r'<div class="bt-check".*?</div>', html, re.S).group(0)
        assert "The hands do not make up the deck" in check
        assert "Nobody entered: <span class=\"bt-chip\">light 1 Clown</span>" in check
        assert "Entered more than once: 1 card." in check and "Clown Poster" not in check
        assert not any(name in check for name in NAMES)
    # Ben and Cat entered the Clown Poster: they are told which card, and nobody else is
    # (Ann would learn that one of them holds it, the host that one of them does).
    for name in ("Ben", "Cat"):
        assert table.view(name)["private"]["doubled"] == ["clowns-P"]
        html = table.page(name)
        assert "both entered the <span class=\"bt-chip\">Clown Poster</span>" in html
        assert "Clown Poster (entered twice)" in html
        assert "the Clown Poster by you and another player" in table.seated.api.call(
            "GET", f"/tables/{table.code}/log",
            table.seated.tokens[name])[1]["events"][-1]["summary"]
    assert table.view("Ann")["private"]["doubled"] == []
    for text in (table.page(), page(table.phones["Ann"], f"/t/{table.code}/history?screen=phone"),
                 page(table.host, f"/t/{table.code}/history?screen=host"),
                 page(table.phones["Ann"], f"/d/{table.code}/panel")):
        assert "Clown Poster" not in text and "clowns-P" not in text
    ann = table.page("Ann")
    assert "entered twice" not in ann and "both entered" not in ann
    for viewer in ("Ann", None):
        status, body = table.seated.api.call("GET", f"/tables/{table.code}/log",
                                             table.seated.tokens[viewer] if viewer
                                             else table.seated.host)
        assert status == 200 and "Clown Poster" not in str(body) and "clowns-P" not in str(body)
        assert "clowns-P" not in str(table.view(viewer)["state"])
    # Everyone may fix their entry; the flagged tiles say why.
    assert set(table.view()["waiting_for"]) == set(table.seated.ids.values())
    assert sorted(checked_cards(ann)) == sorted(short)
    assert re.search(r'bt-missing">\s*<input[^>]*value="clowns-L1"', ann)
    assert "light 1 Clown (missing)" in ann
    assert re.search(r'bt-doubled">\s*<input[^>]*value="clowns-P"', table.page("Cat"))

    enter_hand(table, "Ann", HANDS["Ann"])
    panel = enter_hand(table, "Ben", HANDS["Ben"])
    assert table.view()["state"]["step"] == "receipts"
    assert 'name="cards[]"' not in panel and "Place your gate receipts" in panel


def test_an_empty_or_unknown_entry_is_explained_in_place(table):
    version = table.version()
    panel = table.act("Ann", {"type": "hand", "cards[]": ["clowns-X9"]}, status=422)
    assert ('id="panel"' in panel
            and 'There is no card &#34;clowns-X9&#34; in a Big Top deck.' in panel)
    panel = table.act("Ann", {"type": "hand", "cards[]": ["clowns-P", "clowns-P"]}, status=422)
    assert "You listed the Clown Poster more than once." in panel
    panel = table.act("Ann", {"type": "hand"}, status=400)  # nothing ticked
    assert 'id="panel"' in panel and 'class="error"' in panel
    assert table.version() == version


# -- receipts ------------------------------------------------------------------------------
def test_receipts_are_placed_from_four_radio_groups(table):
    for name in NAMES:
        enter_hand(table, name, HANDS[name])
    html = table.page("Ann")
    for suit in SUITS:
        assert html.count(f'name="receipts.{suit}"') == 4
    # No browser check of its own: a form sent short is refused by the server, in words.
    assert re.search(r'<input class="bt-sr" type="radio" name="receipts.clowns" value="10"', html)
    assert re.search(r'<form(?=[^>]*class="bt-receipts-form")[^>]*novalidate', html)
    assert "$10 on Clowns" in html and "(you hold 4)" in html
    assert 'name="version"' not in re.search(r'<form[^>]*class="bt-receipts-form".*?</form>',
                                             html, re.S).group(0)

    mixed = {"clowns": "3", "sideshow": "10", "animals": "7", "performers": "5"}
    panel = place(table, "Ann", mixed)
    assert table.view("Ann")["private"]["receipts"] == {"clowns": 3, "sideshow": 10, "animals": 7,
                                                        "performers": 5}
    assert re.search(r'name="receipts.clowns" value="3"[^>]*checked',
                     panel)  # kept ticked to change
    assert "$3 Clowns" in panel and "✓ receipts placed" in panel
    refused = table.act("Ben", {"type": "receipts", "receipts.clowns": "10",
                                "receipts.sideshow": "10",
                                "receipts.animals": "5", "receipts.performers": "3"}, status=422)
    assert "Place each receipt ($10, $7, $5 and $3) exactly once" in refused
    place(table, "Ben", PLAIN)
    panel = place(table, "Cat", PLAIN)
    assert table.view()["state"]["step"] == "play"
    assert 'name="receipts.clowns"' not in panel


# -- turns -----------------------------------------------------------------------------------
def test_a_call_then_a_play_that_earns_from_it(table):
    to_play(table)
    ben = table.page("Ben")
    assert "Your turn!" in ben
    # Exactly the legal options, one button (one form) per card; no pass while a card can go.
    legal = {(a["type"], card) for a in table.view("Ben")["actions"] for card in a["card"]}
    offered = re.findall(r'name="type" value="(\w+)">\s*'
                         r'<input type="hidden" name="card" value="([^"]+)"', ben)
    assert len(offered) == len(legal) and set(offered) == legal
    assert ("call", "clowns-L2") in legal and 'aria-label="Call the light 2 Clown"' in ben
    assert 'name="type" value="pass"' not in ben
    assert 'name="card"' not in table.page("Ann")  # not Ann's turn

    panel = table.act("Ben", {"type": "call", "card": "clowns-L2", "version": str(table.version())})
    assert "Ben called the light 2 Clown (on $3)." in panel
    assert re.search(r'Ben\'s organizing chart">\s*<li class="bt-space bt-taken">\s*'
                     r'<span class="bt-space-value">\$3</span><span class="bt-called">'
                     r'<span class="bt-sr">: </span>light 2 '
                     r'<span class="bt-called-suit">Clown</span>', panel)

    cat = table.page("Cat")
    assert 'aria-label="Play the Clown Poster, earns $3"' in cat
    panel = table.act("Cat", {"type": "play", "card": "clowns-P", "version": str(table.version())})
    earned = ("<strong><span class=\"player-name\">Cat</span> +$3</strong> for the Clown Poster, "
              "from Ben's called light 2 Clown")
    for html in (panel, table.page("Ann"), table.page("Ben"), table.page()):
        assert earned in html
        assert "Track <strong>$3</strong> · token face down on 3" in html
    assert ("<th scope=\"row\">Clowns</th>\n        <td><span class=\"bt-yes\">played</span>"
            in panel)


def test_illegal_moves_are_explained_in_place(table):
    to_play(table)
    version = table.version()
    panel = table.act("Cat", {"type": "play", "card": "clowns-P"}, status=403)
    assert panel.startswith('<section id="panel"') and "It is not your turn." in panel
    panel = table.act("Ben", {"type": "play", "card": "clowns-L2"}, status=422)
    assert 'class="error"' in panel
    assert "The light 2 Clown cannot be played yet: its pile waits for the Clown Poster." in panel
    panel = table.act("Ben", {"type": "call", "card": "clowns-P"}, status=422)
    assert "You do not hold the Clown Poster." in panel
    panel = table.act("Ben", {"type": "pass"}, status=422)
    assert "You cannot pass: you can still play or call a card." in panel
    panel = table.act("Ben", {"type": "call", "card": "clowns-L2", "version": str(version - 1)},
                      status=409)
    assert 'id="panel"' in panel
    assert table.version() == version


def test_a_double_tap_applies_once(table):
    to_play(table)
    html = table.page("Ben")
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*value="clowns-L2".*?</form>', html,
                     re.S).group(0)
    data = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    assert data["type"] == "call" and data["action_id"].endswith("-call-clowns-L2")
    for _ in range(2):
        response = table.phones["Ben"].post(f"/t/{table.code}/act", data=data,
                                            headers={"HX-Request": "true"})
        assert response.status_code == 200
    assert table.view()["state"]["seats"][1]["chart"]["3"] == "clowns-L2"
    assert len(table.seated.api.call("GET", f"/tables/{table.code}/log")[1]["events"]) == 7


# -- secrecy ---------------------------------------------------------------------------------
def others(table: Table, name: str):
    """Every screen but this player's own: the other phones (page and panel), the host."""
    for other in NAMES:
        if other != name:
            yield table.page(other)
            yield table.panel(other)
    yield table.page()


def test_an_entry_or_a_placement_changes_nothing_on_other_screens(table):
    enter_hand(table, "Ben", HANDS["Ben"])
    enter_hand(table, "Ann", HANDS["Ann"])
    before = [normalised(html) for html in others(table, "Ann")]
    for entry in (HANDS["Ann"][:-1], HANDS["Ann"][1:] + [HANDS["Cat"][0]]):
        enter_hand(table, "Ann", entry)
        assert [normalised(html) for html in others(table, "Ann")] == before
    for html in others(table, "Ann"):
        assert not set(checked_cards(html)) - set(HANDS["Ben"])

    enter_hand(table, "Ann", HANDS["Ann"])
    enter_hand(table, "Cat", HANDS["Cat"])
    place_by_api(table, "Ben", PLAIN)
    place_by_api(table, "Ann", {"clowns": "3", "sideshow": "10", "animals": "7", "performers": "5"})
    before = [normalised(html) for html in others(table, "Ann")]
    place_by_api(table, "Ann", {"clowns": "5", "sideshow": "3", "animals": "10", "performers": "7"})
    assert [normalised(html) for html in others(table, "Ann")] == before


def test_no_other_screen_shows_a_hand_or_unrevealed_receipts(table):
    for name in NAMES:
        enter_hand(table, name, HANDS[name])
    secret = {"clowns": "3", "sideshow": "10", "animals": "7", "performers": "5"}
    place_by_api(table, "Ann", secret)
    place_by_api(table, "Ben", PLAIN)
    place_by_api(table, "Cat", PLAIN)
    table.act("Ben", {"type": "call", "card": "clowns-L2"})
    table.act("Cat", {"type": "play", "card": "clowns-P"})

    held = table.view("Ann")["private"]["hand"]
    assert held and set(held) <= set(HANDS["Ann"])
    own = table.page("Ann")
    assert all(card_label(card).split()[-1] in own for card in held)
    assert "$3 Clowns" in own and "$10 Sideshow" in own
    for html in others(table, "Ann"):
        for card in held:
            assert card not in html
            assert card_label(card) not in re.sub(r"<[^>]+>", "", html)
        for shown in ("$3 Clowns", "$10 Sideshow", "$7 Animals", "$5 Performers"):
            assert shown not in html


# -- the end of a deal, and Fan Tan ------------------------------------------------------------
def test_after_a_deal_the_scores_and_paid_receipts_are_shown(table):
    to_play(table)
    seated = table.seated
    for _ in range(600):
        view = seated.view()
        if view["state"]["deal"] == 2:
            break
        token = seated.token_of(view["turn"])
        action = seated.view(token)["actions"][0]
        card = {"card": action["card"][0]} if "card" in action else {}
        status, body = seated.act(token, type=action["type"], **card)
        assert status == 200, body
    result = seated.view()["state"]["deal_results"][0]
    out = seated.names[result["out"]]
    html = table.page("Cat")
    assert f"Deal 1: <span class=\"player-name\">{out}</span> went out" in html
    for score in result["seats"]:
        assert f"${score['score']}</strong>" in html
        assert f"${score['receipts']} receipts" in html and f"+ ${score['track']} track" in html
    winner = next(s for s in result["seats"] if s["went_out"])
    assert ("($10 Clowns + $7 Sideshow + $5 Animals + $3 Performers)" in html
            and winner["receipts"] == 25)
    assert "Deal <strong>2</strong> of 6" in html and "Ben</span> deals" in html
    assert html.count('name="cards[]"') == 52 and not checked_cards(html)


def test_fan_tan_shows_peanuts_and_the_pot_and_offers_the_pass(app):
    table = Table(app, options={"variant": "fan-tan"})
    posters = [f"{suit}-P" for suit in SUITS]
    hands = {"Ann": [c for c in DECK
                     if c.split("-")[0] in ("clowns", "sideshow") and c not in posters],
             "Ben": [c for c in DECK
                     if c.split("-")[0] in ("animals", "performers") and c not in posters],
             "Cat": posters}
    for name in NAMES:
        enter_hand(table, name, hands[name])
    ben = table.page("Ben")
    assert "Pot <strong>0</strong> peanuts" in ben and "25 peanuts" in ben
    assert ("bt-chart" not in ben and 'name="receipts.' not in ben
            and "Your gate receipts" not in ben)
    assert ben.count('name="card"') == 0
    panel = table.act("Ben", {"type": "pass", "version": str(table.version())})
    assert "Pot <strong>1</strong> peanut<" in panel and "24 peanuts" in panel
    cat = table.page("Cat")
    assert cat.count('name="type" value="play"') == 4 and "Pay a peanut" not in cat


def test_the_phone_on_turn_says_why_its_own_cards_cannot_be_played_with_the_rule(table):
    to_play(table)
    ben = table.page("Ben")
    reasons = re.search(r'<ul class="why-not"[^>]*>(.*?)</ul>', ben, re.S).group(1)
    assert ("Not yet playable: your light 2 Clown, light 5 Clown, dark 2 Clown and dark 5 "
            "Clown, until the Clown Poster is played." in reasons)
    assert ('<a class="rule-link" href="/rules/big-top#play" target="_blank" rel="noopener">'
            "Rule: Playing a card from your hand</a>" in reasons)
    assert "Animal Poster, until" not in reasons  # Ben can play it: it is offered instead
    link = f"/rules/big-top?table={table.code}&at=now"  # opens the step's section
    assert f'href="{link.replace("&", "&amp;")}"' in ben
    assert table.phones["Ben"].get(link).headers["Location"].endswith("#turn")
    for html in (table.page("Ann"), table.page("Cat"), table.page()):
        assert 'class="why-not"' not in html and "Not yet playable" not in html
    rules = page(table.phones["Ben"], "/rules/big-top")
    assert '<section id="play" class="rule-section"' in rules
