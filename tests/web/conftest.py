"""The web tests' fixtures."""
from __future__ import annotations

import pytest


@pytest.fixture
def host(app):
    """The host's device, through the test client."""
    return app.test_client()
