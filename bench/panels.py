"""One panel update's render time and size, in-process: a Go Big phone's panel at a table of
six, beside the largest score sheet's (20 players, 100 rounds, 20 categories, every round
but the last entered) phone panel, and that sheet's whole phone page as it travels
(compressed as a phone asks for it) and uncompressed.

The panel is what a stream pushes to a phone at every move: the table's public part (once
per version and language, shared by every screen) and the phone's own part. Here each
panel is asked for again and again at one version: the first answer renders the public
part, the others only the phone's part (as every phone but the first at a move); both are
given.

Run by bench/run.py in a subprocess (the argument: how many times a panel is asked for
again); prints one JSON object.
"""
from __future__ import annotations

import gzip
import json
import statistics
import sys
import time

from inapp import new_go_big_table, start_app

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
SHEET = {"players": 20, "rounds": 100, "categories": 20}


def timed_panel(client, path: str, code: str, token: str) -> dict:
    """The first rendering of a panel, and the median of the next ones: ms and bytes."""
    client.set_cookie(f"companion_{code}", token)
    times, body = [], b""
    for _ in range(REPEATS + 1):
        t0 = time.perf_counter()
        response = client.get(path)
        times.append(time.perf_counter() - t0)
        assert response.status_code == 200, response.status_code
        body = response.data
    return {"first_ms": 1000 * times[0], "again_ms": 1000 * statistics.median(times[1:]),
            "bytes": len(body), "gzip_bytes": len(gzip.compress(body))}


def go_big_panel(client) -> dict:
    code, tokens, _ = new_go_big_table(client, 6)
    token = next(iter(tokens.values()))
    return timed_panel(client, f"/t/{code}/panel?screen=phone", code, token)


def new_sheet(client, shape: dict) -> tuple[str, str, str, int]:
    """A score sheet of `shape`, entered by the host as scorer up to its last round: its
    code, host token, the first player's token and how many entries were made."""
    categories = [f"Category {n + 1}" for n in range(shape["categories"])]
    created = client.post("/api/v1/tables", json={"game": "score-sheet", "options": {
        "name": "Largest", "rounds": shape["rounds"], "categories": categories,
        "entry": "scorer", "negative": True}}).get_json()
    code, host = created["code"], created["host_token"]
    tokens = {}
    for n in range(shape["players"]):
        joined = client.post(f"/api/v1/tables/{code}/players", json={"name": f"P{n}"}
                             ).get_json()
        tokens[joined["player"]["id"]] = joined["token"]
    auth = {"Authorization": f"Bearer {host}"}
    assert client.post(f"/api/v1/tables/{code}/start", json={"seed": 1},
                       headers=auth).status_code == 200
    entries = 0
    for round_number in range(1, shape["rounds"]):
        for n, player in enumerate(tokens):
            scores = {name: (round_number * 7 + n * 3 + c) % 41 - 8
                      for c, name in enumerate(categories)}
            answer = client.post(f"/api/v1/tables/{code}/actions", headers=auth, json={
                "type": "enter", "round": round_number, "player": player, "scores": scores})
            assert answer.status_code == 200, answer.get_json()
            entries += 1
    return code, host, next(iter(tokens.values())), entries


def main() -> None:
    _, client = start_app("panels")
    go_big_panel(client)  # each game's templates compiled before anything is timed
    small = new_sheet(client, {"players": 2, "rounds": 2, "categories": 1})
    timed_panel(client, f"/t/{small[0]}/panel?screen=phone", small[0], small[2])
    go_big = go_big_panel(client)
    code, _, token, entries = new_sheet(client, SHEET)
    sheet = timed_panel(client, f"/t/{code}/panel?screen=phone", code, token)
    page = client.get(f"/t/{code}", headers={"Accept-Encoding": "br, gzip"})
    raw = client.get(f"/t/{code}", headers={"Accept-Encoding": "identity"})
    print(json.dumps({"go_big_panel": go_big, "sheet_panel": sheet, "sheet_entries": entries,
                      "sheet_shape": SHEET, "sheet_page_bytes": len(page.data),
                      "sheet_page_encoding": page.headers.get("Content-Encoding", "identity"),
                      "sheet_page_raw_bytes": len(raw.data)}))


if __name__ == "__main__":
    sys.exit(main())
