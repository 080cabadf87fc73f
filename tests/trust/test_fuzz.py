"""Hostile input: property-based fuzzing (hypothesis) of every JSON endpoint with malformed,
oversized, wrong-typed and out-of-range input, from every kind of caller (a player, the
host, another table's token, garbage, nobody); the screens' forms get the same in
tests/trust/test_form_fuzz.py.

For every request: never a 500; a refused request (4xx) changes nothing in the database
(tables, players, the log, saved defaults); an API error has the contract's shape
`{"error": {"code", "message"}}` with the status of its code (plus `table` for `stale`);
a screen's error is shown to the player (`role="alert"`).

Moves are built from what the engines themselves offer (`random_action` on the stored
state) and then damaged, so the fuzzing reaches past the first validation into the rules.
The tables live for the whole module, so accepted input moves their games along.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.fuzzing import (ACTION_TYPES, FIELDS, FUZZ, codes, json_values, quoted,
                                   request)
from tests.support.players import ALL_GAMES

pytestmark = pytest.mark.counts(inputs_tried=1)  # every test here tries hostile input

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
