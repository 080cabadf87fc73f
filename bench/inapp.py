"""The app in this process, for the in-process measurements (`costgrowth.py`,
`inprocess.py`): on a SQLite file of its own in a temporary folder, with the settings the
bench gives its server, and Go Big tables seated and started through its API."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def start_app(name: str):
    """The app, its database migrated, and a test client of it."""
    workdir = Path(tempfile.mkdtemp(prefix=f"companion-{name}-"))
    os.environ.update(DATABASE_URL=f"sqlite:///{workdir / f'{name}.sqlite3'}",
                      SECRET_KEY="bench-secret", COMPANION_RATELIMIT="off",
                      COMPANION_TEST_SEEDS="on")
    from flask_migrate import upgrade

    from companion import create_app

    app = create_app()
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    return app, app.test_client()


def new_go_big_table(client, players: int, copies: int | None = None,
                     seed: int = 11) -> tuple[str, dict[int, str], dict]:
    """A Go Big table of `players`, started: its code, each player's token by id, and the
    view its start answered with."""
    options = {} if copies is None else {"copies_per_value": copies}
    created = client.post("/api/v1/tables", json={"game": "go-big", "options": options}
                          ).get_json()
    code = created["code"]
    tokens = {}
    for n in range(players):
        joined = client.post(f"/api/v1/tables/{code}/players", json={"name": f"P{n}"}
                             ).get_json()
        tokens[joined["player"]["id"]] = joined["token"]
    started = client.post(f"/api/v1/tables/{code}/start", json={"seed": seed},
                          headers={"Authorization": f"Bearer {created['host_token']}"})
    assert started.status_code == 200, started.get_json()
    return code, tokens, started.get_json()
