"""The trust suite's fixtures and the counts it prints at the end of the run (pytest -q
shows them too): games played, responses checked, kills survived, inputs tried."""
from __future__ import annotations

import pytest

from tests.conftest import own_database
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
    """A database for a whole module (the fuzzing's tables live across its tests)."""
    with own_database(tmp_path_factory.mktemp("module")) as url:
        yield url
