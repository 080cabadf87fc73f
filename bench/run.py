#!/usr/bin/env python3
"""Companion's performance benchmark: phones at tables, live streams, steady actions.

Starts the production server (`gunicorn -c gunicorn.conf.py wsgi:app`) on 127.0.0.1
with a SQLite file of its own, simulates tables of 6 phones from one asyncio process,
and prints one table of figures and a verdict per target. Bounded: every phase lasts
--duration seconds, and the whole run stops by itself. See bench/README.md.
"""
from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections import deque
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from httpc import Client, HttpError, now, open_stream, sse_events  # noqa: E402
from server import ROOT, Server  # noqa: E402

SEATS = 6
GRACE = 10.0         # after a phase (or a game's end), how long late deliveries still count
STREAM_RETRY = 2.0   # the server's `retry: 2000`: what EventSource waits to reconnect
TARGETS = {"small": (300, 50), "large": (1000, 100)}

VERSION_RE = re.compile(r'data-version="(\d+)"')
SET_RE = re.compile(r"type=play&amp;value=(\d+)&amp;count=(\d+)")
SOURCE_RE = re.compile(r'name="source" value="(\w+)"')
CSRF_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')


def machine_busy() -> float:
    """CPU seconds every process of the machine has used (all cores)."""
    with open("/proc/stat") as handle:
        fields = [int(f) for f in handle.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]


# -- what one phase measured ----------------------------------------------------------

class Stats:
    def __init__(self, name: str, phones: int = 0, rate: float = 0, duration: float = 0):
        self.name, self.phones, self.rate, self.duration = name, phones, rate, duration
        self.action_latency: list[float] = []
        self.fan_version: list[float] = []
        self.fan_fetch: list[float] = []
        self.actions_ok = 0
        self.action_errors = 0
        self.fetch_errors = 0
        self.fetches = 0
        self.stream_drops = 0
        self.stream_failures = 0
        self.setup_errors = 0
        self.missed_version = 0
        self.missed_fetch = 0
        self.slots = 0
        self.slots_unready = 0
        self.tables_finished = 0
        self.errors: list[str] = []
        self.server_cpu = 0.0
        self.client_cpu = 0.0
        self.other_cpu = 0.0
        self.server_waited = 0.0
        self.loop_lag: list[float] = []
        self.peak_rss = 0
        self.peak_pss = 0
        self.peak_threads = 0
        self.streams_held_min = None
        self.wall = 0.0

    def error(self, kind: str, text: str) -> None:
        if len(self.errors) < 8:
            self.errors.append(f"{kind}: {text}"[:200])

    @property
    def achieved(self) -> float:
        return self.actions_ok / self.duration if self.duration else 0.0

    @property
    def all_errors(self) -> int:
        return self.action_errors + self.fetch_errors + self.setup_errors

    def passes_ceiling(self) -> bool:
        p99 = pct(self.fan_version, 99)
        return (self.all_errors == 0 and self.stream_drops == 0 and self.missed_version == 0
                and p99 is not None and p99 < 1.0 and self.achieved >= 0.9 * self.rate)

    def to_json(self) -> dict:
        out = {k: v for k, v in vars(self).items()
               if k not in ("action_latency", "fan_version", "fan_fetch", "loop_lag")}
        for key in ("action_latency", "fan_version", "fan_fetch", "loop_lag"):
            values = getattr(self, key)
            out[key] = {"n": len(values), "p50": pct(values, 50), "p99": pct(values, 99),
                        "max": max(values) if values else None}
        out["achieved"] = self.achieved
        return out


class Record:
    """One action: when its answer came, and which other phones still lack it."""

    __slots__ = ("stats", "version", "answered", "wait_version", "wait_fetch",
                 "times_version", "times_fetch", "done")

    def __init__(self, stats: Stats, version: int, answered: float):
        self.stats, self.version, self.answered = stats, version, answered
        self.wait_version: set = set()
        self.wait_fetch: set = set()
        self.times_version: list[float] = []
        self.times_fetch: list[float] = []
        self.done = asyncio.Event()


# -- phones and tables ----------------------------------------------------------------

