"""`flask --app wsgi export FILE` and `import FILE`: a club's history moves between
databases whole (SQLite to PostgreSQL and back, when COMPANION_TEST_DATABASE_URL names a
server), and a file that is not a faithful export changes nothing."""
from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from companion.auth import Viewer
from companion.extensions import db
from companion.games import GAMES
from companion.games.engine import Note
from companion.table import moves, read, seating
from tests.support.api import Api
from tests.support.app import app_on, make_app, own_database
from tests.support.bots import choose_move
from tests.support.pages import text_of
from tests.support.referee import Referee

# Small boxes, so that games end in a few dozen moves.
QUICK = {"go-big": {"copies_per_value": 4}}


def play(app, api: Api, table, moves: int | None, seed: int) -> None:
    """Random legal moves through the API: `moves` of them, or to the end (None)."""
    referee, rng = Referee(app, table.code), random.Random(seed)
    engine = GAMES[table.view()["game"]]
    made = 0
    while (snap := referee.read()).status != "finished" and (moves is None or made < moves):
        player, action = choose_move(engine, snap.state, rng)
        status, body = table.act(table.token_of(player), **action)
        assert status == 200, body
        made += 1
    assert moves is not None or snap.status == "finished"


def club_history(app) -> list:
    """Every game finished, every game part-played (one with an undo, one with a host's
    adjustment, one with a seat given to a new phone), a lobby, and a table the players
    moved on to with "play again"."""
    api = Api(client=app.test_client())
    made = []
    for index, game in enumerate(GAMES):
        engine = GAMES[game]
        players = tuple(f"P{n}" for n in range(engine.min_players))
        finished = api.table(game, players=players, seed=100 + index,
                             options=QUICK.get(game))
        play(app, api, finished, None, index)
        playing = api.table(game, players=players, seed=200 + index, options=QUICK.get(game))
        play(app, api, playing, 3, index)
        made += [finished, playing]
        if game == "go-big":  # nothing of Go Big's is revealed by a move: it can be undone
            status, _ = api.call("POST", f"/tables/{playing.code}/undo", playing.host)
            assert status == 200
        if game == "big-money":  # an action that names a player
            status, body = playing.act(playing.host, type="adjust", player=playing.ids["P1"],
                                       amount=5, note="A bill found under the box")
            assert status == 200, body
        if game == "nothing-beats-a-large":  # a line of the log that names a player
            status, body = api.call("POST", f"/tables/{playing.code}/players/"
                                    f"{playing.ids['P0']}/rejoin", playing.host)
            assert status == 200, body
            playing.tokens["P0"] = body["token"]
    made.append(api.table("go-big", players=("Ann", "Ben"), start=False))
    ended = api.table("go-big", players=("Ann", "Ben"), seed=300, options=QUICK.get("go-big"))
    play(app, api, ended, 2, 0)
    made.append(ended)
    with app.app_context():
        again, _ = seating.play_again(read.find(made[0].code), Viewer(is_host=True))
        made.append(again)
        moves.end(read.find(ended.code), Viewer(is_host=True))  # a table its host ended
        db.session.remove()
    return made


def run(app, *args) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=list(args))
    return result.exit_code, result.output


def export(app, path) -> dict:
    code, output = run(app, "export", str(path))
    assert code == 0, output
    return json.loads(path.read_text())


def views(app, made, logs: bool = True) -> list:
    """Everything every viewer of every table is shown: the view and the log."""
    api = Api(client=app.test_client())
    seen = []
    for table in made:
        if isinstance(table, str):
            seen.append(api.call("GET", f"/tables/{table}"))
            continue
        for token in (None, table.host, *table.tokens.values()):
            seen.append(api.call("GET", f"/tables/{table.code}", token))
            if logs:
                seen.append(api.call("GET", f"/tables/{table.code}/log", token))
    return seen


@pytest.fixture(scope="module")
def laptop(tmp_path_factory):
    """A laptop's history, its export, and what its screens showed then."""
    folder = tmp_path_factory.mktemp("laptop")
    # The limits are off: a club's history of a dozen tables is made here in seconds from
    # one address, more tables and joins than a minute allows it.
    app = make_app(f"sqlite:///{folder / 'laptop.sqlite3'}", folder, RATELIMIT_ENABLED=False)
    made = club_history(app)
    document = export(app, folder / "laptop.json")
    return SimpleNamespace(app=app, made=made, document=document, file=folder / "laptop.json",
                           screens=screens(app, made))


