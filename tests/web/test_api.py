"""The JSON API of the contract, endpoint by endpoint, with every error it names."""
from __future__ import annotations

import re

import pytest
from flask import Blueprint

from companion.games import GAMES
from companion.web.contract import NAME_PATTERN, SPACES, openapi
from tests.support.app import make_app


def error_code(body) -> str:
    """The code of an error body; a refusal of the rules also cites its rule."""
    assert set(body["error"]) - {"rule"} == {"code", "message"}
    if "rule" in body["error"]:
        assert body["error"]["code"] in ("illegal", "forbidden"), body
        assert set(body["error"]["rule"]) == {"id", "title", "url"}, body
    assert body["error"]["message"].endswith((".", "!", ")"))
    return body["error"]["code"]


# -- tables and players -------------------------------------------------------------

def test_create_table_answers_code_host_token_and_join_url(api):
    status, body = api.call("POST", "/tables", json={"game": "go-big", "options": {}})
    assert status == 201
    assert len(body["code"]) == 4 and body["code"].isalpha() and body["code"].isupper()
    assert len(body["host_token"]) >= 40
    assert body["join_url"] == f"http://table.test:8000/j/{body['code']}"


@pytest.mark.parametrize("payload, message_part", [
    ({"game": "chess"}, "'go-big'"),
    ({}, "game"),
    ({"game": "go-big", "options": {"copies_per_value": 99}}, "copies_per_value"),
    ({"game": "go-big", "options": {"unknown": 1}}, "unknown"),
    ({"game": "go-big", "options": []}, "options"),
    ({"game": ["go-big"]}, "game"),
])
def test_create_table_refuses_bad_input(api, payload, message_part):
    status, body = api.call("POST", "/tables", json=payload)
    assert status == 400 and error_code(body) == "bad_request"
    assert message_part in body["error"]["message"]


