"""Over real HTTP: live streams, concurrent writers, and servers that restart or crash."""
from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import threading
import time

import pytest
import requests

from companion import live
from companion.extensions import db
from companion.models import Table
from tests.support.api import Api, Seated
from tests.support.app import ROOT, close_app, free_port
from tests.support.checkpoints import check_state_is_the_log
from tests.support.servers import GUNICORN, ServerProcess, processes_of_group
from tests.support.streams import Stream


def test_the_stream_announces_every_change_at_once(live_server):
    api = Api(live_server.url)
    table = api.table()
    stream_url = f"{live_server.url}/api/v1/tables/{table.code}/stream"
    events = Stream(stream_url, table.tokens["Ben"])
    version = events.next_version(-1)
    assert version == table.view()["version"]
    started = time.monotonic()
    table.act(table.tokens["Ann"], type="play", value=2, count=1)
    assert events.next_version(version) == version + 1
    assert time.monotonic() - started < 1


def test_the_api_stream_pushes_each_viewers_own_view(live_server):
    """The version event carries the caller's view at that version, exactly what a
    fetch of the view returns: a player's own secrets, none for the public."""
    api = Api(live_server.url)
    table = api.table()
    url = f"{live_server.url}/api/v1/tables/{table.code}/stream"
    streams = {"Ben": Stream(url, table.tokens["Ben"]), None: Stream(url)}
    for events in streams.values():
        events.next_version(-1)
    version = table.act(table.tokens["Ann"], type="play", value=2, count=1)[1]["version"]
    for name, events in streams.items():
        event, data = events.get(timeout=5)
        assert (event, data["version"]) == ("version", version)
        token = table.tokens[name] if name else None
        assert data["table"] == api.call("GET", f"/tables/{table.code}", token)[1]
        assert (data["table"]["private"] is None) == (name is None)


def test_a_screen_stream_pushes_its_panel_when_newer_than_the_page(live_server):
    """A screen's stream sends the rendered panel: at once when the page (`since`) is
    older than the table, else at the next change; then the table's parts at each change
    (and the viewer's own when they changed)."""
    api = Api(live_server.url)
    table = api.table()
    version = table.view()["version"]
    cookies = {f"companion_{table.code}": table.tokens["Ben"]}
    url = f"{live_server.url}/t/{table.code}/events?screen=phone"
    behind = Stream(f"{url}&since={version - 1}", cookies=cookies)
    current = Stream(f"{url}&since={version}", cookies=cookies)
    event, html = behind.get(timeout=5)
    assert event == "panel" and f'data-version="{version}"' in html
    table.act(table.tokens["Ann"], type="play", value=2, count=1)
    # Both streams were listening once opened; the current page's first panel is the change.
    event, html = current.get(timeout=5)
    assert event == "panel" and f'data-version="{version + 1}"' in html
    assert "Ann played" in html and 'id="panel"' in html
    event, html = behind.get(timeout=5)
    assert event == "public" and f'data-version="{version + 1}"' in html
    assert "Ann played" in html and 'id="panel"' not in html


def test_a_revoked_token_is_refused_by_an_open_stream(live_server):
    api = Api(live_server.url)
    table = api.table()
    events = Stream(f"{live_server.url}/api/v1/tables/{table.code}/stream",
                    table.tokens["Ann"])
    events.next_version(-1)
    api.call("POST", f"/tables/{table.code}/players/{table.ids['Ann']}/rejoin", table.host)
    seen = []
    while True:
        event, _ = events.get(timeout=5)
        seen.append(event)
        if event in ("revoked", "closed"):
            break
    assert "revoked" in seen
    response = requests.get(f"{live_server.url}/api/v1/tables/{table.code}/stream",
                            headers={"Authorization": f"Bearer {table.tokens['Ann']}"}, timeout=5)
    assert response.status_code == 401


