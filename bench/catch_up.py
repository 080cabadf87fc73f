"""What a process pays to catch up with one entry of the largest score sheet (20 players,
100 rounds, 20 categories, every round but the last entered): another server on the same
PostgreSQL, told of the entry, loads the table from the version it knew
(`store.load(table, known)`); and what loading it afresh costs (after a restart, or once
the process's cache forgot it). In-process, on SQLite; the median of ten entries, in ms
of CPU.

Run: .venv/bin/python bench/catch_up.py; prints one JSON object.
"""
from __future__ import annotations

import json
import statistics
import sys
import time

from inapp import start_app
from panels import SHEET, new_sheet

ENTRIES = 10


def main() -> None:
    app, client = start_app("catch-up")
    code, host, _, entries = new_sheet(client, SHEET)
    auth = {"Authorization": f"Bearer {host}"}
    view = client.get(f"/api/v1/tables/{code}", headers=auth).get_json()
    players = [player["id"] for player in view["players"]]
    categories = view["state"]["categories"]
    from companion import store

    caught_up, afresh = [], []
    with app.app_context():
        table_id, version = store.find_version(code)  # type: ignore[misc]
        for player in players[:ENTRIES]:
            known = store.at_least(table_id, version)
            answer = client.post(f"/api/v1/tables/{code}/actions", headers=auth, json={
                "type": "enter", "round": SHEET["rounds"], "player": player,
                "scores": {name: 3 for name in categories}})
            assert answer.status_code == 200, answer.get_json()
            version = answer.get_json()["version"]
            started = time.process_time()
            assert store.load(table_id, known).version == version
            caught_up.append(time.process_time() - started)
            started = time.process_time()
            assert store.load(table_id).version == version
            afresh.append(time.process_time() - started)
    print(json.dumps({"sheet_shape": SHEET, "entries": entries + ENTRIES,
                      "catch_up_ms": 1000 * statistics.median(caught_up),
                      "afresh_ms": 1000 * statistics.median(afresh)}))


if __name__ == "__main__":
    sys.exit(main())
