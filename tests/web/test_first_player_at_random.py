"""A random first player: `"first_player": "random"` at the start, and the lobby's "Pick at
random" on the host screen. The server picks (from the table's seed at the start, which a
test seed fixes), the log names who in a public line, in the reader's language, and every
screen of the lobby shows the pick before the game begins."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from companion.web.contract import openapi
from tests.support.api import Api
from tests.support.pages import page, text_of
from tests.support.screens import as_player, new_table, post, seat

ROLES = {"go-big": "goes first", "big-top": "deals first",
         "nothing-beats-a-large": "challenges first"}


def starter(game: str, view: dict) -> int:
    """The player who does first what the game's first player does."""
    if game == "big-top":
        return view["state"]["dealer"]
    if game == "nothing-beats-a-large":
        return view["state"]["challenger"]
    return view["turn"]


def log_of(api, table, token=None) -> list[str]:
    status, body = api.call("GET", f"/tables/{table.code}/log", token)
    assert status == 200, body
    return [line["summary"] for line in body["events"]]


def start(api, table, payload: dict, token=None):
    return api.call("POST", f"/tables/{table.code}/start", token or table.host, payload)


# -- the API's start ----------------------------------------------------------------

@pytest.mark.parametrize("game", list(ROLES))
def test_the_server_picks_a_seated_player_and_the_log_names_them_for_everyone(api, game):
    table = api.table(game=game, start=False)
    status, view = start(api, table, {"first_player": "random", "seed": 11})
    assert status == 200, view
    assert view["status"] == "playing"
    picked = starter(game, view)
    assert picked in table.ids.values()
    line = f"Picked at random: {table.names[picked]} ({ROLES[game]})."
    # A public line: the table, each player and the host read it alike.
    for token in (None, table.host, *table.tokens.values()):
        assert log_of(api, table, token) == [line]


def test_the_test_seed_fixes_the_pick(api):
    def picked_seat(seed: int) -> int:
        table = api.table(start=False)
        status, view = start(api, table, {"first_player": "random", "seed": seed})
        assert status == 200, view
        return next(p["seat"] for p in view["players"] if p["id"] == view["turn"])

    seats = [picked_seat(seed) for seed in range(4)]
    assert picked_seat(0) == seats[0] and picked_seat(3) == seats[3]
    assert len(set(seats)) > 1, "the seed does not decide the pick"


def test_without_test_seeds_the_server_picks_from_its_own_seed(app_with):
    api = Api(client=app_with(TEST_SEEDS=False).test_client())
    table = api.table(start=False)
    status, body = start(api, table, {"first_player": "random", "seed": 5})
    assert status == 400 and body["error"]["message"] == "This server chooses the shuffle."
    assert table.view()["status"] == "lobby" and log_of(api, table) == []
    status, view = start(api, table, {"first_player": "random"})
    assert status == 200, view
    assert log_of(api, table) == [f"Picked at random: {table.names[view['turn']]} (goes first)."]


@pytest.mark.parametrize("payload", [
    {"first_player": "random", "pick": 1}, {"first_player": "Random"},
    {"first_player": ["random", 1]}, {"first_player": {"random": 1}},
    {"first_player": "random", "seed": "random"}, {"first_player": True},
])
def test_a_client_cannot_choose_the_pick(api, payload):
    table = api.table(start=False)
    status, body = start(api, table, payload)
    assert status == 400 and body["error"]["code"] == "bad_request", body
    assert table.view()["status"] == "lobby" and log_of(api, table) == []


def test_only_the_host_starts_with_a_pick(api):
    table = api.table(start=False)
    status, body = start(api, table, {"first_player": "random"}, table.tokens["Ann"])
    assert status == 403 and body["error"]["code"] == "forbidden"
    status, body = start(api, table, {"first_player": "random"}, "not-a-token")
    assert status == 401
    assert table.view()["status"] == "lobby" and log_of(api, table) == []


def test_a_pick_at_a_started_table_is_refused(api):
    table = api.table()
    status, body = start(api, table, {"first_player": "random"})
    assert status == 409 and body["error"]["code"] == "conflict"
    assert log_of(api, table) == []


def test_the_document_offers_random(app):
    with app.app_context():
        schema = openapi(app)["components"]["schemas"]["StartTable"]
    offered = schema["properties"]["first_player"]["anyOf"]
    assert any("random" in (kind.get("const"), *kind.get("enum", ())) for kind in offered)
    assert {"type": "integer"} in offered, offered


@pytest.mark.parametrize("language, line", [
    ("en", "Picked at random: {name} (deals first)."),
    ("de", "Zufällig gewählt: {name} (gibt zuerst)."),
    ("es", "Sorteo: {name} (reparte primero)."),
    ("fr", "Tirage au sort\u00a0: {name} (distribue en premier)."),
    ("pl", "Wylosowano: {name} (pierwsze rozdanie)."),
])
def test_the_line_reads_in_each_language(client, language, line):
    api = Api(client=client)
    table = api.table(game="big-top", start=False)
    status, view = start(api, table, {"first_player": "random", "seed": 2})
    assert status == 200, view
    response = client.get(f"/api/v1/tables/{table.code}/log",
                          headers={"Accept-Language": language})
    assert [event["summary"] for event in response.get_json()["events"]] == [
        line.format(name=table.names[view["state"]["dealer"]])]


