"""A table clock moves with its table: an export imported into another database shows the
same clocks (the setting, every player's time, a pause), a game's record that holds a
pause and a resume imports, and "play again" keeps the clock for the next game."""
from __future__ import annotations

import json

from companion.auth import Viewer
from companion.extensions import db
from companion.table import read, seating
from tests.support.api import Api, Seated
from tests.support.app import app_on, make_app, own_database

BANK = {"mode": "bank", "bank_seconds": 90, "increment_seconds": 3, "warn_seconds": 0}


def clocked(api: Api, clock=BANK) -> Seated:
    return api.table("guess-number", ("Ann", "Ben"), seed=5, clock=clock)


def played(table: Seated, finish: bool) -> None:
    """Both numbers chosen, the clock paused and resumed, a wrong guess; and, to finish,
    the right one."""
    api = table.api
    assert table.act(table.tokens["Ann"], type="choose", number=7)[0] == 200
    assert table.act(table.tokens["Ben"], type="choose", number=12)[0] == 200
    assert api.call("POST", f"/tables/{table.code}/clock", table.host, {"paused": True})[0] == 200
    assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                    {"paused": False})[0] == 200
    assert table.act(table.tokens["Ann"], type="guess", guess=3)[0] == 200
    if finish:
        assert table.act(table.tokens["Ben"], type="guess", guess=7)[0] == 200
    else:
        assert api.call("POST", f"/tables/{table.code}/clock", table.host,
                        {"paused": True})[0] == 200


def clock_without_its_moment(view: dict) -> dict:
    """The view's clock but `at` (and the table's own time, which a paused clock adds to)."""
    return {key: value for key, value in view["clock"].items()
            if key not in ("at", "admin_ms")}


def run(app, *args) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=list(args))
    return result.exit_code, result.output


def test_an_exported_clock_shows_the_same_times_in_another_database(tmp_path):
    laptop = make_app(f"sqlite:///{tmp_path / 'laptop.sqlite3'}", tmp_path)
    api = Api(client=laptop.test_client())
    finished, paused = clocked(api), clocked(api)
    played(finished, finish=True)
    played(paused, finish=False)
    before = [t.view() for t in (finished, paused)]
    assert before[0]["status"] == "finished" and before[1]["clock"]["paused"] is True
    code, output = run(laptop, "export", str(tmp_path / "laptop.json"))
    assert code == 0, output
    document = json.loads((tmp_path / "laptop.json").read_text())
    assert all(table["clock"] == BANK for table in document["tables"])

    (tmp_path / "server").mkdir()
    with own_database(tmp_path / "server") as url, app_on(url, tmp_path) as server:
        code, output = run(server, "import", str(tmp_path / "laptop.json"))
        assert code == 0, output
        there = Api(client=server.test_client())
        after = [there.call("GET", f"/tables/{t.code}")[1] for t in (finished, paused)]
        assert after[0]["clock"] == {**before[0]["clock"], "at": after[0]["clock"]["at"]}
        assert after[0]["result"] == before[0]["result"]
        assert "time_ms" in after[0]["result"]["standings"][0]
        assert clock_without_its_moment(after[1]) == clock_without_its_moment(before[1])
        assert after[1]["clock"]["admin_ms"] >= before[1]["clock"]["admin_ms"]


def test_a_record_with_a_pause_and_a_resume_imports(tmp_path):
    laptop = make_app(f"sqlite:///{tmp_path / 'laptop.sqlite3'}", tmp_path)
    table = clocked(Api(client=laptop.test_client()))
    played(table, finish=True)
    record = laptop.test_client().get(f"/t/{table.code}/record.json")
    assert record.status_code == 200
    (tmp_path / "record.json").write_bytes(record.data)
    kinds = [entry["kind"] for entry in json.loads(record.data)["log"]]
    assert "pause" in kinds and "resume" in kinds
    (tmp_path / "server").mkdir()
    with own_database(tmp_path / "server") as url, app_on(url, tmp_path) as server:
        code, output = run(server, "import", str(tmp_path / "record.json"))
        assert code == 0, output
        log = Api(client=server.test_client()).call("GET", f"/tables/{table.code}/log")[1]
        lines = [event["summary"] for event in log["events"]]
        assert "The host paused the clock." in lines and "The host resumed the clock." in lines


def test_play_again_keeps_the_clock(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path)
    api = Api(client=app.test_client())
    table = clocked(api)
    played(table, finish=True)
    with app.app_context():
        again, _ = seating.play_again(read.find(table.code), Viewer(is_host=True))
        db.session.remove()
    status, view = api.call("GET", f"/tables/{again}")
    assert status == 200 and view["clock"]["mode"] == "bank"
    assert view["clock"]["bank_seconds"] == 90 and view["clock"]["running"] == []
