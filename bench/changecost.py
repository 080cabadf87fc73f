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
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from changecost_report import print_table, verdicts  # noqa: E402
from changecost_tables import HOST, WATCHED, BenchError, Change, Table  # noqa: E402
from httpc import Client  # noqa: E402
from phones import choose  # noqa: E402
from server import Server  # noqa: E402

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
