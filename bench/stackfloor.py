#!/usr/bin/env python3
"""The floor of the stack: what the production server configuration spends per move
around an app that does nothing (`floorapp.py`: a POST wakes its group's six streams, and
each sends a fixed event of a view's size). The same gunicorn.conf.py, worker and
sockets as the bench's server, with the same phones and rate: whatever Companion spends
above this is the app's own.

    .venv/bin/python bench/stackfloor.py                 # 300 phones at 100 moves/s
    .venv/bin/python bench/stackfloor.py --phones 300 --rate 200 --duration 10

Bounded: a few seconds of warm-up, `--duration` seconds measured, on 127.0.0.1 only.
Prints one JSON object (bench/run.py runs it too, and reports it beside the phases).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import machine_busy  # noqa: E402
from httpc import Client, HttpError, open_stream, sse_events  # noqa: E402
from server import Server  # noqa: E402

TABLE = 6
# Where the target of CPU per move is measured: 300 phones, 100 moves a second.
PHONES, RATE = 300, 100.0
MOVE_BODY = json.dumps({"type": "play", "value": 5, "count": 2, "version": 12,
                        "action_id": "m" * 16}).encode()


async def measure(phones: int, rate: float, duration: float, warm_up: float = 3.0) -> dict:
    """Start the bare server, hold `phones` streams in groups of six, post moves at
    `rate` for `warm_up` and then `duration` seconds: the server's CPU per move in the
    second part, and whether every stream heard every move."""
    workdir = Path(tempfile.mkdtemp(prefix="companion-floor-"))
    server = Server(workdir, app="bench.floorapp:app", ready_path="/").start()
    host, port = "127.0.0.1", server.port
    groups = [f"g{n}" for n in range(max(1, phones // TABLE))]
    heard = {group: 0 for group in groups}
    clients = {group: Client(host, port) for group in groups}
    writers, readers = [], []

    async def listen(group: str, reader) -> None:
        try:
            async for _ in sse_events(reader):
                heard[group] += 1
        except (OSError, asyncio.IncompleteReadError, HttpError):
            pass

    try:
        for group in groups:
            for _ in range(TABLE):
                reader, writer, _ = await open_stream(host, port, f"/stream/{group}", {})
                writers.append(writer)
                readers.append(asyncio.create_task(listen(group, reader)))
        await asyncio.sleep(0.5)
        moved = {group: 0 for group in groups}
        in_flight: set[str] = set()
        failed = 0

        async def move(group: str) -> None:
            nonlocal failed
            try:
                answer = await clients[group].request(
                    "POST", f"/move/{group}", {"Content-Type": "application/json"}, MOVE_BODY)
                if answer.status == 200:
                    moved[group] += 1
                else:
                    failed += 1
            except HttpError:
                failed += 1
            finally:
                in_flight.discard(group)

        async def post_for(seconds: float) -> None:
            """A move every 1/rate s, to the groups in turn (one in flight per group)."""
            slot, start, tasks = 0, time.perf_counter(), []
            while (elapsed := time.perf_counter() - start) < seconds:
                group = groups[slot % len(groups)]
                slot += 1
                if group not in in_flight:
                    in_flight.add(group)
                    tasks.append(asyncio.create_task(move(group)))
                await asyncio.sleep(max(0.0, slot / rate - elapsed))
            await asyncio.gather(*tasks)

        await post_for(warm_up)
        await asyncio.sleep(0.5)
        moved_before = dict(moved)
        heard_before = dict(heard)
        cpu0, client0, all0 = server.cpu_seconds(), time.process_time(), machine_busy()
        started = time.perf_counter()
        await post_for(duration)
        elapsed = time.perf_counter() - started
        cpu1, client1, all1 = server.cpu_seconds(), time.process_time(), machine_busy()
        made = sum(moved[g] - moved_before[g] for g in groups)
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and any(
                heard[g] - heard_before[g] < TABLE * (moved[g] - moved_before[g]) for g in groups):
            await asyncio.sleep(0.1)
        missed = sum(max(0, TABLE * (moved[g] - moved_before[g]) - (heard[g] - heard_before[g]))
                     for g in groups)
        server_cpu, client_cpu = cpu1 - cpu0, client1 - client0
        return {"phones": len(groups) * TABLE, "rate": rate, "seconds": elapsed,
                "moves": made, "achieved": made / elapsed, "failed": failed,
                "missed_events": missed,
                "server_cpu_ms_per_move": 1000 * server_cpu / max(1, made),
                "load_gen_cpu_ms_per_move": 1000 * client_cpu / max(1, made),
                "other_cpu_percent": 100 * max(0.0, (all1 - all0) - server_cpu - client_cpu)
                / elapsed / (os.cpu_count() or 2)}
    finally:
        for task in readers:
            task.cancel()
        for writer in writers:
            writer.close()
        for client in clients.values():
            client.close()
        # Let the loop close them (server.stop() blocks it): else the server waits out
        # their keep-alive before it stops.
        await asyncio.sleep(0.2)
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=PHONES)
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--duration", type=float, default=15)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.phones, args.rate, args.duration))))


if __name__ == "__main__":
    main()
