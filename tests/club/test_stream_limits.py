"""One address cannot take the server's live streams from everyone else. On the
production configuration (gunicorn, one gevent worker, SQLite), with small budgets so the
test is quick: one address floods streams and gets 429 past its cap, many addresses fill
the worker and get 503 past its reserve, both with Retry-After, while phones on other
addresses join, move and are told of every move as usual; half-sent requests lock no one
out either. Phones and floods use loopback's many addresses (127.0.0.2, 127.0.0.3, ...)
as their own, or, behind a trusted proxy, the address it forwards."""
from __future__ import annotations

import socket
import time

import pytest

from companion.web.stream_limits import GRACE_SECONDS, WINDOW_SECONDS
from tests.support.api import Api
from tests.support.clients import session_from
from tests.support.servers import ServerProcess, redis_server
from tests.support.streams import Stream

CAP = 4  # streams per address
BUDGET = 80  # the worker's connections: a tenth is kept from the streams
MOST = BUDGET - BUDGET // 10
USUAL = 2.0  # seconds: what a phone's request or update takes, at most, on a busy machine
FLOODER = "127.0.0.9"
KEEPALIVE = 5  # gunicorn.conf.py: how long a connection may take to send a request


@pytest.fixture
def server(database_url, tmp_path, request):
    server = ServerProcess(database_url, tmp_path)
    server.env.update(COMPANION_STREAMS_PER_ADDRESS=str(CAP),
                      COMPANION_CONNECTIONS=str(BUDGET), **getattr(request, "param", {}))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def reader(app_with):
    """The app on the server's database: what the bot reads the full state through."""
    return app_with()


class Flood:
    """Streams asked for on raw sockets, each from a source address, and the open ones
    held; each answer's status and Retry-After."""

    def __init__(self, port: int):
        self.port = port
        self.held: list[socket.socket] = []

    def open(self, path: str, source: str = FLOODER,
             headers: dict | None = None) -> tuple[int, str | None]:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=USUAL,
                                        source_address=(source, 0))
        lines = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: table.lan\r\n{lines}\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, f"the server closed the connection: {head!r}"
            head += chunk
        status_line, *fields = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
        status = int(status_line.split()[1])
        found = dict(field.split(": ", 1) for field in fields)
        if status == 200:
            assert found["Content-Type"].startswith("text/event-stream")
            self.held.append(sock)
        else:
            sock.close()
        return status, found.get("Retry-After")

    def close(self) -> None:
        for sock in self.held:
            sock.close()
        self.held.clear()


def join(table, api: Api, name: str) -> None:
    """`name` takes a seat at the table (in its lobby) through `api`."""
    status, joined = api.call("POST", f"/tables/{table.code}/players", json={"name": name})
    assert status == 201, joined
    table.tokens[name], table.ids[name] = joined["token"], joined["player"]["id"]
    table.names[joined["player"]["id"]] = name


def timed(call, *args, **kwargs):
    started = time.monotonic()
    result = call(*args, **kwargs)
    took = time.monotonic() - started
    assert took < USUAL, f"{call.__name__} took {took:.2f} s"
    return result


def test_one_address_flooding_streams_locks_no_one_out(server, reader):
    flood = Flood(server.port)
    host = Api(server.url, app=reader, session=session_from("127.0.0.2"))
    table = host.table(players=("Ann", "Ben"), start=False)
    stream_path = f"/api/v1/tables/{table.code}/stream"
    phones: dict[str, Stream] = {}

    def phone_streams(name: str, address: str) -> Stream:
        phones[name] = timed(Stream, server.url + stream_path, table.tokens[name],
                             session=session_from(address), label=name)
        return phones[name]

    try:
        phone_streams("Ann", "127.0.0.3")
        phone_streams("Ben", "127.0.0.4")

        # One address asks for more streams than it may hold: the excess is refused.
        answers = [flood.open(stream_path) for _ in range(CAP + 3)]
        assert [status for status, _ in answers] == [200] * CAP + [429] * 3
        assert all(retry and int(retry) > 0 for _, retry in answers[CAP:])

        # A phone on another address joins and follows the table at once.
        cat = Api(server.url, session=session_from("127.0.0.5"))
        timed(join, table, cat, "Cat")
        phone_streams("Cat", "127.0.0.5")

        # Many addresses, each within its cap, fill the worker: past its reserve, 503.
        statuses = []
        while len(statuses) < MOST + 10 and statuses[-3:] != [503] * 3:
            source = f"127.0.1.{len(statuses) // CAP + 1}"
            status, retry = flood.open(stream_path, source)
            statuses.append(status)
            if status == 503:
                assert retry and int(retry) > 0
        assert statuses[-3:] == [503] * 3
        assert len(phones) + len(flood.held) == MOST  # every stream of the worker

        # Pages, joins and moves still answer as usual, and every phone is told of every
        # move: nothing is lost. A newcomer joins too, though its stream waits for room.
        assert timed(host.session.get, server.url + "/", timeout=10).status_code == 200
        status, _ = timed(cat.call, "GET", f"/tables/{table.code}", table.tokens["Cat"])
        assert status == 200
        dan = Api(server.url, session=session_from("127.0.0.6"))
        timed(join, table, dan, "Dan")
        status, retry = flood.open(stream_path, "127.0.0.6",
                                   {"Authorization": f"Bearer {table.tokens['Dan']}"})
        assert status == 503 and int(retry) > 0
        status, view = timed(host.call, "POST", f"/tables/{table.code}/start", table.host,
                             {"seed": 7})
        assert status == 200, view
        for _name, stream in phones.items():
            stream.reaches(view["version"], timeout=USUAL)
        for _ in range(6):
            token, move = table.next_move()
            status, view = timed(table.act, token, **move)
            assert status == 200, view
            for stream in phones.values():
                stream.reaches(view["version"], timeout=USUAL)

        # The flood gives up its streams: once the server sees them gone (its next two
        # writes to each), its address may stream again.
        flood.close()
        for _ in range(2):
            token, move = table.next_move()
            assert table.act(token, **move)[0] == 200
        deadline = time.monotonic() + 10
        while (status := flood.open(stream_path)[0]) != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert status == 200
    finally:
        flood.close()
        for stream in phones.values():
            stream.close()


