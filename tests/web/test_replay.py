"""A finished game's replay, move by move, and its record opened on another server: by
the upload on /games and by `flask import` of the file as downloaded."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from companion.auth import PUBLIC
from companion.extensions import db
from companion.games import GAMES
from companion.models import Table
from companion.table import read, replaying
from tests.support.api import Api
from tests.support.app import ROOT, app_on
from tests.support.pages import csrf_of, page, text_of
from tests.support.screens import as_host, as_player

QUICK = {"go-big": {"copies_per_value": 4}}


def finished(app, game: str = "go-big", seed: int = 7):
    api = Api(client=app.test_client())
    engine = GAMES[game]
    players = ("Ann", "Ben", "Cat")[:max(engine.min_players, min(3, engine.max_players))]
    table = api.table(game, players=players, seed=seed, options=QUICK.get(game))
    table.finish()
    return table


def downloaded(app, table) -> bytes:
    phone = as_player(app.test_client(), table.code, next(iter(table.tokens.values())))
    response = phone.get(f"/t/{table.code}/record.json")
    assert response.status_code == 200
    return response.data


def public_lines(app, code: str) -> list[str]:
    with app.app_context():
        lines = [line["summary"] for line in read.log(read.find(code), PUBLIC)]
        db.session.remove()
        return lines


def table_count(app) -> int:
    with app.app_context():
        count = db.session.query(Table).count()
        db.session.remove()
        return count


def test_a_replay_steps_through_the_game_with_every_secret(app):
    table = finished(app)
    lines = public_lines(app, table.code)
    visitor = app.test_client()  # the game is over: its replay is anyone's, like its result
    start = page(visitor, f"/t/{table.code}/replay")
    assert "The start, before the first move" in start and "The table is set up." in start
    assert re.search(r'id="replay-first"[^>]*disabled', start)
    assert re.search(r'id="replay-back"[^>]*disabled', start)
    assert not re.search(r'id="replay-forward"[^>]*disabled', start)
    last = int(re.search(r'id="replay-slider"[^>]*max="(\d+)"', start).group(1))
    assert last == len(lines)  # Go Big has no undo in this game: every line is a move
    assert [name for name in ("Ann", "Ben", "Cat") if f"{name}'s bank:" in text_of(start)] == [
        "Ann", "Ben", "Cat"]  # every player's own part, named, at the start

    first = page(visitor, f"/t/{table.code}/replay?step=1")
    assert "Move 1 of" in first and lines[0] in text_of(first)
    step = visitor.get(f"/t/{table.code}/replay?step=2", headers={"HX-Request": "true"})
    fragment = step.get_data(as_text=True)
    assert "<html" not in fragment and lines[1] in text_of(fragment)
    assert 'hx-swap-oob="true"' in fragment and 'value="2"' in fragment  # the slider moves
    assert 'hx-swap-oob="innerHTML:#replay-announcer"' in fragment
    seek = visitor.get(f"/t/{table.code}/replay?step=3",
                       headers={"HX-Request": "true", "HX-Trigger": "replay-seek"})
    assert 'id="replay-slider"' not in seek.get_data(as_text=True)  # left where it was dragged

    end = page(visitor, f"/t/{table.code}/replay?step={last}")
    assert re.search(r'id="replay-last"[^>]*disabled', end)
    assert re.search(r'id="replay-forward"[^>]*disabled', end)
    assert "The game is over." in end and 'aria-label="Result"' in end
    for standing in table.view()["result"]["standings"]:
        assert f">{standing['score']}<" in end
    for bad in ("x", str(last + 1), "-1", "9" * 20):
        response = visitor.get(f"/t/{table.code}/replay?step={bad}")
        assert response.status_code == 400
        assert "There is no move" in response.get_data(as_text=True)


def test_the_result_and_the_history_link_to_the_replay(app):
    table = finished(app)
    replay = f'href="/t/{table.code}/replay"'
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    assert replay in page(phone, f"/t/{table.code}")
    host = as_host(app.test_client(), table.code, table.host)
    assert replay in page(host, f"/t/{table.code}/host")
    assert replay in page(app.test_client(), f"/d/{table.code}")
    assert replay in page(phone, f"/t/{table.code}/history")


def test_before_the_end_there_is_no_replay_for_anyone(app):
    api = Api(client=app.test_client())
    table = api.table(options=QUICK["go-big"])
    table.play(4)
    for client in (app.test_client(), as_host(app.test_client(), table.code, table.host),
                   as_player(app.test_client(), table.code, table.tokens["Ann"])):
        for url in (f"/t/{table.code}/replay", f"/t/{table.code}/replay?step=1"):
            response = client.get(url)
            assert response.status_code == 409
            body = response.get_data(as_text=True)
            assert "The replay opens when the game is over" in body
            assert "Your bank" not in body and "bank_total" not in body
    assert f"/t/{table.code}/replay" not in page(app.test_client(), f"/d/{table.code}")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_replay_of_every_game_ends_in_the_tables_own_result(app, game):
    table = finished(app, game, seed=11)
    with app.app_context():
        stored = read.find(table.code)
        moves = replaying.moves_of(stored)
        end = replaying.step(stored, len(moves))
        engine = GAMES[game]
        assert engine.result(end.table.state).to_json() == engine.result(stored.state).to_json()
        assert end.table.state == stored.state
        db.session.remove()
    client = app.test_client()
    html = page(client, f"/t/{table.code}/replay?step={len(moves)}")
    assert "The game is over." in html
    for standing in table.view()["result"]["standings"]:
        assert f">{standing['score']}<" in html
    page(client, f"/t/{table.code}/replay?step={len(moves) // 2}")


def upload(client, content: bytes, name: str = "record.json", csrf: bool = True,
           address: str = "127.0.0.1"):
    data = {"record": (io.BytesIO(content), name)}
    if csrf:
        data["csrf_token"] = csrf_of(page(client, "/games"))
    return client.post("/games/records", data=data, content_type="multipart/form-data",
                       environ_base={"REMOTE_ADDR": address})


def test_a_record_uploaded_on_another_server_opens_at_its_end_and_only_once(app, other_app):
    table = finished(app)
    record = downloaded(app, table)
    visitor = other_app.test_client()
    assert 'action="/games/records"' in page(visitor, "/games")
    response = upload(visitor, record)
    assert response.status_code == 303, response.get_data(as_text=True)
    code = re.search(r"/t/([A-Z]{4})/replay\?step=(\d+)", response.headers["Location"]).group(1)
    end = page(visitor, response.headers["Location"])
    assert "The game is over." in end
    for standing in table.view()["result"]["standings"]:
        assert f">{standing['score']}<" in end
    assert public_lines(other_app, code) == public_lines(app, table.code)
    assert table.view()["result"]["standings"] == Api(client=visitor).call(
        "GET", f"/tables/{code}")[1]["result"]["standings"]
    # Nobody can play on at the imported table: no phone holds its tokens.
    assert visitor.get(f"/t/{code}/host").status_code == 403

    again = upload(visitor, record)
    assert again.status_code == 409
    body = again.get_data(as_text=True)
    assert f"already on this server, as table {code}" in body
    assert f'href="/t/{code}/replay"' in body
    assert table_count(other_app) == 1


def test_a_bad_record_file_is_refused_clearly_and_changes_nothing(app, other_app):
    record = json.loads(downloaded(app, finished(app)))
    visitor = other_app.test_client()
    # More files than one address may send in a minute (the limit stays on): each from an
    # address of its own.
    addresses = (f"10.0.0.{n}" for n in range(1, 255))

    def refused(content: bytes, status: int, *words: str, **kwargs):
        response = upload(visitor, content, address=next(addresses), **kwargs)
        body = text_of(response.get_data(as_text=True))
        assert response.status_code == status, body[:500]
        for word in words:
            assert word in body, body[:800]
        assert table_count(other_app) == 0

    refused(b"{not json", 400, "not valid JSON")
    refused(json.dumps({**record, "format": "companion-record/3"}).encode(), 400,
            "format version 3", "upgrade Companion")
    refused(json.dumps({"format": "something else"}).encode(), 400, "not a Companion game record")
    refused(json.dumps({"format": "companion-export", "version": 1, "tables": []}).encode(),
            400, "a whole server's export")
    refused(json.dumps({**record, "game": "chess"}).encode(), 422,
            "a game this server does not have")
    unplayable = json.loads(json.dumps(record))
    unplayable["log"][2]["action"] = {"type": "fly"}
    refused(json.dumps(unplayable).encode(), 422, "does not replay")
    other_result = json.loads(json.dumps(record))
    other_result["result"]["standings"][0]["score"] += 1
    refused(json.dumps(other_result).encode(), 422, "does not replay to the result it states")
    cut = json.loads(json.dumps(record))
    cut["log"] = cut["log"][:5]
    refused(json.dumps(cut).encode(), 422, "not over")
    refused(b" " * (2 * 1024 * 1024 + 10), 413, "larger than 2 MB")
    refused("é".encode("latin-1"), 400, "not text")
    refused(json.dumps(record).encode(), 400, "This form has expired", csrf=False)
    refused(b"[" * 200_000, 400, "nested too deeply")
    refused(json.dumps({**record, "game": ["go-big"]}).encode(), 422, "does not have")
    refused(json.dumps({**record, "format": "companion-record/" + "9" * 5000}).encode(), 400,
            "without a valid format version")
    for damage in ({"players": "Ann"}, {"order": list(reversed(record["order"]))},
                   {"log": [{**entry, "at": "yesterday"} for entry in record["log"]]},
                   {"log": [{**entry, "seq": 1} for entry in record["log"]]},
                   {"log": [{**entry, "player": 999} for entry in record["log"]]},
                   {"created_at": "99999-01-01"}, {"seed": -1}):
        refused(json.dumps({**record, **damage}).encode(), 422, "is damaged")
    response = visitor.post("/games/records", data={"csrf_token": csrf_of(page(visitor, "/games"))})
    assert response.status_code == 400
    assert "Choose the record file" in response.get_data(as_text=True)


def test_a_refused_record_is_explained_in_the_readers_language(app, other_app):
    """The upload's refusals in the reader's language, the file named as the phone named
    it: the JSON reader's, each damage found, and a field's problem too."""
    record = json.loads(downloaded(app, finished(app)))
    visitor = other_app.test_client()

    def refused(content: bytes) -> str:
        data = {"record": (io.BytesIO(content), "partie.json"),
                "csrf_token": csrf_of(page(visitor, "/games"))}
        response = visitor.post("/games/records", data=data, content_type="multipart/form-data",
                                headers={"Accept-Language": "de"})
        assert response.status_code in (400, 422)
        return text_of(response.get_data(as_text=True))

    said = [
        (b"  ", "partie.json ist leer: Das ist weder ein Export noch eine Spieldatei"),
        (b"{not json", "partie.json ist kein gültiges JSON (Zeile 1, Spalte 2)"),
        (b"[" * 200_000, "partie.json ist zu tief verschachtelt"),
        (json.dumps({**record, "players": [{**p, "seat": 0} for p in record["players"]]}),
         "partie.json ist beschädigt (zwei Spieler haben dieselbe Nummer oder denselben Platz)"),
        (json.dumps({**record, "log": [{**e, "player": 999} for e in record["log"]]}),
         "(das Protokoll nennt Spieler 999, der nicht am Tisch sitzt)"),
        (json.dumps({**record, "seed": -1}), "(seed: mindestens 0)"),
        (json.dumps({**record, "log": [{**record["log"][0], "player": record["order"][1]},
                                       *record["log"][1:]]}),
         "lehnen ihr Protokoll ab (Du bist nicht am Zug.)"),
        (json.dumps({**record, "players": "Ann"}), "(players: kein Wert der richtigen Art)"),
    ]
    for content, words in said:
        shown = refused(content if isinstance(content, bytes) else content.encode())
        assert words in shown, shown[:600]
        assert "That file" not in shown and "Input should" not in shown
    assert table_count(other_app) == 0


def test_flask_import_speaks_the_terminals_language(app, other_app, tmp_path, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    runner = other_app.test_cli_runner()
    broken = tmp_path / "kaputt.json"
    broken.write_text("{not json")
    result = runner.invoke(args=["import", str(broken)])
    assert result.exit_code != 0
    assert f"{broken} ist kein gültiges JSON (Zeile 1, Spalte 2)" in result.output
    path = tmp_path / "partie.json"
    path.write_bytes(downloaded(app, finished(app)))
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0 and f"aus {path} ist jetzt Tisch" in result.output, result.output
    result = runner.invoke(args=["export", str(tmp_path / "alle.json")])
    assert result.exit_code == 0 and "1 Tisch nach" in result.output, result.output


def test_flask_import_takes_the_record_as_downloaded_into_a_fresh_database(app, other_app,
                                                                           tmp_path):
    table = finished(app, "nothing-beats-a-large")
    path = tmp_path / f"nothing-beats-a-large-{table.code}.json"
    path.write_bytes(downloaded(app, table))
    runner = other_app.test_cli_runner()
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    code = re.search(r"as table ([A-Z]{4})", result.output).group(1)
    assert f"/t/{code}/replay" in result.output
    assert public_lines(other_app, code) == public_lines(app, table.code)
    again = runner.invoke(args=["import", str(path)])
    assert again.exit_code == 0 and "already here" in again.output and code in again.output
    assert table_count(other_app) == 1
    end = page(other_app.test_client(), f"/t/{code}/replay")
    assert "Replay: Nothing Beats a Large" in end


def test_an_older_record_without_its_lines_and_times_still_opens(app, other_app, tmp_path):
    """A record downloaded before the file carried its lines and times: the lines are the
    rules' own, the times the log's."""
    table = finished(app, "big-top")
    record = json.loads(downloaded(app, table))
    del record["created_at"], record["finished_at"]
    for entry in record["log"]:
        del entry["notes"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    result = other_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    code = re.search(r"as table ([A-Z]{4})", result.output).group(1)
    assert public_lines(other_app, code) == public_lines(app, table.code)


def test_a_record_whose_code_is_taken_here_gets_a_new_one(app):
    table = finished(app)
    record = json.loads(downloaded(app, table))
    record["created_at"] = "2020-01-01T10:00:00Z"  # another game, as far as this server knows
    response = upload(app.test_client(), json.dumps(record).encode())
    assert response.status_code == 303
    code = re.search(r"/t/([A-Z]{4})/replay", response.headers["Location"]).group(1)
    assert code != table.code
    assert public_lines(app, code) == public_lines(app, table.code)


def test_an_undo_and_a_seat_given_to_a_new_phone_keep_their_lines_on_another_server(app, other_app):
    api = Api(client=app.test_client())
    table = api.table(options=QUICK["go-big"], seed=3)
    table.play(2)
    status, _ = api.call("POST", f"/tables/{table.code}/undo", table.host)
    assert status == 200
    status, body = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ben']}/rejoin",
                            table.host)
    assert status == 200, body
    table.tokens["Ben"] = body["token"]
    table.finish()
    response = upload(other_app.test_client(), downloaded(app, table))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    code = re.search(r"/t/([A-Z]{4})/replay", response.headers["Location"]).group(1)
    lines = public_lines(other_app, code)
    assert lines == public_lines(app, table.code)
    assert any(line.startswith("The host undid: ") for line in lines)
    assert "The host gave Ben's seat to a new phone; the old phone is signed out." in lines
    with other_app.app_context():  # the replay steps through the moves still in effect
        assert len(replaying.moves_of(read.find(code))) == len(lines) - 3
        db.session.remove()


def test_a_real_flask_import_opens_the_record_in_a_new_servers_database(app, tmp_path):
    """`flask --app wsgi import FILE` as a club's keeper runs it, into a database the
    command creates and upgrades itself."""
    table = finished(app, "big-money")
    path = tmp_path / f"big-money-{table.code}.json"
    path.write_bytes(downloaded(app, table))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{fresh / 'companion.sqlite3'}",
           "SECRET_KEY": "another-server"}
    command = [sys.executable, "-m", "flask", "--app", "wsgi", "import", str(path)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    code = re.search(r"as table ([A-Z]{4})", done.stdout).group(1)
    with app_on(env["DATABASE_URL"], fresh) as server:
        assert public_lines(server, code) == public_lines(app, table.code)
        with server.app_context():
            moves = len(replaying.moves_of(read.find(code)))
            db.session.remove()
        end = page(server.test_client(), f"/t/{code}/replay?step={moves}")
        assert "The game is over." in end
