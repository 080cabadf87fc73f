"""The simulated people: phones (each holding its table's stream, as the JSON API or the
HTML page) and the groups of six around a table, who play a game after another. Each is
handed the run they belong to (`load.Bench`), which this module does not import: the run
imports it."""
from __future__ import annotations

import asyncio
import json
import random
import re
import uuid
from collections import deque
from urllib.parse import urlencode

from figures import Record, Stats
from httpc import Client, HttpError, now, open_stream, sse_events
from phone_moves import choose, moves_on_page

SEATS = 6
GRACE = 10.0         # after a phase (or a game's end), how long late deliveries still count
STREAM_RETRY = 2.0   # the server's `retry: 2000`: what EventSource waits to reconnect

# The version of the panel a page holds (what the page's script compares before swapping
# a pushed panel in): how the bench sees that an HTML phone shows a version.
VERSION_RE = re.compile(r'data-version="(\d+)"')
CSRF_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')


class BenchError(Exception):
    pass


class Phone:
    """One player's phone: an API client (bearer token, the API's stream, whose events
    carry its view) or the HTML page (cookie, the page's stream, which pushes panels)."""

    def __init__(self, bench, group: "Group", seat: int, kind: str):
        self.bench, self.group, self.seat, self.kind = bench, group, seat, kind
        self.port = bench.port_for(group.index, seat)
        self.client = Client(bench.host, self.port, timeout=bench.args.timeout)
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
        self.actions: list[dict] = []  # the moves of the newest view (or own part) it holds
        self.actions_version = -1  # that view's version
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
                    bench.host, self.port, self.stream_path(), self.auth_headers(),
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
                        elif event in ("panel", "public", "own"):
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
            self.on_view(data["version"], at, data["table"]["actions"])
        self.on_version(data["version"], at, generation)

    def on_pushed_panel(self, html: str, at: float, generation: int) -> None:
        """The screen's stream pushes the rendered panel itself, or at a change the
        table's parts (and the phone's own part when it changed, which names the same
        version): what htmx swaps in."""
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
            self.on_view(view["version"], at, view["actions"])
        else:
            self.on_panel(response.body.decode(), at)
        return True

    def on_panel(self, html: str, at: float) -> None:
        found = VERSION_RE.search(html)
        if found:
            self.on_view(int(found.group(1)), at, moves_on_page(html))

    def on_view(self, version: int, at: float, actions: list[dict] | None = None) -> None:
        """The phone shows the table at `version`: a panel, or the API's view with the
        moves it offers."""
        if version < self.view_version:
            return
        if actions is not None:
            self.actions, self.actions_version = actions, version
        if version > self.view_version:
            self.view_version = version
            self.view_log.append((version, at))
            self.group.delivered(self, version, at, fetched=True)
        self.group.check_ready()


class Group:
    """The people around one table: a game after another, each on a new table."""

    def __init__(self, bench, index: int, seats: int):
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
        self.turn: int | None = None  # the player whose move the table awaits
        self.seated: dict[int, Phone] = {}  # by player id
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
            self.seated = {phone.player_id: phone for phone in self.phones}
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
            phone.on_view(view["version"], now(), view["actions"])
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
        """Ready once the phone of the player whose turn it is shows the newest version."""
        if self.ready or self.in_flight or not self.playing or self.turn is None:
            return
        phone = self.seated.get(self.turn)
        if phone is not None and phone.view_version >= self.version:
            self.actor = phone
            self.ready = True
            self.bench.ready.append(self)

    async def moves(self, phone: Phone) -> list[dict]:
        """What the phone may do now: the `actions` of the API's view it holds when that
        is the newest (an API phone's stream pushes it; an action's answer carries it); on
        the HTML page, the forms of its own part (sent whenever that part changed, so what
        it holds is the newest). Failing those, one GET of the view with its token,
        counted (`views_for_moves`): a request a browser does not make."""
        if phone.actions_version >= self.version or (phone.kind == "html" and phone.actions):
            return phone.actions
        self.bench.stats.views_for_moves += 1
        view = await self.bench.call(phone.client, "GET", f"/api/v1/tables/{self.code}",
                                     phone.token)
        phone.on_view(view["version"], now(), view["actions"])
        return view["actions"]

    async def act(self, stats: Stats) -> None:
        bench, phone = self.bench, self.actor
        generation = self.generation
        try:
            actions = await self.moves(phone)
            if not actions:
                raise BenchError("no move offered to the player whose turn it is")
        except (HttpError, BenchError) as exc:
            stats.action_errors += 1
            stats.error("moves", str(exc))
            await self.resync(generation)
            return
        if generation != self.generation:
            return
        action = choose(actions, self.rng)
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
            self.follow(stats, version, answered, phone)
            phone.on_panel(html, answered)
            try:  # whose turn it is now, and whether the game is over: the public view
                view = await bench.call(phone.client, "GET", f"/api/v1/tables/{self.code}",
                                        None)
            except (HttpError, BenchError) as exc:
                stats.fetch_errors += 1
                stats.error("fetch", str(exc))
                await self.resync(generation)
                return
            self.turn, finished = view["turn"], view["status"] != "playing"
        else:
            answer = json.loads(response.body)
            version = answer["version"]
            finished = answer["table"]["status"] != "playing"
            self.turn = answer["table"]["turn"]
            self.follow(stats, version, answered, phone)
            phone.on_view(version, answered, answer["table"]["actions"])
        self.in_flight = False
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


