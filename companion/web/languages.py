"""Which language a screen is read in: the phone's own choice (a cookie, set by the picker
on every screen), else what its browser asks for (Accept-Language), else English.
Flask-Babel renders every string a person reads in it; the catalogs are
`translations/<language>/LC_MESSAGES/messages.po` (docs/translating.md).

Each browser keeps its own choice: the host screen and the table display are browsers
like the phones, so nothing ties one screen's language to another's."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime
from flask import Blueprint, Flask, current_app, has_request_context, redirect, request
from flask_babel import Babel, get_timezone
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..auth import COOKIE_MAX_AGE
from ..i18n.reading import request_language
from .templating import numberformat_filter, translating

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = "en"
# Every language the app may speak, each named in itself (the picker shows these names,
# never translated: a reader finds their own language whatever the page is in).
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "pl": "Polski"}
# The languages a phone may choose: a language is listed here once its catalog is complete.
# (The setting LANGUAGES, these by default, lets a test offer a catalog of its own.)
SHIPPED = (DEFAULT, "de", "fr", "es", "pl")
COOKIE = "companion_language"
# The answers whose words depend on the language: the pages, their fragments and streams,
# and the API's error messages.
LOCALISED_TYPES = {"text/html", "text/event-stream", "application/json"}
CHOSEN_BY = ("Accept-Language", "Cookie")  # what picks an answer's language
VARY = ", ".join(CHOSEN_BY)

bp = Blueprint("languages", __name__)


def chosen() -> str:
    """This request's language, from the shipped ones; anything unknown or malformed is
    English, and so is a message read with no request (a command, the terminal)."""
    if not has_request_context():
        return DEFAULT
    offered = current_app.config["LANGUAGES"]
    environ = request.environ
    # (The cookies parsed only when the picker's is among them: an API call has none.)
    if COOKIE in environ.get("HTTP_COOKIE", ""):
        picked = request.cookies.get(COOKIE, "")
        if picked in offered:
            return picked
    return _best_match(environ.get("HTTP_ACCEPT_LANGUAGE", ""), tuple(offered))


@lru_cache(maxsize=512)
def _best_match(asked: str, offered: tuple[str, ...]) -> str:
    """The offered language a browser's Accept-Language prefers: a browser sends the
    same header at every request, and parsing it anew each time is wasted work."""
    return parse_accept_header(asked, LanguageAccept).best_match(offered) or DEFAULT


def chosen_locale() -> Locale:
    """Flask-Babel's locale selector: `chosen`, as one Locale per language (Flask-Babel
    takes a Locale as it is, where it would parse a language's name at every request)."""
    return _locale(chosen())


@lru_cache(maxsize=64)
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def regional() -> Locale:
    """The locale this request's dates are written in: the chosen language, in the region
    the browser asks for it (Accept-Language "en-GB" reads 06/12/2026, "en-US" 12/6/26),
    so the words stay in a shipped language while the figures follow the reader's region."""
    language = current()
    if not has_request_context():
        return _locale(language)
    return _regional(request.environ.get("HTTP_ACCEPT_LANGUAGE", ""), language)


@lru_cache(maxsize=512)
def _regional(asked: str, language: str) -> Locale:
    for value, _quality in parse_accept_header(asked, LanguageAccept):
        try:
            locale = Locale.parse(value.replace("-", "_"))
        except (ValueError, UnknownLocaleError):
            continue
        if locale.language == language and locale.territory:
            return locale
    return _locale(language)


def datetimeformat(moment, format: str = "medium") -> str:
    """A date and time (stored in UTC) in the server's time zone, written as the
    reader's region writes it (`regional`)."""
    return format_datetime(moment, format, tzinfo=get_timezone(), locale=regional())


def current() -> str:
    """The language this request is answered in ("en" outside a request): the one way
    the code and the templates (`current_language()`) read it."""
    return request_language().language


def choices() -> list[tuple[str, str]]:
    """The picker's languages, (code, name in itself): the shipped ones."""
    return [(code, NAMES[code]) for code in current_app.config["LANGUAGES"]]


def environment_language(offered: tuple[str, ...] = SHIPPED) -> str:
    """The language of the server's terminal (LANGUAGE, LC_ALL, LC_MESSAGES or LANG, as
    "de_DE.UTF-8"), if offered, else English: what `make run` prints has no request."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "").split(":")[0].split(".")[0].split("@")[0]
        if not value or value in ("C", "POSIX"):
            continue
        try:
            language = Locale.parse(value.replace("-", "_")).language
        except (ValueError, UnknownLocaleError):
            continue
        return language if language in offered else DEFAULT
    return DEFAULT


# What of a page's query the picker keeps to come back to it: which screen, which step of a
# replay, which saved sheet. Anything else (a move being previewed, say) is left behind.
KEPT_QUERY = ("screen", "step", "saved", "code")


def this_page() -> str:
    """The page the picker is on, to come back to: its path and what of its query says
    which page it is."""
    kept = [(key, value) for key, value in request.args.items(multi=True) if key in KEPT_QUERY]
    return request.path + ("?" + urlencode(kept) if kept else "")


def back_to(target: str) -> str:
    """Where the picker returns: the page it was on, if that is a path of this site."""
    parts = urlsplit(target)
    if (not target.startswith("/") or target.startswith("//") or "\\" in target
            or parts.scheme or parts.netloc):
        return "/"
    return target


@bp.route("/language", methods=["GET", "POST"])
def pick():
    """Keep the picked language in this browser's cookie and go back to the page. A GET
    (a link, no form) does the same: a language is a preference, not a secret or a move.
    An unknown language is English."""
    values = request.form if request.method == "POST" else request.args
    language = values.get("language", "")
    if language not in current_app.config["LANGUAGES"]:
        language = DEFAULT
    response = redirect(back_to(values.get("next", "/")), code=303)
    response.set_cookie(COOKIE, language, max_age=COOKIE_MAX_AGE, samesite="Lax",
                        secure=request.is_secure)
    return response


def say_which_language(response):
    """`Content-Language` on every answer whose words are in the request's language, and
    `Vary` on what chose it (caches must not give one phone's language to another)."""
    if response.mimetype in LOCALISED_TYPES:
        # (Set outright: Werkzeug's `setdefault` raises and catches an exception to learn
        # the header is not there yet, and nothing else sets it.)
        headers = response.headers
        headers["Content-Language"] = current()
        if "Vary" in headers:
            response.vary.update(CHOSEN_BY)  # (one update: each writes the header anew)
        else:  # (most answers: written at once, where `vary` parses and writes a set)
            headers["Vary"] = VARY
    return response


def register(app: Flask) -> None:
    app.config.setdefault("LANGUAGES", SHIPPED)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(ROOT / "translations"))
    # A Babel of its own per app: Flask-Babel keeps the loaded catalogs on the Babel object,
    # which one shared object would hand from one app (and its catalogs) to the next.
    Babel(app, locale_selector=chosen_locale)
    app.context_processor(translating)
    app.jinja_env.filters["numberformat"] = numberformat_filter
    app.jinja_env.filters["datetimeformat"] = datetimeformat
    app.register_blueprint(bp)
    app.after_request(say_which_language)
    app.jinja_env.globals["current_language"] = current
    app.jinja_env.globals["language_choices"] = choices
    app.jinja_env.globals["this_page"] = this_page
