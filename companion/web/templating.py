"""The templates' environment: Flask's, with a quicker way to read a dict's key, to build
an address and to translate a string."""
from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from flask import has_request_context, request
from flask import url_for as flask_url_for
from flask.templating import Environment
from babel.numbers import format_decimal
from jinja2 import TemplateNotFound, nodes, pass_eval_context
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from .reading import reading

DICT_ATTRIBUTES = frozenset(dir(dict))
# The catalog a template is being compiled for (None: no translating at compile time).
COMPILING_FOR: ContextVar = ContextVar("compiling_for", default=None)
# What a message's text may hold for its translation to be put in at compile time: named
# placeholders of text (`%(name)s`) and literal percent signs.
PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")


class TemplateEnvironment(Environment):
    """`view.state.seats` reads keys of plain dicts. Jinja first looks for an attribute of
    that name, and a dict's only attributes are its methods, so it raises and catches an
    AttributeError at almost every dot of a panel (a fifth of its rendering time, measured
    in bench/README.md). Here a plain dict's key is read at once unless the name is one of
    a dict's attributes: the same result as Jinja's, without the exception."""


    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        # Each template as compiled for each catalog (`_load_template`). A dict where Jinja
        # keeps an LRU cache of 400, which takes a lock and searches its queue at every
        # look-up (a panel includes some six templates): the templates are the app's own,
        # a few dozen, in as many copies as there are languages.
        self.compiled: dict[tuple[str, Any], Any] = {}
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
            return False
        return True

    def _load_template(self, name: str, globals: Any) -> Any:
        """The template as compiled for this request's catalog: each language has a copy
        of its own, with its messages translated once, as it was compiled (`_translated`),
        not at every rendering. (Jinja's own, with the catalog in the cache's key.)"""
        if self.loader is None:
            raise TypeError("no loader for this environment specified")
        catalog = reading().translations
        template = self.compiled.get((name, catalog))
        if template is not None and (not self.auto_reload or template.is_up_to_date):
            if globals:
                template.globals.update(globals)
            return template
        if name in self.missing and not self.auto_reload:
            raise TemplateNotFound(name)
        compiling = COMPILING_FOR.set(catalog)
        try:
            template = self.loader.load(self, name, self.make_globals(globals))
        except TemplateNotFound:
            if len(self.missing) < 1000:  # (names come from the code, but still)
                self.missing.add(name)
            raise
        finally:
            COMPILING_FOR.reset(compiling)
        if len(self.compiled) < 10_000:  # (likewise)
            self.compiled[(name, catalog)] = template
        return template

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        catalog = COMPILING_FOR.get()
        if catalog is not None:
            tree = _Translating(catalog, self).visit(tree)
            tree.set_environment(self)
        return tree