class Phone:
    def __init__(self, bench: "Bench", group: "Group", seat: int, kind: str):
        self.bench, self.group, self.seat, self.kind = bench, group, seat, kind
        self.client = Client(bench.host, bench.port, timeout=bench.args.timeout)
        self.token = ""
        self.player_id = 0
        self.session = ""
        self.csrf = ""
        self.reset()

    def reset(self) -> None:
        self.held = -1
        self.held_log: deque = deque(maxlen=64)
        self.view_version = -1
        self.view_log: deque = deque(maxlen=64)
        self.actions: list[dict] = []
        self.fetch_pending = False
        self.fetching = False
        self.stream_task: asyncio.Task | None = None

    # what this phone sends with every request
    def auth_headers(self) -> dict[str, str]:
        if self.kind == "api":
            return {"Authorization": f"Bearer {self.token}"}
        cookie = f"companion_{self.group.code}={self.token}"
        if self.session:
            cookie += f"; session={self.session}"
        return {"Cookie": cookie}

    @staticmethod
    def first_time(log: deque, version: int) -> float | None:
        for held, at in log:
            if held >= version:
                return at
        return None

    # -- the stream ------------------------------------------------------------------
    def stream_path(self) -> str:
        if self.kind == "api":
            return f"/api/v1/tables/{self.group.code}/stream"
        return f"/t/{self.group.code}/events?screen=phone&since={self.view_version}"

    async def run_stream(self, generation: int) -> None:
        bench, group = self.bench, self.group
        while group.generation == generation and not bench.closing:
            writer = None
            opened = False
            try:
                reader, writer, status = await open_stream(
                    bench.host, bench.port, self.stream_path(), self.auth_headers(),
                    timeout=bench.args.timeout)
                if status != 200:
                    bench.stats.stream_failures += 1
                    bench.stats.error("stream", f"status {status}")
                else:
                    opened = True
                    bench.streams_open += 1
                    async for event, data in sse_events(reader):
                        if event == "version":
                            self.on_pushed_view(json.loads(data), now(), generation)
                        elif event == "panel":
                            self.on_pushed_panel(data, now(), generation)
                        elif event == "revoked":
                            bench.stats.error("stream", "revoked")
                    if group.generation == generation and not bench.closing:
                        bench.stats.stream_drops += 1
                        bench.stats.error("stream", "ended by the server")
            except asyncio.CancelledError:
                raise
            except (OSError, HttpError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                    ValueError) as exc:
                if group.generation == generation and not bench.closing:
                    if opened:
                        bench.stats.stream_drops += 1
                    else:
                        bench.stats.stream_failures += 1
                    bench.stats.error("stream", f"{type(exc).__name__}: {exc}")
            finally:
                if opened:
                    bench.streams_open -= 1
                if writer is not None:
                    writer.close()
            await asyncio.sleep(STREAM_RETRY)

    def on_pushed_view(self, data: dict, at: float, generation: int) -> None:
        """The API stream's event: the version, and the view at it when the server
        pushes it (then no fetch is needed)."""
        if "table" in data and generation == self.group.generation:
            self.on_view(data["version"], data["table"]["actions"], at)
        self.on_version(data["version"], at, generation)

    def on_pushed_panel(self, html: str, at: float, generation: int) -> None:
        """The screen's stream pushes the rendered panel itself (what htmx swaps in)."""
        found = VERSION_RE.search(html)
        if found:
            if generation == self.group.generation:
                self.on_panel(html, at)
            self.on_version(int(found.group(1)), at, generation)

    def on_version(self, version: int, at: float, generation: int) -> None:
        if generation != self.group.generation or version <= self.held:
            return
        self.held = version
        self.held_log.append((version, at))
        self.group.delivered(self, version, at, fetched=False)
        if self.view_version >= version:
            return  # pushed with the event, or fetched already
        self.fetch_pending = True  # htmx's hx-sync "queue last"
        if not self.fetching:
            self.fetching = True
            asyncio.create_task(self.fetch_loop(generation))

    # -- the fetch after a version event -------------------------------------------------
    async def fetch_loop(self, generation: int) -> None:
        try:
            while self.fetch_pending and self.group.generation == generation:
                self.fetch_pending = False
                await self.fetch_view(generation)
        finally:
            self.fetching = False

    async def fetch_view(self, generation: int) -> bool:
        bench, group = self.bench, self.group
        if self.kind == "api":
            path = f"/api/v1/tables/{group.code}"
            headers = self.auth_headers()
        else:
            path = f"/t/{group.code}/panel?screen=phone&since={self.view_version}"
            headers = dict(self.auth_headers(), **{"HX-Request": "true",
                                                    "HX-Target": "panel"})
        bench.stats.fetches += 1
        try:
            response = await self.client.request("GET", path, headers)
        except HttpError as exc:
            bench.stats.fetch_errors += 1
            bench.stats.error("fetch", str(exc))
            return False
        if generation != group.generation:
            return False
        at = now()
        if response.status == 204:
            return True
        if response.status != 200:
            bench.stats.fetch_errors += 1
            bench.stats.error("fetch", f"{path.split('?')[0]} -> {response.status}")
            return False
        if self.kind == "api":
            view = json.loads(response.body)
            self.on_view(view["version"], view["actions"], at)
        else:
            self.on_panel(response.body.decode(), at)
        return True

    def on_panel(self, html: str, at: float) -> None:
        found = VERSION_RE.search(html)
        if found:
            self.on_view(int(found.group(1)), parse_actions(html), at)

    def on_view(self, version: int, actions: list[dict], at: float) -> None:
        if version < self.view_version:
            return
        self.actions = actions
        if version > self.view_version:
            self.view_version = version
            self.view_log.append((version, at))
            self.group.delivered(self, version, at, fetched=True)
        self.group.check_ready()


def parse_actions(html: str) -> list[dict]:
    """The moves a phone's panel offers (Go Big: sets to play, or where to draw from)."""
    if 'class="actions"' not in html:
        return []
    sets = [{"value": int(v), "count": int(c)} for v, c in SET_RE.findall(html)]
    if sets:
        return [{"type": "play", "sets": sets}]
    sources = SOURCE_RE.findall(html)
    return [{"type": "draw", "source": sources}] if sources else []


def choose(actions: list[dict], rng: random.Random) -> dict:
    template = actions[0]
    if template["type"] == "play":
        return {"type": "play", **rng.choice(template["sets"])}
    return {"type": "draw", "source": rng.choice(template["source"])}


