"""A move posted from a screen's form, read into the action the JSON API would take."""
from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from ..errors import bad_request
from .entry_checks import SCREEN_ONLY

ENVELOPE = {"csrf_token", "screen", "since", *SCREEN_ONLY}
INDEXED = re.compile(r"(.+)\[(\d{1,2})\]")
ITEM_FIELD = re.compile(r"([a-z_]+)\[(\d{1,2})\]\.(.+)")


def form_action(form: MultiDict) -> dict[str, Any]:
    """An action posted from a screen's form, as the API would receive it: dotted names
    make objects; repeated names, names ending in "[]" and indexed names ("dice[0]",
    one radio group per die; "rows[0].player", a list of objects) make lists; "null" is
    None; pydantic does the rest."""
    action: dict[str, Any] = {}
    indexed: dict[str, dict[int, Any]] = {}
    for key in form.keys():
        if key in ENVELOPE:
            continue
        values = [None if v == "null" else v for v in form.getlist(key)]
        item = ITEM_FIELD.fullmatch(key)
        if item:
            slot = indexed.setdefault(item.group(1), {}).setdefault(int(item.group(2)), {})
            if not isinstance(slot, dict):
                raise bad_request(gettext("That form was not understood."))
            _put(slot, item.group(3), values[0])
            continue
        position = INDEXED.fullmatch(key)
        if position:
            indexed.setdefault(position.group(1), {})[int(position.group(2))] = values[0]
            continue
        value: Any = values if key.endswith("[]") or len(values) > 1 else values[0]
        _put(action, key.removesuffix("[]"), value)
    for key, items in indexed.items():
        _put(action, key, [items[i] for i in sorted(items)])
    for number in ("version", "as"):
        if number in action:
            if not str(action[number]).isdigit():
                raise bad_request(gettext("%(name)s is a whole number.", name=number))
            action[number] = int(action[number])
    return action


def _put(action: dict, dotted: str, value: Any) -> None:
    """`value` at "field" or "field.key": an action's objects are one level deep, and a key
    may hold dots of its own (a score sheet's category "No. of birds")."""
    field, dot, key = dotted.partition(".")
    if not dot:
        action[field] = value
        return
    target = action.setdefault(field, {})
    if not isinstance(target, dict):
        raise bad_request(gettext("That form was not understood."))
    target[key] = value
