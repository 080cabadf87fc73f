"""The largest score sheet's view through the JSON API (20 players, 100 rounds, 20
categories, every round but the last entered by the host as scorer), as an API client
fetches it after one more entry: whole, and with `rows_since` (the version it held before
that entry). Bytes as sent uncompressed and gzipped, and the time of each answer,
in-process.

Run: .venv/bin/python bench/sheet_view.py; prints one JSON object.
"""
from __future__ import annotations

import gzip
import json
import statistics
import sys
import time

from inapp import start_app
from panels import SHEET, new_sheet

REPEATS = 10


def fetched(client, path: str, host: str) -> dict:
    times, body = [], b""
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        answer = client.get(path, headers={"Authorization": f"Bearer {host}",
                                           "Accept-Encoding": "identity"})
        times.append(time.perf_counter() - t0)
        assert answer.status_code == 200, answer.status_code
        body = answer.data
    return {"bytes": len(body), "gzip_bytes": len(gzip.compress(body)),
            "ms": 1000 * statistics.median(times)}


def main() -> None:
    _, client = start_app("sheet-view")
    code, host, _, entries = new_sheet(client, SHEET)
    auth = {"Authorization": f"Bearer {host}"}
    view = client.get(f"/api/v1/tables/{code}", headers=auth).get_json()
    held = view["version"]
    categories = view["state"]["categories"]
    answer = client.post(f"/api/v1/tables/{code}/actions", headers=auth, json={
        "type": "enter", "round": SHEET["rounds"], "player": view["players"][0]["id"],
        "scores": {name: 3 for name in categories}})
    assert answer.status_code == 200, answer.get_json()
    print(json.dumps({
        "sheet_shape": SHEET, "entries": entries + 1,
        "whole": fetched(client, f"/api/v1/tables/{code}", host),
        "rows_since": fetched(client, f"/api/v1/tables/{code}?rows_since={held}", host)}))


if __name__ == "__main__":
    sys.exit(main())
