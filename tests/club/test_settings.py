"""The club's settings, read from the environment."""
from __future__ import annotations

import os
import subprocess
import sys

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


def test_processes_starting_together_on_a_fresh_folder_agree_on_one_secret_key(tmp_path):
    """Servers started at once on a new checkout: each reads the one key kept."""
    script = ("import sys; from companion import config; "
              "print(config.secret_key(sys.argv[1]))")
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    for attempt in range(2):
        folder = tmp_path / f"instance-{attempt}"
        starts = [subprocess.Popen([sys.executable, "-c", script, str(folder)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                  for _ in range(4)]
        outputs = [process.communicate(timeout=60) for process in starts]
        assert all(process.returncode == 0 for process in starts), outputs
        keys = {out.strip() for out, _ in outputs}
        assert len(keys) == 1 and len(keys.pop()) == 64
        assert [p.name for p in folder.iterdir()] == ["secret_key"]
