"""Hostile input in the screens' forms: property-based fuzzing (hypothesis) of every form
handler and screen page, then a grid that gives every field of a move's form, and every
option of the new-table form, every hostile value in turn. The properties every answer has,
and the tables being fuzzed, are in tests/support/fuzzing.py."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.auth import host_cookie, player_cookie
from companion.games import GAMES
from tests.support.bots import actors
from tests.support.clients import form_fields
from tests.support.fuzzing import (FIELDS, FUZZ, HOSTILE, World, codes, quoted, request)
from tests.support.players import ALL_GAMES, names_for
from tests.support.referee import Referee

pytestmark = pytest.mark.counts(inputs_tried=1)  # every test here tries hostile input

# -- the screens' forms -------------------------------------------------------------------

FORM_HOSTILE = ["", "null", "0", "-1", "1", "99999999999999999999999", "x" * 3000, "\x00",
                "on", "true", "<b>", "as-1", "as-999999999999", "host", "phone", "%", "1e3",
                "١٢", "NaN", "1e999", "[" * 3000, '{"a":' * 3000, "[]", "{}", '{"1": -5}',
                "[1e999]", "\u202e", "\U0001F600" * 20]
form_values = st.one_of(st.text(max_size=30), st.sampled_from(FORM_HOSTILE))


@st.composite
def form_extras(draw) -> tuple[list[tuple[str, str]], int]:
    """Fields to add to a form, and which of its fields to drop (0: none)."""
    extra = []
    for _ in range(draw(st.integers(0, 6))):
        name = draw(st.sampled_from(FIELDS + ["screen", "steps", "player", "direction", "name",
                                              "token", "since", "cards[]", "receipts.clowns",
                                              "pieces.1", "a.b.c", "type.x", "x[]", "."])
                    | st.text(max_size=12))
        extra.append((name, draw(form_values)))
    return extra, draw(st.integers(0, 40))


def form_body(base: dict | None, extras: tuple) -> list[tuple[str, str]]:
    fields = (form_fields(base) if base else []) + extras[0]
    if fields and extras[1]:
        fields.pop(extras[1] % len(fields))
    return fields


def cookie_for(world: World, table, which: str):
    other = next(t for t in world.games.values() if t is not table)
    return {
        "none": None,
        "player": (player_cookie(table.code), next(iter(table.tokens.values()))),
        "host": (host_cookie(table.code), table.host),
        "stranger": (player_cookie(table.code), next(iter(other.tokens.values()))),
        "strange host": (host_cookie(table.code), other.host),
        "garbage": (player_cookie(table.code), "garbage!"),
    }[which]


COOKIES = st.sampled_from(["none", "player", "host", "stranger", "strange host", "garbage"])


player_ids = st.one_of(st.integers(0, 12), st.integers(0, 2**70))


def screen_route(world, data, game: str, method: str):
    """A table of the game (playing or in its lobby) and one of its screens' routes."""
    table = data.draw(st.sampled_from([world.games[game], world.lobbies[game]]))
    path = data.draw(st.sampled_from(world.screen_routes(method)))
    return table, path.replace("<int:player_id>", str(data.draw(player_ids)))


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_screen_forms(world, data, game):
    table, path = screen_route(world, data, game, "POST")
    extras = data.draw(form_extras())
    move = world.legal(game) if table is world.games[game] else None
    table = world.games[game] if move is not None else table
    form = form_body(move[1] if move and path == "/act" else None, extras)
    cookie = cookie_for(world, table, data.draw(COOKIES))
    response = request(world, "POST", f"/t/{table.code}{path}", form=form, cookie=cookie)
    if path == "/rejoin" and response.status_code == 200:  # keep the world usable
        player = int(dict(form)["player"])
        rejoined = world.api.call("POST", f"/tables/{table.code}/players/{player}/rejoin",
                                  table.host)[1]
        table.tokens[table.names[player]] = rejoined["token"]


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_screen_pages(world, data, game):
    table, path = screen_route(world, data, game, "GET")
    extras, screen = data.draw(form_extras()), data.draw(form_values)
    move = world.legal(game)
    query = form_body(move[1] if move and path == "/preview" else None, extras)
    if path == "/events":  # a stream that opens is answered with 200 and never read
        query = [("screen", screen)]
    code = data.draw(st.sampled_from([table.code, table.code.lower()]) | codes)
    request(world, "GET", f"/t/{quoted(code)}{path}", query=query,
            cookie=cookie_for(world, table, data.draw(COOKIES)))


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_lobby_forms(world, data, game):
    lobby = world.lobbies[game]
    engine = GAMES[game]
    option_names = list(engine.Options.model_json_schema().get("properties", {}))
    form = form_body(None, data.draw(form_extras()))
    form += [(data.draw(st.sampled_from(option_names)), data.draw(form_values))
             for _ in range(data.draw(st.integers(0, 3)))]
    target = data.draw(st.sampled_from([game, "chess", "%00", "x" * 200]))
    request(world, "POST", f"/new/{quoted(target)}", form=form)
    request(world, "POST", f"/new/{quoted(target)}/defaults", form=form)
    request(world, "GET", f"/new/{quoted(target)}")
    code = data.draw(st.sampled_from([lobby.code]) | codes)
    request(world, "GET", "/join", query={"code": data.draw(form_values | codes)})
    request(world, "POST", f"/j/{quoted(code)}", form=[("name", data.draw(form_values))])
    request(world, "GET", f"/j/{quoted(code)}")
    request(world, "GET", f"/r/{quoted(code)}")
    request(world, "POST", f"/j/{quoted(code)}/rejoin",
            form=[("rejoin_code", data.draw(form_values))])
    for path in ("", "/panel", "/qr.svg"):  # the table display
        request(world, "GET", f"/d/{quoted(code)}{path}")
    request(world, "POST", f"/r/{quoted(code)}", form=[("token", data.draw(
        form_values | st.sampled_from(list(world.games[game].tokens.values()))))])


