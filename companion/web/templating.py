"""The templates' environment: Flask's, with a quicker way to read a dict's key, to build
an address and to translate a string (through Jinja's and Babel's public API only)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import current_app, has_request_context, request
from flask import url_for as flask_url_for
from flask.templating import Environment
from babel.numbers import format_decimal
from jinja2 import TemplateNotFound, pass_context, pass_eval_context
from markupsafe import Markup

from ..i18n.reading import request_language

DICT_ATTRIBUTES = frozenset(dir(dict))


class TemplateEnvironment(Environment):
    """`view.state.seats` reads keys of plain dicts. Jinja first looks for an attribute of
    that name, and a dict's only attributes are its methods, so it raises and catches an
    AttributeError at almost every dot of a panel (what that cost: bench/README.md).
    Here a plain dict's key is read at once unless the name is one of a dict's
    attributes: the same result as Jinja's, without the exception."""


    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        # Templates looked for and not found: a game without a file of its own that an
        # `include ... ignore missing` names (Go Big's turn text) is otherwise looked
        # for on disk at every panel.
        self.missing: set[str] = set()

    def make_globals(self, d: Any) -> dict[str, Any]:
        """A template's globals as one dict, where Jinja keeps a ChainMap over the
        environment's: every `include` copies its globals into the new context, which
        for a ChainMap is a Python loop over its keys (a sixth of a panel's rendering,
        bench/README.md). The app sets its globals as it starts, before any template is
        loaded, as Jinja asks."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def has_template(self, name: str) -> bool:
        """Whether there is a template of this name: a panel asks for a game's optional
        part (Go Big has no turn text of its own) this way, where an `include ... ignore
        missing` raises and catches an exception at every rendering."""
        if name in self.missing and not self.auto_reload:
            return False
        try:
            self.get_template(name)
        except TemplateNotFound:
            if len(self.missing) < 1000:  # (names come from the code, but still)
                self.missing.add(name)
            return False
        return True


def template_exists(name: str) -> bool:
    """Whether the app has a template of this name (looked for on disk once)."""
    environment = current_app.jinja_env
    if isinstance(environment, TemplateEnvironment):
        return environment.has_template(name)
    try:
        environment.get_template(name)
    except TemplateNotFound:
        return False
    return True


def url_for(endpoint: str, **values: Any) -> str:
    """Flask's url_for for the templates, each address built once: a panel links to
    its table's screens several times (bench/README.md). Static files (their URL names
    their content) and external or unusual addresses are built every time."""
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
    to the request's catalog once per rendering. Flask-Babel's own find the catalog
    again for every string (bench/README.md). And the language its figures are written
    in, read once per rendering too (`numberformat_filter`)."""
    reading = request_language()
    return {**_bound(reading.translations), "figures_language": reading.language}


@lru_cache(maxsize=64)
def _bound(translations) -> dict[str, Any]:
    """`gettext` and `ngettext` for one catalog, made once. They behave as Jinja's
    "newstyle" gettext: the text is marked safe where templates autoescape, and its named
    placeholders are filled in (escaped) from the keywords (any name a template likes: the
    strings themselves are taken by position only)."""

    # (`pass_eval_context`, not `pass_context`: Jinja derives a new context for every call
    # of the latter in a loop.)
    @pass_eval_context
    def gettext(eval_context, string: str, /, **variables: Any) -> str:
        found = translations.ugettext(string)
        if eval_context.autoescape:
            found = Markup(found)
        return found % variables if variables or "%" in found else found

    @pass_eval_context
    def ngettext(eval_context, singular: str, plural: str, num: int, /,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        found = translations.ungettext(singular, plural, num)
        if eval_context.autoescape:
            found = Markup(found)
        return found % variables

    return {"gettext": gettext, "ngettext": ngettext}


def numberformat(number: Any) -> str:
    """Flask-Babel's `numberformat` filter, with the language read once per request
    (`request_language`) and each figure formatted once per language."""
    return _formatted(number, request_language().language)


@pass_context
def numberformat_filter(context: Any, number: Any) -> str:
    """The templates' `numberformat`: in the language of the rendering (a macro imported
    without its caller's context reads the request's)."""
    language = context.get("figures_language") or request_language().language
    return _formatted(number, language)


@lru_cache(maxsize=4096)
def _formatted(number: Any, language: str) -> str:
    return format_decimal(number, locale=language)
