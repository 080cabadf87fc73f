"""Two checkouts of Companion side by side: the same moves, in-process, in turns.

    .venv/bin/python bench/paired.py OTHER_CHECKOUT [--pairs 5] [--rounds 20] [--moves 20]

On a shared machine the speed of the cores moves by a third from one minute to the next,
so two runs of `inprocess.py` a minute apart differ more than the code does. Here each
checkout runs in a process of its own (the app, a Go Big table of six, three phones on the
API's stream and three on the screens' stream, as in `inprocess.py`), both set up before
the first round; then, round after round, each in turn makes the same `--moves` moves
(the same table seeds, the same choices) and reports their CPU: the request, the three
API updates and the three screen updates. A pair's figures are the medians over its
rounds; and since one process may run faster or slower than the next all its life (where
its memory lies), `--pairs` pairs of processes run one after another, and the verdict is
the median of their ratios. The garbage collector is set as the server's workers set it
(gunicorn.conf.py).

The other checkout is run with this checkout's Python and this file, its own code and
migrations; it needs `bench/inapp.py` (any checkout since the bench came in).
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
WARM_UP = 60
PARTS = ("request", "API updates x3", "screen updates x3")


def worker(root: str) -> None:
    """One checkout's side: reads a number of moves per line, answers their CPU in ms."""
    from tablemoves import StreamedTable  # this checkout's (it imports nothing of the app)

    sys.path.insert(0, str(Path(root) / "bench"))
    import inapp  # the checkout's own (it puts its checkout first on the path)

    app, client = inapp.start_app("paired")
    rng = random.Random(1)
    table = StreamedTable(app, client, inapp.new_go_big_table)
    made = 0

    def move() -> list[float]:
        nonlocal table, made
        token, action = table.next_move(rng)
        made += 1
        start = time.process_time()
        answer = table.post(token, {**action, "action_id": f"m{made}"})
        spent = [time.process_time() - start, 0.0, 0.0]
        for phone in range(len(table.streams)):
            start = time.process_time()
            table.update(phone)
            spent[1 + phone % 2] += time.process_time() - start
        table.took(answer)
        if table.finished:  # the game ended: the next one at a new table
            table.close()
            table = StreamedTable(app, client, inapp.new_go_big_table)
        return spent

    for _ in range(WARM_UP):
        move()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)
    print("ready", flush=True)
    for line in sys.stdin:
        moves = [move() for _ in range(int(line))]
        print(json.dumps([1000 * sum(m[part] for m in moves) / len(moves)
                          for part in range(len(PARTS))]), flush=True)


def one_pair(other: Path, rounds: int, moves: int) -> dict[str, list[list[float]]]:
    """A process for each checkout, and their figures, round after round."""
    sides = {name: subprocess.Popen(
        [sys.executable, __file__, "--worker", str(root)], cwd=root, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for name, root in (("other", other), ("this", HERE))}
    for name, side in sides.items():
        if side.stdout.readline().strip() != "ready":
            sys.exit(f"the {name} checkout did not start (run it alone to see why)")
    figures: dict[str, list[list[float]]] = {name: [] for name in sides}
    for turn in range(rounds):
        for name in (("other", "this") if turn % 2 == 0 else ("this", "other")):
            sides[name].stdin.write(f"{moves}\n")
            sides[name].stdin.flush()
            figures[name].append(json.loads(sides[name].stdout.readline()))
    for side in sides.values():
        side.stdin.close()
        side.wait()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="the other checkout's folder (the baseline)")
    parser.add_argument("--pairs", type=int, default=5,
                        help="pairs of processes, one after another (a process may run "
                             "faster or slower than the next all its life)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20, help="moves per round and side")
    args = parser.parse_args()
    pairs = [one_pair(Path(args.other).resolve(), args.rounds, args.moves)
             for _ in range(args.pairs)]
    print(f"{args.pairs} pairs of processes, {args.rounds} rounds of {args.moves} moves each; "
          f"ms of CPU per move (medians of the rounds) and this/other (each pair's, then "
          f"the median of the pairs'):")
    for part, label in [*enumerate(PARTS), (None, "the move, all of it")]:
        ratios = []
        cells = []
        for figures in pairs:
            mine, theirs = (statistics.median(sum(f) if part is None else f[part]
                                              for f in figures[name])
                            for name in ("this", "other"))
            ratios.append(mine / theirs)
            cells.append(f"{theirs:.2f}/{mine:.2f}")
        print(f"{label:20s} {' '.join(cells)}  ratios "
              f"{' '.join(f'{r:.3f}' for r in ratios)}  median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
