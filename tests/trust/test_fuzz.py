"""Hostile input: property-based fuzzing (hypothesis) of every JSON endpoint and every form
handler with malformed, oversized, wrong-typed and out-of-range input, from every kind of
caller (a player, the host, another table's token, garbage, nobody).

For every request: never a 500; a refused request (4xx) changes nothing in the database
(tables, players, the log, saved defaults); an API error has the contract's shape
`{"error": {"code", "message"}}` with the status of its code (plus `table` for `stale`);
a screen's error is shown to the player (`role="alert"`).

Moves are built from what the engines themselves offer (`random_action` on the stored
state) and then damaged, so the fuzzing reaches past the first validation into the rules.
The tables live for the whole module, so accepted input moves their games along.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import urllib.parse
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from companion.auth import host_cookie, player_cookie
from companion.errors import STATUS
from companion.extensions import db
from companion.games import GAMES
from companion.models import Event, Player, SavedDefaults, Table
from tests.support.api import Api
from tests.support.app import close_app, make_app
from tests.support.bots import actors
from tests.support.clients import form_fields
from tests.support.counts import COUNTS
from tests.support.players import ALL_GAMES, names_for
from tests.support.referee import Referee

pytestmark = pytest.mark.counts(inputs_tried=1)  # every test here tries hostile input

# Examples per property; TRUST_EXAMPLES=1000 for a deeper run.
EXAMPLES = int(os.environ.get("TRUST_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])

# -- hostile values ----------------------------------------------------------------------

HOSTILE = [None, True, False, 0, -1, 1, 7, 2**31, 2**53 + 1, 2**63, 10**30, -10**30, 1.5,
           float("inf"), float("nan"), "", " ", "0", "1", "-1", "null", "true", "x" * 5000,
           "\x00", "\ud800", "é\u202e", "<script>f()</script>", "../../etc/passwd",
           "__class__", "constructor", "toString", "%00", [], {}, [1] * 500, [[[[]]]],
           {"__proto__": {}}, {"type": "play"}, ["red-L"] * 3]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
                    st.sampled_from(HOSTILE))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=12), inner, max_size=6)),
    max_leaves=25)


def action_fields() -> list[str]:
    """Every field name of every game's actions (from their JSON schemas)."""
    found = {"type", "version", "action_id", "as"}
    for engine in GAMES.values():
        found |= set(_property_names(engine.action_adapter().json_schema()))
    return sorted(found)


def _property_names(node: Any):
    if isinstance(node, dict):
        yield from node.get("properties", {})
        for value in node.values():
            yield from _property_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from _property_names(value)