# -- the lobby: "Pick at random" on the host screen ---------------------------------

PICKED = re.compile(r"Picked at random: (\w+) \(goes first\)\.")


def picked_on(client, url: str) -> list[str]:
    return PICKED.findall(text_of(page(client, url)))


def test_the_host_picks_at_random_without_a_script_and_every_screen_shows_it(app, host):
    code = new_table(host)
    phones = {name: seat(app, code, name) for name in ("Ann", "Ben", "Cat")}
    hosting = f"/t/{code}/host"
    assert "Pick at random" in page(host, hosting) and picked_on(host, hosting) == []
    assert "Pick at random" not in page(phones["Ann"], f"/t/{code}")
    response = post(host, f"/t/{code}/first/random", {}, hosting)  # a form, no script
    assert response.headers["Location"] == hosting
    [name] = picked_on(host, hosting)
    html = page(host, hosting)
    assert re.search(rf'{name}</span>\s*<span class="tag">goes first</span>', html)
    assert html.count('<span class="tag">goes first</span>') == 1
    for phone in phones.values():
        assert picked_on(phone, f"/t/{code}") == [name]
    assert picked_on(app.test_client(), f"/d/{code}") == [name]
    log = host.get(f"/api/v1/tables/{code}/log").get_json()["events"]
    assert [line["summary"] for line in log] == [f"Picked at random: {name} (goes first)."]

    post(host, f"/t/{code}/start", {}, hosting)
    view = host.get(f"/api/v1/tables/{code}").get_json()
    ids = {p["name"]: p["id"] for p in view["players"]}
    assert view["status"] == "playing" and view["turn"] == ids[name]
    assert "Your turn" in page(phones[name], f"/t/{code}")


def test_the_host_changes_the_pick_or_picks_again(app, host):
    code = new_table(host)
    for name in ("Ann", "Ben", "Cat"):
        seat(app, code, name)
    hosting = f"/t/{code}/host"
    ids = {p["name"]: p["id"] for p in host.get(f"/api/v1/tables/{code}").get_json()["players"]}
    # With htmx the answer is the panel, the pick in it.
    response = post(host, f"/t/{code}/first/random", {}, hosting, status=200, htmx=True)
    [name] = PICKED.findall(text_of(response.get_data(as_text=True)))
    other = next(n for n in ids if n != name)
    post(host, f"/t/{code}/first", {"player": ids[other]}, hosting)
    html = page(host, hosting)
    assert picked_on(host, hosting) == []  # the host's own choice is no random pick
    assert re.search(rf'{other}</span>\s*<span class="tag">goes first</span>', html)
    post(host, f"/t/{code}/first/random", {}, hosting)
    [again] = picked_on(host, hosting)
    log = host.get(f"/api/v1/tables/{code}/log").get_json()["events"]
    assert [line["summary"] for line in log] == [f"Picked at random: {name} (goes first).",
                                                 f"Picked at random: {again} (goes first)."]
    post(host, f"/t/{code}/start", {}, hosting)
    assert host.get(f"/api/v1/tables/{code}").get_json()["turn"] == ids[again]


def test_only_the_host_picks_and_only_in_the_lobby(app, host):
    code = new_table(host)
    hosting = f"/t/{code}/host"
    response = post(host, f"/t/{code}/first/random", {}, hosting, status=409, htmx=True)
    assert "Nobody is seated yet" in text_of(response.get_data(as_text=True))
    ann = seat(app, code, "Ann")
    seat(app, code, "Ben")
    post(ann, f"/t/{code}/first/random", {}, f"/t/{code}", status=403)
    assert host.get(f"/api/v1/tables/{code}/log").get_json()["events"] == []
    post(host, f"/t/{code}/start", {}, hosting)
    response = post(host, f"/t/{code}/first/random", {}, hosting, status=409, htmx=True)
    assert "the lobby is closed" in text_of(response.get_data(as_text=True))
    assert host.get(f"/api/v1/tables/{code}/log").get_json()["events"] == []


# -- the pick's line in a record and in an export ---------------------------------

def imported(other_app, path) -> str:
    result = other_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_game_started_at_random_keeps_its_line_in_its_record_on_another_server(
        app, other_app, tmp_path):
    api = Api(client=app.test_client())
    table = api.table(options={"copies_per_value": 4}, start=False)
    status, view = start(api, table, {"first_player": "random", "seed": 7})
    assert status == 200, view
    table.finish()
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    record = phone.get(f"/t/{table.code}/record.json").get_json()
    assert record["log"][0]["kind"] == "pick" and record["order"][0] == view["turn"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = re.search(r"as table ([A-Z]{4})", imported(other_app, path)).group(1)
    there = log_of(Api(client=other_app.test_client()), SimpleNamespace(code=code))
    assert there == log_of(api, table)
    assert there[0] == f"Picked at random: {table.names[view['turn']]} (goes first)."


def test_a_lobby_with_a_pick_moves_to_another_database_whole(app, host, other_app, tmp_path):
    code = new_table(host)
    for name in ("Ann", "Ben"):
        seat(app, code, name)
    post(host, f"/t/{code}/first/random", {}, f"/t/{code}/host")
    [name] = picked_on(host, f"/t/{code}/host")
    path = tmp_path / "club.json"
    result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    imported(other_app, path)
    assert picked_on(other_app.test_client(), f"/d/{code}") == [name]
