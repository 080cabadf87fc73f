"""Settings from the environment."""
from __future__ import annotations

import os
import secrets
from pathlib import Path


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the
    instance folder so sessions and CSRF tokens survive a restart."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        # Hosted PostgreSQL often hands out postgres:// URLs; we speak psycopg 3.
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url
    return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")


def from_environment(instance_path: str) -> dict:
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "PUBLIC_URL": os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/"),
        "RATELIMIT_ENABLED": os.environ.get("COMPANION_RATELIMIT", "on") != "off",
        # Lets a client fix the shuffle with a seed: for tests and benchmarks, never a club.
        "TEST_SEEDS": os.environ.get("COMPANION_TEST_SEEDS", "off") == "on",
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
    }
