"""Extensions, created here and bound to the app in create_app."""
from flask import g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

# Failed look-ups (an unknown room code, a token that is not valid) an address may make:
# guessing codes or tokens costs an hour per few hundred guesses.
LOOKUP_MISSES = "30 per minute; 300 per hour"


class Base(DeclarativeBase):
    pass


def missed_lookup(response) -> bool:
    """A request that found no table or no seat: it counts against LOOKUP_MISSES."""
    return ((response.status_code in (401, 404) or g.get("lookup_missed", False))
            and request.endpoint != "static")


def count_missed_lookup() -> None:
    """Count this request against LOOKUP_MISSES though it answers with another status
    (a wrong rejoin code is a bad entry on a page that exists, 422, yet still a guess)."""
    g.lookup_missed = True


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
# Keyed on the address that reached this server: a phone's own address only when
# COMPANION_PROXIES says which forwarded headers to trust (ProxyFix, in create_app). When a
# shared storage (RATELIMIT_STORAGE_URI) cannot be reached, each process counts in memory
# until it can again.
limiter = Limiter(key_func=get_remote_address, in_memory_fallback_enabled=True,
                  default_limits=[], headers_enabled=True,
                  application_limits=[LOOKUP_MISSES],
                  application_limits_deduct_when=missed_lookup)
