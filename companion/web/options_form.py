"""A game's options as a form: fields from the pydantic model's JSON schema, every
default shown in words, and the posted form read back into the options the host changed.

A model's field may give, in its JSON schema extras, `labels` (the words for each of its
values, else a value reads capitalised with spaces for dashes) and `default_words` (the
default when a number alone would mislead, e.g. a default that depends on the players).
These words are messages of the catalogs (extracted from the models, companion/catalogs.py),
shown in the host's language."""
from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from flask_babel import format_decimal, gettext
from werkzeug.datastructures import MultiDict

from ..errors import bad_request
from ..games import Game
from ..games.messages import join_names


@dataclass
class Field:
    name: str
    title: str
    description: str
    kind: str  # "number" | "checkbox" | "select" | "choices" | "json"
    value: Any
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: list | None = None
    labels: dict[str, str] = dataclass_field(default_factory=dict)
    default_words: str | None = None

    @property
    def changed(self) -> bool:
        return self.value != self.default

    def label(self, choice: Any) -> str:
        """A value as the host reads it: "By hand", not "by-hand"."""
        return self.labels.get(str(choice)) or str(choice).replace("-", " ").capitalize()

    @property
    def default_text(self) -> str:
        """The default in words: "off", "On the phones", "Red, Yellow and Green"."""
        if self.default_words:
            return self.default_words
        if self.kind == "checkbox":
            return gettext("on") if self.default else gettext("off")
        if self.kind == "select":
            return self.label(self.default)
        if self.kind == "choices":
            return join_names([self.label(choice) for choice in self.default or []])
        if self.kind == "json":
            return gettext("as shown")
        if isinstance(self.default, int) and not isinstance(self.default, bool):
            return format_decimal(self.default)
        return str(self.default)

    @property
    def text(self) -> str:
        return json.dumps(self.value, indent=1) if self.kind == "json" else str(self.value)


def words(text: str | None) -> str | None:
    """An option's words (a title, a description, a value's label) in the host's language."""
    return gettext(text) if text else text


def _kind(schema: dict) -> tuple[str, list | None]:
    if schema.get("type") == "boolean":
        return "checkbox", None
    if schema.get("type") == "integer":
        return "number", None
    if "enum" in schema:
        return "select", schema["enum"]
    items = schema.get("items", {})
    if schema.get("type") == "array" and "enum" in items:
        return "choices", items["enum"]
    return "json", None


def fields(engine: Game, saved: dict | None = None, chosen: dict | None = None) -> list[Field]:
    """The form's fields: defaults are the game's own, under the server's saved ones."""
    schema = engine.Options.model_json_schema()
    defaults = {**engine.default_options().model_dump(mode="json"), **(saved or {})}
    chosen = chosen or {}
    found = []
    for name, prop in schema.get("properties", {}).items():
        kind, choices = _kind(prop)
        found.append(Field(
            name=name, title=words(prop.get("title", name)),
            description=words(prop.get("description", "")),
            kind=kind, value=chosen.get(name, defaults.get(name)), default=defaults.get(name),
            minimum=prop.get("minimum"), maximum=prop.get("maximum"), choices=choices,
            labels={value: words(label) for value, label in prop.get("labels", {}).items()},
            default_words=None if name in (saved or {}) else words(prop.get("default_words"))))
    return found


def read(engine: Game, form: MultiDict, saved: dict | None = None) -> dict:
    """The options the host changed from their defaults (the rest stay defaults, some of
    which depend on the number of players and are settled at the start)."""
    chosen: dict[str, Any] = {}
    for field in fields(engine, saved):
        if field.kind not in ("checkbox", "choices") and field.name not in form \
                and not _parts(form, field):
            continue
        if field.kind == "checkbox":
            value: Any = field.name in form
        elif field.kind == "choices":
            value = form.getlist(field.name)
        elif field.kind == "json" and isinstance(field.default, dict) and _parts(form, field):
            value = {**field.default, **_parts(form, field)}
        elif field.kind == "json":
            try:
                value = json.loads(form.get(field.name, "null"))
            except (ValueError, RecursionError):
                raise bad_request(gettext("%(option)s: this is not valid JSON.",
                                          option=field.title)) from None
        elif field.kind == "number":
            try:
                value = int(form.get(field.name, ""))
            except ValueError:
                raise bad_request(gettext("%(option)s: type a whole number.",
                                          option=field.title)) from None
        else:
            value = form.get(field.name)
        if value != field.default:
            chosen[field.name] = value
    return chosen


def _parts(form: MultiDict, field: Field) -> dict[str, int]:
    """A table of whole numbers posted one input each ("bills.5" = 40)."""
    prefix = field.name + "."
    parts = {}
    for key in form.keys():
        if key.startswith(prefix):
            try:
                parts[key[len(prefix):]] = int(form.get(key, ""))
            except ValueError:
                raise bad_request(gettext("%(option)s: type a whole number for each value.",
                                          option=field.title)) from None
    return parts
