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

import contextvars
import json
import random
import statistics
import sys
import time

from inapp import new_go_big_table, start_app

WARM_UP = 50
import cProfile
PROF = cProfile.Profile()
PAUSE_SECONDS = 0.010


def main() -> None:
    moves_to_time = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    app, client = start_app("inprocess")
    from werkzeug.test import EnvironBuilder

    rng = random.Random(1)

    def call(context: contextvars.Context, **request):
        """The app's WSGI call for `request`, in `context`: its status and its body."""
        answer = {}

        def start_response(status, headers, exc_info=None):
            answer["status"] = status
        body = context.run(app, EnvironBuilder(**request).get_environ(), start_response)
        return answer["status"], body

    def new_table() -> dict:
        code, tokens, started = new_go_big_table(client, 6)
        streams = []
        for n, token in enumerate(tokens.values()):
            context = contextvars.Context()
            if n % 2 == 0:
                status, body = call(context, path=f"/api/v1/tables/{code}/stream",
                                    headers={"Authorization": f"Bearer {token}"})
            else:
                status, body = call(context, path=f"/t/{code}/events",
                                    query_string="screen=phone",
                                    headers={"Cookie": f"companion_{code}={token}"})
            assert status.startswith("200"), status
            events = iter(body)
            context.run(next, events)  # retry:
            context.run(next, events)  # the table as it is
            streams.append((context, events, body))
        return {"code": code, "tokens": tokens, "turn": started["turn"], "streams": streams}

    def close(table: dict) -> None:
        for context, _, body in table["streams"]:
            context.run(body.close)

    table = new_table()
    timed = {False: ([], [], []), True: ([], [], [])}  # paused: requests, updates, CPU
    for n in range(WARM_UP + moves_to_time):
        token = table["tokens"][table["turn"]]
        view = client.get(f"/api/v1/tables/{table['code']}",
                          headers={"Authorization": f"Bearer {token}"}).get_json()
        offered = view["actions"][0]
        action = ({"type": "play", **rng.choice(offered["sets"])} if offered["type"] == "play"
                  else {"type": "draw", "source": rng.choice(offered["source"])})
        paused = n % 2 == 1
        if paused:
            time.sleep(PAUSE_SECONDS)
        PROF.enable()
        c0, t0 = time.process_time(), time.perf_counter()
        status, body = call(contextvars.Context(), method="POST",
                            path=f"/api/v1/tables/{table['code']}/actions",
                            json={**action, "version": view["version"], "action_id": f"m{n}"},
                            headers={"Authorization": f"Bearer {token}"})
        answer = b"".join(body)
        body.close()
        t1 = time.perf_counter()
        for context, events, _ in table["streams"]:
            context.run(next, events)
        t2, c2 = time.perf_counter(), time.process_time()
        PROF.disable()
        assert status.startswith("200"), answer
        if n >= WARM_UP:
            requests, updates, cpu = timed[paused]
            requests.append(t1 - t0)
            updates.append(t2 - t1)
            cpu.append(c2 - c0)
        table["turn"] = json.loads(answer)["table"]["turn"]
        if table["turn"] is None:  # the game ended: the next one at a new table
            close(table)
            table = new_table()
    close(table)

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
    PROF.dump_stats(sys.argv[2])


if __name__ == "__main__":
    main()