class Group:
    """The people around one table: a game after another, each on a new table."""

    def __init__(self, bench: "Bench", index: int, seats: int):
        self.bench, self.index = bench, index
        kinds = bench.kinds(seats)
        self.phones = [Phone(bench, self, seat, kinds[seat]) for seat in range(seats)]
        self.code = ""
        self.host_token = ""
        self.generation = 0
        self.version = -1
        self.playing = False
        self.in_flight = False
        self.ready = False
        self.actor: Phone | None = None
        self.turn: int | None = None
        self.records: list[Record] = []
        self.games = 0
        self.rng = random.Random(index)

    # -- a new table -------------------------------------------------------------------
    async def new_table(self) -> bool:
        bench = self.bench
        self.generation += 1
        generation = self.generation
        self.playing = self.ready = self.in_flight = False
        for phone in self.phones:
            if phone.stream_task:
                phone.stream_task.cancel()
            phone.reset()
        self.records = []
        client = self.phones[0].client
        try:
            created = await bench.call(client, "POST", "/api/v1/tables", None,
                                       {"game": "go-big", "options": bench.options}, 201)
            self.code, self.host_token = created["code"], created["host_token"]
            for phone in self.phones:
                joined = await bench.call(client, "POST", f"/api/v1/tables/{self.code}/players",
                                          None, {"name": f"Phone {phone.seat + 1}"}, 201)
                phone.token, phone.player_id = joined["token"], joined["player"]["id"]
                phone.session = ""
            view = await bench.call(client, "POST", f"/api/v1/tables/{self.code}/start",
                                    self.host_token, {"seed": self.rng.randrange(1 << 40)})
            self.version = view["version"]
            self.turn = view["turn"]
            await asyncio.gather(*(self.first_load(phone) for phone in self.phones))
        except (HttpError, BenchError) as exc:
            bench.stats.setup_errors += 1
            bench.stats.error("setup", str(exc))
            return False
        if generation != self.generation:
            return False
        self.games += 1
        self.playing = True
        for phone in self.phones:
            phone.stream_task = asyncio.create_task(phone.run_stream(generation))
        self.check_ready()
        return True

    async def first_load(self, phone: Phone) -> None:
        """What a phone loads before its stream: the page (HTML) or the view (API)."""
        if phone.kind == "api":
            response = await phone.client.request(
                "GET", f"/api/v1/tables/{self.code}", phone.auth_headers())
            if response.status != 200:
                raise BenchError(f"view -> {response.status}")
            view = json.loads(response.body)
            phone.on_view(view["version"], view["actions"], now())
            return
        response = await phone.client.request("GET", f"/t/{self.code}", phone.auth_headers())
        if response.status != 200:
            raise BenchError(f"page -> {response.status}")
        cookie = response.headers.get("set-cookie", "")
        if cookie.startswith("session="):
            phone.session = cookie.split(";", 1)[0][len("session="):]
        html = response.body.decode()
        found = CSRF_RE.search(html)
        phone.csrf = found.group(1) if found else ""
        phone.on_panel(html, now())

    # -- readiness and actions ---------------------------------------------------------
    def check_ready(self) -> None:
        if self.ready or self.in_flight or not self.playing:
            return
        for phone in self.phones:
            if phone.view_version == self.version and phone.actions:
                self.actor = phone
                self.ready = True
                self.bench.ready.append(self)
                return

    async def act(self, stats: Stats) -> None:
        bench, phone = self.bench, self.actor
        generation = self.generation
        action = choose(phone.actions, self.rng)
        action_id = uuid.uuid4().hex[:20]
        form = bench.args.act == "form" and phone.kind == "html"
        if form:
            fields = dict(action, csrf_token=phone.csrf, screen="phone",
                          version=self.version, action_id=action_id)
            path = f"/t/{self.code}/act"
            headers = dict(phone.auth_headers(), **{
                "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"})
            body = urlencode(fields).encode()
        else:
            path = f"/api/v1/tables/{self.code}/actions"
            headers = {"Authorization": f"Bearer {phone.token}",
                       "Content-Type": "application/json"}
            body = json.dumps(dict(action, version=self.version, action_id=action_id)).encode()
        started = now()
        try:
            response = await phone.client.request("POST", path, headers, body)
        except HttpError as exc:
            stats.action_errors += 1
            stats.error("action", str(exc))
            await self.resync(generation)
            return
        answered = now()
        if response.status != 200:
            stats.action_errors += 1
            stats.error("action", f"{response.status} {response.body[:120]!r}")
            await self.resync(generation)
            return
        stats.action_latency.append(answered - started)
        stats.actions_ok += 1
        if form:
            html = response.body.decode()
            found = VERSION_RE.search(html)
            version = int(found.group(1)) if found else self.version + 1
            finished = "The game is over." in html
        else:
            answer = json.loads(response.body)
            version = answer["version"]
            finished = answer["table"]["status"] != "playing"
            self.turn = answer["table"]["turn"]
        self.follow(stats, version, answered, phone)
        self.in_flight = False
        if form:
            phone.on_panel(html, answered)
        else:
            phone.on_view(version, answer["table"]["actions"], answered)
        if finished:
            stats.tables_finished += 1
            self.playing = False
            asyncio.create_task(self.next_game(generation))
        else:
            self.check_ready()

    def follow(self, stats: Stats, version: int, answered: float, actor: Phone) -> None:
        """Start watching the other phones receive `version` (and fetch their view)."""
        self.version = max(self.version, version)
        record = Record(stats, version, answered)
        for phone in self.phones:
            if phone is actor:
                continue
            at = Phone.first_time(phone.held_log, version)
            if at is None:
                record.wait_version.add(phone)
            else:
                record.times_version.append(at)
            at = Phone.first_time(phone.view_log, version)
            if at is None:
                record.wait_fetch.add(phone)
            else:
                record.times_fetch.append(at)
        self.records.append(record)
        self.bench.open_records.add(record)
        self.finish_if_done(record)

    def delivered(self, phone: Phone, version: int, at: float, fetched: bool) -> None:
        for record in list(self.records):
            if record.version > version:
                continue
            waiting = record.wait_fetch if fetched else record.wait_version
            if phone in waiting:
                waiting.discard(phone)
                (record.times_fetch if fetched else record.times_version).append(at)
                self.finish_if_done(record)

    def finish_if_done(self, record: Record) -> None:
        if record.wait_version or record.wait_fetch:
            return
        stats = record.stats
        if record.times_version:
            stats.fan_version.append(max(0.0, max(record.times_version) - record.answered))
        if record.times_fetch:
            stats.fan_fetch.append(max(0.0, max(record.times_fetch) - record.answered))
        self.records.remove(record)
        self.bench.open_records.discard(record)
        record.done.set()

    async def next_game(self, generation: int) -> None:
        """The game is over: once every phone has seen the end, a new table."""
        pending = list(self.records)
        if pending:
            try:
                await asyncio.wait_for(asyncio.gather(*(r.done.wait() for r in pending)),
                                       GRACE)
            except asyncio.TimeoutError:
                pass
        if generation == self.generation and not self.bench.closing:
            await self.new_table()

    async def resync(self, generation: int) -> None:
        """After a failed action: read the table again, as a phone would."""
        view: dict = {}
        try:
            view = await self.bench.call(self.phones[0].client, "GET",
                                         f"/api/v1/tables/{self.code}", self.host_token)
            if generation != self.generation:
                return
            self.version = view["version"]
            self.turn = view["turn"]
            for phone in self.phones:
                await phone.fetch_view(generation)
        except (HttpError, BenchError) as exc:
            self.bench.stats.error("resync", str(exc))
        finally:
            self.in_flight = False
        if view.get("status") != "playing":
            self.playing = False
            asyncio.create_task(self.next_game(generation))
        else:
            self.check_ready()

    async def close(self) -> None:
        self.generation += 1
        tasks = [p.stream_task for p in self.phones if p.stream_task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for phone in self.phones:
            phone.client.close()


class BenchError(Exception):
    pass


# -- the run ------------------------------------------------------------------------

class Bench:
    def __init__(self, args, server: Server):
        self.args, self.server = args, server
        self.host, self.port = "127.0.0.1", server.port
        self.groups: list[Group] = []
        self.ready: deque[Group] = deque()
        self.open_records: set[Record] = set()
        self.closing = False
        self.streams_open = 0
        self.options = json.loads(args.options)
        self.setup_stats = Stats("setup")
        self.stats = self.setup_stats
        self.phases: list[Stats] = []
        self.ceiling_steps: list[Stats] = []
        self.floors: dict[str, dict] = {}
        self.first_load: dict = {}
        self.request_cost: dict = {}
        self.kind_counter = 0

    def kinds(self, seats: int) -> list[str]:
        mode = self.args.streams
        if mode in ("api", "html"):
            return [mode] * seats
        return ["api" if seat % 2 == 0 else "html" for seat in range(seats)]

    async def call(self, client: Client, method: str, path: str, token: str | None,
                   data: dict | None = None, expect: int = 200) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = None
        if data is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(data).encode()
        response = await client.request(method, path, headers, body)
        if response.status != expect:
            raise BenchError(f"{method} {path.split('/')[-1]} -> {response.status} "
                             f"{response.body[:120]!r}")
        return json.loads(response.body)

    async def add_phones(self, total: int) -> None:
        """Seat phones (6 to a table) until `total` are seated, their streams open."""
        have = sum(len(g.phones) for g in self.groups)
        new = []
        while have < total:
            seats = min(SEATS, total - have)
            if seats < 2:  # Go Big takes 2 to 6: borrow one from the last full table
                seats = 2
            group = Group(self, len(self.groups), seats)
            self.groups.append(group)
            new.append(group)
            have += seats
        gate = asyncio.Semaphore(8)

        async def seat(group: Group) -> None:
            async with gate:
                await group.new_table()
        await asyncio.gather(*(seat(g) for g in new))
        await self.wait_streams(sum(len(g.phones) for g in self.groups), 30)

    async def wait_streams(self, count: int, timeout: float) -> None:
        deadline = now() + timeout
        while self.streams_open < count and now() < deadline:
            await asyncio.sleep(0.1)
        # every phone holding its table's version, every table ready to play
        while now() < deadline and any(
                p.held < g.version for g in self.groups for p in g.phones if g.playing):
            await asyncio.sleep(0.1)

    # -- sampling the server while a phase runs -------------------------------------------
    async def sample(self, stats: Stats, stop: asyncio.Event) -> None:
        tick = 0
        while not stop.is_set():
            t0 = now()
            await asyncio.sleep(0.01)  # how late the load generator's loop wakes up
            stats.loop_lag.append(now() - t0 - 0.01)
            stats.peak_rss = max(stats.peak_rss, self.server.rss_bytes())
            if tick % 5 == 0:
                stats.peak_pss = max(stats.peak_pss, self.server.pss_bytes())
                stats.peak_threads = max(stats.peak_threads, self.server.threads())
            held = self.streams_open
            stats.streams_held_min = held if stats.streams_held_min is None else min(
                stats.streams_held_min, held)
            tick += 1
            try:
                await asyncio.wait_for(stop.wait(), 0.2)
            except asyncio.TimeoutError:
                pass

    async def phase(self, name: str, phones: int, rate: float, duration: float) -> Stats:
        stats = Stats(name, phones, rate, duration)
        self.stats = stats
        stop = asyncio.Event()
        sampler = asyncio.create_task(self.sample(stats, stop))
        cpu0, own0, wall0, all0 = self.server.cpu_seconds(), os.times(), now(), machine_busy()
        sched0 = self.server.sched_seconds()
        await self.dispatch(stats, rate, duration)
        # let the last actions finish and reach every phone
        deadline = now() + GRACE
        while now() < deadline and (
                any(g.in_flight for g in self.groups)
                or any(r.stats is stats for r in self.open_records)):
            await asyncio.sleep(0.02)
        cpu1, own1, all1 = self.server.cpu_seconds(), os.times(), machine_busy()
        sched1 = self.server.sched_seconds()
        # threads that ended during the phase drop out of the sums: never below zero
        stats.server_waited = max(0.0, sched1[1] - sched0[1])
        stats.wall = now() - wall0
        stop.set()
        await sampler
        stats.server_cpu = cpu1 - cpu0
        stats.client_cpu = (own1.user + own1.system) - (own0.user + own0.system)
        stats.other_cpu = max(0.0, (all1 - all0) - stats.server_cpu - stats.client_cpu)
        for record in [r for r in self.open_records if r.stats is stats]:
            stats.missed_version += len(record.wait_version)
            stats.missed_fetch += len(record.wait_fetch)
            self.open_records.discard(record)
            for group in self.groups:
                if record in group.records:
                    group.records.remove(record)
            record.done.set()
        self.stats = self.setup_stats
        self.report_line(stats)
        return stats

    async def dispatch(self, stats: Stats, rate: float, duration: float) -> None:
        """One action every 1/rate s, by the phone whose turn it is at the next table
        that is ready (its player holds the new view); a slot with no table ready is
        counted and lost."""
        interval = 1.0 / rate
        start = now()
        end = start + duration
        due = start
        while True:
            t = now()
            if t >= end:
                return
            if t < due:
                await asyncio.sleep(min(due - t, end - t))
                continue
            late = int((t - due) / interval)
            if late > 2:  # the loop fell behind: lose those slots rather than burst
                stats.slots += late
                stats.slots_unready += late
                due += late * interval
            stats.slots += 1
            group = None
            while self.ready:
                candidate = self.ready.popleft()
                if candidate.ready and not candidate.in_flight and candidate.playing:
                    group = candidate
                    break
            if group is None:
                stats.slots_unready += 1
            else:
                group.ready = False
                group.in_flight = True
                asyncio.create_task(group.act(stats))
            due += interval

    def report_line(self, s: Stats) -> None:
        def ms(v):
            return "-" if v is None else f"{v * 1000:.1f}"
        print(f"  {s.name:<16} achieved {s.achieved:6.1f}/s  action p50/p99 "
              f"{ms(pct(s.action_latency, 50))}/{ms(pct(s.action_latency, 99))} ms  "
              f"fan-out p99 {ms(pct(s.fan_version, 99))} ms, fetched "
              f"{ms(pct(s.fan_fetch, 99))} ms  errors {s.all_errors} drops {s.stream_drops} "
              f"missed {s.missed_version}/{s.missed_fetch}  "
              f"cpu {s.server_cpu / max(1, s.actions_ok) * 1000:.1f} ms/action",
              flush=True)
        for line in s.errors[:3]:
            print(f"      {line}", flush=True)

    # -- the floor: a trivial endpoint ----------------------------------------------------
    async def floor(self, label: str, seconds: float, concurrency: int) -> dict:
        path = "/static/app.js"
        single = Client(self.host, self.port, max_conns=1)
        latencies = []
        end = now() + seconds / 2
        while now() < end:
            t0 = now()
            response = await single.request("GET", path)
            latencies.append(now() - t0)
            assert response.status == 200
        single.close()
        count = 0
        errors = 0
        cpu0 = self.server.cpu_seconds()
        end = now() + seconds / 2
        started = now()

        async def worker() -> None:
            nonlocal count, errors
            client = Client(self.host, self.port, max_conns=1)
            while now() < end:
                try:
                    response = await client.request("GET", path)
                    count += response.status == 200
                    errors += response.status != 200
                except HttpError:
                    errors += 1
            client.close()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = now() - started
        result = {"p50": pct(latencies, 50), "p99": pct(latencies, 99),
                  "rate": count / elapsed, "errors": errors, "concurrency": concurrency,
                  "cpu_per_request": (self.server.cpu_seconds() - cpu0) / max(1, count)}
        self.floors[label] = result
        print(f"  floor {label}: GET {path} p50 {result['p50'] * 1000:.2f} ms, p99 "
              f"{result['p99'] * 1000:.2f} ms; {result['rate']:.0f} requests/s at "
              f"{concurrency} at once", flush=True)
        return result

    # -- what one request costs the server (no actions running) ----------------------------
    async def request_costs(self, count: int = 150) -> dict:
        group = next(g for g in self.groups if g.playing and not g.in_flight)
        api = next((p for p in group.phones if p.kind == "api"), group.phones[0])
        html = next((p for p in group.phones if p.kind == "html"), group.phones[0])
        html_headers = {"Cookie": f"companion_{group.code}={html.token}", "HX-Request": "true"}
        client = Client(self.host, self.port, max_conns=1)
        cpu0, t0 = self.server.cpu_seconds(), now()
        await asyncio.sleep(3.0)
        idle_rate = (self.server.cpu_seconds() - cpu0) / (now() - t0)
        kinds = {
            "static file": ("/static/app.js", {}),
            "API view (JSON)": (f"/api/v1/tables/{group.code}",
                                {"Authorization": f"Bearer {api.token}"}),
            "phone panel (HTML)": (f"/t/{group.code}/panel?screen=phone&since=-1",
                                   html_headers),
            "panel, unchanged (204)": (
                f"/t/{group.code}/panel?screen=phone&since={group.version}", html_headers),
        }
        costs = {}
        for label, (path, headers) in kinds.items():
            latencies = []
            cpu0, t0 = self.server.cpu_seconds(), now()
            for _ in range(count):
                started = now()
                response = await client.request("GET", path, headers)
                latencies.append(now() - started)
                if response.status not in (200, 204):
                    raise BenchError(f"{label}: {response.status}")
            spent = self.server.cpu_seconds() - cpu0 - idle_rate * (now() - t0)
            costs[label] = {"cpu_ms": 1000 * max(0.0, spent) / count,
                            "p50_ms": 1000 * pct(latencies, 50),
                            "bytes": len(response.body)}
        # an action, on a table of its own that nobody streams: (view + action) pairs,
        # less the views' cost measured above
        created = await self.call(client, "POST", "/api/v1/tables", None,
                                  {"game": "go-big", "options": {"copies_per_value": 20}}, 201)
        code, host = created["code"], created["host_token"]
        tokens = {}
        for seat in range(SEATS):
            joined = await self.call(client, "POST", f"/api/v1/tables/{code}/players", None,
                                     {"name": f"Cost {seat}"}, 201)
            tokens[joined["player"]["id"]] = joined["token"]
        turn = (await self.call(client, "POST", f"/api/v1/tables/{code}/start", host,
                                {"seed": 5}))["turn"]
        rng = random.Random(5)
        latencies = []
        actions = 60
        cpu0, t0 = self.server.cpu_seconds(), now()
        for n in range(actions):
            view = await self.call(client, "GET", f"/api/v1/tables/{code}", tokens[turn])
            action = dict(choose(view["actions"], rng), action_id=f"cost-{n}")
            started = now()
            answer = await self.call(client, "POST", f"/api/v1/tables/{code}/actions",
                                     tokens[turn], action)
            latencies.append(now() - started)
            turn = answer["table"]["turn"]
        spent = self.server.cpu_seconds() - cpu0 - idle_rate * (now() - t0)
        spent -= actions * costs["API view (JSON)"]["cpu_ms"] / 1000
        costs["action (nobody listening)"] = {"cpu_ms": 1000 * max(0.0, spent) / actions,
                                              "p50_ms": 1000 * pct(latencies, 50),
                                              "bytes": 0}
        client.close()
        self.request_cost = {"idle_cpu_percent": 100 * idle_rate / 2,
                             "streams": self.streams_open, "requests": costs}
        print(f"  idle with {self.streams_open} streams: server CPU {100 * idle_rate / 2:.1f}% "
              f"of 2 cores; per request: " + ", ".join(
                  f"{k} {v['cpu_ms']:.2f} ms CPU" for k, v in costs.items()), flush=True)
        return self.request_cost

    # -- the phone page's first load ------------------------------------------------------
    async def measure_first_load(self) -> dict:
        group = next(g for g in self.groups if g.playing)
        phone = next(p for p in group.phones if p.kind == "html") if any(
            p.kind == "html" for p in group.phones) else group.phones[0]
        origin = f"http://{self.host}:{self.port}"
        page_path = f"/t/{group.code}"
        headers = {"Cookie": f"companion_{group.code}={phone.token}",
                   "Accept-Encoding": "gzip, deflate, br"}
        client = Client(self.host, self.port, max_conns=1)
        items = []

        async def load(url: str, kind: str) -> bytes:
            response = await client.request("GET", urlparse(url).path or "/", headers)
            body = response.body
            encoding = response.headers.get("content-encoding", "")
            plain = gzip.decompress(body) if encoding == "gzip" else body
            items.append({"url": urlparse(url).path, "kind": kind, "status": response.status,
                          "served_bytes": len(body), "encoding": encoding or "identity",
                          "raw_bytes": len(plain),
                          "gzip_bytes": len(gzip.compress(plain, 6)),
                          "cache_control": response.headers.get("cache-control", "")})
            return plain
        html = (await load(origin + page_path, "html")).decode()
        references = re.findall(
            r"<(?:script|link|img|iframe|source|audio|video)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"",
            html)
        outside = []
        for ref in references:
            url = urljoin(origin + page_path, ref)
            if urlparse(url).netloc != urlparse(origin).netloc:
                outside.append(url)
                continue
            kind = "css" if ref.endswith(".css") else "js" if ref.endswith(".js") else "other"
            body = await load(url, kind)
            if kind == "css":
                for inner in re.findall(r"url\(\s*['\"]?([^'\")]+)", body.decode()) + \
                        re.findall(r"@import\s+['\"]([^'\"]+)", body.decode()):
                    if inner.startswith("data:"):
                        continue
                    inner_url = urljoin(url, inner)
                    if urlparse(inner_url).netloc != urlparse(origin).netloc:
                        outside.append(inner_url)
                    else:
                        await load(inner_url, "css-asset")
        client.close()
        # what the page opens by itself once loaded: its stream (which pushes a panel
        # only when the table changed since the page was served)
        stream = re.search(r'sse-connect="([^"]+)"', html)
        self.first_load = {
            "items": items, "outside": outside,
            "requests": len(items) + (1 if stream else 0),
            "served_total": sum(i["served_bytes"] for i in items),
            "gzip_total": sum(i["gzip_bytes"] for i in items),
            "raw_total": sum(i["raw_bytes"] for i in items),
            "served_gzip": all(i["encoding"] == "gzip" for i in items),
        }
        fl = self.first_load
        print(f"  first load: {fl['requests']} requests, {fl['served_total'] / 1024:.1f} KB as "
              f"served ({'gzip' if fl['served_gzip'] else 'not compressed'}), "
              f"{fl['gzip_total'] / 1024:.1f} KB if gzipped; outside: {outside or 'none'}",
              flush=True)
        return self.first_load

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(*(g.close() for g in self.groups), return_exceptions=True)


# -- the plan of a run ----------------------------------------------------------------

def plan(args) -> dict:
    if args.quick:
        return {"phones": [60, 180], "rates": [20, 50, 100, 200], "duration": 3.0,
                "ceiling_duration": 3.0, "ceiling_steps": 2, "cost_events": 200,
                "floor_seconds": 2.0}
    return {"phones": args.phones, "rates": args.rates, "duration": args.duration,
            "ceiling_duration": args.ceiling_duration, "ceiling_steps": args.ceiling_steps,
            "cost_events": args.cost_events, "floor_seconds": 4.0}


async def ceiling(bench: Bench, phones: int, passed: list[Stats], steps: int,
                  duration: float) -> dict:
    """The highest rate with fan-out p99 under 1 s, no errors and 90% of the rate
    achieved: up by half while it holds, then halving the gap."""
    good = max((s.rate for s in passed if s.passes_ceiling()), default=None)
    bad = min((s.rate for s in passed if not s.passes_ceiling()), default=None)
    for step in range(steps):
        if bad is None:
            rate = max(300.0, (good or 100) * 1.5)
        elif good is None:
            rate = bad / 2
        else:
            if bad / good < 1.12:
                break
            rate = (good + bad) / 2
        rate = round(rate)
        stats = await bench.phase(f"ceiling {phones}@{rate}", phones, rate, duration)
        bench.ceiling_steps.append(stats)
        if stats.passes_ceiling():
            good = rate if good is None else max(good, rate)
        else:
            bad = rate if bad is None else min(bad, rate)
    best = [s for s in passed + bench.ceiling_steps if s.passes_ceiling()]
    top = max(best, key=lambda s: s.rate) if best else None
    return {"offered": top.rate if top else None, "achieved": top.achieved if top else None,
            "first_failing": bad}


def wait_quiet(limit: float, busy_share: float = 0.25) -> float:
    """On a shared machine: wait (at most `limit` s) for 5 s in which other processes use
    less than `busy_share` of the 2 cores; the share seen last."""
    deadline = time.monotonic() + limit
    share = 1.0
    while True:
        before = machine_busy()
        time.sleep(5)
        share = (machine_busy() - before) / 5 / (os.cpu_count() or 2)
        if share < busy_share or time.monotonic() >= deadline:
            return share
        print(f"  the machine is busy ({share * 100:.0f}% of its cores): waiting...", flush=True)


async def main_async(args) -> dict:
    shape = plan(args)
    if args.wait_quiet:
        share = wait_quiet(args.wait_quiet)
        print(f"Other processes use {share * 100:.0f}% of the cores at the start.", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    overrides = dict(kv.split("=", 1) for kv in args.server_env)
    server = Server(workdir, overrides, args.config)
    print(f"Starting the server: {server.settings()} (log: {server.log_path})", flush=True)
    server.start()
    bench = Bench(args, server)
    results: dict = {"settings": server.settings(), "plan": shape, "args": vars(args),
                     "started": time.strftime("%H:%M:%S")}
    try:
        await bench.floor("idle", shape["floor_seconds"], args.floor_concurrency)
        small = shape["phones"][0]
        print(f"Seating {small} phones...", flush=True)
        t0 = now()
        await bench.add_phones(small)
        print(f"  {bench.streams_open} streams open in {now() - t0:.1f} s", flush=True)
        await bench.measure_first_load()
        await bench.request_costs()
        results_phases: list[Stats] = []
        for phones in shape["phones"]:
            if phones != small:
                print(f"Seating {phones} phones...", flush=True)
                t0 = now()
                await bench.add_phones(phones)
                print(f"  {bench.streams_open} streams open in {now() - t0:.1f} s "
                      f"(setup errors {bench.setup_stats.setup_errors}, stream failures "
                      f"{bench.setup_stats.stream_failures})", flush=True)
                await bench.floor(f"{phones} streams", shape["floor_seconds"],
                                  args.floor_concurrency)
            group_stats = []
            for rate in shape["rates"]:
                stats = await bench.phase(f"{phones}@{rate}", phones, rate, shape["duration"])
                group_stats.append(stats)
                results_phases.append(stats)
            if phones == small and shape["ceiling_steps"]:
                print(f"Looking for the ceiling at {phones} phones...", flush=True)
                results["ceiling"] = await ceiling(bench, phones, group_stats,
                                                   shape["ceiling_steps"],
                                                   shape["ceiling_duration"])
        bench.phases = results_phases
    finally:
        await bench.close()
        server.stop()
    print("Measuring cost growth in-process (server stopped)...", flush=True)
    results["cost"] = cost_growth(shape["cost_events"]) if shape["cost_events"] else {}
    results["phases"] = [s.to_json() for s in bench.phases]
    results["ceiling_steps"] = [s.to_json() for s in bench.ceiling_steps]
    results["floors"] = bench.floors
    results["first_load"] = bench.first_load
    results["request_cost"] = bench.request_cost
    results["setup"] = bench.setup_stats.to_json()
    print_report(results, bench.phases, bench.ceiling_steps)
    return results


def cost_growth(events: int) -> dict:
    script = Path(__file__).resolve().parent / "costgrowth.py"
    done = subprocess.run([sys.executable, str(script), str(events)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    if done.returncode != 0:
        return {"error": done.stderr[-2000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------

def print_report(results: dict, phases: list[Stats], steps: list[Stats]) -> None:
    def ms(v):
        return "-" if v is None else (f"{v * 1000:.0f}" if v >= 0.1 else f"{v * 1000:.1f}")

    def mb(v):
        return f"{v / 2**20:.0f}"

    columns = [s.name for s in phases]
    rows: list[tuple[str, list[str]]] = []

    def row(label, fn):
        rows.append((label, [fn(s) for s in phases]))

    row("phones (streams held, min)", lambda s: f"{s.phones} ({s.streams_held_min})")
    row("offered actions/s", lambda s: f"{s.rate:g}")
    row("achieved actions/s", lambda s: f"{s.achieved:.1f}")
    row("action p50 / p99 ms", lambda s: f"{ms(pct(s.action_latency, 50))} / "
                                          f"{ms(pct(s.action_latency, 99))}")
    row("fan-out version p50 / p99 ms", lambda s: f"{ms(pct(s.fan_version, 50))} / "
                                                   f"{ms(pct(s.fan_version, 99))}")
    row("fan-out fetched p50 / p99 ms", lambda s: f"{ms(pct(s.fan_fetch, 50))} / "
                                                   f"{ms(pct(s.fan_fetch, 99))}")
    row("missed updates version/fetch", lambda s: f"{s.missed_version} / {s.missed_fetch}")
    row("errors action/fetch/setup", lambda s: f"{s.action_errors}/{s.fetch_errors}/"
                                               f"{s.setup_errors}")
    row("streams dropped / failed", lambda s: f"{s.stream_drops} / {s.stream_failures}")
    row("slots with no table ready", lambda s: f"{s.slots_unready}/{s.slots}")
    row("server CPU ms per action", lambda s: f"{s.server_cpu / max(1, s.actions_ok) * 1000:.1f}")
    row("server CPU % of 2 cores", lambda s: f"{s.server_cpu / max(s.wall, 1e-9) / 2 * 100:.0f}")
    row("load-gen CPU ms per action", lambda s: f"{s.client_cpu / max(1, s.actions_ok) * 1000:.1f}")
    workers = int(results["settings"]["workers"])

    def alone(s: Stats) -> str:
        """The rate the CPU would allow on this machine with nothing else running: the
        server's processes get min(workers, 2 - the load generator's share) cores."""
        if not s.actions_ok:
            return "-"
        server, client = s.server_cpu / s.actions_ok, s.client_cpu / s.actions_ok
        if workers >= 2:
            return f"{2 / (server + client):.0f}"
        return f"{min(1 / server, 2 / (server + client)):.0f}"
    row("CPU-bound rate if alone /s", alone)
    row("load-gen loop lag p99 ms", lambda s: ms(pct(s.loop_lag, 99)))
    row("other processes CPU %", lambda s: f"{s.other_cpu / max(s.wall, 1e-9) / 2 * 100:.0f}")
    row("server runnable, no CPU ms/action", lambda s: f"{s.server_waited / max(1, s.actions_ok) * 1000:.1f}")
    row("peak RSS / PSS all procs MB", lambda s: f"{mb(s.peak_rss)} / {mb(s.peak_pss)}")
    row("peak server threads", lambda s: str(s.peak_threads))
    row("games finished", lambda s: str(s.tables_finished))

    width = max(len(r[0]) for r in rows)
    col = max(12, max(len(c) for c in columns) + 1, max(len(v) for _, vals in rows for v in vals) + 1)
    print()
    print("=" * (width + 2 + col * len(columns)))
    settings = results["settings"]
    print(f"Companion benchmark — {settings['worker_class']}, {settings['workers']} workers"
          + (f", {settings['threads']} threads/worker" if settings["worker_class"] == "gthread"
             else "")
          + (f", GUNICORN_CMD_ARGS={settings['GUNICORN_CMD_ARGS']!r}"
             if settings["GUNICORN_CMD_ARGS"] else "")
          + (f", config {settings['config']}" if settings["config"] != "gunicorn.conf.py" else "")
          + f"; phones: {results['args']['streams']} streams; actions via "
            f"{results['args']['act']}"
          + (f"; niceness {results['args']['nice']}" if results["args"]["nice"] else ""))
    print("=" * (width + 2 + col * len(columns)))
    noise = sum(s.other_cpu for s in phases) / max(1e-9, sum(s.wall for s in phases)) / 2
    print(f"Other processes on this shared machine used {noise * 100:.0f}% of its 2 cores during "
          f"the phases (row 'other processes CPU %'): figures are from a noisy machine.")
    print(" " * (width + 2) + "".join(c.rjust(col) for c in columns))
    for label, values in rows:
        print(label.ljust(width + 2) + "".join(v.rjust(col) for v in values))
    print()
    for label, floor in results["floors"].items():
        print(f"floor ({label}): GET /static/app.js p50 {ms(floor['p50'])} ms, p99 "
              f"{ms(floor['p99'])} ms; {floor['rate']:.0f} req/s at {floor['concurrency']} "
              f"at once ({floor['cpu_per_request'] * 1000:.2f} ms server CPU each)")
    ceiling_result = results.get("ceiling")
    if ceiling_result:
        tried = ", ".join(f"{s.rate:g}->{s.achieved:.0f}/s p99 {ms(pct(s.fan_version, 99))} ms "
                          f"err {s.all_errors}" for s in steps)
        offered = ceiling_result["offered"]
        achieved = ceiling_result["achieved"]
        print(f"ceiling ({phases[0].phones} phones, fan-out p99 < 1 s, no errors, 90% of the "
              f"rate achieved): "
              + (f"{offered:g} actions/s offered, {achieved:.0f}/s achieved" if offered
                 else "no rate passed")
              + f"; first failing: {ceiling_result['first_failing']}; steps: {tried}")
    rc = results.get("request_cost")
    if rc:
        print(f"server idle with {rc['streams']} streams open: {rc['idle_cpu_percent']:.1f}% of "
              f"2 cores; server CPU per request (p50 latency): " + ", ".join(
                  f"{k} {v['cpu_ms']:.2f} ms ({v['p50_ms']:.1f} ms, {v['bytes']} B)"
                  for k, v in rc["requests"].items()))
    cost = results.get("cost", {})
    if "error" in cost:
        print(f"cost growth: failed: {cost['error'][-300:]}")
    elif cost:
        for name in ("padded", "genuine"):
            c = cost[name]
            e, l = c["early"], c["late"]
            print(f"cost growth ({name}): act + phone panel at event {e['first_event']}: "
                  f"{e['act_ms']:.2f} + {e['render_ms']:.2f} ms; at event {l['first_event']}: "
                  f"{l['act_ms']:.2f} + {l['render_ms']:.2f} ms (log {l['log_ms']:.1f}, "
                  f"can_undo {l['can_undo_ms']:.1f}); ratio {c['ratio']:.2f}")
    fl = results.get("first_load", {})
    if fl:
        parts = ", ".join(f"{i['url'].rsplit('/', 1)[-1] or 'page'} {i['served_bytes'] / 1024:.1f}"
                          f"/{i['gzip_bytes'] / 1024:.1f}" for i in fl["items"])
        print(f"first load: {fl['requests']} requests (page + assets + stream); "
              f"{fl['served_total'] / 1024:.1f} KB as served "
              f"({'gzip' if fl['served_gzip'] else 'no compression'}), "
              f"{fl['gzip_total'] / 1024:.1f} KB if gzipped [KB served/gzipped: {parts}]; "
              f"requests leaving the server: {len(fl['outside'])}")
    print()
    verdicts(results, phases)


def verdicts(results: dict, phases: list[Stats]) -> None:
    by_name = {s.name: s for s in phases}
    lines = []

    def verdict(ok, text):
        lines.append(f"  [{'met' if ok else 'NOT met'}] {text}")

    n, r = TARGETS["small"]
    s = by_name.get(f"{n}@{r}")
    if s:
        fv, ff, a = pct(s.fan_version, 99), pct(s.fan_fetch, 99), pct(s.action_latency, 99)
        verdict(fv is not None and fv < 0.025 and a is not None and a < 0.030,
                f"{n} phones, {r}/s: fan-out p99 {fv * 1000 if fv else float('nan'):.1f} ms "
                f"< 25 (fetched: {ff * 1000 if ff else float('nan'):.1f} ms), action p99 "
                f"{a * 1000 if a else float('nan'):.1f} ms < 30")
    else:
        lines.append(f"  [not run] {n} phones at {r}/s")
    n, r = TARGETS["large"]
    s = by_name.get(f"{n}@{r}")
    if s:
        fv, ff, a = pct(s.fan_version, 99), pct(s.fan_fetch, 99), pct(s.action_latency, 99)
        ok = (fv is not None and fv < 0.1 and a is not None and a < 0.1 and s.all_errors == 0
              and s.stream_drops == 0 and s.stream_failures == 0 and s.peak_pss < 400 * 2**20)
        verdict(ok, f"{n} phones, {r}/s: fan-out p99 {fv * 1000 if fv else float('nan'):.1f} ms "
                    f"< 100 (fetched: {ff * 1000 if ff else float('nan'):.1f} ms), action p99 "
                    f"{a * 1000 if a else float('nan'):.1f} ms < 100, errors {s.all_errors}, "
                    f"streams dropped {s.stream_drops}/failed {s.stream_failures}, memory "
                    f"{s.peak_pss / 2**20:.0f} MB PSS < 400 (RSS summed: "
                    f"{s.peak_rss / 2**20:.0f} MB, counting shared pages once per process)")
    else:
        lines.append(f"  [not run] {n} phones at {r}/s")
    ceiling_result = results.get("ceiling")
    if ceiling_result:
        top = ceiling_result["achieved"] or 0
        verdict(top >= 300, f"ceiling at {phases[0].phones} phones: {top:.0f} actions/s >= 300")
    cost = results.get("cost", {})
    if cost and "error" not in cost:
        ratio = cost["padded"]["ratio"]
        verdict(ratio <= 1.3, f"event {cost['padded']['late']['first_event']} costs "
                              f"{ratio:.2f} x event {cost['padded']['early']['first_event']} "
                              f"<= 1.3 (genuine game, event "
                              f"{cost['genuine']['late']['first_event']}: "
                              f"{cost['genuine']['ratio']:.2f} x)")
    fl = results.get("first_load")
    if fl:
        verdict(fl["served_total"] < 40 * 1024 and not fl["outside"],
                f"first load {fl['served_total'] / 1024:.1f} KB as served < 40 KB gzipped "
                f"({fl['gzip_total'] / 1024:.1f} KB were it gzipped), "
                f"{len(fl['outside'])} requests leaving the server")
    print("Targets:")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of about a minute (60 and 180 phones, 3 s phases)")
    parser.add_argument("--phones", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--rates", type=float, nargs="+", default=[20, 50, 100, 200])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per phase")
    parser.add_argument("--ceiling-duration", type=float, default=6.0)
    parser.add_argument("--ceiling-steps", type=int, default=4)
    parser.add_argument("--cost-events", type=int, default=1000)
    parser.add_argument("--floor-concurrency", type=int, default=8)
    parser.add_argument("--streams", choices=["split", "api", "html"], default="split",
                        help="which stream each phone holds: half and half (default), or all "
                             "the API's, or all the HTML page's")
    parser.add_argument("--act", choices=["api", "form"], default="api",
                        help="how an HTML phone acts: the API (default) or the page's form")
    parser.add_argument("--options", default="{}", help="Go Big options, as JSON")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="server environment (WEB_CONCURRENCY, COMPANION_THREADS, "
                             "COMPANION_WORKER_CLASS, GUNICORN_CMD_ARGS); the bench's own "
                             "environment is passed on too")
    parser.add_argument("--config", default="gunicorn.conf.py",
                        help="gunicorn config, relative to the repository (default: production's)")
    parser.add_argument("--timeout", type=float, default=15.0, help="per request, seconds")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--nice", type=int, default=0,
                        help="change the niceness of the bench and its server (e.g. -10 as "
                             "root, to measure the app rather than a shared machine's noise; "
                             "it slows everything else running meanwhile)")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                        help="first wait (at most this long) for other processes to use less "
                             "than a quarter of the machine")
    args = parser.parse_args()
    if args.nice:
        os.nice(args.nice)  # the server and the in-process measurement inherit it
    started = time.monotonic()
    results = asyncio.run(main_async(args))
    results["seconds"] = time.monotonic() - started
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    print(f"\n(run took {results['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
