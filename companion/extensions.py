"""Extensions, created here and bound to the app in create_app."""
from typing import TYPE_CHECKING, Any, ClassVar

from flask import g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Table
from sqlalchemy.orm import DeclarativeBase

# How long a request waits on a shared limits storage, to connect or for an answer, before
# the limits count in the process's memory: a storage that stops answering without closing
# its connections (a frozen host, a network that drops packets) would hold every request.
STORAGE_TIMEOUT_SECONDS = 1.0

# Failed look-ups (an unknown room code, a token that is not valid) an address may make:
# guessing codes or tokens costs an hour per few hundred guesses.
LOOKUP_MISSES = "30 per minute; 300 per hour"


class Base(DeclarativeBase):
    if TYPE_CHECKING:
        # Each model maps one table, which the store reads and writes through.
        __table__: ClassVar[Table]


def missed_lookup(response) -> bool:
    """A request that found no table or no seat: it counts against LOOKUP_MISSES."""
    return ((response.status_code in (401, 404) or g.get("lookup_missed", False))
            and request.endpoint != "static")


def count_missed_lookup() -> None:
    """Count this request against LOOKUP_MISSES though it answers with another status
    (a wrong rejoin code is a bad entry on a page that exists, 422, yet still a guess)."""
    g.lookup_missed = True


def storage_options(uri: str) -> dict[str, Any]:
    """The options of the limits storage at `uri`: its timeouts, in the words its client
    library takes (redis-py for redis://, valkey://, their +sentinel, +cluster and +unix
    forms, pymemcache for memcached://)."""
    scheme = uri.split("://", 1)[0]
    options: dict[str, Any] = {"wrap_exceptions": True}  # its failures are limits' StorageError
    if scheme.startswith(("redis", "valkey")):
        timeouts = {"socket_timeout": STORAGE_TIMEOUT_SECONDS,
                    "socket_connect_timeout": STORAGE_TIMEOUT_SECONDS}
        options.update(timeouts)
        if scheme.endswith("+sentinel"):  # the sentinels' own connections too
            options["sentinel_kwargs"] = timeouts
    elif scheme.startswith("memcached"):
        options.update(connect_timeout=STORAGE_TIMEOUT_SECONDS, timeout=STORAGE_TIMEOUT_SECONDS)
    return options


def shared_storage(config) -> bool:
    """Whether the rate limits count in a storage the processes share (which may fail)."""
    return (config["RATELIMIT_ENABLED"]
            and not config["RATELIMIT_STORAGE_URI"].startswith("memory://"))


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
# Keyed on the address that reached this server: a phone's own address only when
# COMPANION_PROXIES says which forwarded headers to trust (ProxyFix, in create_app). When a
# shared storage (RATELIMIT_STORAGE_URI) cannot be reached, or does not answer within
# STORAGE_TIMEOUT_SECONDS, each process counts in memory until it answers again; a storage
# failing in the middle of a request costs the request nothing (swallow_errors).
# Its own headers are off: it would put its window's end in Retry-After on every answer,
# over the app's own wait (errors.py); a 429 of the limits says it (errors.rate_limited).
limiter = Limiter(key_func=get_remote_address, in_memory_fallback_enabled=True,
                  swallow_errors=True, default_limits=[], headers_enabled=False,
                  application_limits=[LOOKUP_MISSES],
                  application_limits_deduct_when=missed_lookup)
