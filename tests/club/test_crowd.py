"""A club's crowd on PostgreSQL: two servers (`gunicorn -c gunicorn.conf.py`, two workers
each) on one database with PostgreSQL's default max_connections, 300 phones opening their
live streams at once (as a room does after "start" or a restart), then moves at 50 a
second. No request or stream fails, every phone ends on its table's newest version, and
the servers never hold more database connections than their pools and listeners."""
from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import create_engine, text

from bench.httpc import Client, HttpError, open_stream, sse_events
from companion.config import DB_POOL
from tests.support.api import Api
from tests.support.app import own_database
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.skipif(
    not os.environ.get("COMPANION_TEST_DATABASE_URL"),
    reason="the crowd runs on PostgreSQL: set COMPANION_TEST_DATABASE_URL (CI's second pass)")

SERVERS, WORKERS = 2, 2
TABLES, SEATS = 50, 6  # 300 phones
MOVES_PER_SECOND, SECONDS = 50, 4
GRACE = 15.0


class Phone:
    """One player's phone: its API stream, and the newest version it was pushed."""

    def __init__(self, table, token: str, server: ServerProcess):
        self.table, self.token, self.server = table, token, server
        self.version = -1
        self.errors: list[str] = []
        self.connected = asyncio.Event()

    async def listen(self) -> None:
        path = f"/api/v1/tables/{self.table.code}/stream"
        try:
            reader, writer, status = await open_stream(
                "127.0.0.1", self.server.port, path, {"Authorization": f"Bearer {self.token}"})
        except (OSError, HttpError, asyncio.TimeoutError) as exc:
            self.errors.append(f"stream did not open: {exc}")
            self.connected.set()
            return
        if status != 200:
            self.errors.append(f"stream answered {status}")
            self.connected.set()
            writer.close()
            return
        try:
            async for event, data in sse_events(reader):
                if event == "version":
                    self.version = json.loads(data)["version"]
                    self.connected.set()
        except (OSError, HttpError, asyncio.IncompleteReadError) as exc:
            self.errors.append(f"stream broke: {exc}")
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()


def move_of(view: dict) -> dict:
    """The first move a phone offers."""
    action = view["actions"][0]
    if action["type"] == "play":
        return {"type": "play", **action["sets"][0]}
    return {"type": "draw", "source": action["source"][0]}


async def crowd(servers: list[ServerProcess], seated: list) -> dict:
    phones = [Phone(table, token, servers[(t * SEATS + n) % SERVERS])
              for t, table in enumerate(seated) for n, token in enumerate(table.tokens.values())]
    listening = [asyncio.create_task(phone.listen()) for phone in phones]  # all at once
    await asyncio.wait_for(asyncio.gather(*(p.connected.wait() for p in phones)), 60)
    opened_errors = [e for p in phones for e in p.errors]

    posters = [Client("127.0.0.1", server.port, max_conns=32) for server in servers]
    move_errors: list[str] = []
    made, skipped = 0, 0
    pending: set[asyncio.Task] = set()
    moving: set[str] = set()

    async def move(table, poster: Client) -> None:
        """The player whose turn it is looks at their phone and makes its first move."""
        nonlocal made, skipped
        if table.code in moving:  # its last move is not answered yet
            skipped += 1
            return
        moving.add(table.code)
        headers = {"Authorization": f"Bearer {table.token_of(table.turn)}",
                   "Content-Type": "application/json"}
        try:
            response = await poster.request("GET", f"/api/v1/tables/{table.code}", headers)
            if response.status != 200:
                move_errors.append(f"view: {response.status} {response.body[:200]!r}")
                return
            view = json.loads(response.body)
            body = json.dumps({**move_of(view), "version": view["version"],
                               "action_id": uuid.uuid4().hex}).encode()
            response = await poster.request(
                "POST", f"/api/v1/tables/{table.code}/actions", headers, body)
            if response.status != 200:
                move_errors.append(f"move: {response.status} {response.body[:200]!r}")
                return
            made += 1
            table.turn = json.loads(response.body)["table"]["turn"]
        except HttpError as exc:
            move_errors.append(str(exc))
        finally:
            moving.discard(table.code)

    started = time.monotonic()
    for tick in range(MOVES_PER_SECOND * SECONDS):
        await asyncio.sleep(max(0.0, started + tick / MOVES_PER_SECOND - time.monotonic()))
        task = asyncio.create_task(move(seated[tick % TABLES], posters[tick % SERVERS]))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.wait(pending, timeout=30)

    newest = {}
    for table in seated:
        newest[table.code] = (await asyncio.to_thread(table.view))["version"]
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(
            p.version < newest[p.table.code] for p in phones):
        await asyncio.sleep(0.1)
    missed = [(p.table.code, p.version, newest[p.table.code]) for p in phones
              if p.version != newest[p.table.code]]
    for task in listening:
        task.cancel()
    await asyncio.gather(*listening, return_exceptions=True)
    for poster in posters:
        poster.close()
    return {"opened_errors": opened_errors, "move_errors": move_errors, "made": made,
            "skipped": skipped,
            "missed": missed, "stream_errors": [e for p in phones for e in p.errors]}


