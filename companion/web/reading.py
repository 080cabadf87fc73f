"""What a request is read in: its language, Babel's locale and Flask-Babel's catalog for
it, looked up once per request rather than at every message, figure and template a
rendering reads (Flask-Babel finds the locale and the catalog again, through several
look-ups of the request's context, at every call: some 60 calls a move, bench/README.md,
"Languages"). Outside a request (a command, the terminal) it is English."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from gettext import NullTranslations

from babel import Locale
from flask import g
from flask.globals import _cv_request
from flask_babel import get_locale, get_translations


# The English of the messages lists as British English does ("A, B and C").
ENGLISH_LISTS = "en_GB"


@dataclass(frozen=True, eq=False)
class Reading:
    locale: Locale
    translations: NullTranslations
    language: str  # "de": a cache key for what is rendered in it
    lists: str  # the locale whose way of listing words ("A, B and C") it takes


def _reading(locale: Locale, translations: NullTranslations) -> Reading:
    return Reading(locale, translations, str(locale),
                   ENGLISH_LISTS if locale.language == "en" else str(locale))


ENGLISH = _reading(Locale("en"), NullTranslations())
# The request this context last read for, Flask-Babel's record of the locale it chose for
# it (its `force_locale` and `refresh` change that), that locale, and the reading: kept in
# a context variable of its own, since reading one through `flask.g` costs as much again.
LAST: ContextVar[tuple] = ContextVar("reading", default=(None, None, None, ENGLISH))


def reading() -> Reading:
    """This request's reading: worked out at its first use in the request, and again
    should the request's locale change (`force_locale`, `refresh`)."""
    # Flask's own context variable, read directly: `has_request_context()` and the
    # `request` proxy each look it up again, and this runs some 60 times a move.
    context = _cv_request.get(None)
    if context is None:
        return ENGLISH
    read_for, chosen_in, locale, found = LAST.get()
    if read_for is context and getattr(chosen_in, "babel_locale", None) is locale:
        return found
    locale = get_locale()
    # One reading per language for the app: its catalog found once, not at every request.
    readings = context.app.extensions.setdefault("companion_readings", {})
    found = readings.get(locale)
    if found is None:
        found = readings[locale] = _reading(locale, get_translations())
    LAST.set((context, g.get("_flask_babel"), locale, found))
    return found
