"""The trust suite's fixtures (its counts: tests/support/counts.py)."""
from __future__ import annotations

import pytest

from tests.support.app import own_database
from tests.support.streams import Stream


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
