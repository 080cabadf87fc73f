"""The trust suite's fixtures and the counts it prints at the end of the run (pytest -q
shows them too): games played, responses checked, kills survived, inputs tried."""
from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from tests.trust.support import COUNTS, LABELS, Stream


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not COUNTS:
        return
    terminalreporter.write_sep("-", "trust suite")
    for key, label in LABELS:
        if key in COUNTS:
            terminalreporter.write_line(f"{label}: {COUNTS[key]}")


@pytest.fixture
def streams():
    """Event streams a test opens; closed when it ends."""
    opened: list[Stream] = []
    yield opened
    for stream in opened:
        stream.close()


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory):
    """A database for a whole module (the fuzzing's tables live across its tests): an
    empty PostgreSQL database when COMPANION_TEST_DATABASE_URL names a server, else a new
    SQLite file."""
    server = os.environ.get("COMPANION_TEST_DATABASE_URL")
    if not server:
        yield f"sqlite:///{tmp_path_factory.mktemp('module') / 'companion.sqlite3'}"
        return
    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield server.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()
