"""Nothing Beats a Large on the phones and the host screen, over the test client: the
forms the phones post, what every screen shows, and what none of them may show."""
from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from tests.support.api import Api, Seated
from tests.support.pages import csrf_of, page, revealed, text_of

GAME = "nothing-beats-a-large"
# Seed 0 deals (seats Ann, Ben, Cat):
#   Ann: red Small, yellow Medium, green Large; goal cards green and red
#   Ben: red Large, yellow Small, green Medium; goal cards green and yellow
#   Cat: red Medium, yellow Large, green Small; goal cards yellow and red
SEED = 0
PIECES = {"Ann": ["red-S", "yellow-M", "green-L"], "Ben": ["red-L", "yellow-S", "green-M"],
          "Cat": ["red-M", "yellow-L", "green-S"]}
GOALS = {"Ann": ["green", "red"], "Ben": ["green", "yellow"], "Cat": ["yellow", "red"]}


# -- helpers: a form reader ------------------------------------------------------------
class FormReader(HTMLParser):
    """Every form of a page: its hidden fields, radio choices and buttons' names."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._form = None
        self._button = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"action": attrs.get("action"), "hidden": {}, "radios": {},
                          "buttons": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and attrs.get("type") == "hidden":
            self._form["hidden"][attrs["name"]] = attrs.get("value", "")
        elif tag == "input" and attrs.get("type") == "radio":
            self._form["radios"].setdefault(attrs["name"], []).append(attrs["value"])
        elif tag == "button":
            self._button = {"label": attrs.get("aria-label"), "text": ""}
            self._form["buttons"].append(self._button)

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self._button["text"] = " ".join(self._button["text"].split())
            self._button = None
        elif tag == "form":
            self._form = None


def forms_of(html: str) -> list[dict]:
    reader = FormReader()
    reader.feed(html)
    return reader.forms


def buttons_of(html: str) -> list[str]:
    """The accessible name of every button in the page's forms."""
    return [b["label"] or b["text"] for form in forms_of(html) for b in form["buttons"]]


def form_with(html: str, button: str) -> dict:
    found = [f for f in forms_of(html)
             if any(button in (b["label"], b["text"]) for b in f["buttons"])]
    assert len(found) == 1, f"no single form with a {button!r} button in {buttons_of(html)}"
    return found[0]


