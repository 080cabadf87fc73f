"""What a request is read in: its language, Babel's locale and Flask-Babel's catalog for
it, looked up once per request rather than at every message, figure and template a
rendering reads (Flask-Babel finds the locale and the catalog again, through several
look-ups of the request's context, at every call: some 60 calls a move, bench/README.md,
"Languages"). Outside a request (a command, the terminal) it is English."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from gettext import NullTranslations
from typing import Any

from babel import Locale
from flask import g, has_request_context, request
from flask_babel import get_locale, get_translations


@dataclass(frozen=True, eq=False)
class Reading:
    locale: Locale
    translations: NullTranslations
    read_for: Any = None  # the request
    # Where Flask-Babel keeps the locale it chose for the request (its `force_locale`
    # and `refresh` change it there): a reading holds while that is its locale.
    chosen_in: Any = None
    language: str = field(init=False)  # "de": a cache key for what is rendered in it

    def __post_init__(self) -> None:
        object.__setattr__(self, "language", str(self.locale))


ENGLISH = Reading(Locale("en"), NullTranslations())
# The last reading worked out in this context (a request's, a stream's): kept in a
# context variable of its own, since reading one through `flask.g` costs as much again.
LAST: ContextVar[Reading] = ContextVar("reading", default=ENGLISH)


def reading() -> Reading:
    """This request's reading: worked out at its first use in the request, and again
    should the request's locale change (`force_locale`, `refresh`)."""
    if not has_request_context():
        return ENGLISH
    found = LAST.get()
    if (found.read_for is not request._get_current_object()
            or getattr(found.chosen_in, "babel_locale", None) is not found.locale):
        locale = get_locale()
        found = Reading(locale, get_translations(), request._get_current_object(),
                        g.get("_flask_babel"))
        LAST.set(found)
    return found