def test_a_round_trip_through_another_database_keeps_every_game(laptop, tmp_path):
    original, made, document = laptop.app, laptop.made, laptop.document
    (tmp_path / "laptop.json").write_text(laptop.file.read_text())
    assert document["format"] == "companion-export" and document["version"] == 2
    assert len(document["tables"]) == len(made)
    assert {t["status"] for t in document["tables"]} == {"lobby", "playing", "finished", "ended"}

    (tmp_path / "server").mkdir()
    # PostgreSQL when a server is named
    with own_database(tmp_path / "server") as url, app_on(url, tmp_path) as server:
        code, output = run(server, "import", str(tmp_path / "laptop.json"))
        assert code == 0, output
        assert f"Imported {len(made)} tables" in output
        assert export(server, tmp_path / "server.json") == document
        assert views(server, made) == views(original, made)
        # Importing twice changes nothing.
        code, output = run(server, "import", str(tmp_path / "laptop.json"))
        assert code == 0 and "Imported 0 tables" in output, output
        assert export(server, tmp_path / "server-again.json") == document
        # New games go on in the copy: fresh ids do not collide with the imported ones.
        Api(client=server.test_client()).table("go-big", players=("Zed", "Yan"))

    back = make_app(f"sqlite:///{tmp_path / 'back.sqlite3'}", tmp_path)
    code, output = run(back, "import", str(tmp_path / "server.json"))
    assert code == 0, output
    assert export(back, tmp_path / "back.json") == document
    assert views(back, made) == views(original, made)
    # A game part-played goes on in the copy exactly as it would have in the original
    # (the log's times aside).
    unfinished = made[1]
    for app in (original, back):
        play(app, Api(client=app.test_client()), _rebound(unfinished, app), 2, 99)
    assert views(back, [unfinished], logs=False) == views(original, [unfinished], logs=False)


def test_a_version_1_file_imports_with_its_lines_made_again(laptop, tmp_path):
    """A file exported before the log's lines were messages holds them as English text
    with `{name:ID}` placeholders: imported, its lines are made again from its logs, the
    same messages as the original's, and every screen reads as the original's."""
    old = json.loads(laptop.file.read_text())
    old["version"] = 1
    for table in old["tables"]:
        for event in table["events"]:
            event["notes"] = [english(note) for note in event["notes"]]
    assert any(event["notes"] for table in old["tables"] for event in table["events"])
    (tmp_path / "v1.json").write_text(json.dumps(old))
    app = make_app(f"sqlite:///{tmp_path / 'from-v1.sqlite3'}", tmp_path)
    code, output = run(app, "import", str(tmp_path / "v1.json"))
    assert code == 0, output
    assert export(app, tmp_path / "again.json") == laptop.document
    assert screens(app, laptop.made) == laptop.screens


def english(note: dict) -> dict:
    """A log line as a version 1 file held it."""
    line = Note.from_json(note)
    return {"text": str(line.text), "private": {str(k): str(v) for k, v in line.private.items()},
            "reveal": line.reveal}


def screens(app, made) -> list:
    """What every viewer of every table reads, whatever the players' ids: the log, the
    text of the phone and host screens, and the names seated in a lobby."""
    api = Api(client=app.test_client())
    seen = []
    for table in made:
        if isinstance(table, str):
            status, view = api.call("GET", f"/tables/{table}")
            seen.append((status, [(p["seat"], p["name"]) for p in view["players"]]))
            continue
        names = _rebound(table, app).names
        for token in (None, table.host, *table.tokens.values()):
            status, log = api.call("GET", f"/tables/{table.code}/log", token)
            seen.append((status, [{**e, "player": names.get(e["player"])} for e in log["events"]]))
        for name, token in table.tokens.items():
            phone = app.test_client()
            phone.set_cookie(f"companion_{table.code}", token)
            page = phone.get(f"/t/{table.code}")
            seen.append((name, page.status_code, text_of(page.get_data(as_text=True))))
        host = app.test_client()
        host.set_cookie(f"companion_host_{table.code}", table.host)
        page = host.get(f"/t/{table.code}/host")
        seen.append(("host", page.status_code, text_of(page.get_data(as_text=True))))
    return seen


def test_two_laptops_histories_merge_though_both_count_players_from_one(laptop, tmp_path):
    """Each laptop numbers its players from 1: the tables whose ids are taken get new ones."""
    (tmp_path / "mine").mkdir()
    # PostgreSQL when a server is named
    # The limits are lifted: tables are made here until every id of the laptop's is taken,
    # more joins from one address than a minute allows.
    with own_database(tmp_path / "mine") as url, \
            app_on(url, tmp_path, RATELIMIT_ENABLED=False) as mine:
        _merge_into(mine, laptop, tmp_path)


