"""The app on a real database: a fresh SQLite file, or PostgreSQL when
COMPANION_TEST_DATABASE_URL names a server; and the app on a real HTTP server in this
process."""
from __future__ import annotations

import os
import socket
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import create_engine, text
from werkzeug.serving import WSGIRequestHandler, make_server

from companion import create_app
from companion.extensions import db

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def own_database(folder: Path, copy_of: str | None = None):
    """A database of one's own: an empty PostgreSQL database when
    COMPANION_TEST_DATABASE_URL names a server (or a copy of the database named `copy_of`,
    which no one may be connected to), else a new SQLite file in `folder`."""
    server = os.environ.get("COMPANION_TEST_DATABASE_URL")
    if not server:
        yield f"sqlite:///{folder / 'companion.sqlite3'}"
        return
    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    template = f' TEMPLATE "{copy_of}"' if copy_of else ""
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{template}'))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def make_app(database_url: str, tmp_path: Path, **overrides):
    """The app as a club's server runs it, its rate limits on (counted in this process's
    memory, afresh for each app made), with the tests' `overrides`."""
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
              "SECRET_KEY": "test-secret", "RATELIMIT_ENABLED": True,
              "RATELIMIT_STORAGE_URI": "memory://",
              "PUBLIC_URL": "http://table.test:8000", "TEST_SEEDS": True}
    config.update(overrides)
    app = create_app(config)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    return app


def close_app(app) -> None:
    """Give back every database connection the app's pool holds."""
    with app.app_context():
        db.engine.dispose()


@contextmanager
def app_on(database_url: str, tmp_path: Path, **overrides):
    """make_app's app for the time of a `with`, its connections given back after."""
    app = make_app(database_url, tmp_path, **overrides)
    try:
        yield app
    finally:
        close_app(app)


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