def test_malformed_json_and_wrong_content_type_are_bad_requests(client):
    response = client.post("/api/v1/tables", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.json["error"]["code"] == "bad_request"
    response = client.post("/api/v1/tables", data="game=go-big",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and response.json["error"]["code"] == "bad_request"
    response = client.post("/api/v1/tables", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400


def test_join_seats_players_in_order(api):
    table = api.table(start=False)
    view = table.view()
    assert view["status"] == "lobby"
    assert [(p["name"], p["seat"]) for p in view["players"]] == [("Ann", 0), ("Ben", 1), ("Cat", 2)]
    assert view["state"] is None and view["actions"] == [] and view["you"] is None


@pytest.mark.parametrize("name, status, code", [
    ("", 400, "bad_request"), ("   ", 400, "bad_request"), ("x" * 25, 400, "bad_request"),
    (None, 400, "bad_request"), (42, 400, "bad_request"), ("ann", 409, "conflict"),
    ("  ANN  ", 409, "conflict"),
])
def test_join_refuses_bad_and_duplicate_names(api, name, status, code):
    table = api.table(start=False)
    got, body = api.call("POST", f"/tables/{table.code}/players", json={"name": name})
    assert (got, error_code(body)) == (status, code)
    assert len(table.view()["players"]) == 3


def test_join_trims_names_and_allows_24_characters(api):
    table = api.table(players=(), start=False)
    status, body = api.call("POST", f"/tables/{table.code}/players",
                            json={"name": "  " + "y" * 24 + " "})
    assert status == 201 and body["player"]["name"] == "y" * 24


def test_join_refuses_a_full_table_and_a_started_game(api):
    table = api.table(players=("A", "B", "C", "D", "E", "F"), start=False)
    status, body = api.call("POST", f"/tables/{table.code}/players", json={"name": "G"})
    assert (status, error_code(body)) == (409, "conflict")
    assert "full" in body["error"]["message"]
    started = api.table()
    status, body = api.call("POST", f"/tables/{started.code}/players", json={"name": "Dan"})
    assert (status, error_code(body)) == (409, "conflict")


def test_unknown_codes_are_not_found(api):
    for path in ("/tables/ZZZZ", "/tables/zz", "/tables/ABCDEFGHIJ", "/tables/%00%00"):
        status, body = api.call("GET", path)
        assert (status, error_code(body)) == (404, "not_found")
    status, body = api.call("POST", "/tables/QQQQ/players", json={"name": "Ann"})
    assert status == 404


def test_start_is_for_the_host_with_enough_players(api):
    table = api.table(players=("Ann",), start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.tokens["Ann"], {})
    assert (status, error_code(body)) == (403, "forbidden")
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {})
    assert (status, error_code(body)) == (409, "conflict")
    assert "2 to 6 players" in body["error"]["message"]
    status, body = api.call("POST", f"/tables/{table.code}/start", None, {})
    assert status == 403


def test_start_with_a_first_player(api):
    table = api.table(start=False)
    status, view = api.call("POST", f"/tables/{table.code}/start", table.host,
                            {"first_player": table.ids["Cat"], "seed": 3})
    assert status == 200 and view["status"] == "playing"
    assert view["turn"] == table.ids["Cat"]
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {})
    assert (status, error_code(body)) == (409, "conflict")


@pytest.mark.parametrize("payload", [{"first_player": 999999}, {"first_player": "Ann"},
                                     {"seed": -1}, {"seed": "x"}, {"seed": 2**64}])
def test_start_refuses_bad_fields(api, payload):
    table = api.table(start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, payload)
    assert status in (400, 404) and error_code(body) in ("bad_request", "not_found")
    assert table.view()["status"] == "lobby"


def test_remove_and_reorder_players_in_the_lobby(api):
    table = api.table(start=False)
    ann, ben, cat = (table.ids[n] for n in ("Ann", "Ben", "Cat"))
    status, body = api.call("POST", f"/tables/{table.code}/seats", table.host,
                            {"order": [cat, ann, ben]})
    assert status == 200 and [p["name"] for p in body["players"]] == ["Cat", "Ann", "Ben"]
    status, body = api.call("POST", f"/tables/{table.code}/seats", table.host,
                            {"order": [cat, ann]})
    assert status == 400
    status, body = api.call("POST", f"/tables/{table.code}/players/{ann}/remove", table.host)
    assert status == 200 and ([(p["name"], p["seat"]) for p in body["players"]]
                              == [("Cat", 0), ("Ben", 1)])
    status, body = api.call("POST", f"/tables/{table.code}/players/{ben}/remove",
                            table.tokens["Ben"])
    assert status == 403


# -- the view and its secrets -------------------------------------------------------

def test_view_shape_for_a_player_and_for_the_public(api):
    table = api.table()
    ann = table.view(table.tokens["Ann"])
    assert ann["you"] == table.ids["Ann"] and ann["turn"] == table.ids["Ann"]
    assert ann["waiting_for"] == [table.ids["Ann"]]
    assert ann["private"] == {"bank_total": 0, "bank": {}}
    assert ann["actions"][0]["type"] == "play"
    assert ann["state"]["deck"] == 91 - 18 - 2 and ann["state"]["market"] == 2
    public = table.view()
    assert public["private"] is None and public["actions"] == [] and public["you"] is None
    ben = table.view(table.tokens["Ben"])
    assert ben["actions"] == []
    assert "seed" not in str(public)


def test_a_bank_total_is_seen_only_by_its_owner_until_the_end(api):
    table = api.table(players=("Ann", "Ben"))
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    assert table.act(ann, type="play", value=7, count=3)[0] == 200
    assert table.act(ann, type="draw", source="deck")[0] == 200
    assert table.act(ben, type="play", value=1, count=1)[0] == 200
    assert table.act(ben, type="draw", source="deck")[0] == 200
    # Ann's turn: her trio of 7s is banked, 21 points.
    assert table.view(ann)["private"]["bank_total"] == 21
    for token in (ben, None, table.host):
        view = table.view(token)
        for seat in view["state"]["seats"]:
            assert "bank_total" not in seat
        assert "21" not in str(view["private"])
        status, log = api.call("GET", f"/tables/{table.code}/log", token)
        assert not any("21" in event["summary"] for event in log["events"])


# -- actions ------------------------------------------------------------------------

def test_an_action_answers_version_events_and_view(api):
    table = api.table()
    before = table.view()["version"]
    status, body = table.act(table.tokens["Ann"], type="play", value=3, count=2, version=before)
    assert status == 200
    assert body["version"] == before + 1
    assert body["events"] == [{"seq": 1, "summary": "Ann played a pair of 3s."}]
    assert body["table"]["version"] == before + 1 and body["table"]["state"]["step"] == "draw"


@pytest.mark.parametrize("action, status, code", [
    ({"type": "play", "value": 8, "count": 1}, 400, "bad_request"),
    ({"type": "play", "value": 2, "count": 4}, 400, "bad_request"),
    ({"type": "play", "value": "two", "count": 1}, 400, "bad_request"),
    ({"type": "play", "value": 2}, 400, "bad_request"),
    ({"type": "fly"}, 400, "bad_request"),
    ({"type": "__class__"}, 400, "bad_request"),
    ({}, 400, "bad_request"),
    ({"type": "play", "value": 2, "count": 1, "extra": True}, 400, "bad_request"),
    ({"type": "draw", "source": "deck"}, 422, "illegal"),
    ({"type": "play", "value": 2, "count": 1, "version": "1"}, 400, "bad_request"),
    ({"type": "play", "value": 2, "count": 1, "action_id": ""}, 400, "bad_request"),
    ({"type": "play", "value": 2, "count": 1, "action_id": "x" * 65}, 400, "bad_request"),
])
def test_bad_actions_are_refused_and_change_nothing(api, action, status, code):
    table = api.table()
    before = table.view(table.tokens["Ann"])
    got, body = table.act(table.tokens["Ann"], **action)
    assert (got, error_code(body)) == (status, code)
    assert table.view(table.tokens["Ann"]) == before


def test_out_of_turn_is_forbidden_and_the_public_cannot_act(api):
    table = api.table()
    status, body = table.act(table.tokens["Ben"], type="play", value=2, count=1)
    assert (status, error_code(body)) == (403, "forbidden")
    status, body = table.act(None, type="play", value=2, count=1)
    assert (status, error_code(body)) == (401, "unauthorized")
    status, body = table.act("not-a-token", type="play", value=2, count=1)
    assert (status, error_code(body)) == (401, "unauthorized")


def test_a_stale_version_gets_409_with_the_fresh_view(api):
    table = api.table()
    version = table.view()["version"]
    assert table.act(table.tokens["Ann"], type="play", value=3, count=1, version=version)[0] == 200
    status, body = table.act(table.tokens["Ann"], type="draw", source="deck", version=version)
    assert (status, error_code(body)) == (409, "stale")
    assert body["table"]["version"] == version + 1
    assert body["table"]["you"] == table.ids["Ann"]


def test_a_retried_action_id_applies_once_and_returns_the_first_answer(api):
    table = api.table()
    first = table.act(table.tokens["Ann"], type="play", value=3, count=1, action_id="tap-1")
    again = table.act(table.tokens["Ann"], type="play", value=3, count=1, action_id="tap-1")
    assert first[0] == again[0] == 200
    assert again[1]["events"] == first[1]["events"] and again[1]["version"] == first[1]["version"]
    status, log = api.call("GET", f"/tables/{table.code}/log")
    assert len(log["events"]) == 1
    # The same id from another caller is another action.
    status, body = table.act(table.tokens["Ben"], type="play", value=3, count=1, action_id="tap-1")
    assert status == 403


def test_an_action_sent_again_after_later_moves_is_answered_with_the_table_as_it_is_now(api):
    table = api.table()
    first = table.act(table.tokens["Ann"], type="play", value=3, count=1, action_id="tap-1")
    table.play(2)
    status, again = table.act(table.tokens["Ann"], type="play", value=3, count=1,
                              action_id="tap-1")
    assert status == 200
    assert again["events"] == first[1]["events"] and again["version"] == first[1]["version"]
    assert again["table"]["version"] == first[1]["version"] + 2 == table.view()["version"]
    status, log = api.call("GET", f"/tables/{table.code}/log")
    assert len(log["events"]) == 3


def test_the_host_acts_for_the_player_on_turn_with_as(api):
    table = api.table()
    status, body = table.act(table.host, type="play", value=4, count=1)
    assert (status, error_code(body)) == (403, "forbidden")
    status, body = table.act(table.host, type="play", value=4, count=1, **{"as": table.ids["Ann"]})
    assert status == 200 and body["events"][0]["summary"] == "Ann played a single 4."
    status, body = table.act(table.host, type="draw", source="deck", **{"as": table.ids["Ben"]})
    assert status == 403
    status, body = table.act(table.tokens["Ben"], type="draw", source="deck",
                             **{"as": table.ids["Ann"]})
    assert status == 403


def test_a_token_of_another_table_gives_nothing(api):
    one, two = api.table(), api.table()
    status, body = one.act(two.tokens["Ann"], type="play", value=3, count=1)
    assert (status, error_code(body)) == (401, "unauthorized")
    status, body = api.call("POST", f"/tables/{one.code}/start", two.host, {})
    assert status == 401


# -- undo and the log ---------------------------------------------------------------

def test_undo_by_the_player_who_moved_or_the_host(api):
    table = api.table()
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    status, body = api.call("POST", f"/tables/{table.code}/undo", ann)
    assert (status, error_code(body)) == (422, "illegal")
    start = table.view(ann)
    table.act(ann, type="play", value=3, count=1)
    status, body = api.call("POST", f"/tables/{table.code}/undo", ben)
    assert (status, error_code(body)) == (403, "forbidden")
    status, body = api.call("POST", f"/tables/{table.code}/undo", None)
    assert status == 401
    status, view = api.call("POST", f"/tables/{table.code}/undo", ann)
    assert status == 200 and view["state"] == start["state"]
    assert view["version"] == start["version"] + 2
    table.act(ann, type="play", value=3, count=1)
    table.act(ann, type="draw", source="market")
    status, view = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200 and view["state"]["step"] == "draw"
    status, view = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200 and view["state"] == start["state"]
    status, log = api.call("GET", f"/tables/{table.code}/log")
    summaries = [e["summary"] for e in log["events"]]
    assert summaries[1] == "Ann undid: Ann played a single 3."
    assert summaries[-1] == "The host undid: Ann played a single 3."
    assert [e["undone"] for e in log["events"]] == [True, False, True, True, False, False]


def test_the_end_of_the_game_reveals_banks_and_cannot_be_undone(api):
    table = api.table(players=("Ann", "Ben"), options={"copies_per_value": 4})
    table.finish()
    final = table.view()
    assert final["status"] == "finished"
    assert all("bank_total" in seat for seat in final["state"]["seats"])
    standings = final["result"]["standings"]
    totals = {s["player"]: s["bank_total"] for s in final["state"]["seats"]}
    assert {s["player"]: s["score"] for s in standings} == totals
    assert final["result"]["winners"] == [s["player"] for s in standings if s["place"] == 1]
    assert final["result"]["explanation"]
    status, body = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert (status, error_code(body)) == (422, "illegal")
    status, body = table.act(table.token_of(standings[0]["player"]), type="draw", source="deck")
    assert status == 422


# -- rejoin -------------------------------------------------------------------------

def test_rejoin_issues_a_new_token_and_revokes_the_old(api):
    table = api.table()
    old = table.tokens["Ann"]
    status, body = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ann']}/rejoin", old)
    assert status == 403
    status, body = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ann']}/rejoin",
                            table.host)
    assert status == 200 and body["token"] != old
    assert body["rejoin_url"].endswith(f"/r/{table.code}#{body['token']}")
    assert api.call("GET", f"/tables/{table.code}", old)[0] == 401
    assert table.view(body["token"])["you"] == table.ids["Ann"]


