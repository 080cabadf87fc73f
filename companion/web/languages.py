"""Which language a screen is read in: the phone's own choice (a cookie), else what its
browser asks for (Accept-Language), else English. Flask-Babel renders every string a
person reads in it; the catalogs are `translations/<language>/LC_MESSAGES/messages.po`."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, request

from ..extensions import babel

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = "en"
# The languages a phone may choose: a language is listed here once its catalog is complete.
SHIPPED = (DEFAULT,)
COOKIE = "companion_language"


def chosen() -> str:
    """This request's language, from the shipped ones; anything unknown or malformed is
    English."""
    picked = request.cookies.get(COOKIE, "")
    if picked in SHIPPED:
        return picked
    return request.accept_languages.best_match(SHIPPED) or DEFAULT


def register(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(ROOT / "translations"))
    babel.init_app(app, locale_selector=chosen)
