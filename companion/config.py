"""Settings from the environment."""
from __future__ import annotations

import os
import secrets
from pathlib import Path


DB_POOL = 10
# A gevent worker's open connections, and a gthread worker's threads (gunicorn.conf.py).
CONNECTIONS = 4000
THREADS = 100
# The live streams one address may hold at once: a phone holds one, two with the host
# screen open, and a TV one more; a club room behind one router, about fifty players.
STREAMS_PER_ADDRESS = 100


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the
    instance folder so sessions and CSRF tokens survive a restart."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        # Written whole under another name, then linked into place: of two processes
        # starting at once, one key wins and both read it, never a half-written file.
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f"secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
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


def whole_number(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise SystemExit(f"{name} must be a whole number, not {value!r}.")
    return int(value)


def worker_budget() -> int:
    """A worker's connections (gevent: one greenlet each) or threads (gthread: one per
    request being served, a stream for as long as it is open)."""
    if os.environ.get("COMPANION_WORKER_CLASS", "gevent") == "gthread":
        return whole_number("COMPANION_THREADS", THREADS)
    return whole_number("COMPANION_CONNECTIONS", CONNECTIONS)


def from_environment(instance_path: str) -> dict:
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "PUBLIC_URL": os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/"),
        "RATELIMIT_ENABLED": os.environ.get("COMPANION_RATELIMIT", "on") != "off",
        # Where the limits are counted: memory (one process) or a storage all the workers
        # and servers share (redis://..., memcached://...).
        "RATELIMIT_STORAGE_URI": os.environ.get("COMPANION_RATELIMIT_STORAGE") or "memory://",
        # How many reverse proxies in front may be trusted to tell a phone's address.
        "PROXIES": whole_number("COMPANION_PROXIES", 0),
        # Where a process LISTENs for other servers' changes, when not DATABASE_URL (which
        # may go through a transaction pool, where LISTEN does not work).
        "LISTEN_URL": os.environ.get("COMPANION_LISTEN_URL") or None,
        # Database connections a process may hold at once (a server database).
        "DB_POOL": whole_number("COMPANION_DB_POOL", DB_POOL),
        # The live streams one address may hold (0: no cap); lifted, as the rate limits,
        # by COMPANION_RATELIMIT=off.
        "STREAMS_PER_ADDRESS": whole_number("COMPANION_STREAMS_PER_ADDRESS",
                                            STREAMS_PER_ADDRESS),
        # What one worker can hold open at once: its connections (gevent) or its threads
        # (gthread). Live streams may take all of it but a reserve (web/stream_limits.py).
        "WORKER_BUDGET": worker_budget(),
        # Lets a client fix the shuffle with a seed: for tests and benchmarks, never a club.
        "TEST_SEEDS": os.environ.get("COMPANION_TEST_SEEDS", "off") == "on",
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
    }