def test_conflicting_actions_at_once_apply_exactly_once_per_version(live_server):
    api = Api(live_server.url)
    table = api.table(players=("Ann", "Ben"))
    ann = table.tokens["Ann"]
    for round_ in range(5):
        version = table.view()["version"]
        step = table.view(ann)["state"]["step"]
        action = ({"type": "play", "value": 1 + round_ % 7, "count": 1} if step == "play"
                  else {"type": "draw", "source": "deck"})
        barrier = threading.Barrier(6)
        answers = []

        def post(n: int, barrier=barrier, answers=answers, version=version,
                 action=action) -> None:
            barrier.wait()
            answers.append(table.act(ann if n else table.tokens["Ann"], version=version,
                                     **action))

        threads = [threading.Thread(target=post, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(status for status, _ in answers)
        assert statuses.count(200) == 1, statuses
        assert all(status == 409 for status in statuses if status != 200)
        assert all(body["error"]["code"] == "stale" and body["table"]["version"] == version + 1
                   for status, body in answers if status == 409)
        if table.view(ann)["turn"] != table.ids["Ann"]:
            table.act(table.tokens["Ben"], type="play", value=1, count=1)
            table.act(table.tokens["Ben"], type="draw", source="deck")
    status, log = api.call("GET", f"/tables/{table.code}/log")
    assert [e["seq"] for e in log["events"]] == list(range(1, len(log["events"]) + 1))


def test_double_taps_with_one_action_id_apply_once(live_server):
    api = Api(live_server.url)
    table = api.table()
    barrier = threading.Barrier(5)
    answers = []

    def tap() -> None:
        barrier.wait()
        answers.append(table.act(table.tokens["Ann"], type="play", value=5, count=1,
                                 action_id="same-tap"))

    threads = [threading.Thread(target=tap) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [200] * 5
    assert len({body["version"] for _, body in answers}) == 1
    status, log = api.call("GET", f"/tables/{table.code}/log")
    assert len(log["events"]) == 1


def test_a_new_app_on_the_same_database_continues_every_table(app, app_with):
    api = Api(client=app.test_client())
    table = api.table()
    table.act(table.tokens["Ann"], type="play", value=6, count=2)
    before = table.view(table.tokens["Ann"])
    close_app(app)
    again = app_with()
    table.api = Api(client=again.test_client())
    assert table.view(table.tokens["Ann"]) == before
    assert table.act(table.tokens["Ann"], type="draw", source="deck")[0] == 200
    with again.app_context():
        stored = db.session.execute(db.select(Table).where(Table.code == table.code)).scalar_one()
        check_state_is_the_log(stored)


# -- real server processes ----------------------------------------------------------

@pytest.fixture
def server_database(database_url):
    return database_url


def on_sqlite(database_url: str) -> bool:
    return database_url.startswith("sqlite")


def test_a_move_through_one_server_reaches_a_phone_on_another(server_database, app, tmp_path):
    if on_sqlite(server_database):
        pytest.skip("servers sharing a database tell each other of a change through "
                    "PostgreSQL's LISTEN/NOTIFY; SQLite is served by one process, and "
                    "another's change reaches it by the slow poll (tested below)")
    one = ServerProcess(server_database, tmp_path).start()
    two = ServerProcess(server_database, tmp_path).start()
    events = None
    try:
        table = Api(one.url, app=app).table()
        events = Stream(f"{two.url}/api/v1/tables/{table.code}/stream", table.tokens["Ben"])
        version = events.next_version(-1)
        waited = []
        for _ in range(4):  # moves through the first server, each told at once on the second
            token, move = table.next_move()
            started = time.monotonic()
            assert table.act(token, **move)[0] == 200
            version = events.next_version(version)
            waited.append(time.monotonic() - started)
        # Each move is made as soon as the one before was told. Had the second server learnt
        # of that one by its poll, this one would wait for its next poll: nearly a whole
        # period. Told by the server that made it, it takes a small part of one.
        assert max(waited) < live.POLL_SECONDS / 2, waited
    finally:
        two.stop(events)
        one.stop()


def test_a_change_written_by_another_program_reaches_the_streams(server_database, app,
                                                                 tmp_path):
    """A program other than the server writing to its database (this test's process,
    as a command-line import would): its change reaches the server's open streams within
    the slow poll's period (on PostgreSQL, its notification is there sooner)."""
    server = ServerProcess(server_database, tmp_path).start()
    events = None
    try:
        table = Api(server.url).table()
        events = Stream(f"{server.url}/api/v1/tables/{table.code}/stream", table.tokens["Ben"])
        version = events.next_version(-1)
        elsewhere = Seated(Api(client=app.test_client()), table.code, table.host,
                           table.tokens, table.ids)
        for _ in range(2):
            token, move = elsewhere.next_move()
            started = time.monotonic()
            assert elsewhere.act(token, **move)[0] == 200
            version = events.next_version(version, timeout=live.POLL_SECONDS + 3)
            assert time.monotonic() - started < live.POLL_SECONDS + 1.5  # the poll, and a margin
    finally:
        server.stop(events)


@pytest.mark.parametrize("database", ["sqlite:///{folder}/companion.sqlite3", None],
                         ids=["a SQLite file", "DATABASE_URL unset"])
def test_several_workers_on_sqlite_are_refused_at_start(database, tmp_path):
    """On SQLite the server is one process: asking for more stops gunicorn before it
    listens, with a message that points to PostgreSQL; unset, DATABASE_URL means the
    default SQLite file."""
    port = free_port()
    env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", WEB_CONCURRENCY="2",
               SECRET_KEY="test-secret")
    env.pop("DATABASE_URL", None)
    if database:
        env["DATABASE_URL"] = database.format(folder=tmp_path)
    done = subprocess.run([GUNICORN, "-c", "gunicorn.conf.py", "wsgi:app"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "on SQLite Companion runs one worker process" in done.stderr
    assert "PostgreSQL" in done.stderr and "DATABASE_URL=postgresql" in done.stderr
    assert not (tmp_path / "companion.sqlite3").exists()  # refused before any migration
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{port}/", timeout=2)


def test_several_workers_serve_on_postgresql(server_database, app, tmp_path):
    if on_sqlite(server_database):
        pytest.skip("several workers need PostgreSQL (refused on SQLite, tested above)")
    server = ServerProcess(server_database, tmp_path, workers=2).start()
    events = None
    try:
        table = Api(server.url, app=app).table()
        events = Stream(f"{server.url}/api/v1/tables/{table.code}/stream",
                        table.tokens["Ben"])
        version = events.next_version(-1)
        for _ in range(6):  # whichever worker takes the move, the stream is told at once
            token, move = table.next_move()
            assert table.act(token, **move)[0] == 200
            version = events.next_version(version, timeout=1)
    finally:
        server.stop(events)


def test_stopping_the_server_ends_every_stream_at_once(server_database, tmp_path):
    """SIGTERM (a supervisor stopping the server): every open stream ends at once, the
    server exits by itself within its graceful timeout, and nothing had to be killed."""
    server = ServerProcess(server_database, tmp_path).start()
    try:
        table = Api(server.url).table()
        api_url = f"{server.url}/api/v1/tables/{table.code}/stream"
        streams = [Stream(api_url, token) for token in table.tokens.values()]
        streams.append(Stream(api_url))  # the public view
        streams.append(Stream(f"{server.url}/t/{table.code}/events?screen=phone",
                              cookies={f"companion_{table.code}": table.tokens["Ann"]}))
        for events in streams:
            assert events.get(timeout=5)[0] in ("version", "panel")
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 2
        for events in streams:
            try:
                while events.get(timeout=max(0.01, deadline - time.monotonic()))[0] != "closed":
                    pass
            except queue.Empty:
                raise AssertionError("a stream was still open 2 s after SIGTERM") from None
        assert server.process.wait(timeout=30) == 0
    finally:
        server.stop()
    written = server.output()
    assert "graceful timeout" not in written.lower(), written
    assert "SIGKILL" not in written and "Traceback" not in written, written


def test_stopping_and_killing_the_server_loses_nothing(server_database, tmp_path):
    server = ServerProcess(server_database, tmp_path).start()
    try:
        api = Api(server.url)
        table = api.table(players=("Ann", "Ben"))
        acknowledged = 0
        for round_ in range(6):
            view = table.view()
            token = table.token_of(view["turn"])
            action = table.view(token)["actions"][0]
            if action["type"] == "play":
                status, _ = table.act(token, type="play", **action["sets"][round_ % 3])
            else:
                status, _ = table.act(token, type="draw", source=action["source"][0])
            assert status == 200
            acknowledged += 1
            before = table.view(token)
            if round_ % 2:
                server.kill()
            else:
                server.stop()
            server.start()
            assert table.view(token) == before
        status, log = api.call("GET", f"/tables/{table.code}/log")
        assert len(log["events"]) == acknowledged
    finally:
        server.stop()


def test_a_killed_server_keeps_its_port_and_leaves_no_process(server_database, tmp_path):
    """Between a kill and the restart no other program can take the server's port (other
    tests ask for free ports all the time), and no process of the killed server is left
    holding it."""
    server = ServerProcess(server_database, tmp_path).start()
    try:
        group = server.process.pid
        server.kill()
        assert processes_of_group(group) == []
        with socket.socket() as neighbour, pytest.raises(OSError):
            neighbour.bind(("127.0.0.1", server.port))
        server.start()
        assert requests.get(server.url + "/healthz", timeout=10).ok
    finally:
        server.stop()


def test_the_hub_keeps_only_tables_someone_streams():
    """A long-running server must not remember every table it ever served."""
    hub = live.Hub()
    hub.publish("BCDF", 3)  # nobody streams it here: nothing is kept
    hub.listen("BCDF")
    assert hub.wait("BCDF", -1, 0) == -1
    hub.publish("BCDF", 4)
    assert hub.wait("BCDF", -1, 0) == 4
    hub.unlisten("BCDF")
    assert hub.listened() == []
    hub.listen("BCDF")  # a new stream starts from what it is told, not from old news
    assert hub.wait("BCDF", -1, 0) == -1
    hub.unlisten("BCDF")


def test_a_closed_hub_ends_every_wait_at_once():
    """What a stopping server does to its streams: a wait ends at once, and so does one
    begun afterwards."""
    hub = live.Hub()
    hub.listen("BCDF")
    entering = threading.Event()

    def wait() -> None:
        entering.set()  # the close is made once this thread goes on into the wait
        hub.wait("BCDF", -1, 30)

    waiting = threading.Thread(target=wait)
    waiting.start()
    entering.wait(5)
    hub.close()
    waiting.join(timeout=1)
    assert not waiting.is_alive()
    started = time.monotonic()
    hub.listen("GHJK")
    assert hub.wait("GHJK", -1, 30) == -1
    assert time.monotonic() - started < 1
    hub.unlisten("BCDF")
    hub.unlisten("GHJK")


def test_a_fragment_is_sent_as_data_lines_the_client_joins_back():
    """Every line of a rendered fragment is a data line; only CR and LF end a line of an
    event stream, so a character other splitters treat as a line break stays inside."""
    fragment = '<ul>\n  <li>Ann\u2028Ben</li>\r\n  <li>Cat</li>\r</ul>\n'
    sent = live.sse_lines("panel", fragment)
    assert sent == ("event: panel\ndata: <ul>\ndata:   <li>Ann\u2028Ben</li>\n"
                    "data:   <li>Cat</li>\ndata: </ul>\n\n")
    lines = sent.split("\n")
    assert lines[0] == "event: panel" and sent.endswith("\n\n")
    joined = "\n".join(line.removeprefix("data: ") for line in lines[1:-2])
    assert joined == fragment.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