def _merge_into(mine, laptop, tmp_path) -> None:
    api = Api(client=mine.test_client())
    table = api.table("go-big", players=("Ann", "Ben"), seed=5)
    table.play(2)
    theirs = {p["id"] for t in laptop.document["tables"] for p in t["players"]}
    while max(table.ids.values()) < max(theirs):  # every id of the laptop's is taken here
        table = api.table("go-big", players=("Cy", "Di", "Ed", "Flo"), start=False)
    own = export(mine, tmp_path / "own.json")["tables"]

    code, output = run(mine, "import", str(laptop.file))
    assert code == 0, output
    assert f"Imported {len(laptop.made)} tables" in output
    merged = export(mine, tmp_path / "merged.json")["tables"]
    assert [t for t in merged if t["code"] in {t["code"] for t in own}] == own
    ids = [p["id"] for t in merged for p in t["players"]]
    assert len(ids) == len(set(ids))
    # Every viewer reads what they read on the laptop: their secrets, the log lines
    # written for them, their moves, under the players' new ids.
    assert screens(mine, laptop.made) == laptop.screens
    code, output = run(mine, "import", str(laptop.file))
    assert code == 0 and "Imported 0 tables" in output, output
    # The games go on in the copy, and new players get ids of their own.
    unfinished = _rebound(laptop.made[1], mine)
    play(mine, unfinished.api, unfinished, 2, 99)
    api.table("go-big", players=("Zed", "Yan"))


def _rebound(table, app):
    """The table as seated in `app`'s database (where its players may have other ids)."""
    table.api = Api(client=app.test_client())
    table.ids = {p["name"]: p["id"] for p in table.view()["players"]}
    table.names = {v: k for k, v in table.ids.items()}
    return table


@pytest.fixture
def target(app_with, tmp_path):
    """A database with a game in it, and its export before anything is tried."""
    app = app_with()
    table = Api(client=app.test_client()).table("go-big", players=("Ann", "Ben"), seed=5)
    table.play(4)
    before = export(app, tmp_path / "before.json")
    return app, before


def refused(app, before, path, tmp_path, *expected: str) -> None:
    code, output = run(app, "import", str(path))
    assert code == 1, output
    assert "Traceback" not in output
    for words in expected:
        assert words in output, output
    assert export(app, tmp_path / "after.json") == before


def other_export(tmp_path) -> dict:
    """The export of another database: two games of Go Big under way."""
    with app_on(f"sqlite:///{tmp_path / 'source.sqlite3'}", tmp_path) as source:
        for seed in (9, 10):
            table = Api(client=source.test_client()).table("go-big", players=("Cy", "Di"),
                                                            seed=seed)
            table.play(3)
        return export(source, tmp_path / "source.json")


def test_an_empty_a_cut_short_and_a_future_file_change_nothing(target, tmp_path):
    app, before = target
    document = other_export(tmp_path)
    empty = tmp_path / "empty.json"
    empty.write_text("")
    refused(app, before, empty, tmp_path, "empty", "not a Companion export")
    whole = json.dumps(document)
    cut = tmp_path / "cut.json"
    cut.write_text(whole[: len(whole) * 2 // 3])
    refused(app, before, cut, tmp_path, "not valid JSON", "cut short or damaged")
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**document, "version": 3}))
    refused(app, before, future, tmp_path, "format version 3", "upgrade Companion")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"tables": []}))
    refused(app, before, other, tmp_path, "not a Companion export")
    misshapen = tmp_path / "misshapen.json"
    broken = json.loads(whole)
    broken["tables"][0]["players"][0]["id"] = "one"
    misshapen.write_text(json.dumps(broken))
    refused(app, before, misshapen, tmp_path, f"Table {broken['tables'][0]['code']}",
            "players.0.id")


def test_a_log_that_does_not_give_its_state_is_refused_naming_the_table(target, tmp_path):
    app, before = target
    document = other_export(tmp_path)
    # Beside a valid table: the file is refused whole, not half-imported.
    good, second = document["tables"]
    tampered = json.loads(json.dumps(good))
    seat = tampered["state"]["seats"][0]
    seat["bank_cards"] = seat.get("bank_cards", 0) + 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps({**document, "tables": [tampered, second]}))
    refused(app, before, path, tmp_path, f"Table {good['code']}",
            "does not give the state stored")
    unplayable = json.loads(json.dumps(good))
    unplayable["events"][0]["action"] = {"type": "fly"}
    path.write_text(json.dumps({**document, "tables": [second, unplayable]}))
    refused(app, before, path, tmp_path, f"Table {good['code']}", "does not replay")


def test_a_code_taken_by_a_different_table_is_refused(target, tmp_path):
    app, before = target
    document = other_export(tmp_path)
    mine = before["tables"][0]
    clash = json.loads(json.dumps(document["tables"][0]))
    clash["code"] = mine["code"]
    path = tmp_path / "clash.json"
    path.write_text(json.dumps({**document, "tables": [clash]}))
    refused(app, before, path, tmp_path, f"The code {mine['code']} is already taken",
            "nothing was imported")
