#!/usr/bin/env python3
"""What one change costs with every screen's HTML stream open: the server's CPU per change
and the bytes each screen receives for it.

Starts the production server as `run.py` does (`server.py`: gunicorn with gunicorn.conf.py
on 127.0.0.1, a SQLite file of its own, rate limits off, known shuffles) and, for each
scenario, creates a table through the API, seats its phones and starts it, then opens every
screen's HTML stream: each player's phone page (`/t/CODE` with its cookie, then its stream
with `since` = the page's version), the host screen (`/t/CODE/host`, host cookie) and the
table display (`/d/CODE`, no cookie). It then makes K changes one at a time, each waiting
until every screen caught up before the next.

A screen has caught up with version N once the data of any event it received since the
change contains `data-version="N"` (or later): the events' names are not read, and every
byte of every event a stream receives is counted, so the figures stay comparable whatever
events the server sends for a change.

- Go Big (2 players and 6, its maximum): random legal moves from the `actions` of the
  mover's API view (read before the change, outside its measurement), posted with the
  mover's bearer token.
- Score sheet, each player entering their own row (`entry: players`): the measured changes
  are entries of players other than the watched phone (seat 1), each from that player's
  token through the API. The watched phone enters last in each round, outside the
  measurement (its entry closes the round). The rounds already entered are entered by the
  players themselves too: on such a sheet the host may not enter for a player who has a
  phone. A sheet has at most 100 rounds, so the "100 rows" of the growth rows are 99
  rounds entered (the 100th then being entered), as in the largest sheet.

CPU per change: the time on a CPU of every thread of the master and workers (their
schedstat, in nanoseconds) from just before the change's POST to every screen having
caught up (and a 50 ms settle), summed over the K changes and divided by K: the figure
the targets are judged by. The table also shows user + system time (`/proc/<pid>/stat`),
which moves by whole ticks of 10 ms and so is off by a millisecond or so over 20 changes.
Bytes: per change, what the stream of each phone other than the mover received (median
over changes and phones), and the display's (median over changes).

The two sheets the targets name (12 phones at 10 rounds, the largest) are set against
Go Big moves made alongside them: after each measured entry, one measured move at a Go
Big table of six whose screens' streams are all open (a new table when a game ends), so
the two figures of a ratio come from the same minute of a machine whose speed drifts
within a run. The ratio against the run's own Go Big row is printed beside it.

Run: .venv/bin/python bench/changecost.py [--quick] [--repeat K] [--json out.json]. See
bench/README.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import machine_busy  # noqa: E402
from httpc import Client, HttpError, now, open_stream, sse_sized_events  # noqa: E402
from phones import choose  # noqa: E402
from server import Server  # noqa: E402

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


class ChangeCost:
    def __init__(self, server: Server, client: Client):
        self.server, self.client = server, client
        self.samples: list[dict] = []

    async def call(self, method: str, path: str, token: str | None, body: dict) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        answer = await self.client.request(method, path, headers, json.dumps(body).encode())
        if answer.status not in (200, 201):
            raise BenchError(f"{method} {path} -> {answer.status}: {answer.body[:300]!r}")
        return json.loads(answer.body)

    def record(self, mover: int, cpu: float, run: float, got: list[int],
               others: float, into: list[dict] | None = None) -> None:
        (self.samples if into is None else into).append(
            {"mover": mover, "cpu": cpu, "run": run, "bytes": got, "others": others})

    def summary(self, name: str, table: Table, rows: int | None,
                samples: list[dict] | None = None) -> dict:
        if samples is None:
            samples, self.samples = self.samples, []
        if not samples:
            raise BenchError(f"{name}: no change was measured")
        players = table.players
        idle_phones = [s["bytes"][seat] for s in samples for seat in range(players)
                       if seat != s["mover"]]
        return {"scenario": name, "phones": players, "rows": rows, "changes": len(samples),
                "cpu_ms": 1000 * sum(s["cpu"] for s in samples) / len(samples),
                "sched_cpu_ms": 1000 * sum(s["run"] for s in samples) / len(samples),
                "phone_bytes": statistics.median(idle_phones),
                "host_bytes": statistics.median(s["bytes"][players] for s in samples),
                "display_bytes": statistics.median(s["bytes"][players + 1] for s in samples),
                "others_share": max(0.0, statistics.median(s["others"] for s in samples))}

    # -- Go Big ---------------------------------------------------------------------
    async def go_big(self, players: int, changes: int, rng) -> dict:
        table = Table(self, "go-big", {}, players)
        await table.start()
        try:
            await table.watch()
            for _ in range(changes):
                if table.turn is None:
                    break  # the game ended: what was measured stands
                await self.go_big_move(table, rng)
        finally:
            table.close()
        return self.summary("Go Big move", table, None)

    async def go_big_move(self, table: Table, rng, into: list[dict] | None = None) -> None:
        """One measured move of the player whose turn it is (their view read before)."""
        seat = table.ids.index(table.turn)
        view = await self.call_get(f"/api/v1/tables/{table.code}", table.tokens[seat])
        async with Change(table, seat, into):
            await table.act(seat, choose(view["actions"], rng))

    async def call_get(self, path: str, token: str) -> dict:
        answer = await self.client.request("GET", path, {"Authorization": f"Bearer {token}"})
        if answer.status != 200:
            raise BenchError(f"GET {path} -> {answer.status}")
        return json.loads(answer.body)

    # -- Score sheet ----------------------------------------------------------------
    async def new_sheet(self, players: int, categories: int) -> "Sheet":
        sheet = Sheet(self, players, [f"Category {n + 1}" for n in range(categories)])
        await sheet.start()
        return sheet

    async def sheet(self, sheet: "Sheet", name: str, changes: int,
                    alongside: "GoBigAlongside | None" = None) -> dict:
        """Up to `changes` entries by players other than the watched one, round after
        round; what is left of a round is entered outside the measurement, the watched
        phone's entry last (it closes the round). `alongside`: a Go Big move measured
        after each entry (its figure goes with the sheet's)."""
        rows = sheet.round - 1
        try:
            await sheet.watch()
            measured = 0
            while measured < changes and sheet.round <= sheet.last_round:
                for seat in range(sheet.players):
                    if seat == WATCHED:
                        continue
                    if measured < changes:
                        async with Change(sheet, seat):
                            await sheet.enter(seat)
                        measured += 1
                        if alongside is not None:
                            await alongside.move()
                    else:
                        await sheet.enter(seat)
                        await sheet.caught_up(sheet.version)
                await sheet.enter(WATCHED)
                await sheet.caught_up(sheet.version)
        finally:
            sheet.close()
        result = self.summary(name, sheet, rows)
        if alongside is not None:
            paired = alongside.summary()
            result.update(go_big_alongside_ms=paired["cpu_ms"],
                          go_big_alongside_sched_ms=paired["sched_cpu_ms"],
                          go_big_alongside_changes=paired["changes"])
        return result


class GoBigAlongside:
    """A Go Big table of six, every screen's stream open, on which a move is measured
    right after each measured entry of a sheet: the figure the sheet's ratio is taken
    against, measured in the same minute as the sheet's own (this machine's speed drifts
    by a third within a run). A game that ends is followed by a new table."""

    def __init__(self, bench: ChangeCost, rng):
        self.bench, self.rng = bench, rng
        self.table: Table | None = None
        self.samples: list[dict] = []

    async def move(self) -> None:
        if self.table is None or self.table.turn is None:
            self.close()
            self.table = Table(self.bench, "go-big", {}, 6)
            await self.table.start()
            await self.table.watch()
        await self.bench.go_big_move(self.table, self.rng, self.samples)

    def summary(self) -> dict:
        samples, self.samples = self.samples, []
        assert self.table is not None
        return self.bench.summary("Go Big move alongside", self.table, None, samples)

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


class Sheet(Table):
    """A score sheet of 100 rounds on which each player enters their own row, every seat
    once a round."""

    last_round = 100

    def __init__(self, bench: ChangeCost, players: int, categories: list[str]):
        super().__init__(bench, "score-sheet", {
            "name": "Bench", "rounds": self.last_round, "categories": categories,
            "entry": "players"}, players)
        self.categories = categories
        self.entries = 0

    @property
    def round(self) -> int:
        return self.entries // self.players + 1

    async def enter(self, seat: int) -> None:
        number = self.round
        scores = {name: (number * 7 + seat * 3 + c) % 41
                  for c, name in enumerate(self.categories)}
        await self.act(seat, {"type": "enter", "round": number, "scores": scores})
        self.entries += 1

    async def fill(self, closed: int) -> None:
        """Every player enters their own row until `closed` rounds are closed."""
        while self.round <= closed:
            await self.enter(self.entries % self.players)


async def scenarios(server: Server, quick: bool, repeat: int = 1) -> list[dict]:
    rng = random.Random(5)
    client = Client(HOST, server.port, timeout=60.0)
    bench = ChangeCost(server, client)
    moves, entries = (8, 4) if quick else (40 * repeat, 11 * repeat)
    results = []

    async def step(label: str, work):
        t0 = time.monotonic()
        print(f"  {label}...", flush=True)
        result = await work
        result["seconds"] = round(time.monotonic() - t0, 1)
        results.append(result)
        print(f"    {result['cpu_ms']:.1f} ms per change, {result['phone_bytes']:,.0f} B "
              f"to a phone, {result['display_bytes']:,.0f} B to the display "
              f"({result['changes']} changes)", flush=True)

    alongside = GoBigAlongside(bench, random.Random(6))
    try:
        for players in (2, 6):
            await step(f"Go Big, {players} phones", bench.go_big(players, moves, rng))
        for players in (2, 6, 20):
            sheet = await bench.new_sheet(players, 6)
            await sheet.fill(10)
            await step(f"sheet, {players} phones, 10 rounds entered",
                       bench.sheet(sheet, "sheet entry", entries))
        sheet = await bench.new_sheet(12, 6)
        for closed in (1, 10, 99):
            await sheet.fill(closed)
            await step(f"sheet, 12 phones, {closed} round(s) entered",
                       bench.sheet(sheet, "sheet entry", entries,
                                   alongside if closed == 10 else None))
        if not quick:
            sheet = await bench.new_sheet(20, 20)
            await sheet.fill(99)
            await step("the largest sheet, 20 phones, 99 rounds x 20 categories",
                       bench.sheet(sheet, "largest sheet entry", entries, alongside))
    finally:
        alongside.close()
        client.close()
    return results


def find(results: list[dict], scenario: str, phones: int, rows: int | None = None) -> dict | None:
    for result in results:
        if (result["scenario"], result["phones"], result["rows"]) == (scenario, phones, rows):
            return result
    return None


def ratio_line(label: str, value: float | None, limit: float | None, unit: str = "x") -> str:
    if value is None:
        return f"  {label}: not measured"
    shown = f"{value:,.0f} B" if unit == "B" else f"{value:.2f}x"
    if limit is None:
        return f"  {label}: {shown}"
    bound = f"{limit:,.0f} B" if unit == "B" else f"{limit:g}x"
    verdict = "met" if value <= limit else "NOT MET"
    return f"  {label}: {shown} (target <= {bound}: {verdict})"


# The figure the verdicts compare: the CPU time from the threads' schedstat, in nanoseconds.
# The stat ticks' figure moves by whole ticks (10 ms), more than a move costs: over 20 moves
# its mean is off by a millisecond or so either way.
FIGURE = "sched_cpu_ms"


def verdicts(results: list[dict]) -> list[str]:
    go_big = find(results, "Go Big move", 6)
    sheet = find(results, "sheet entry", 12, 10)
    largest = find(results, "largest sheet entry", 20, 99)

    def against(result: dict | None) -> float | None:
        """Against the Go Big moves made alongside the sheet's entries, when there were."""
        if result and "go_big_alongside_sched_ms" in result:
            return result[FIGURE] / result["go_big_alongside_sched_ms"]
        return result[FIGURE] / go_big[FIGURE] if result and go_big else None

    lines = [ratio_line("sheet entry (12 phones, 10 rounds x 6) CPU / Go Big move (6 phones)",
                        against(sheet), 2),
             ratio_line("sheet entry: bytes to a phone that did not act",
                        sheet["phone_bytes"] if sheet else None, 4096, "B"),
             ratio_line("largest sheet entry (20 x 99 rounds x 20) CPU / Go Big move "
                        "(6 phones)", against(largest), 5)]
    for label, result in (("sheet entry (12 phones, 10 rounds)", sheet),
                          ("largest sheet entry", largest)):
        if result and "go_big_alongside_sched_ms" in result and go_big:
            lines.append(
                f"    ({label}: {result[FIGURE]:.1f} ms, against "
                f"{result['go_big_alongside_sched_ms']:.1f} ms per Go Big move made alongside "
                f"({result['go_big_alongside_changes']} moves); against the Go Big row: "
                f"{result[FIGURE] / go_big[FIGURE]:.2f}x)")
    by_phones = [find(results, "sheet entry", n, 10) for n in (2, 6, 12, 20)]
    by_rows = [find(results, "sheet entry", 12, n) for n in (1, 10, 99)]
    for label, row in (("CPU per entry against phones 2 / 6 / 12 / 20 (10 rounds)", by_phones),
                       ("CPU per entry against rows 1 / 10 / 99 (12 phones; 99: the 100th "
                        "open)", by_rows)):
        measured = [r for r in row if r]
        if not measured:
            continue
        first = measured[0][FIGURE]
        lines.append(f"  {label}: " + " / ".join(f"{r[FIGURE]:.1f}" for r in measured)
                     + " ms; against the first: "
                     + " / ".join(f"{r[FIGURE] / first:.2f}" for r in measured))
    if by_phones[0] and by_phones[3]:
        few, many = by_phones[0], by_phones[3]
        lines.append(f"    (per screen, phones + host + display: {many[FIGURE] / 22:.2f} ms "
                     f"at 20 phones, {few[FIGURE] / 4:.2f} ms at 2)")
    return lines


def print_table(results: list[dict]) -> None:
    print()
    print(f"{'scenario':<22} {'phones':>6} {'rows':>5} {'changes':>7} {'CPU ms/change':>13} "
          f"{'(schedstat)':>11} {'B to idle phone':>15} {'B to host':>10} "
          f"{'B to display':>12} {'others':>6}")
    for r in results:
        rows = "-" if r["rows"] is None else str(r["rows"])
        print(f"{r['scenario']:<22} {r['phones']:>6} {rows:>5} {r['changes']:>7} "
              f"{r['cpu_ms']:>13.1f} {r['sched_cpu_ms']:>11.1f} {r['phone_bytes']:>15,.0f} "
              f"{r['host_bytes']:>10,.0f} "
              f"{r['display_bytes']:>12,.0f} {r['others_share']:>6.0%}")
    print("(others: the share of the 2 cores other processes used during the changes)")
    print()
    print("Targets (CPU from schedstat):")
    for line in verdicts(results):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="few changes per scenario, and no largest sheet")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="K times the changes per scenario: 40K moves, 11K entries (a "
                             "sheet's entries go on into its next rounds, as far as its last)")
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat is a whole number of at least 1")
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="companion-changecost-"))
    server = Server(workdir)
    print(f"Starting the server: {server.settings()} (log: {server.log_path})", flush=True)
    server.start()
    try:
        results = asyncio.run(asyncio.wait_for(
            scenarios(server, args.quick, args.repeat), 540 * args.repeat))
    finally:
        server.stop()
    print_table(results)
    seconds = time.monotonic() - started
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"settings": server.settings(), "quick": args.quick, "repeat": args.repeat,
             "results": results,
             "targets": verdicts(results), "seconds": seconds}, indent=1))
    print(f"\n(run took {seconds:.0f} s)")


if __name__ == "__main__":
    main()
