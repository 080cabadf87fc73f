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
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import boardgameio  # noqa: E402
import probes  # noqa: E402
import stackfloor  # noqa: E402
from figures import Stats, machine_busy  # noqa: E402
from httpc import now  # noqa: E402
from load import Bench, ceiling  # noqa: E402
from report import print_report  # noqa: E402
from server import ROOT, Server, Servers  # noqa: E402


def plan(args) -> dict:
    """The phones, rates and durations of this run (`--quick`: a smoke run)."""
    if args.quick:
        return {"phones": [60, 180], "rates": [20, 50, 100, 200], "duration": 3.0,
                "ceiling_duration": 3.0, "ceiling_steps": 2, "cost_events": 200,
                "in_process_moves": 100, "floor_seconds": 2.0, "stack_floor_seconds": 3.0}
    return {"phones": args.phones, "rates": args.rates, "duration": args.duration,
            "ceiling_duration": args.ceiling_duration, "ceiling_steps": args.ceiling_steps,
            "cost_events": args.cost_events, "in_process_moves": args.in_process_moves,
            "floor_seconds": 4.0, "stack_floor_seconds": args.stack_floor_seconds}


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
    """Start the server, measure the floor, seat the phones, measure the first load and
    the request costs, run every phase and the ceiling search, stop, report."""
    shape = plan(args)
    if args.wait_quiet:
        share = wait_quiet(args.wait_quiet)
        print(f"Other processes use {share * 100:.0f}% of the cores at the start.", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    overrides = dict(kv.split("=", 1) for kv in args.server_env)
    database = own_postgresql_database(args.postgres) if args.postgres else None
    if database:
        overrides["DATABASE_URL"] = database
    if args.servers > 1:
        if not database:
            raise SystemExit("Several servers share a PostgreSQL database: give --postgres.")
        folders = [workdir / f"server-{n}" for n in range(args.servers)]
        for folder in folders:
            folder.mkdir()
        server = Servers([Server(folder, overrides, args.config) for folder in folders])
    else:
        server = Server(workdir, overrides, args.config)
    print(f"Starting the server: {server.settings()} (log: {server.log_path})", flush=True)
    try:
        server.start()
    except BaseException:
        drop_database(args.postgres, database)
        raise
    bench = Bench(args, server)
    results: dict = {"settings": server.settings(), "plan": shape, "args": vars(args),
                     "started": time.strftime("%H:%M:%S")}
    try:
        await probes.floor(bench, "idle", shape["floor_seconds"], args.floor_concurrency)
        await probes.pauses(bench)
        small = shape["phones"][0]
        print(f"Seating {small} phones...", flush=True)
        t0 = now()
        await bench.add_phones(small)
        print(f"  {bench.streams_open} streams open in {now() - t0:.1f} s", flush=True)
        await probes.first_load(bench)
        await probes.request_costs(bench)
        results_phases: list[Stats] = []
        for phones in shape["phones"]:
            if phones != small:
                print(f"Seating {phones} phones...", flush=True)
                t0 = now()
                await bench.add_phones(phones)
                print(f"  {bench.streams_open} streams open in {now() - t0:.1f} s "
                      f"(setup errors {bench.setup_stats.setup_errors}, stream failures "
                      f"{bench.setup_stats.stream_failures})", flush=True)
                await probes.floor(bench, f"{phones} streams", shape["floor_seconds"],
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
        drop_database(args.postgres, database)
    if args.boardgameio:
        print(f"Measuring boardgame.io under the same load ({boardgameio.CLIENTS} clients at "
              f"{boardgameio.RATE:g} moves/s; in memory, then FlatFile)...", flush=True)
        results["boardgameio"] = boardgameio.measure(shape["duration"])
        if "skipped" in results["boardgameio"]:
            print(f"  skipped: {results['boardgameio']['skipped']}", flush=True)
    results["cost"] = {}
    if shape["cost_events"]:
        print("Measuring cost growth in-process (server stopped)...", flush=True)
        results["cost"] = in_subprocess("costgrowth.py", shape["cost_events"])
    if shape["in_process_moves"]:
        print("Measuring a move and its six updates in-process...", flush=True)
        results["in_process"] = in_subprocess("inprocess.py", shape["in_process_moves"])
        print("Measuring a Go Big panel and the largest score sheet's in-process...", flush=True)
        results["panels"] = in_subprocess("panels.py", 30)
    if shape["stack_floor_seconds"]:
        print(f"Measuring the stack's floor (a bare app, {stackfloor.PHONES} phones at "
              f"{stackfloor.RATE:g}/s)...", flush=True)
        results["stack_floor"] = await stackfloor.measure(
            stackfloor.PHONES, stackfloor.RATE, shape["stack_floor_seconds"])
    results["phases"] = [s.to_json() for s in bench.phases]
    results["ceiling_steps"] = [s.to_json() for s in bench.ceiling_steps]
    results["floors"] = bench.floors
    results["pauses"] = {str(gap): cpu for gap, cpu in bench.pauses.items()}
    results["first_load"] = bench.first_load
    results["request_cost"] = bench.request_cost
    results["setup"] = bench.setup_stats.to_json()
    print_report(results, bench.phases, bench.ceiling_steps)
    return results


def own_postgresql_database(server: str) -> str:
    """A new, empty database on the PostgreSQL server of this URL (dropped at the end)."""
    from sqlalchemy import create_engine, text

    name = f"companion_bench_{os.getpid()}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def drop_database(server: str | None, database: str | None) -> None:
    if not (server and database):
        return
    from sqlalchemy import create_engine, text

    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{database.rsplit("/", 1)[1]}" '
                                "WITH (FORCE)"))
    admin.dispose()


def in_subprocess(script: str, count: int) -> dict:
    """A script of bench/ that measures the app in a process of its own, once the server
    has stopped (`costgrowth.py`, `inprocess.py`), given `count`: the JSON it prints."""
    path = Path(__file__).resolve().parent / script
    done = subprocess.run([sys.executable, str(path), str(count)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    if done.returncode != 0:
        return {"error": done.stderr[-2000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


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
    parser.add_argument("--in-process-moves", type=int, default=500,
                        help="moves timed in-process with their six updates (0 skips)")
    parser.add_argument("--floor-concurrency", type=int, default=8)
    parser.add_argument("--stack-floor-seconds", type=float, default=10.0,
                        help="seconds of moves against a bare app on the same server "
                             "configuration (stackfloor.py; 0 skips)")
    parser.add_argument("--boardgameio", action="store_true",
                        help="after Companion's phases, the same load on boardgame.io's server "
                             "(Node), in memory and with FlatFile (boardgameio.py)")
    parser.add_argument("--streams", choices=["split", "api", "html"], default="split",
                        help="which stream each phone holds: half and half (default), or all "
                             "the API's, or all the HTML page's")
    parser.add_argument("--act", choices=["api", "form"], default="api",
                        help="how an HTML phone acts: the API (default) or the page's form")
    parser.add_argument("--options", default="{}", help="Go Big options, as JSON")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="server environment (COMPANION_WORKER_CLASS, COMPANION_THREADS, "
                             "GUNICORN_CMD_ARGS); the bench's own environment is passed on "
                             "too")
    parser.add_argument("--postgres", metavar="URL",
                        help="run on PostgreSQL instead of SQLite: the URL of a server (e.g. "
                             "postgresql+psycopg://postgres@127.0.0.1/postgres) on which the "
                             "bench creates a database of its own, dropped at the end")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers on the one PostgreSQL database (needs --postgres); a "
                             "table's first half of phones talks to one, the rest to the next")
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
