"""What the fuzzing of hostile input shares: the hostile values, the world of tables being
fuzzed (tests/trust/test_fuzz.py, tests/trust/test_form_fuzz.py) and the properties every
answer has."""
from __future__ import annotations

import functools
import json
import os
import random
import urllib.parse
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from sqlalchemy import Select, Text, cast, func, select
from werkzeug.datastructures import MultiDict

from companion.errors import STATUS
from companion.extensions import db
from companion.games import GAMES
from companion.models import Event, Player, SavedDefaults, Table
from tests.support.api import Api
from tests.support.bots import actors
from tests.support.counts import COUNTS
from tests.support.players import ALL_GAMES, names_for
from tests.support.referee import Referee

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


# -- the world being fuzzed ----------------------------------------------------------------

def every_row(*columns, order_by) -> Select:
    """Every row of these columns as one text, in order, made by the database: what a
    refused request must leave as it was is compared as two strings, with no row or JSON
    value made in Python (which cost most of the fuzzing's time as the tables grew)."""
    fields = [func.coalesce(cast(column, Text), "\x1a") for column in columns]  # \x1a: NULL
    line = functools.reduce(lambda text, field: text + "\x1f" + field, fields)
    rows = select(line.label("line")).order_by(*order_by).subquery()
    return select(func.aggregate_strings(rows.c.line, "\x1e"))


# What World.snapshot reads: every table, player, logged event and saved default.
SNAPSHOT = (
    every_row(Table.id, Table.version, Table.status, Table.moves, Table.first_player,
              Table.options, order_by=[Table.id]),
    every_row(Player.id, Player.table_id, Player.seat, Player.name, Player.token_hash,
              order_by=[Player.id]),
    every_row(Event.id, Event.seq, Event.kind, order_by=[Event.id]),
    every_row(SavedDefaults.game, SavedDefaults.options, order_by=[SavedDefaults.game]),
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
            return tuple(connection.execute(query).scalar() for query in SNAPSHOT)

    def tokens(self, table) -> list[str | None]:
        other = next(t for t in self.games.values() if t is not table)
        return [None, table.host, *table.tokens.values(), other.host,
                next(iter(other.tokens.values())), "garbage", "x" * 300, "Bearer"]


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
            assert set(error) - {"rule"} == {"code", "message"}, body
            assert "rule" not in error or error["code"] in ("illegal", "forbidden"), body
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