def action_types() -> list[str]:
    """Every action type of every game (the "type" constants of their schemas)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            kind = node.get("properties", {}).get("type", {})
            found.update([kind["const"]] if "const" in kind else kind.get("enum", []))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for engine in GAMES.values():
        walk(engine.action_adapter().json_schema())
    return sorted(found)


ACTION_TYPES = action_types()
FIELDS = action_fields()


# A plan of damage, drawn independently of the move it is applied to (the tables change
# as the fuzzing goes, and hypothesis needs its draws not to depend on them).
damage_plans = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 9), json_values),
                        min_size=1, max_size=3)


def damaged(action: dict, plan: list) -> dict:
    """A legal move with one, two or three of its fields damaged, dropped or added."""
    action = json.loads(json.dumps(action))
    for where, how, value in plan:
        keys = sorted(action) + ["version", "action_id", "as", FIELDS[where % len(FIELDS)]]
        key = keys[where % len(keys)]
        inner = action.get(key)
        if how < 3 and isinstance(inner, list) and inner:
            inner[where % len(inner)] = value
        elif how < 3 and isinstance(inner, dict) and inner:
            inner[sorted(inner)[where % len(inner)]] = value
        elif how == 9:
            action.pop(key, None)
        else:
            action[key] = value
    return action


random_actions = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(ACTION_TYPES) | st.text(max_size=12)},
                          optional={f: json_values for f in FIELDS if f != "type"}))

raw_bodies = st.one_of(
    st.binary(max_size=300),
    st.sampled_from([b"", b"{", b"null", b"[]", b'"x"', b"1e999", b"NaN", b'{"a":' * 3000,
                     b"[" * 50000 + b"]" * 50000, b"{}" * 40000, b"\xff\xfe{}",
                     json.dumps({"name": "x" * 70000}).encode()]))


# -- the world being fuzzed ----------------------------------------------------------------

# What World.snapshot reads: every table, player, logged event and saved default.
SNAPSHOT = (
    select(Table.id, Table.version, Table.status, Table.moves, Table.first_player,
           Table.options),
    select(Player.id, Player.table_id, Player.seat, Player.name, Player.token_hash),
    select(Event.id, Event.seq, Event.kind),
    select(SavedDefaults.game, SavedDefaults.options),
)


class World:
    """Tables of every game (one in its lobby, one being played) on an app of its own,
    with CSRF off so that forms reach their handlers (CSRF is tested on its own)."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.api = Api(client=self.client)
        self.lobbies, self.games = {}, {}
        for index, game_id in enumerate(ALL_GAMES):
            engine = GAMES[game_id]
            self.lobbies[game_id] = self.api.table(
                game_id, players=names_for(engine.min_players - 1 or 1), start=False)
            self.games[game_id] = self.api.table(game_id, players=names_for(engine.min_players),
                                                 seed=1000 + index)
        self.rng = random.Random(5)
        for game_id, _table in self.games.items():  # a few moves in
            for _ in range(5):
                self.bot_move(game_id)

    def bot_move(self, game_id: str) -> None:
        table = self.games[game_id]
        snapshot = Referee(self.app, table.code).read()
        if snapshot.status != "playing":
            return
        move = self.legal(game_id)
        if move:
            player, action = move
            self.api.call("POST", f"/tables/{table.code}/actions", table.token_of(player),
                          action)

    def legal(self, game_id: str) -> tuple[int, dict] | None:
        """A legal move of the game being fuzzed (a new game once it is over)."""
        snapshot = Referee(self.app, self.games[game_id].code).read()
        if snapshot.status == "finished":
            self.games[game_id] = self.api.table(
                game_id, players=names_for(GAMES[game_id].min_players),
                seed=self.rng.randrange(10**6))
            snapshot = Referee(self.app, self.games[game_id].code).read()
        engine = GAMES[game_id]
        for player in actors(engine, snapshot.state):
            action = engine.random_action(snapshot.state, player, self.rng)
            if action is not None:
                return player, action
        return None

    def screen_routes(self, method: str) -> list[str]:
        """Every route of the screens (under /t/<code>) taking `method`, from the app's URL
        map, so that a route added later is fuzzed too (a player id is filled in later)."""
        return sorted(rule.rule.removeprefix("/t/<code>")
                      for rule in self.app.url_map.iter_rules()
                      if rule.rule.startswith("/t/<code>") and method in rule.methods)

    def snapshot(self) -> tuple:
        """Everything a refused request must leave as it was (read on a connection of the
        app's engine: the same queries as through the session, without its overhead,
        which counted for much of the fuzzing's time)."""
        with self.app.app_context(), db.engine.connect() as connection:
            return tuple(connection.execute(query).all() for query in SNAPSHOT)

    def tokens(self, table) -> list[str | None]:
        other = next(t for t in self.games.values() if t is not table)
        return [None, table.host, *table.tokens.values(), other.host,
                next(iter(other.tokens.values())), "garbage", "x" * 300, "Bearer"]


@pytest.fixture(scope="module")
def world(module_database_url, tmp_path_factory):
    # The limits are off: thousands of hostile requests from one address, most of them
    # for codes and tokens that do not exist, would soon all be answered 429, and the
    # routes would never see the values this fuzz sends them.
    app = make_app(module_database_url, tmp_path_factory.mktemp("fuzz"),
                   WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)
    yield World(app)
    close_app(app)


def check(world: World, method: str, path: str, before: tuple, response) -> None:
    """The properties every answer has."""
    COUNTS["inputs_tried"] += 1
    status = response.status_code
    text = "" if response.mimetype == "text/event-stream" else response.get_data(as_text=True)
    assert status < 500, f"{method} {path} -> {status}: {text[:500]}"
    if status >= 400:
        assert world.snapshot() == before, f"{method} {path} was refused ({status}) " \
                                           f"but changed the database"
    if path.startswith("/api/"):
        if response.mimetype == "text/event-stream":
            assert status == 200
            return
        assert response.mimetype == "application/json", (path, status, text[:200])
        body = response.get_json()
        if status >= 400:
            assert isinstance(body, dict) and set(body) <= {"error", "table"}, body
            error = body["error"]
            assert set(error) == {"code", "message"}, body
            assert isinstance(error["message"], str) and error["message"].strip()
            assert error["message"].rstrip().endswith((".", "!", ")", "?")), error
            expected = STATUS[error["code"]]
            assert status == expected or (error["code"] == "bad_request"
                                          and status in (405, 413, 415)), (status, error)
            assert ("table" in body) == (error["code"] == "stale"), body
    elif status >= 400:
        assert 'role="alert"' in text, (path, status, text[:300])


def request(world: World, method: str, path: str, token: str | None = None, *,
            json_body: Any = None, raw: bytes | None = None, content_type: str | None = None,
            form: Any = None, cookie: tuple[str, str] | None = None, query=None):
    before = world.snapshot()
    client = world.app.test_client()
    if cookie:
        client.set_cookie(cookie[0], cookie[1])
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    kwargs: dict[str, Any] = {"headers": headers,
                              "query_string": MultiDict(query) if query else None}
    if raw is not None:
        kwargs.update(data=raw, content_type=content_type or "application/json")
    elif form is not None:
        kwargs.update(data=MultiDict(form))
    elif json_body is not None or method == "POST":
        kwargs.update(data=json.dumps(json_body), content_type=content_type or "application/json")
    response = client.open(path, method=method, **kwargs)
    try:
        check(world, method, path, before, response)
    finally:
        response.close()
    return response


