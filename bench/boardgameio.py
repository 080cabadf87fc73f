#!/usr/bin/env python3
"""boardgame.io under the bench's load: its Node server (`boardgameio/server.js`, a game
with Go Big's shape) serving 300 clients in matches of six at 100 moves a second
(`boardgameio/load.js`), in memory and then with its FlatFile store, and the server's CPU
per move, measured as `run.py` measures gunicorn's (user + system time from
/proc/<pid>/stat over the measured part).

    (cd bench/boardgameio && npm ci)      # once: the pinned boardgame.io
    .venv/bin/python bench/boardgameio.py --duration 10

Bounded: each store's run stops by itself (seating, `--warm-up`, `--duration`, a few
seconds for the last moves), on 127.0.0.1 only. Prints one JSON object (`run.py
--boardgameio` runs it too, and reports it beside Companion's phases).
"""
from __future__ import annotations

import argparse
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import machine_busy  # noqa: E402
from server import free_port  # noqa: E402

FOLDER = Path(__file__).resolve().parent / "boardgameio"
STORES = ("memory", "flatfile")
# Where Companion's target of CPU per move is measured: 300 phones, 100 moves a second.
CLIENTS, RATE = 300, 100.0
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
SEATING_LIMIT = 120.0  # seconds for load.js to create, join and connect every match
SETTLING_LIMIT = 15.0  # seconds for the last moves and the figures after the phase


def why_not_available() -> str | None:
    """Why boardgame.io cannot run here (no Node, or its packages not installed), if so."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (FOLDER / "node_modules" / "boardgame.io").is_dir():
        return f"its packages are not installed (run `npm ci` in {FOLDER.name}/ of bench/)"
    return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and all its threads."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as handle:
        return int(handle.read().split()[1]) * PAGE


class NodeServer:
    """`node server.js` on 127.0.0.1 with one store, ready once it says so."""

    def __init__(self, store: str, workdir: Path):
        self.store, self.port = store, free_port()
        self.log_path = workdir / f"boardgameio-{store}.log"
        command = ["node", "server.js", "--port", str(self.port), "--store", store]
        if store == "flatfile":
            command.append(str(workdir / "flatfile"))
        self.command = command
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, limit: float = 30.0) -> "NodeServer":
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(self.command, cwd=FOLDER, stdout=log, stderr=log,
                                        start_new_session=True)
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"{self.url}/games", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"boardgame.io's server did not start ({self.store}); see "
                           f"{self.log_path}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Lines:
    """The lines a process writes on its stdout, each waited for until a deadline."""

    def __init__(self, process: subprocess.Popen):
        self.process, self.pending = process, b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(process.stdout, selectors.EVENT_READ)

    def next(self, deadline: float, on_wait=None) -> bytes:
        """The next line, or b"" if the process ends or the deadline passes first;
        `on_wait()` is called every 0.2 s meanwhile."""
        while b"\n" not in self.pending:
            if time.monotonic() >= deadline:
                return b""
            if self.selector.select(timeout=0.2):
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    return b""
                self.pending += chunk
            elif on_wait:
                on_wait()
        line, self.pending = self.pending.split(b"\n", 1)
        return line

    def close(self) -> None:
        self.selector.close()


def run_store(store: str, clients: int, rate: float, duration: float,
              warm_up: float) -> dict:
    """One store: start the server, run load.js against it, and sample the server's CPU
    between load.js's "measure" and "measured" lines."""
    workdir = Path(tempfile.mkdtemp(prefix="companion-boardgameio-"))
    try:
        server = NodeServer(store, workdir).start()
    except RuntimeError as failure:
        return {"store": store, "error": str(failure)}
    load = subprocess.Popen(
        ["node", "load.js", "--server", server.url, "--clients", str(clients), "--rate",
         f"{rate:g}", "--duration", f"{duration:g}", "--warm-up", f"{warm_up:g}"],
        cwd=FOLDER, stdout=subprocess.PIPE, stderr=open(workdir / "load.log", "ab"),
        start_new_session=True)
    deadline = time.monotonic() + SEATING_LIMIT + warm_up + duration + SETTLING_LIMIT
    peak = {"rss": 0}

    def sample_memory() -> None:
        try:
            peak["rss"] = max(peak["rss"], rss_bytes(server.process.pid))
        except OSError:
            pass

    marks: dict[str, tuple[float, float, float, float]] = {}
    figures: dict | None = None
    lines = Lines(load)
    try:
        while figures is None:
            line = lines.next(deadline, sample_memory)
            if not line:
                break
            if not line.startswith(b"{"):
                continue  # a library's own message, not load.js's
            said = json.loads(line)
            if "event" in said:
                marks[said["event"]] = (cpu_seconds(server.process.pid),
                                        cpu_seconds(load.pid), machine_busy(),
                                        time.monotonic())
            else:
                figures = said
    finally:
        lines.close()
        if load.poll() is None:
            load.kill()
        load.wait()
        errors = (workdir / "load.log").read_text(errors="replace")
        server.stop()
        shutil.rmtree(workdir / "flatfile", ignore_errors=True)
    if figures is None or set(marks) != {"measure", "measured"}:
        return {"store": store, "error": (errors.strip() or "load.js gave no figures")[-500:]}
    (server0, load0, all0, t0), (server1, load1, all1, t1) = marks["measure"], marks["measured"]
    moves, wall = max(1, figures["moves"]), t1 - t0
    server_cpu, load_cpu = server1 - server0, load1 - load0
    return dict(figures, store=store,
                server_cpu_ms_per_move=1000 * server_cpu / moves,
                server_cpu_percent=100 * server_cpu / wall / (os.cpu_count() or 2),
                load_gen_cpu_ms_per_move=1000 * load_cpu / moves,
                other_cpu_percent=100 * max(0.0, (all1 - all0) - server_cpu - load_cpu)
                / wall / (os.cpu_count() or 2),
                peak_rss_bytes=peak["rss"])


def measure(duration: float, clients: int = CLIENTS, rate: float = RATE,
            warm_up: float = 3.0, stores: tuple[str, ...] = STORES) -> dict:
    """Every store in turn (or why boardgame.io could not run)."""
    missing = why_not_available()
    if missing:
        return {"skipped": missing}
    return {"clients": clients, "rate": rate, "duration": duration,
            "stores": {store: run_store(store, clients, rate, duration, warm_up)
                       for store in stores}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds measured")
    parser.add_argument("--warm-up", type=float, default=3.0)
    parser.add_argument("--stores", nargs="+", choices=STORES, default=list(STORES))
    args = parser.parse_args()
    print(json.dumps(measure(args.duration, args.clients, args.rate, args.warm_up,
                             tuple(args.stores))))


if __name__ == "__main__":
    main()
