"""What the bench measures: the figures of one phase, one action on its way to every
phone, and the percentiles and machine readings they are summed with."""
from __future__ import annotations

import asyncio
import os


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
        self.views_for_moves = 0  # GETs of a view only to learn the mover's moves
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
        self.server_system = 0.0  # of server_cpu, the kernel's (system time)
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

