"""A first game taught at the table (`"teach": true`): the phone a step awaits explains it,
with its rule, until its player says "Got it" (kept with the table: a reload, or the same
player's other screen, does not ask again), one player's "Got it" is theirs alone; the
table display explains each kind of step once for the table, while no such move has been
made; a table not taught explains nothing; export and import keep what was got."""
from __future__ import annotations

import json

import pytest

from companion.games import GAMES
from tests.support.api import Api
from tests.support.pages import page, text_of
from tests.support.screens import as_player, new_table, post

GO_BIG_PLAY = GAMES["go-big"].lessons["play"]
GO_BIG_DRAW = GAMES["go-big"].lessons["draw"]


def taught_table(api, teach=True, **made):
    status, created = api.call("POST", "/tables", json={"game": "go-big", "options": {},
                                                       "teach": teach, **made})
    assert status == 201, created
    code, host = created["code"], created["host_token"]
    tokens = {}
    for name in ("Ann", "Ben", "Cat"):
        status, joined = api.call("POST", f"/tables/{code}/players", json={"name": name})
        tokens[name] = (joined["player"]["id"], joined["token"])
    assert api.call("POST", f"/tables/{code}/start", host, {"seed": 7})[0] == 200
    return code, host, tokens


def phone_of(app, code, token):
    return as_player(app.test_client(), code, token)


def a_move(view: dict) -> dict:
    """A legal move of the Go Big step the view offers its player."""
    offered = view["actions"][0]
    if offered["type"] == "play":
        return {"type": "play", **offered["sets"][0]}
    return {"type": "draw", "source": offered["source"][0]}


def whose_turn(api, code, tokens):
    status, view = api.call("GET", f"/tables/{code}")
    turn = view["turn"]
    name = next(n for n, (pid, _) in tokens.items() if pid == turn)
    return name, tokens[name][1]


def test_the_phone_the_step_awaits_explains_it_with_its_rule(app, api):
    code, _, tokens = taught_table(api)
    name, token = whose_turn(api, code, tokens)
    html = page(phone_of(app, code, token), f"/t/{code}")
    assert "First game: what to do now" in html
    assert text_of(GO_BIG_PLAY) in text_of(html)
    assert 'name="step" value="play"' in html
    assert f'href="/rules/go-big?table={code}#' in html[html.index('class="lesson"'):]
    waiting = next(t for n, (_, t) in tokens.items() if n != name)
    assert "First game" not in page(phone_of(app, code, waiting), f"/t/{code}")


def test_got_it_is_kept_for_that_player_and_that_kind_of_step_only(app, api):
    code, _, tokens = taught_table(api)
    name, token = whose_turn(api, code, tokens)
    phone = phone_of(app, code, token)
    version = api.call("GET", f"/tables/{code}")[1]["version"]
    post(phone, f"/t/{code}/got-it", {"screen": "phone", "step": "play"}, f"/t/{code}")
    assert "First game" not in page(phone, f"/t/{code}")
    # Another screen of the same player (a reload, a second device) does not ask again.
    assert "First game" not in page(phone_of(app, code, token), f"/t/{code}")
    assert api.call("GET", f"/tables/{code}")[1]["version"] == version + 1
    # The next kind of step is explained in its turn.
    status, view = api.call("GET", f"/tables/{code}", token)
    assert api.call("POST", f"/tables/{code}/actions", token, a_move(view))[0] == 200
    html = page(phone, f"/t/{code}")
    assert text_of(GO_BIG_DRAW) in text_of(html) and 'value="draw"' in html


def test_got_it_refused_without_teaching_or_for_a_step_the_game_lacks(app, api):
    code, _, tokens = taught_table(api, teach=False)
    name, token = whose_turn(api, code, tokens)
    phone = phone_of(app, code, token)
    assert "First game" not in page(phone, f"/t/{code}")
    version = api.call("GET", f"/tables/{code}")[1]["version"]
    post(phone, f"/t/{code}/got-it", {"screen": "phone", "step": "play"}, f"/t/{code}",
         status=400)
    taught, _, taught_tokens = taught_table(api)
    _, taught_token = whose_turn(api, taught, taught_tokens)
    for step in ("bid", "", "x" * 41):
        post(phone_of(app, taught, taught_token), f"/t/{taught}/got-it",
             {"screen": "phone", "step": step}, f"/t/{taught}", status=400)
    assert api.call("GET", f"/tables/{code}")[1]["version"] == version


def test_the_display_explains_a_kind_of_step_until_one_such_move_is_made(app, api):
    code, _, tokens = taught_table(api)
    display = app.test_client()
    assert text_of(GO_BIG_PLAY) in text_of(page(display, f"/d/{code}"))
    name, token = whose_turn(api, code, tokens)
    status, view = api.call("GET", f"/tables/{code}", token)
    assert api.call("POST", f"/tables/{code}/actions", token, a_move(view))[0] == 200
    shown = text_of(page(display, f"/d/{code}"))
    assert text_of(GO_BIG_PLAY) not in shown and text_of(GO_BIG_DRAW) in shown
    status, view = api.call("GET", f"/tables/{code}", token)
    assert api.call("POST", f"/tables/{code}/actions", token, a_move(view))[0] == 200
    # The next player's play: a kind of step made before, not explained again.
    assert "First game" not in page(display, f"/d/{code}")


def test_the_host_screen_explains_nothing(app, api):
    code, host, _ = taught_table(api)
    client = app.test_client()
    client.set_cookie(f"companion_host_{code}", host)
    assert "First game: what to do now" not in page(client, f"/t/{code}/host")


@pytest.mark.parametrize("teach", ["yes", 1, None])
def test_teach_is_true_or_false(api, teach):
    status, body = api.call("POST", "/tables", json={"game": "go-big", "teach": teach})
    assert status == 400, body


def test_the_new_table_form_makes_a_taught_table(app, host):
    code = new_table(host, "go-big", teach="on")
    api = Api(client=app.test_client())
    for name in ("Ann", "Ben"):
        api.call("POST", f"/tables/{code}/players", json={"name": name})
    with app.app_context():
        from companion.table import read
        assert read.find(code).teaching == {"got_it": {}}
    plain = new_table(host, "go-big")
    with app.app_context():
        assert read.find(plain).teaching is None


def test_export_and_import_keep_what_each_player_got(app, api, other_app, tmp_path):
    code, _, tokens = taught_table(api)
    name, token = whose_turn(api, code, tokens)
    post(phone_of(app, code, token), f"/t/{code}/got-it", {"screen": "phone", "step": "play"},
         f"/t/{code}")
    path = tmp_path / "export.json"
    assert app.test_cli_runner().invoke(args=["export", str(path)]).exit_code == 0
    record = next(t for t in json.loads(path.read_text())["tables"] if t["code"] == code)
    assert record["teaching"] == {"got_it": {str(tokens[name][0]): ["play"]}}
    imported = other_app.test_cli_runner().invoke(args=["import", str(path)])
    assert imported.exit_code == 0, imported.output
    assert "First game" not in page(phone_of(other_app, code, token), f"/t/{code}")