class ConnectionCounter(threading.Thread):
    """The most connections the servers held to their database at once, sampled every
    50 ms. A connection counts as held when three samples in a row see it: a backend
    can stay listed for a moment after its connection was closed, beside the one that
    replaced it, while a connection a pool really holds beyond its size stays."""

    SAMPLES = 3

    def __init__(self, admin_url: str, database: str):
        super().__init__(daemon=True)
        self.engine = create_engine(admin_url, poolclass=None)
        self.database, self.peak, self.running = database, 0, True

    def run(self) -> None:
        recent: list[int] = []
        with self.engine.connect() as connection:
            while self.running:
                count = connection.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = :name "
                    "AND pid <> pg_backend_pid()"), {"name": self.database}).scalar()
                recent = (recent + [count])[-self.SAMPLES:]
                if len(recent) == self.SAMPLES:
                    self.peak = max(self.peak, min(recent))
                connection.rollback()
                time.sleep(0.05)

    def stop(self) -> int:
        self.running = False
        self.join(5)
        self.engine.dispose()
        return self.peak


def test_300_phones_on_two_servers_within_postgresqls_default_connections(tmp_path):
    admin = os.environ["COMPANION_TEST_DATABASE_URL"]
    with create_engine(admin).connect() as connection:
        allowed = int(connection.execute(text("SHOW max_connections")).scalar())
    assert allowed <= 100, "the crowd must run within PostgreSQL's default max_connections"
    with own_database(tmp_path) as url:
        servers = [ServerProcess(url, tmp_path, workers=WORKERS) for _ in range(SERVERS)]
        for server in servers:
            # The limits are lifted: the crowd's 300 phones are seated and play from this
            # one address, where at a club each phone has its own.
            server.env["COMPANION_RATELIMIT"] = "off"
        counter = ConnectionCounter(admin, url.rsplit("/", 1)[1])
        try:
            with ThreadPoolExecutor(16) as pool:
                list(pool.map(lambda server: server.start(), servers))
                seated = list(pool.map(lambda index: Api(servers[index % SERVERS].url).table(
                    players=tuple(f"P{n}" for n in range(SEATS)), seed=index), range(TABLES)))
            for table in seated:
                table.turn = table.view()["turn"]
            counter.start()
            # In a thread of its own: the browser tests' Playwright keeps an event loop
            # running in this one.
            with ThreadPoolExecutor(1) as runner:
                outcome = runner.submit(asyncio.run, crowd(servers, seated)).result()
        finally:
            peak = counter.stop() if counter.is_alive() else 0
            for server in servers:
                server.stop()
    said = "\n".join(server.output()[-3000:] for server in servers)
    assert outcome["opened_errors"] == [], said
    assert outcome["move_errors"] == [], said
    assert outcome["stream_errors"] == []
    assert outcome["missed"] == []
    # Moves are offered at 50 a second, a table's next one once its last was answered; on
    # a machine whose cores are busy with other work the servers answer fewer.
    assert outcome["made"] >= MOVES_PER_SECOND * SECONDS / 4, outcome
    # Each process keeps at most its pool, plus one LISTEN connection.
    assert peak <= SERVERS * WORKERS * (DB_POOL + 1), peak
