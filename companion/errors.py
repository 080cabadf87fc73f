"""The one kind of error every screen and the API report: a code of the API contract,
an HTTP status and a sentence a player understands, in the language of the request that
reads it (a lazy message is rendered when the answer is)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext

STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "stale": 409,
    "conflict": 409,
    "too_many_requests": 429,
    "illegal": 422,
    "internal": 500,
    "unavailable": 503,
}


@dataclass(frozen=True)
class RuleRef:
    """The section of a game's rules page that a refusal cites."""

    game: str
    section: str


class CompanionError(Exception):
    """`retry_after`: seconds after which the same request may succeed (the answer's
    Retry-After header). `rule`: the rule that forbids the move, for a refusal of the
    rules (the web layer gives it its title and address)."""

    def __init__(self, code: str, message: str, retry_after: int | None = None,
                 rule: RuleRef | None = None, **extra: Any):
        super().__init__(message)
        self.code = code
        self._message = message
        self.retry_after = retry_after
        self.rule = rule
        self.extra = extra

    @property
    def message(self) -> str:
        """The message, a lazy one read in the reader's language now as plain text: a page
        escapes it like any text (a lazy string would pass as markup, names and all); a
        message already rendered as markup (names escaped) stays so."""
        message = self._message
        return message if isinstance(message, str) else str(message)

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}, **self.extra}


def bad_request(message: str) -> CompanionError:
    return CompanionError("bad_request", message)


NO_SUCH_TABLE = lazy_gettext("There is no table with that code.")
UNAVAILABLE = lazy_gettext("The server is busy or its database is out of reach; nothing was "
                           "changed. Try again in a moment.")


def not_found(message: str = NO_SUCH_TABLE) -> CompanionError:
    return CompanionError("not_found", message)


def forbidden(message: str) -> CompanionError:
    return CompanionError("forbidden", message)


def conflict(message: str) -> CompanionError:
    return CompanionError("conflict", message)


def illegal(message: str) -> CompanionError:
    return CompanionError("illegal", message)


def unavailable() -> CompanionError:
    """The database refused or did not answer in time: the caller may simply retry."""
    return CompanionError("unavailable", UNAVAILABLE)