def test_deeply_nested_json_is_a_bad_request(client):
    body = "[" * 30000 + "]" * 30000
    response = client.post("/api/v1/tables", data=body, content_type="application/json")
    assert response.status_code in (400, 413)
    assert response.json["error"]["code"] == "bad_request"


def test_the_openapi_document_describes_every_game_action(client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    actions = document["paths"]["/api/v1/tables/{code}/actions"]["post"]
    schemas = actions["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    titles = " ".join(s["title"] for s in schemas)
    for game in GAMES:
        assert game + ":" in titles
    assert all("version" in s["properties"] and "action_id" in s["properties"] for s in schemas)


# -- methods an address does not take ----------------------------------------------

OTHER_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "TRACE")


def test_every_api_address_names_the_methods_it_takes_when_it_refuses_one(app, client):
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/v1/")]
    assert len(rules) >= 10
    for rule in rules:
        path = re.sub(r"<(?:int:)?(\w+)>", lambda part: "1" if "int:" in part[0] else "ZZZZ",
                      rule.rule)
        allowed = set().union(*(other.methods or () for other in rules if other.rule == rule.rule))
        refused = [method for method in OTHER_METHODS if method not in allowed]
        assert refused, rule.rule
        for method in refused:
            response = client.open(path, method=method)
            assert response.status_code == 405, (method, path)
            assert error_code(response.json) == "bad_request"
            assert set(response.headers["Allow"].split(", ")) == allowed, (method, path)


def test_the_openapi_document_is_made_from_every_api_route(app, client):
    document = client.get("/api/v1/openapi.json").get_json()
    served = {re.sub(r"<(?:int:)?(\w+)>", r"{\1}", rule.rule): rule.methods
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/v1/")}
    assert set(document["paths"]) == set(served)
    for path, methods in served.items():
        described = {method.upper() for method in document["paths"][path]} - {"PARAMETERS"}
        assert described == set(methods) - {"HEAD", "OPTIONS"}, path
    create = document["paths"]["/api/v1/tables"]["post"]["requestBody"]
    bodies = create["content"]["application/json"]["schema"]["oneOf"]
    schemas = document["components"]["schemas"]
    assert len(bodies) == len(GAMES)
    for game, engine in GAMES.items():
        body = schemas[f"CreateTable.{game}"]
        assert body["properties"]["game"] == {"const": game}
        options = schemas[f"{game}.Options"]
        assert set(options["properties"]) == set(engine.Options.model_fields)
        assert "required" not in options and options["additionalProperties"] is False


def test_an_api_route_without_a_description_fails_the_document(database_url, tmp_path):
    extra = Blueprint("extra", __name__, url_prefix="/api/v1")

    @extra.post("/tables/<code>/wave")
    def wave(code: str):
        return {"waved": code}

    app = make_app(database_url, tmp_path)
    app.register_blueprint(extra)
    with app.app_context(), pytest.raises(LookupError, match="wave has no description"):
        openapi(app)


def test_a_name_is_described_by_the_spaces_the_server_trims():
    every = "".join(map(chr, range(0x110000)))
    assert re.findall(f"[{SPACES}]", every) == [c for c in every if c.isspace()]
    for name, fits in (("Ann", True), ("  Ann \t", True), ("x" * 24, True), ("x" * 25, False),
                       ("a  b" * 6, True), ("a \u3000b" * 8 + "c", False), ("\x1e\x1f", False)):
        assert bool(re.fullmatch(NAME_PATTERN, name)) == fits, name
        assert (0 < len(" ".join(name.split())) <= 24) == fits, name