@pytest.mark.parametrize("server", [{"COMPANION_PROXIES": "1"}], indirect=True)
def test_behind_a_trusted_proxy_the_cap_counts_the_forwarded_address(server):
    flood = Flood(server.port)
    table = Api(server.url).table(players=("Ann", "Ben"), start=False)
    path = f"/api/v1/tables/{table.code}/stream"
    try:
        # Every stream comes from the proxy (127.0.0.1); it names the phone.
        answers = [flood.open(path, "127.0.0.1", {"X-Forwarded-For": "203.0.113.9"})
                   for _ in range(CAP + 2)]
        assert [status for status, _ in answers] == [200] * CAP + [429] * 2
        for neighbour in ("203.0.113.10", "203.0.113.11"):
            assert flood.open(path, "127.0.0.1", {"X-Forwarded-For": neighbour})[0] == 200
    finally:
        flood.close()


@pytest.mark.parametrize("server", [{"COMPANION_WORKER_CLASS": "gthread",
                                     "COMPANION_THREADS": "20"}], indirect=True)
def test_a_gthread_worker_keeps_threads_for_requests(server, reader):
    """A gthread worker serves a request, a stream included, on a thread of its own:
    streams leave a tenth of its threads to the rest."""
    flood = Flood(server.port)
    table = Api(server.url, app=reader).table(players=("Ann", "Ben"))
    path = f"/api/v1/tables/{table.code}/stream"
    try:
        statuses = [flood.open(path, f"127.0.1.{n // CAP + 1}") for n in range(20)]
        assert [status for status, _ in statuses] == [200] * 18 + [503] * 2
        assert all(retry for _, retry in statuses[18:])
        phone = session_from("127.0.0.3")
        assert timed(phone.get, server.url + "/", timeout=10).status_code == 200
        token, move = table.next_move()
        assert timed(table.act, token, **move)[0] == 200
    finally:
        flood.close()


def test_servers_sharing_a_limits_storage_count_an_address_together(database_url, tmp_path):
    """Two servers counting in one Redis: an address's streams on both count against one
    cap; a server killed with its streams open leaves them counted for one window at most,
    while the streams still open elsewhere stay counted from window to window."""
    with redis_server(tmp_path) as storage:
        one, two = ServerProcess(database_url, tmp_path), ServerProcess(database_url, tmp_path)
        for each in (one, two):
            each.env.update(COMPANION_RATELIMIT_STORAGE=storage,
                            COMPANION_STREAMS_PER_ADDRESS=str(CAP))
        floods = {one: Flood(one.port), two: Flood(two.port)}
        try:
            one.start()
            two.start()
            table = Api(one.url).table(players=("Ann", "Ben"), start=False)
            path = f"/api/v1/tables/{table.code}/stream"
            half = CAP // 2
            assert [floods[server].open(path)[0] for server in (one, two)
                    for _ in range(half)] == [200] * CAP
            assert [floods[server].open(path)[0] for server in (one, two)] == [429, 429]
            assert floods[one].open(path, "127.0.0.3")[0] == 200  # another address

            one.kill()  # its streams end without a word to the storage
            killed = time.monotonic()
            assert floods[two].open(path)[0] == 429
            deadline = killed + WINDOW_SECONDS + GRACE_SECONDS + 5
            while floods[two].open(path)[0] != 200:
                assert time.monotonic() < deadline, "the killed server's streams still count"
                time.sleep(1)
            # Counted now: the streams two held all along, and the one just opened.
            opened = [floods[two].open(path)[0] for _ in range(CAP - half)]
            assert opened == [200] * (CAP - half - 1) + [429]
        finally:
            for flood in floods.values():
                flood.close()
            two.stop()
            one.stop()


def test_half_sent_requests_lock_no_one_out(server):
    """Connections that never finish their request (slowloris), more than the worker's
    budget, from one address: each is dropped once it has sent nothing whole for the
    keep-alive time (gunicorn.conf.py), so a phone on another address waits that long at
    most, behind them, then is answered as usual."""
    held = []
    try:
        for _ in range(BUDGET + 20):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=USUAL,
                                            source_address=(FLOODER, 0))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: table.lan\r\nX-Slow: ")
            held.append(sock)
        phone = session_from("127.0.0.3")
        started = time.monotonic()
        assert phone.get(server.url + "/", timeout=30).status_code == 200
        assert time.monotonic() - started < KEEPALIVE + USUAL
        table = timed(Api(server.url, session=phone).table, players=("Ann", "Ben"))
        assert table.view(table.tokens["Ann"])["you"] == table.ids["Ann"]
    finally:
        for sock in held:
            sock.close()