class _Translating(NodeTransformer):
    """A template's messages translated with one catalog as it is compiled: a message of
    text (`_("History")`, `{% trans %}` without a plural) becomes its translation, and one
    with named placeholders the translation's text with the template's values put in
    (escaped, as anything a template prints): `_("Deck %(count)s", count=n)` renders as
    `Deck {{ n }}` did, with no call at all. The rest (a plural, a message in a variable,
    a placeholder of another kind) is translated as it renders, by `translating`."""

    def __init__(self, catalog, environment: Environment) -> None:
        self.catalog, self.environment = catalog, environment

    def visit_Output(self, node: nodes.Output) -> nodes.Output:
        printed: list[nodes.Expr] = []
        for child in node.nodes:
            pieces = self._translated(child) if isinstance(child, nodes.Call) else None
            if pieces is None:
                printed.append(self.visit(child))
                continue
            # Printed piece by piece, as the template's own text and values are; a value
            # joined with `~` (`'<strong>'|safe ~ n ~ '</strong>'|safe`) too, each piece
            # escaped as the join would escape it, its markup written as text.
            for piece in pieces:
                if isinstance(piece, nodes.Concat):
                    printed += piece.nodes
                elif not _empty(piece):
                    printed.append(piece)
        node.nodes = printed
        return node

    def visit_Call(self, node: nodes.Call) -> nodes.Expr:
        """A message inside an expression (`{% set text = _("Your turn!") %}`, a filter's
        argument): its translated text, joined to its values as `~` joins them (escaping
        each where the template autoescapes)."""
        pieces = self._translated(node)
        if pieces is None:
            return self.generic_visit(node)
        if len(pieces) == 1:
            return pieces[0]
        kept = [piece for piece in pieces if not _empty(piece)]
        if all(self._constant(piece) for piece in kept):  # (see visit_Concat)
            return self.generic_visit(node)
        return nodes.Concat(kept, lineno=node.lineno)

    def visit_Concat(self, node: nodes.Concat) -> nodes.Expr:
        """A join of constants and messages (`'<small>'|safe ~ _("total")`) keeps its
        messages translated as it renders: Jinja folds a join of constants into plain text
        as it compiles, and would print the markup in it escaped."""
        if all(self._constant(child) or _message(child) for child in node.nodes):
            return node
        return self.generic_visit(node)

    def _constant(self, node: nodes.Expr) -> bool:
        try:
            node.set_environment(self.environment)
            node.as_const(nodes.EvalContext(self.environment))
        except Exception:  # (Impossible, or whatever a filter of constants raises)
            return False
        return True

    def _translated(self, call: nodes.Call) -> list[nodes.Expr] | None:
        """The translation of the message `call` asks for, as its text (marked safe, as
        the templates' `gettext` marks it) alternating with the values of its
        placeholders; None when it is not a message this can translate now."""
        if not _message(call):
            return None
        text = self.catalog.ugettext(call.args[0].value)
        values = {keyword.key: self.visit(keyword.value) for keyword in call.kwargs}
        pieces: list[nodes.Expr] = []
        written, at = [], 0
        for found in PLACEHOLDER.finditer(text):
            between = text[at:found.start()]
            if "%" in between:  # a placeholder of another kind: formatted as it renders
                return None
            written.append(between)
            at = found.end()
            if found.group(1) is None:
                written.append("%")
                continue
            if found.group(1) not in values:  # a placeholder given no value: as it renders
                return None
            pieces += [_text("".join(written), call.lineno), values[found.group(1)]]
            written = []
        if "%" in text[at:]:
            return None
        return pieces + [_text("".join(written) + text[at:], call.lineno)]


def _message(node: nodes.Node) -> bool:
    """Whether `node` asks for a message of text: `_("History")`, `gettext(...)`."""
    return (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name)
            and node.node.name in ("_", "gettext") and len(node.args) == 1
            and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)
            and node.dyn_args is None and node.dyn_kwargs is None)


def _text(text: str, lineno: int) -> nodes.Expr:
    return nodes.MarkSafeIfAutoescape(nodes.Const(text, lineno=lineno), lineno=lineno)


def _empty(piece: nodes.Expr) -> bool:
    return (isinstance(piece, nodes.MarkSafeIfAutoescape)
            and isinstance(piece.expr, nodes.Const) and piece.expr.value == "")


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
    to the request's catalog, for the messages not translated as the template was
    compiled (`_Translating`: a plural, a message held in a variable). Flask-Babel's own
    find the catalog again for every string (bench/README.md)."""
    return _bound(reading().translations)


@lru_cache(maxsize=64)
def _bound(translations) -> dict[str, Any]:
    """`gettext` and `ngettext` for one catalog, made once. They behave as Jinja's
    "newstyle" gettext: the text is marked safe where templates autoescape, and its named
    placeholders are filled in (escaped) from the keywords (any name a template likes: the
    strings themselves are taken by position only)."""

    # (`pass_eval_context`, not `pass_context`: Jinja derives a new context for a call of
    # the latter in a loop, a tenth of a Go Big table's public part.)
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
    (`reading`) and each figure formatted once per language."""
    return _formatted(number, reading().language)


@lru_cache(maxsize=4096)
def _formatted(number: Any, language: str) -> str:
    return format_decimal(number, locale=language)
