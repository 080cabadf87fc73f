"""What a request is read in: its language, Babel's locale and Flask-Babel's catalog for
it, one `Reading` per language for the app, so that what is rendered in a language can be
kept by its code. Outside a request (a command, the terminal) it is English."""
from __future__ import annotations

from dataclasses import dataclass
from gettext import NullTranslations

from babel import Locale
from flask import current_app, has_request_context
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


def request_language() -> Reading:
    """The language this request is read in: the locale Flask-Babel chose for it (which
    its `force_locale` and `refresh` change) and its catalog."""
    if not has_request_context():
        return ENGLISH
    locale = get_locale()
    if locale is None:
        return ENGLISH
    readings = current_app.extensions.setdefault("companion_readings", {})
    found = readings.get(str(locale))
    if found is None:
        found = readings[str(locale)] = _reading(locale, get_translations())
    return found
