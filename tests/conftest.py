"""Fixtures shared by every test: a real database (a fresh SQLite file, or PostgreSQL when
COMPANION_TEST_DATABASE_URL names one), the app on it, and a real HTTP server. What they
are made of, and every other helper, is in tests/support/."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# The test-only game, registered as any game kept outside the app is (before the registry
# is first imported; the servers the tests start inherit it).
os.environ.setdefault("COMPANION_EXTRA_GAMES", "tests.games.guess_number:GuessNumber")

from tests.support.api import Api  # noqa: E402
from tests.support.app import LiveServer, close_app, make_app, own_database  # noqa: E402

pytest_plugins = ["tests.support.counts"]  # the trust suite's counts, summed over the workers


@pytest.fixture(scope="session")
def migrated_postgres(tmp_path_factory) -> str | None:
    """On PostgreSQL, a database the migrations brought up to date, once per run (and
    worker), for each test's database to start as a copy of: a copy is made in a fraction
    of the time the migrations take. None on SQLite."""
    if not os.environ.get("COMPANION_TEST_DATABASE_URL"):
        yield None
        return
    folder = tmp_path_factory.mktemp("migrated-postgres")
    with own_database(folder) as url:
        close_app(make_app(url, folder))  # no connection left: a database being copied has none
        yield url.rsplit("/", 1)[1]


@pytest.fixture
def database_url(tmp_path, migrated_postgres):
    """This test's own database: on PostgreSQL already migrated; on SQLite a file not made
    yet (the `app` fixture starts it as a copy of a migrated one)."""
    with own_database(tmp_path, copy_of=migrated_postgres) as url:
        yield url


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file the migrations brought up to date, once per run."""
    folder = tmp_path_factory.mktemp("migrated")
    app = make_app(f"sqlite:///{folder / 'companion.sqlite3'}", folder)
    close_app(app)  # its log checkpointed into the file, which is then whole
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
    close_app(app)


@pytest.fixture
def app_with(database_url, tmp_path):
    """Makes the app on this test's own database with settings of the test's own
    (`app_with(TEST_SEEDS=False)`); each one made is closed when the test ends."""
    made = []

    def make(**overrides):
        made.append(make_app(database_url, tmp_path, **overrides))
        return made[-1]

    yield make
    for app in made:
        close_app(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def live_server(app):
    app.config["PUBLIC_URL"] = ""
    server = LiveServer(app).start()
    yield server
    server.stop()


@pytest.fixture
def unlimited_server(app_with):
    """The app on a real HTTP server with its rate limits lifted, for a test that sends one
    address's requests faster than any person could (each such test says why)."""
    server = LiveServer(app_with(RATELIMIT_ENABLED=False, PUBLIC_URL="")).start()
    yield server
    server.stop()


@pytest.fixture
def api(client):
    return Api(client=client)
