"""Fixtures shared by every test: a real database (a fresh SQLite file, or PostgreSQL when
COMPANION_TEST_DATABASE_URL names one), the app on it, and a real HTTP server."""
from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from flask_migrate import upgrade
from sqlalchemy import create_engine, text
from werkzeug.serving import WSGIRequestHandler, make_server

# The test-only game, registered as any game kept outside the app is (before the registry
# is first imported; the servers the tests start inherit it).
os.environ.setdefault("COMPANION_EXTRA_GAMES", "tests.games.guess_number:GuessNumber")

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

pytest_plugins = ["tests.trust.counts"]  # the trust suite's counts, summed over the workers


def csrf_of(html: str) -> str:
    """The CSRF token a page hands its forms and htmx requests."""
    return re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)


def page(client, url: str, status: int = 200) -> str:
    """The text of a page fetched with the test client, checking its status."""
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def own_database(folder: Path):
    """A database of one's own: an empty PostgreSQL database when
    COMPANION_TEST_DATABASE_URL names a server, else a new SQLite file in `folder`."""
    server = os.environ.get("COMPANION_TEST_DATABASE_URL")
    if not server:
        yield f"sqlite:///{folder / 'companion.sqlite3'}"
        return
    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def database_url(tmp_path):
    """This test's own database."""
    with own_database(tmp_path) as url:
        yield url


def make_app(database_url: str, tmp_path: Path, **overrides):
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
              "SECRET_KEY": "test-secret", "RATELIMIT_ENABLED": False,
              "PUBLIC_URL": "http://table.test:8000", "TEST_SEEDS": True}
    config.update(overrides)
    app = create_app(config)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    return app


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file the migrations brought up to date, once per run."""
    folder = tmp_path_factory.mktemp("migrated")
    app = make_app(f"sqlite:///{folder / 'companion.sqlite3'}", folder)
    with app.app_context():
        db.engine.dispose()  # its log checkpointed into the file, which is then whole
    return folder / "companion.sqlite3"


@pytest.fixture
def app(database_url, tmp_path, request):
    """The app on this test's own database. A new SQLite file starts as a copy of one the
    migrations made (make_app then finds it up to date), rather than running them again
    for every test; PostgreSQL's empty database is migrated as before."""
    if database_url.startswith("sqlite:///"):
        path = Path(database_url.removeprefix("sqlite:///"))
        if not path.exists():
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
    app = make_app(database_url, tmp_path)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs) -> None:
        pass


class LiveServer:
    """The app on a real HTTP server on loopback. `url` is the origin browsers open: the
    browser tests give it a LAN-like name their Chromium maps to loopback (a phone's plain
    HTTP, not a secure context); `local_url` is where test code calls it."""

    def __init__(self, app, name: str = "127.0.0.1"):
        self.app = app
        self.port = free_port()
        self.local_url = f"http://127.0.0.1:{self.port}"
        self.url = f"http://{name}:{self.port}"
        self.server = make_server("127.0.0.1", self.port, app, threaded=True,
                                  request_handler=QuietHandler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()


@pytest.fixture
def live_server(app):
    app.config["PUBLIC_URL"] = ""
    server = LiveServer(app).start()
    yield server
    server.stop()


class Api:
    """A small client of the JSON API over real HTTP or the test client."""

    def __init__(self, base: str = "", client=None):
        self.base = base
        self.client = client

    def call(self, method: str, path: str, token: str | None = None, json=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if self.client is not None:
            response = self.client.open("/api/v1" + path, method=method, json=json,
                                        headers=headers)
            return response.status_code, response.get_json()
        response = requests.request(method, self.base + "/api/v1" + path, json=json,
                                    headers=headers, timeout=30)
        return response.status_code, response.json()

    def table(self, game: str = "go-big", players=("Ann", "Ben", "Cat"), start=True,
              seed: int = 7, options=None):
        status, created = self.call("POST", "/tables", json={"game": game,
                                                             "options": options or {}})
        assert status == 201, created
        code, host = created["code"], created["host_token"]
        tokens, ids = {}, {}
        for name in players:
            status, joined = self.call("POST", f"/tables/{code}/players", json={"name": name})
            assert status == 201, joined
            tokens[name], ids[name] = joined["token"], joined["player"]["id"]
        if start:
            status, view = self.call("POST", f"/tables/{code}/start", host, {"seed": seed})
            assert status == 200, view
        return Seated(self, code, host, tokens, ids)


class Seated:
    def __init__(self, api: Api, code: str, host: str, tokens: dict, ids: dict):
        self.api, self.code, self.host, self.tokens, self.ids = api, code, host, tokens, ids
        self.names = {v: k for k, v in ids.items()}

    def token_of(self, player_id: int) -> str:
        return self.tokens[self.names[player_id]]

    def view(self, token=None):
        status, body = self.api.call("GET", f"/tables/{self.code}", token)
        assert status == 200, body
        return body

    def act(self, token, **action):
        return self.api.call("POST", f"/tables/{self.code}/actions", token, action)

    def act_for_turn(self, **action):
        turn = self.view()["turn"]
        return self.act(self.token_of(turn), **action)

    def first_go_big_move(self) -> tuple[str, dict]:
        """The token of the player whose turn it is, and the first move their phone offers."""
        token = self.token_of(self.view()["turn"])
        action = self.view(token)["actions"][0]
        if action["type"] == "play":
            return token, {"type": "play", **action["sets"][0]}
        return token, {"type": "draw", "source": action["source"][0]}

    def play_go_big(self, moves: int) -> None:
        """Make `moves` moves at a Go Big table, each the first one its phone offers."""
        for _ in range(moves):
            token, move = self.first_go_big_move()
            status, body = self.act(token, **move)
            assert status == 200, body

    def finish_go_big(self, limit: int = 500) -> None:
        """Play a Go Big table to its end, each move the first one its phone offers."""
        for _ in range(limit):
            if self.view()["status"] == "finished":
                return
            self.play_go_big(1)
        raise AssertionError("the game did not end")


@pytest.fixture
def api(client):
    return Api(client=client)
