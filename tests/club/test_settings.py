"""The club's settings, read from the environment."""
from __future__ import annotations

import pytest

from companion import create_app
from companion.extensions import db

SERVER = "postgresql+psycopg://companion:secret@127.0.0.1:5/companion"


def test_a_server_database_gets_a_bounded_pool(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", SERVER)
    monkeypatch.setenv("COMPANION_DB_POOL", "3")
    app = create_app({"SECRET_KEY": "test-secret"})
    with app.app_context():
        assert db.engine.pool.size() == 3
        assert db.engine.pool._max_overflow == 0
        assert db.engine.pool._timeout == 10


def test_settings_that_are_not_numbers_are_refused_by_name(monkeypatch):
    for name in ("COMPANION_DB_POOL", "COMPANION_PROXIES"):
        monkeypatch.setenv(name, "many")
        with pytest.raises(SystemExit, match=f"{name} must be a whole number"):
            create_app({"SECRET_KEY": "test-secret"})
        monkeypatch.delenv(name)


def test_the_limits_storage_and_proxies_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("COMPANION_RATELIMIT_STORAGE", "memory://")
    monkeypatch.setenv("COMPANION_PROXIES", "2")
    app = create_app({"SECRET_KEY": "test-secret"})
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert app.wsgi_app.x_for == app.wsgi_app.x_proto == app.wsgi_app.x_host == 2
