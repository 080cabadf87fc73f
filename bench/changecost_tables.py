"""The tables `changecost.py` measures a change at: a table started through the API, every
screen's HTML stream open (`Screen`: what it received and the newest version it holds),
and one change's cost (`Change`: the server's CPU from the change's POST until every
screen caught up, and the bytes each screen received)."""
from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from typing import TYPE_CHECKING

from figures import machine_busy
from httpc import Client, HttpError, now, open_stream, sse_sized_events

if TYPE_CHECKING:
    from changecost import ChangeCost

HOST = "127.0.0.1"
VERSION_RE = re.compile(r'data-version="(\d+)"')
CATCH_UP_SECONDS = 20.0
SETTLE_SECONDS = 0.05
WATCHED = 0  # the seat whose phone never makes a measured entry


class BenchError(Exception):
    pass


class Screen:
    """One screen's HTML stream: the newest version it holds and the bytes it received."""

    def __init__(self, name: str, page: str, stream: str, headers: dict[str, str]):
        self.name, self.page, self.stream, self.headers = name, page, stream, headers
        self.held = -1
        self.received = 0
        self.opened = asyncio.Event()
        self.failure = ""
        self.task: asyncio.Task | None = None
        self.writer = None

    async def load(self, client: Client) -> None:
        """The page, as a browser loads it before its stream: its version, its session."""
        answer = await client.request("GET", self.page, self.headers)
        if answer.status != 200:
            raise BenchError(f"{self.page} -> {answer.status}")
        cookie = answer.headers.get("set-cookie", "")
        if cookie.startswith("session="):
            session = cookie.split(";", 1)[0]
            old = self.headers.get("Cookie")
            self.headers["Cookie"] = f"{old}; {session}" if old else session
        versions = VERSION_RE.findall(answer.body.decode())
        if not versions:
            raise BenchError(f"{self.page} holds no data-version")
        self.held = max(int(v) for v in versions)

    async def follow(self, port: int, progress: asyncio.Event) -> None:
        try:
            reader, self.writer, status = await open_stream(
                HOST, port, f"{self.stream}since={self.held}", self.headers)
            if status != 200:
                raise BenchError(f"{self.stream} -> {status}")
            self.opened.set()
            async for _, data, size in sse_sized_events(reader):
                self.received += size
                versions = VERSION_RE.findall(data)
                if versions:
                    self.held = max(self.held, *(int(v) for v in versions))
                progress.set()
            raise BenchError(f"{self.name}: the server ended the stream")
        except (OSError, HttpError, BenchError, asyncio.IncompleteReadError) as exc:
            self.failure = f"{self.name}: {exc}"
            self.opened.set()
            progress.set()

    def close(self) -> None:
        if self.task:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


class Table:
    """A started table, its players' tokens and (once `watch`ed) every screen's stream."""

    def __init__(self, bench: "ChangeCost", game: str, options: dict, players: int):
        self.bench, self.game, self.options, self.players = bench, game, options, players
        self.code = self.host_token = ""
        self.tokens: list[str] = []  # by seat
        self.ids: list[int] = []
        self.version = -1
        self.turn: int | None = None
        self.screens: list[Screen] = []
        self.phones: list[Screen] = []  # by seat
        self.progress = asyncio.Event()

    async def start(self) -> None:
        call = self.bench.call
        created = await call("POST", "/api/v1/tables", None,
                             {"game": self.game, "options": self.options})
        self.code, self.host_token = created["code"], created["host_token"]
        for seat in range(self.players):
            joined = await call("POST", f"/api/v1/tables/{self.code}/players", None,
                                {"name": f"Phone {seat + 1}"})
            self.tokens.append(joined["token"])
            self.ids.append(joined["player"]["id"])
        view = await call("POST", f"/api/v1/tables/{self.code}/start", self.host_token,
                          {"seed": 7})
        self.version, self.turn = view["version"], view["turn"]

    async def act(self, seat: int, action: dict) -> dict:
        answer = await self.bench.call(
            "POST", f"/api/v1/tables/{self.code}/actions", self.tokens[seat],
            dict(action, version=self.version, action_id=uuid.uuid4().hex[:20]))
        self.version = answer["version"]
        self.turn = answer["table"].get("turn")
        return answer

    async def watch(self) -> None:
        """Every screen's page loaded, then its stream opened."""
        code = self.code
        self.phones = [Screen(f"phone {seat + 1}", f"/t/{code}",
                              f"/t/{code}/events?screen=phone&",
                              {"Cookie": f"companion_{code}={token}"})
                       for seat, token in enumerate(self.tokens)]
        host = Screen("host", f"/t/{code}/host", f"/t/{code}/events?screen=host&",
                      {"Cookie": f"companion_host_{code}={self.host_token}"})
        display = Screen("display", f"/d/{code}", f"/d/{code}/events?", {})
        self.screens = [*self.phones, host, display]
        for screen in self.screens:
            await screen.load(self.bench.client)
            screen.task = asyncio.create_task(screen.follow(self.bench.server.port,
                                                            self.progress))
        await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in self.screens)),
                               CATCH_UP_SECONDS)
        self.check_streams()
        await self.caught_up(self.version)

    def check_streams(self) -> None:
        failed = [s.failure for s in self.screens if s.failure]
        if failed:
            raise BenchError("; ".join(failed))

    async def caught_up(self, version: int) -> None:
        deadline = now() + CATCH_UP_SECONDS
        while not all(screen.held >= version for screen in self.screens):
            self.check_streams()
            self.progress.clear()
            left = deadline - now()
            if left <= 0:
                late = [s.name for s in self.screens if s.held < version]
                raise BenchError(f"version {version} not shown by {', '.join(late)}")
            try:
                await asyncio.wait_for(self.progress.wait(), left)
            except asyncio.TimeoutError:
                pass

    def close(self) -> None:
        for screen in self.screens:
            screen.close()


class Change:
    """One change's cost: server CPU (stat ticks and schedstat) and each screen's bytes,
    recorded `into` a list of samples of its own (the bench's by default)."""

    def __init__(self, table: Table, mover: int, into: list[dict] | None = None):
        self.table, self.mover, self.into = table, mover, into

    async def __aenter__(self):
        server = self.table.bench.server
        self.cpu0, self.run0 = server.cpu_seconds(), server.sched_seconds()[0]
        self.busy0, self.own0, self.t0 = machine_busy(), time.process_time(), now()
        self.bytes0 = [screen.received for screen in self.table.screens]
        return self

    async def __aexit__(self, kind, exc, trace):
        if kind is not None:
            return False
        table = self.table
        await table.caught_up(table.version)
        await asyncio.sleep(SETTLE_SECONDS)  # the server's work after its last write
        server = table.bench.server
        got = [s.received - b for s, b in zip(table.screens, self.bytes0)]
        cpu = server.cpu_seconds() - self.cpu0
        others = machine_busy() - self.busy0 - cpu - (time.process_time() - self.own0)
        table.bench.record(self.mover, cpu, server.sched_seconds()[0] - self.run0, got,
                           others / (now() - self.t0) / (os.cpu_count() or 2), self.into)
        return False