# -- every field, every hostile value ----------------------------------------------------

@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_field_of_a_move_with_every_hostile_value(world, game):
    """A legal move of the game, each of its fields (and the envelope's) in turn replaced
    by each hostile value, from the player's own phone: as JSON and as the screen's form."""
    move = world.legal(game)
    for key in sorted(set(move[1]) | {"version", "action_id", "as", "type"}):
        for value in HOSTILE:
            player, action = world.legal(game)  # the last value may have been a move
            table = world.games[game]
            request(world, "POST", f"/api/v1/tables/{table.code}/actions",
                    table.token_of(player), json_body=dict(action, **{key: value}))
    planned, posted = post_form_grid(world, game)
    assert posted == planned, f"{len(posted)} of the {len(planned)} planned form posts made"


def post_form_grid(world: World, game: str) -> tuple[list, list]:
    """Each field of a move's form (and the envelope's) in turn set to each hostile value,
    posted from the player's own phone: the (field, value) pairs planned, and those posted.
    A value accepted as a move makes it: the grid goes on at a new table."""
    at = richest_position(world, game)
    table, player, action = fresh_position(world, game, at)
    keys = field_names(action)
    planned = [(key, value) for key in dict.fromkeys(keys + ["version", "action_id", "as"])
               for value in FORM_HOSTILE]
    posted = []
    for key, value in planned:
        form = [(k, value if k == key else v) for k, v in form_fields(action)]
        if key not in keys:
            form.append((key, value))
        response = request(world, "POST", f"/t/{table.code}/act", form=form,
                           cookie=(player_cookie(table.code), table.token_of(player)))
        posted.append((key, value))
        if response.status_code in (200, 303):  # accepted: a move was made
            table, player, action = fresh_position(world, game, at)
            assert field_names(action) == keys, action
    return planned, posted


POSITION_SEED = 2024
SEARCHED_MOVES = 20  # the moves of a fresh table searched for the one of the widest form


def field_names(action: dict) -> list[str]:
    return list(dict.fromkeys(name for name, _ in form_fields(action)))


def fresh_moves(world: World, game: str):
    """A new table of the game, and the moves its bot makes, each made once the next is
    asked for: (table, player, move) of each. The same moves (up to the players' ids) at
    every new table, for the form grid to go on with after a value made a move."""
    engine = GAMES[game]
    table = world.api.table(game, players=names_for(engine.min_players), seed=POSITION_SEED)
    rng = random.Random(POSITION_SEED)
    while (snapshot := Referee(world.app, table.code).read()).status == "playing":
        state = snapshot.state
        player, action = next((p, a) for p in actors(engine, state)
                              if (a := engine.random_action(state, p, rng)) is not None)
        yield table, player, action
        status, body = world.api.call("POST", f"/tables/{table.code}/actions",
                                      table.token_of(player), action)
        assert status == 200, body


def richest_position(world: World, game: str) -> int:
    """How many moves into a new table the move with the most fields comes."""
    widths = [len(field_names(action)) for _table, _player, action
              in itertools.islice(fresh_moves(world, game), SEARCHED_MOVES)]
    return widths.index(max(widths))


def fresh_position(world: World, game: str, moves: int):
    """A new table `moves` moves in: (table, player, move) of its next move."""
    return next(itertools.islice(fresh_moves(world, game), moves, None))


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_option_with_every_hostile_value(world, game):
    """Each option of the game's new-table form, and of the API's options, in turn set to
    each hostile value."""
    engine = GAMES[game]
    for name in engine.Options.model_json_schema().get("properties", {}):
        for value in FORM_HOSTILE:
            request(world, "POST", f"/new/{game}", form=[(name, value)])
        for value in HOSTILE:
            request(world, "POST", "/api/v1/tables",
                    json_body={"game": game, "options": {name: value}})


def test_the_worlds_snapshot_sees_every_kind_of_change(world):
    """What tells a refused request changed nothing (two snapshots of the database) sees a
    table made, a player joining, a move logged and a saved default, each on its own."""
    before = world.snapshot()
    table = world.api.table("go-big", players=names_for(2), start=False)
    made = world.snapshot()
    status, _ = world.api.call("POST", f"/tables/{table.code}/players", None, {"name": "Zed"})
    assert status == 201
    joined = world.snapshot()
    game, player, action = fresh_position(world, "go-big", 0)
    started = world.snapshot()
    status, _ = world.api.call("POST", f"/tables/{game.code}/actions", game.token_of(player),
                               action)
    assert status == 200
    moved = world.snapshot()
    request(world, "POST", "/new/go-big/defaults", form=[("copies_per_value", "11")])
    saved = world.snapshot()
    steps = [before, made, joined, started, moved, saved]
    assert all(a != b for a, b in itertools.pairwise(steps)), [
        n for n, (a, b) in enumerate(itertools.pairwise(steps)) if a == b]
