"""The trust suite's fixtures (its counts: tests/support/counts.py)."""
from __future__ import annotations

import pytest

from tests.support.app import close_app, make_app, own_database
from tests.support.fuzzing import World
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


@pytest.fixture(scope="module")
def world(module_database_url, tmp_path_factory):
    # The limits are off: thousands of hostile requests from one address, most of them
    # for codes and tokens that do not exist, would soon all be answered 429, and the
    # routes would never see the values this fuzz sends them.
    app = make_app(module_database_url, tmp_path_factory.mktemp("fuzz"),
                   WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)
    yield World(app)
    close_app(app)