codes = st.one_of(st.sampled_from(["ZZZZ", "zz", "", "A" * 40, "%00", "../x", "ÄÖÜß"]),
                  st.text(max_size=12))


def quoted(code: str) -> str:
    return urllib.parse.quote(code, safe="") or "%20"


# -- the JSON API -------------------------------------------------------------------------

@FUZZ
@given(body=json_values, options=json_values, game=st.sampled_from(ALL_GAMES) | json_values)
def test_create_table(world, body, options, game):
    request(world, "POST", "/api/v1/tables", json_body=body)
    request(world, "POST", "/api/v1/tables", json_body={"game": game, "options": options})


@FUZZ
@given(raw=raw_bodies, content_type=st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded",
     "multipart/form-data", "application/json; charset=latin-1", ""]),
    endpoint=st.sampled_from(["", "/players", "/start", "/actions", "/undo", "/seats"]),
    game=st.sampled_from(ALL_GAMES))
def test_malformed_bodies_everywhere(world, raw, content_type, endpoint, game):
    table = world.games[game]
    path = "/api/v1/tables" + (f"/{table.code}{endpoint}" if endpoint else "")
    request(world, "POST", path, table.host, raw=raw, content_type=content_type)


@FUZZ
@given(name=json_values, extra=json_values, game=st.sampled_from(ALL_GAMES))
def test_join(world, name, extra, game):
    table = world.lobbies[game]
    request(world, "POST", f"/api/v1/tables/{table.code}/players", json_body={"name": name})
    request(world, "POST", f"/api/v1/tables/{table.code}/players",
            json_body={"name": "Zed", "extra": extra})


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_start_reorder_remove_rejoin(world, data, game):
    table = world.lobbies[game]
    token = data.draw(st.sampled_from(world.tokens(table)))
    body = data.draw(json_values | st.fixed_dictionaries(
        {}, optional={"first_player": json_values, "seed": json_values, "order": json_values}))
    code = table.code
    request(world, "POST", f"/api/v1/tables/{code}/start", token, json_body=body)
    request(world, "POST", f"/api/v1/tables/{code}/seats", token, json_body=body)
    player = data.draw(st.integers(-5, 2**70) | st.sampled_from(list(table.ids.values())))
    for action in ("remove", "rejoin"):
        if data.draw(st.integers(0, 4)) == 0:  # some of them with the host's token
            token = table.host
        response = request(world, "POST", f"/api/v1/tables/{code}/players/{player}/{action}",
                           token, json_body=data.draw(json_values))
        if action == "rejoin" and response.status_code == 200:  # keep the world usable
            name = next(n for n, i in table.ids.items() if i == player)
            table.tokens[name] = response.get_json()["token"]


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_actions(world, data, game):
    legal, plan, other = data.draw(st.integers(0, 3)), data.draw(damage_plans), \
        data.draw(random_actions)
    who, then_move = data.draw(st.integers(0, 99)), data.draw(st.booleans())
    move = world.legal(game)
    table = world.games[game]
    tokens = world.tokens(table)
    if move is not None and legal:
        player, action = move
        body = damaged(action, plan)
        tokens = [table.token_of(player)] * 3 + tokens
    else:
        body = other
    response = request(world, "POST", f"/api/v1/tables/{table.code}/actions",
                       tokens[who % len(tokens)], json_body=body)
    if response.status_code == 200 and then_move:
        world.bot_move(game)


@FUZZ
@given(data=st.data(), game=st.sampled_from(ALL_GAMES))
def test_undo_view_log_stream(world, data, game):
    table = data.draw(st.sampled_from([world.games[game], world.lobbies[game]]))
    token = data.draw(st.sampled_from(world.tokens(table)))
    code = data.draw(st.sampled_from([table.code, table.code.lower(), f" {table.code} "])
                     | codes)
    path = f"/api/v1/tables/{quoted(code)}"
    request(world, "POST", path + "/undo", token, json_body=data.draw(json_values))
    request(world, "GET", path, token)
    request(world, "GET", path + "/log", token)
    request(world, data.draw(st.sampled_from(["PUT", "DELETE", "PATCH", "GET"])),
            path + data.draw(st.sampled_from(["/actions", "/start", "/players", "/undo"])),
            token)
    stream_token = data.draw(st.sampled_from(["garbage", "x" * 300]))
    request(world, "GET", path + "/stream", stream_token)
    if data.draw(st.integers(0, 3)) == 0:
        world.bot_move(game)


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
