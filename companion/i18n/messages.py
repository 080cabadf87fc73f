"""Rendering the engines' messages (a log line, a refusal, a result's explanation) for one
screen: the message id translated into the request's language, its nested messages
rendered first, player names filled in (escaped for HTML), lists and numbers formatted for
the locale. Every caller that shows an engine's sentence goes through `render`.

Outside a request (a command, a test) the text is English."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal, overload

from babel.lists import format_list
from babel.numbers import format_decimal
from markupsafe import Markup, escape

from ..games.messages import (NAME_PLACEHOLDER, Listed, Message, Player, is_message_json,
                              message)

from .reading import Reading, request_language

NOBODY_KNOWN = message("someone")  # the name of a player no longer at the table


def language() -> str:
    """The language messages are rendered in now (a cache key for rendered lines)."""
    return request_language().language


@overload
def render(text: Any, names: dict[int, str], html: Literal[True]) -> Markup: ...
@overload
def render(text: Any, names: dict[int, str], html: bool = False) -> str: ...
def render(text: Any, names: dict[int, str], html: bool = False) -> str:
    """`text` (a message, or a plain line stored before the engines spoke in messages) as
    this screen reads it: Markup when `html`."""
    return _render(text, names, html, request_language())


def render_all(texts, names: dict[int, str], html: bool = False) -> list[str]:
    reader = request_language()
    return [_render(text, names, html, reader) for text in texts]


def names_listed(player_ids, names: dict[int, str], html: bool = False) -> str:
    """Players' names as a sentence lists them in this language: "A, B and C"."""
    reader, quote = request_language(), _quote(html)
    listed = _list(tuple(_name(player, names, quote, reader) for player in player_ids),
                   False, reader.lists)
    return Markup(listed) if html else listed


def words_listed(items) -> Markup:
    """Words (text or markup) listed as a sentence lists them in this language, each
    escaped unless it is markup."""
    return Markup(_list(tuple(escape(item) for item in items), False, request_language().lists))


def render_deep(value: Any, names: dict[int, str]) -> Any:
    """`value` (a view's or a result's plain data) with every message in it rendered."""
    return _deep(value, names, request_language())


def _deep(value: Any, names: dict[int, str], reader: Reading) -> Any:
    if isinstance(value, str):
        return _render(value, names, False, reader) if "{name:" in value or isinstance(
            value, Message) else value
    if isinstance(value, list):
        return [_deep(v, names, reader) for v in value]
    if isinstance(value, dict):
        if is_message_json(value):  # a message kept in a state, in its JSON form
            return _render(Message.from_json(value), names, False, reader)
        return {k: _deep(v, names, reader) for k, v in value.items()}
    return value


# Below, a text is rendered as a plain str, its words passed through `quote`: Markupsafe's
# `escape` for HTML (every word escaped once, and the line made Markup once, at the top),
# `str` for text.

def _quote(html: bool) -> Callable[[Any], str]:
    return escape if html else str


def _render(text: Any, names: dict[int, str], html: bool, reader: Reading) -> str:
    rendered = _text(text, names, _quote(html), reader)
    return Markup(rendered) if html else rendered


def _text(text: Any, names: dict[int, str], quote: Callable, reader: Reading) -> str:
    if not isinstance(text, Message):
        return _filled(str(text), names, quote, reader)
    if text.plural_id is None or text.counted_by is None:  # a plural always names its count
        template = quote(reader.translations.gettext(text.id))
    else:
        template = quote(reader.translations.ngettext(text.id, text.plural_id,
                                                      int(text.params[text.counted_by])))
    if not text.params:
        return template
    # (str's `%`: the values are quoted already, where Markup's would escape them again.)
    return str.__mod__(template, {key: _param(value, names, quote, reader)
                                  for key, value in text.params.items()})


def _param(value: Any, names: dict[int, str], quote: Callable, reader: Reading) -> str:
    if isinstance(value, Player):
        return _name(value.id, names, quote, reader)
    if isinstance(value, Message):
        return _text(value, names, quote, reader)
    if isinstance(value, Listed):
        return _list(tuple(_param(item, names, quote, reader) for item in value.items),
                     value.tally, reader.lists)
    if isinstance(value, Markup):  # a line rendered already (the moves an undo took back)
        return str(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return quote(str(value))
    return _number(value, reader.language)


@lru_cache(maxsize=4096)
def _number(value: int, locale: str) -> str:
    """A number as this language writes it, worked out once per language."""
    return format_decimal(value, locale=locale, group_separator=False)


@lru_cache(maxsize=4096)
def _list(items: tuple[str, ...], tally: bool, lists: str) -> str:
    """Items listed as this language lists them, worked out once per language."""
    if tally:
        try:
            return format_list(items, style="unit", locale=lists)
        except KeyError:  # a locale whose data lacks the unit lists: commas
            return ", ".join(items)
    return format_list(items, locale=lists)


def _name(player_id: int, names: dict[int, str], quote: Callable, reader: Reading) -> str:
    found = names.get(player_id)
    if found is None:
        return _text(NOBODY_KNOWN, names, quote, reader)
    return quote(found)


def _filled(text: str, names: dict[int, str], quote: Callable, reader: Reading) -> str:
    """A plain line with `{name:ID}` placeholders (stored before messages, or a view's
    string): the names put in (quoted, as the rest of the line)."""
    def name(match: re.Match) -> str:
        return _name(int(match.group(1)), names, quote, reader)
    return NAME_PLACEHOLDER.sub(name, quote(text))
