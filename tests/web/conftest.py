"""The web tests' fixtures."""
from __future__ import annotations

import pytest

from tests.support.app import app_on, own_database


@pytest.fixture
def host(app):
    """The host's device, through the test client."""
    return app.test_client()


@pytest.fixture
def other_app(tmp_path):
    """A second server's app, on a database of its own."""
    folder = tmp_path / "other"
    folder.mkdir()
    with own_database(folder) as url, app_on(url, folder) as other:
        yield other
