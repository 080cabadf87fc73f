"""The load: seating phones, one phase of actions at a steady rate while the server is
sampled, and the search for the ceiling."""
from __future__ import annotations

import asyncio
import json
import os
from collections import deque

from figures import Record, Stats, machine_busy, pct
from httpc import Client, now
from phones import GRACE, SEATS, BenchError, Group
from server import Server, Servers


class Bench:
    """One run against one server (or several on one database): the groups of phones, the
    tables ready to act, and the figures of each phase."""

    def __init__(self, args, server: Server | Servers):
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
        self.pauses: dict[float, float] = {}  # seconds apart: server CPU per request
        self.first_load: dict = {}
        self.request_cost: dict = {}

    def port_for(self, group: int, seat: int) -> int:
        """The server a phone talks to: with several, the first half of a table's seats on
        one and the second half on the next, so most of a move's updates cross servers."""
        servers = getattr(self.server, "servers", None)
        if not servers:
            return self.port
        return self.server.port_for(group + seat * len(servers) // SEATS)

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
        cpu0, own0, wall0, all0 = self.server.cpu_times(), os.times(), now(), machine_busy()
        sched0 = self.server.sched_seconds()
        await self.dispatch(stats, rate, duration)
        # let the last actions finish and reach every phone
        deadline = now() + GRACE
        while now() < deadline and (
                any(g.in_flight for g in self.groups)
                or any(r.stats is stats for r in self.open_records)):
            await asyncio.sleep(0.02)
        cpu1, own1, all1 = self.server.cpu_times(), os.times(), machine_busy()
        sched1 = self.server.sched_seconds()
        # threads that ended during the phase drop out of the sums: never below zero
        stats.server_waited = max(0.0, sched1[1] - sched0[1])
        stats.wall = now() - wall0
        stop.set()
        await sampler
        stats.server_cpu = sum(cpu1) - sum(cpu0)
        stats.server_system = cpu1[1] - cpu0[1]
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

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(*(g.close() for g in self.groups), return_exceptions=True)


async def ceiling(bench: Bench, phones: int, passed: list[Stats], steps: int,
                  duration: float) -> dict:
    """The highest rate with fan-out p99 under 1 s, no errors and 90% of the rate
    achieved: up by half while it holds, then halving the gap."""
    good = max((s.rate for s in passed if s.passes_ceiling()), default=None)
    bad = min((s.rate for s in passed if not s.passes_ceiling()), default=None)
    for _step in range(steps):
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

