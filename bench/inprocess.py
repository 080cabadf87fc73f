"""One move and its six phones' updates, in-process: the app called as gunicorn calls it
(a WSGI call), with no socket, no gunicorn and no gevent, one move right after another.

A table of six (Go Big): three phones hold the API's stream and three the screens' stream,
as in the bench. Each move is the POST of the player whose turn it is, then the next
event of each of the six streams. A stream's generator runs in a context of its own, as
under gevent each runs in a greenlet of its own. Set against the server's CPU per move in
the phases, this is the app's own share of it; the rest is the server around the app
(gunicorn, gevent, the sockets) and the pauses between moves (bench/README.md).

Every other move comes after a pause of 10 ms (the time between two moves at 100 a
second, less the move), the others right after the last: the same moves in the same run,
with and without the pause a phase's moves have between them.

Run by bench/run.py in a subprocess; prints one JSON object.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time

from inapp import new_go_big_table, start_app
from tablemoves import StreamedTable

WARM_UP = 50
PAUSE_SECONDS = 0.010


def main() -> None:
    moves_to_time = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    app, client = start_app("inprocess")
    rng = random.Random(1)
    table = StreamedTable(app, client, new_go_big_table)
    timed = {False: ([], [], []), True: ([], [], [])}  # paused: requests, updates, CPU
    for n in range(WARM_UP + moves_to_time):
        token, action = table.next_move(rng)
        paused = n % 2 == 1
        if paused:
            time.sleep(PAUSE_SECONDS)
        c0, t0 = time.process_time(), time.perf_counter()
        answer = table.post(token, {**action, "action_id": f"m{n}"})
        t1 = time.perf_counter()
        for phone in range(len(table.streams)):
            table.update(phone)
        t2, c2 = time.perf_counter(), time.process_time()
        if n >= WARM_UP:
            requests, updates, cpu = timed[paused]
            requests.append(t1 - t0)
            updates.append(t2 - t1)
            cpu.append(c2 - c0)
        table.took(answer)
        if table.finished:  # the game ended: the next one at a new table
            table.close()
            table = StreamedTable(app, client, new_go_big_table)
    table.close()

    def ms(values: list[float]) -> float:
        return 1000 * statistics.median(values)

    figures = {}
    for paused, (requests, updates, cpu) in timed.items():
        prefix = "paused_" if paused else ""
        figures.update({f"{prefix}moves": len(requests), f"{prefix}request_ms": ms(requests),
                        f"{prefix}updates_ms": ms(updates),
                        f"{prefix}move_ms": ms([a + b for a, b in zip(requests, updates)]),
                        f"{prefix}cpu_ms": ms(cpu)})
    print(json.dumps({**figures, "pause_ms": 1000 * PAUSE_SECONDS}))


if __name__ == "__main__":
    main()
