"""A screen's stream renders a viewer's own part again only when what it reads changed
(screen_stream.own_inputs): of the public state and of the actions offered, what the game
says its own part reads (`Game.own_reads`, `Game.own_actions`), and whether the viewer is
awaited rather than who is. Here each game's own part, at every step of seeded games and
for every screen (a sheet's with players without a phone too), renders the same from
those alone as from the whole view: a template that reads more would be caught here
before a phone kept an old form."""
from __future__ import annotations

import random

import pytest
from flask import render_template

from companion.auth import PUBLIC, Viewer
from companion.games import GAMES
from companion.table import read
from companion.web.screen_stream import ACTION_ID, NOT_A_CHANGE, own_inputs
from companion.web.screens import panel_context
from tests.support.api import Api
from tests.support.screens import post

NAMES = ("Ann", "Ben", "Cat", "Dan")
OPTIONS = {"score-sheet": [{"categories": ["Points", "Eggs"], "entry": "players"},
                           {"categories": ["Points"], "entry": "scorer", "rounds": 3},
                           {"categories": ["Tricks"], "bids": "oh_hell", "rounds": 3},
                           {"categories": ["Points"], "teams": 2, "team_scoring": "together"},
                           {"categories": ["Points"], "secret": True, "rounds": None}]}


def own_part(app, code: str, viewer: Viewer, screen: str, cut: bool) -> str:
    with app.test_request_context("/"):
        table = read.find(code)
        context = panel_context(table, viewer, screen, whole=False)
        if cut:
            view = context["view"]
            awaited = view["you"] is not None and view["you"] in view["waiting_for"]
            engine = GAMES[table.game]
            reads = engine.own_reads(view["state"], view["you"], view["actions"])
            offered = engine.own_actions(view["state"], view["you"], view["actions"],
                                         [p.id for p in table.players if p.local])
            context["view"] = dict(view, state=reads, actions=offered,
                                   waiting_for=[view["you"]] if awaited else [], turn=None)
        own = render_template("table/_own_event.html", **dict(
            context, action_id=ACTION_ID, fragment=True, oob=True))
        return NOT_A_CHANGE.sub("", own)  # (each request context has a CSRF token of its own)


def own_parts_read_only_what_they_say(app, table) -> None:
    screens = [(Viewer(player_id=player), "phone") for player in table.ids.values()]
    screens += [(Viewer(is_host=True), "host"), (PUBLIC, "display")]
    for viewer, screen in screens:
        whole = own_part(app, table.code, viewer, screen, cut=False)
        assert own_part(app, table.code, viewer, screen, cut=True) == whole, (screen, viewer)


@pytest.mark.parametrize("game,options", [
    (game, options) for game in sorted(GAMES) for options in OPTIONS.get(game, [{}])])
def test_an_own_part_reads_of_the_table_only_what_its_game_says(app, game, options):
    api = Api(client=app.test_client(), app=app)
    engine = GAMES[game]
    players = NAMES[:min(max(engine.min_players, 4), engine.max_players)]
    table = api.table(game, players=players, options=options)
    for _ in range(40):
        own_parts_read_only_what_they_say(app, table)
        if table.view()["status"] != "playing":
            break
        token, action = table.next_move()
        table.act(token, **action)


@pytest.mark.parametrize("options", [
    {"categories": ["Points", "Eggs"], "entry": "players", "rounds": 3},
    {"categories": ["Points"], "entry": "players", "secret": True, "rounds": 3},
    {"categories": ["Points"], "entry": "scorer", "rounds": 3},
    {"categories": ["Tricks"], "bids": "oh_hell", "rounds": 3}])
def test_a_sheets_own_parts_read_only_what_it_says_with_a_player_without_a_phone(
        app, options):
    """The host enters the rows (and bids) of a player without a phone: the host's own
    part reads who has entered of them (`own_actions` cuts the rest away)."""
    api = Api(client=app.test_client(), app=app)
    table = api.table("score-sheet", players=("Ann", "Ben"), start=False, options=options)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    post(host, f"/t/{table.code}/players/local", {"name": "Dan"}, f"/t/{table.code}/host")
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 7})
    assert status == 200, body
    dan = next(p["id"] for p in body["players"] if p["name"] == "Dan")
    table.ids["Dan"], table.names[dan] = dan, "Dan"
    rng = random.Random(3)
    for _ in range(14):
        own_parts_read_only_what_they_say(app, table)
        view = table.view()
        if view["status"] != "playing":
            break
        if dan in view["waiting_for"]:  # the host makes Dan's move, then the others theirs
            with app.app_context():
                state = read.find(table.code).state
            action = GAMES["score-sheet"].random_action(state, dan, rng)
            status, body = table.act(table.host, **{**action, "as": dan})
        else:
            token, action = table.next_move()
            status, body = table.act(token, **action)
        assert status == 200, body


def inputs(app, code: str, player: int) -> bytes:
    with app.test_request_context("/"):
        table = read.find(code)
        viewer = Viewer(player_id=player)
        return own_inputs(table, panel_context(table, viewer, "phone", whole=False))


def test_another_players_go_big_move_leaves_what_a_waiting_phones_own_part_reads(app):
    """Go Big's own part reads the table only where it offers moves: another player's
    move leaves what a waiting phone's own part reads as it was."""
    api = Api(client=app.test_client(), app=app)
    table = api.table("go-big", players=("Ann", "Ben", "Cat", "Dan"))
    cat = table.ids["Cat"]
    before = inputs(app, table.code, cat)
    table.act(table.tokens["Ann"], type="play", value=2, count=1)
    table.act(table.tokens["Ann"], type="draw", source="deck")
    assert inputs(app, table.code, cat) == before
    assert inputs(app, table.code, table.ids["Ben"]) != inputs(app, table.code, cat)


def turn_lines(app, table, screen: str) -> set[str]:
    """The turn line `_turn.html` renders for each viewer of `screen` the table does not
    await (on the host screen: the host), rendered for each."""
    with app.test_request_context("/"):
        snapshot = read.find(table.code)
        viewers = ([Viewer(is_host=True)] if screen == "host" else
                   [Viewer(player_id=player) for player in table.ids.values()])
        lines = set()
        for viewer in viewers:
            view = read.view(snapshot, viewer)
            if view["you"] is None or view["you"] not in view["waiting_for"]:
                lines.add(render_template(
                    "table/_turn.html", view=view, names=read.names_of(snapshot),
                    templates="table/" + GAMES[snapshot.game].folder, screen=screen,
                    fragment=True, table=snapshot).strip())
        return lines


@pytest.mark.parametrize("game,options", [
    (game, options) for game in sorted(GAMES) for options in OPTIONS.get(game, [{}])])
def test_the_turn_line_reads_alike_for_every_viewer_of_a_screen_the_table_does_not_await(
        app, game, options):
    """A screen's viewers whom the table does not await share one turn line, worked out
    once (panel_parts.own_turn_html): a game's own turn text may speak to a viewer it
    awaits, never differently to those it does not. At every step of seeded games, they
    all read the same."""
    api = Api(client=app.test_client(), app=app)
    engine = GAMES[game]
    table = api.table(game, players=NAMES[:min(max(engine.min_players, 4), engine.max_players)],
                      options=options)
    for _ in range(30):
        for screen in ("phone", "host"):
            assert len(turn_lines(app, table, screen)) <= 1, screen
        if table.view()["status"] != "playing":
            break
        token, action = table.next_move()
        table.act(token, **action)