def tap(client, url: str, button: str, choices: dict | None = None, status: int = 200) -> str:
    """Load the page, then post the form of `button` as htmx would (radios from `choices`)."""
    html = page(client, url)
    form = form_with(html, button)
    data = dict(form["hidden"])
    for name, value in (choices or {}).items():
        assert value in form["radios"][name], (name, value, form["radios"])
        data[name] = value
    response = client.post(form["action"], data=data, headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == status, text[:800]
    assert text.startswith('<section id="panel"')
    return text


def post_action(client, code: str, data: dict, csrf_from: str, status: int) -> str:
    """A hand-made post (not offered by any form) of an action from a screen."""
    data = dict(data, csrf_token=csrf_of(page(client, csrf_from)))
    response = client.post(f"/t/{code}/act", data=data, headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == status, text[:800]
    return text


def section(html: str, css_class: str) -> str:
    """The first element with this class, up to the end of its tag name's element."""
    match = re.search(rf'<(\w+) class="[^"]*\b{css_class}\b[^"]*"', html)
    if match is None:
        return ""
    tag = match.group(1)
    start, depth, position = match.start(), 0, match.start()
    for tag_match in re.finditer(rf"<(/?){tag}\b", html[start:]):
        depth += -1 if tag_match.group(1) else 1
        if depth == 0:
            position = start + tag_match.end()
            break
    return html[start:html.index(">", position) + 1]


def seat_of(html: str, name: str) -> str:
    seats = re.findall(r'<li class="nbl-seat.*?</li>\s*(?=<li class="nbl-seat|</ul>)', html, re.S)
    found = [s for s in seats if f'<span class="player-name">{name}</span>' in s]
    assert len(found) == 1
    return found[0]


def label(piece: str) -> str:
    color, size = piece.split("-")
    return f"{color} {dict(L='Large', M='Medium', S='Small')[size]}"


def goal_chips(html: str) -> list[str]:
    return re.findall(r'class="nbl-goal nbl-goal-(\w+)', html)


# -- a table of three, seated by cookie ----------------------------------------------------
class Table:
    def __init__(self, app, api: Api, options: dict | None = None, seed: int = SEED):
        self.seated: Seated = api.table(game=GAME, seed=seed, options=options)
        self.code = self.seated.code
        self.ids = self.seated.ids
        self.phones = {}
        for name, token in self.seated.tokens.items():
            phone = app.test_client()
            phone.set_cookie(f"companion_{self.code}", token)
            self.phones[name] = phone
        self.host = app.test_client()
        self.host.set_cookie(f"companion_host_{self.code}", self.seated.host)

    @property
    def url(self) -> str:
        return f"/t/{self.code}"

    def phone_page(self, name: str) -> str:
        return page(self.phones[name], self.url)

    def host_page(self) -> str:
        return page(self.host, self.url + "/host")

    def tap(self, name: str, button: str, **kwargs) -> str:
        return tap(self.phones[name], self.url, button, **kwargs)

    def others(self, name: str) -> dict[str, str]:
        """Every screen but `name`'s phone: the other phones, their panels, the host."""
        screens = {"host": self.host_page(),
                   "host panel": page(self.host, self.url + "/panel?screen=host")}
        for other in self.phones:
            if other != name:
                screens[other] = self.phone_page(other)
                screens[other + " panel"] = page(self.phones[other], self.url + "/panel")
        return screens

    def api_act(self, name: str, **action) -> dict:
        status, body = self.seated.act(self.seated.tokens[name], **action)
        assert status == 200, body
        return body


@pytest.fixture
def table(app, api):
    return Table(app, api)


def test_the_deal_on_every_screen_and_each_players_goals_only_on_their_phone(table):
    view = table.seated.view()
    assert {table.seated.names[s["player"]]: s["pieces"]
            for s in view["state"]["seats"]} == PIECES
    for name in PIECES:
        html = table.phone_page(name)
        take = section(html, "nbl-take")
        for piece in PIECES[name]:
            assert f"</svg> {label(piece)}</li>" in take
        # Pieces are pyramids with a name a screen reader reads; the seat lists all of them.
        assert 'role="img" aria-label="red Large"' in seat_of(html, "Ben")
        assert sorted(goal_chips(html)) == sorted(GOALS[name])
        assert goal_chips(section(html, "nbl-goals")) == GOALS[name]
        assert goal_chips(html.replace(section(html, "nbl-private"), "")) == []
    host = table.host_page()
    assert "Take your pieces" in host and "red, yellow, green (9 pieces)" in host
    for html in (host, page(table.host, table.url + "/panel?screen=host")):
        assert goal_chips(html) == [] and "goal card" not in html.replace(
            "two goal cards, in secret", "")
        assert "nbl-private" not in html and "nbl-goals" not in html


def test_a_cast_on_the_phones_challenge_lock_reveal_and_steal(table):
    ann = table.phone_page("Ann")
    assert {"Challenge Ben 3 pieces", "Challenge Cat 3 pieces"} <= set(buttons_of(ann))
    assert "Ann challenges Ben or Cat." in ann
    assert not any(b.startswith("Challenge") for b in buttons_of(table.phone_page("Ben")))

    # Tap 1: the challenge. Ann's answer is her casting buttons at once.
    panel = table.tap("Ann", "Challenge Ben 3 pieces")
    assert set(buttons_of(panel)) >= {"Cast the red Small", "Cast the yellow Medium",
                                      "Cast the green Large", "Cast Nothing"}
    assert "Cast the red Large" not in buttons_of(panel)  # Ben's piece, not Ann's
    assert "Cast Nothing" in buttons_of(table.phone_page("Ben"))
    assert not any(b.startswith("Cast") for b in buttons_of(table.phone_page("Cat")))
    cast_box = section(table.phone_page("Cat"), "nbl-cast")
    assert "Ann against Ben" in cast_box and cast_box.count("choosing…") == 2

    # Tap 2: Ann's cast locks at once; only Ann's phone says which piece.
    panel = table.tap("Ann", "Cast the red Small")
    mine = section(panel, "nbl-mine-cast")
    assert "You locked in <strong>red Small</strong>" in mine
    assert not any(b.startswith("Cast") for b in buttons_of(panel))
    for screen, html in table.others("Ann").items():
        cast_box = section(html, "nbl-cast")
        assert re.search(r"Ann</span> <strong class=\"nbl-locked\">locked in ✓", cast_box), screen
        assert "Ben</span> <span class=\"nbl-choosing\">choosing…" in cast_box, screen
        assert html.count("nbl-locked") == 1, screen
        assert "You locked in" not in html and "nbl-reveal" not in html, screen
        assert not re.search(r"(cast|locked in) the red Small", html), screen

    # Ben's one tap reveals both casts on every screen, with the engine's explanation.
    table.tap("Ben", "Cast Nothing")
    for screen, html in table.others("nobody").items():
        reveal = section(html, "nbl-reveal")
        assert "Small beats Nothing." in reveal, screen
        assert "Ann wins and takes a piece from Ben." in reveal, screen
        assert re.search(r"nbl-hand nbl-won\">\s*<svg[^>]*aria-label=\"red Small\"", reveal), screen
        assert re.search(r'<svg class="nbl-pyr nbl-pyr-L nbl-nothing"[^>]*aria-label="Nothing"',
                         reveal), screen
        assert "Ann cast the red Small and Ben cast Nothing" in section(html, "log"), screen
    assert "Hand over the piece Ann picks." in table.phone_page("Ben")
    assert "Hand over" not in text_of(table.phone_page("Cat"))

    # Ann steals with one tap; every screen says who took what from whom.
    ann = table.phone_page("Ann")
    assert "Take a piece from Ben" in ann
    assert set(buttons_of(ann)) >= {"Take the red Large", "Take the yellow Small",
                                    "Take the green Medium"}
    panel = table.tap("Ann", "Take the red Large")
    assert "Ann stole the red Large from Ben." in section(panel, "nbl-latest")
    for screen, html in table.others("Ann").items():
        assert "Ann stole the red Large from Ben." in section(html, "nbl-latest"), screen
        assert "Ben challenges Cat." in html, screen  # the loser challenges the third player
        assert 'aria-label="red Large"' in seat_of(html, "Ann"), screen
        assert 'aria-label="red Large"' not in seat_of(html, "Ben"), screen
        assert "2 pieces" in seat_of(html, "Ben") and "4 pieces" in seat_of(html, "Ann")
    assert buttons_of(table.phone_page("Ben"))[:1] == ["Challenge Cat 3 pieces"]


def test_a_cast_is_never_stale_when_the_other_caster_locked_in_first(table):
    table.api_act("Ann", type="challenge", opponent=table.ids["Ben"])
    old_page = table.phone_page("Ben")
    table.api_act("Ann", type="cast", piece="green-L")  # the table's version moves on
    form = form_with(old_page, "Cast the red Large")
    assert "version" not in form["hidden"] and form["hidden"]["action_id"].endswith("-cast-red-L")
    data = dict(form["hidden"])
    response = table.phones["Ben"].post(form["action"], data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Tie (both Large)" in section(response.get_data(as_text=True), "nbl-reveal")
    # The same tap again (a double tap) counts once.
    again = table.phones["Ben"].post(form["action"], data=data, headers={"HX-Request": "true"})
    assert again.status_code == 200
    assert table.seated.view()["state"]["cast"]["round"] == 2


def test_casting_by_hand_one_caster_records_both_pieces(app, api):
    table = Table(app, api, options={"casting": "by-hand"})
    table.tap("Ann", "Challenge Ben 3 pieces")
    ann, ben = str(table.ids["Ann"]), str(table.ids["Ben"])
    cast_box = section(table.phone_page("Cat"), "nbl-cast")
    assert "either of you records both pieces" in cast_box and "locked" not in cast_box
    assert "Record both pieces" not in buttons_of(table.phone_page("Cat"))
    html = table.phone_page("Ben")
    form = form_with(html, "Record both pieces")
    assert form["radios"] == {f"pieces.{ann}": PIECES["Ann"] + ["null"],
                              f"pieces.{ben}": PIECES["Ben"] + ["null"]}
    # Every choice is a labelled control.
    for caster in (ann, ben):
        for value in form["radios"][f"pieces.{caster}"]:
            control = f"nbl-{caster}-{'nothing' if value == 'null' else value}"
            assert f'id="{control}"' in html and f'<label for="{control}"' in html
    assert "<legend>Ben (you) showed</legend>" in html and "<legend>Ann showed</legend>" in html
    panel = table.tap("Ben", "Record both pieces",
                      choices={f"pieces.{ann}": "green-L", f"pieces.{ben}": "null"})
    reveal = section(panel, "nbl-reveal")
    assert "Nothing beats a Large." in reveal and "Ben wins and takes a piece from Ann." in reveal
    assert "Take a piece from Ann" in table.phone_page("Ben")
    assert "Nothing beats a Large." in section(table.host_page(), "nbl-reveal")



def test_illegal_actions_are_explained_in_place_and_change_nothing(table):
    url = table.url
    version = table.seated.view()["version"]
    text = post_action(table.phones["Ben"], table.code,
                       {"type": "challenge", "opponent": str(table.ids["Cat"])}, url, 403)
    assert 'id="panel"' in text and "It is not your turn to challenge." in text
    table.api_act("Ann", type="challenge", opponent=table.ids["Ben"])
    version += 1
    text = post_action(table.phones["Cat"], table.code, {"type": "cast", "piece": "red-M"},
                       url, 403)
    assert "Only the two players in the challenge cast now." in text
    text = post_action(table.phones["Ann"], table.code, {"type": "cast", "piece": "red-L"},
                       url, 422)
    assert "You do not hold the red Large." in section(text, "error")
    assert "Cast the red Small" in buttons_of(text)  # the choices are still there
    text = post_action(table.phones["Ann"], table.code, {"type": "cast", "piece": "purple-L"},
                       url, 400)
    assert "That was not understood" in text
    # The host may act for a player, but never make a secret choice for them.
    text = post_action(table.host, table.code, {"type": "cast", "piece": "red-S", "screen": "host",
                                                "as": str(table.ids["Ann"])}, url + "/host", 403)
    assert "Only that player can make this secret choice" in text
    table.tap("Ann", "Cast the red Small")
    text = post_action(table.phones["Ann"], table.code, {"type": "cast", "piece": "null"}, url, 422)
    assert "Your cast is locked in and cannot be changed." in text
    assert "Nothing" not in section(text, "error") and "red" not in section(text, "error")
    assert table.seated.view()["version"] == version + 1


def normalised(html: str, table: Table) -> str:
    """The page without what differs between two tables anyway: tokens, code, player ids."""
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    html = re.sub(r'name="(csrf_token|action_id)" value="[^"]*"|data-action-id="[^"]*"', "", html)
    for name, player_id in table.ids.items():
        html = re.sub(rf'name="(player|opponent)" value="{player_id}"',
                      rf'name="\1" value="{name}"', html)
        html = re.sub(rf'player={player_id}"', f'player={name}"', html)  # rejoin links
    by_id = {str(player_id): name for name, player_id in table.ids.items()}
    # The marks of the table's parts name players by id (whose seat, who may see a line).
    html = re.sub(r'data-(mine|only|except|you)="([\d ]*)"',
                  lambda m: f'data-{m[1]}="{" ".join(by_id[i] for i in m[2].split())}"', html)
    return html.replace(table.code, "CODE")


def test_no_other_screen_shows_an_unrevealed_cast_in_any_way(app, api):
    """Two tables alike but for Ann's locked piece: every other screen is the same."""
    screens = []
    for piece in ("green-L", "null"):
        table = Table(app, api)
        table.tap("Ann", "Challenge Ben 3 pieces")
        table.tap("Ann", "Cast the green Large" if piece != "null" else "Cast Nothing")
        screens.append({name: normalised(html, table)
                        for name, html in table.others("Ann").items()})
        status, log = api.call("GET", f"/tables/{table.code}/log", table.seated.tokens["Ben"])
        assert status == 200 and "green" not in str(log) and "Nothing" not in str(log)
    assert screens[0] == screens[1]


def play_to_ann_s_red_goal(table: Table) -> None:
    """Three casts (seed 0): Ann wins the first and the third and holds the red trio."""
    ids = table.ids
    table.api_act("Ann", type="challenge", opponent=ids["Ben"])
    table.api_act("Ann", type="cast", piece="red-S")
    table.api_act("Ben", type="cast", piece=None)
    table.api_act("Ann", type="steal", piece="red-L")
    table.api_act("Ben", type="challenge", opponent=ids["Cat"])
    table.api_act("Ben", type="cast", piece="yellow-S")
    table.api_act("Cat", type="cast", piece=None)
    table.api_act("Ben", type="steal", piece="yellow-L")
    table.tap("Cat", "Challenge Ann 4 pieces")
    table.tap("Cat", "Cast the red Medium")
    table.tap("Ann", "Cast the red Large")


def test_a_completed_goal_is_revealed_on_every_screen_then_everyone_s_at_the_end(table, api):
    play_to_ann_s_red_goal(table)
    for _screen, html in table.others("Ann").items():
        assert goal_chips(html.replace(section(html, "nbl-private"), "")) == []  # not yet
    panel = table.tap("Ann", "Take the red Medium")
    assert "reveals a red goal card" in section(panel, "nbl-latest")
    assert "Now all three green pieces win, even without red." in panel
    for screen, html in table.others("Ann").items():
        public = html.replace(section(html, "nbl-private"), "")
        assert goal_chips(public) == ["red"], screen  # Ann's red card; her green one stays hidden
        assert "Goal completed:" in seat_of(html, "Ann") and "nbl-goal-red nbl-done" in seat_of(
            html, "Ann")
        assert "Ann holds all three red pieces and reveals a red goal card" in html

    # Play on at random through the API to the end: then every goal card is shown.
    rng = random.Random(5)
    seated = table.seated
    for _ in range(400):
        view = seated.view()
        if view["status"] == "finished":
            break
        player = rng.choice(view["waiting_for"])
        token = seated.token_of(player)
        action = seated.view(token)["actions"][0]
        kind = action["type"]
        if kind == "challenge":
            status, body = seated.act(token, type=kind, opponent=rng.choice(action["opponent"]))
        else:
            status, body = seated.act(token, type=kind, piece=rng.choice(action["piece"]))
        assert status == 200, body
    assert seated.view()["status"] == "finished"
    for screen, html in list(table.others("nobody").items()):
        assert "The game is over." in html and "completed a second goal" in section(html, "result")
        for name in GOALS:
            chips = goal_chips(seat_of(html, name))
            assert chips == GOALS[name], (screen, name)
            assert "Goal cards:" in seat_of(html, name)
        assert "nbl-private" not in html
        assert not any(b.startswith(("Cast", "Take", "Challenge")) for b in buttons_of(html))


def test_a_player_without_a_phone_casts_on_the_host_device_behind_its_cover(app, api):
    seated = api.table(game=GAME, players=("Ann", "Ben"), start=False)
    host = app.test_client()
    host.set_cookie(f"companion_host_{seated.code}", seated.host)
    lobby = page(host, f"/t/{seated.code}/host")
    response = host.post(f"/t/{seated.code}/players/local",
                         data={"name": "Cat", "csrf_token": csrf_of(lobby)})
    assert response.status_code == 303
    cat = next(p["id"] for p in seated.view()["players"] if p["name"] == "Cat")
    status, body = api.call("POST", f"/tables/{seated.code}/start", seated.host, {"seed": SEED})
    assert status == 200, body
    seated.act(seated.tokens["Ann"], type="challenge", opponent=cat)
    seated.act(seated.tokens["Ann"], type="cast", piece="green-L")
    assert "Play for Cat (no phone)" in page(host, f"/t/{seated.code}/host")
    cover = page(host, f"/t/{seated.code}/as/{cat}")
    assert "Pass the device to Cat" in cover and "Cast Nothing" not in buttons_of(cover)
    screen = revealed(host, f"/t/{seated.code}/as/{cat}")
    form = form_with(screen, "Cast Nothing")
    assert form["hidden"]["screen"] == f"as-{cat}"
    assert goal_chips(section(screen, "nbl-goals")) == GOALS["Cat"]
    response = host.post(form["action"], data=form["hidden"], headers={"HX-Request": "true"})
    assert response.status_code in (200, 204), response.get_data(as_text=True)[:500]
    reveal = section(page(host, f"/t/{seated.code}/host"), "nbl-reveal")
    assert "Nothing beats a Large." in reveal and "Cat wins and takes a piece from Ann." in reveal
