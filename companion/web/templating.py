"""The templates' environment: Flask's, with a quicker way to read a dict's key, to build
an address and to translate a string."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import has_request_context, request
from flask import url_for as flask_url_for
from flask.templating import Environment
from babel.numbers import format_decimal
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup

DICT_ATTRIBUTES = frozenset(dir(dict))


class TemplateEnvironment(Environment):
    """`view.state.seats` reads keys of plain dicts. Jinja first looks for an attribute of
    that name, and a dict's only attributes are its methods, so it raises and catches an
    AttributeError at almost every dot of a panel (a fifth of its rendering time, measured
    in bench/README.md). Here a plain dict's key is read at once unless the name is one of
    a dict's attributes: the same result as Jinja's, without the exception."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def url_for(endpoint: str, **values: Any) -> str:
    """Flask's url_for for the templates, each address built once: a panel links to
    its table's screens several times (27 us an address, a tenth of a panel's
    rendering). Static files (their URL names their content) and external or unusual
    addresses are built every time."""
    if (endpoint == "static" or any(name.startswith("_") for name in values)
            or not has_request_context()):
        return flask_url_for(endpoint, **values)
    try:
        return _address(request.script_root, endpoint, tuple(sorted(values.items())))
    except TypeError:  # a value that cannot be a key (a list): built as it is
        return flask_url_for(endpoint, **values)


@lru_cache(maxsize=8192)
def _address(script_root: str, endpoint: str, values: tuple) -> str:
    return flask_url_for(endpoint, **dict(values))


def translating() -> dict[str, Any]:
    """A context processor: the templates' `gettext` and `ngettext` (and so `_`) bound
    once per rendering to the request's catalog. Flask-Babel's own find the catalog again
    for every string, through three look-ups of the request's context: with a panel's
    hundreds of strings, for each viewer, that doubled a move's CPU (bench/README.md).
    They behave as Jinja's "newstyle" gettext: the text is marked safe where templates
    autoescape, and its named placeholders are filled in (escaped) from the keywords (any
    name a template likes: the strings themselves are taken by position only)."""
    translations = get_translations()
    language = str(get_locale())

    @pass_context
    def gettext(context, string: str, /, **variables: Any) -> str:
        found = translations.ugettext(string)
        if context.eval_ctx.autoescape:
            found = Markup(found)
        return found % variables if variables or "%" in found else found

    @pass_context
    def ngettext(context, singular: str, plural: str, num: int, /, **variables: Any) -> str:
        variables.setdefault("num", num)
        found = translations.ungettext(singular, plural, num)
        if context.eval_ctx.autoescape:
            found = Markup(found)
        return found % variables

    return {"gettext": gettext, "ngettext": ngettext, "reading_language": language}


@pass_context
def numberformat(context, number: Any) -> str:
    """Flask-Babel's `numberformat` filter, with the language read once per rendering
    (`translating`) and each figure formatted once per language."""
    language = context.get("reading_language") or str(get_locale())
    return _formatted(number, language)


@lru_cache(maxsize=4096)
def _formatted(number: Any, language: str) -> str:
    return format_decimal(number, locale=language)
