"""A game's options as a form: fields from the pydantic model's JSON schema, every
default shown in words, and the posted form read back into the options the host changed.

Kinds: a whole number (one that may be left empty when the option may be none), a box
ticked or not, one value of a few, several of a few, a line of text (with names to offer
as the host types), names one per line, rows of a list whose items are of several kinds
(each row: a choice of its kind, and its words: `rows`), and JSON for the rest.

A model's field may give, in its JSON schema extras, `labels` (the words for each of its
values, else a value reads capitalised with spaces for dashes) and `default_words` (the
default when a number alone would mislead, e.g. a default that depends on the players).
These words are messages of the catalogs (extracted from the models, companion/catalogs.py),
shown in the host's language."""
from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache
from typing import Any, overload

from flask_babel import format_decimal, gettext, ngettext
from pydantic import ValidationError
from pydantic_core import ErrorDetails
from werkzeug.datastructures import MultiDict

from ..errors import bad_request
from ..games import Game
from ..i18n.messages import words_listed


@dataclass
class Field:
    name: str
    title: str
    description: str
    kind: str  # "number" | "checkbox" | "select" | "choices" | "text" | "lines" | "rows" | "json"
    value: Any
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: list | None = None
    labels: dict[str, str] = dataclass_field(default_factory=dict)
    default_words: str | None = None
    required: bool = False
    # A number that may be left empty: the option is then none ("open", "no target").
    optional: bool = False
    # The longest text, or the most lines or rows.
    longest: int | None = None
    # Values to offer as the host types a text (a <datalist>).
    suggestions: list[str] = dataclass_field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.value != self.default

    def label(self, choice: Any) -> str:
        """A value as the host reads it: "By hand", not "by-hand"; none, for an option
        that may be left empty, in its default words."""
        if choice is None:
            return self.default_words or gettext("none")
        return self.labels.get(str(choice)) or str(choice).replace("-", " ").capitalize()

    @property
    def default_text(self) -> str:
        """The default in words: "off", "On the phones", "Red, Yellow and Green"."""
        return self.default_words or self.in_words(self.default)

    def in_words(self, value: Any) -> str:
        """A value of this option in words."""
        if self.kind == "checkbox":
            return gettext("on") if value else gettext("off")
        if self.kind == "select":
            return self.label(value)
        if self.kind == "choices":
            return words_listed([self.label(choice) for choice in value or []])
        if self.kind == "lines":
            return words_listed(list(value or []))
        if self.kind == "json":
            return gettext("as shown")
        if isinstance(value, int) and not isinstance(value, bool):
            return format_decimal(value)
        return str(value)

    @property
    def text(self) -> str:
        if self.kind in ("json", "rows"):
            return json.dumps(self.value, indent=1)
        if self.kind == "lines":
            return "\n".join(self.value or [])
        return "" if self.value is None else str(self.value)

    def row_choice(self, row: dict) -> str:
        """The choice a row of a `rows` field posts for its kind: its values other than
        its words, as `key=value` pairs ("by=category;most=false")."""
        return ";".join(f"{key}={json.dumps(value) if isinstance(value, bool) else value}"
                        for key, value in row.items() if key not in ROW_WORDS)


# The parts of a row typed as words (the rest of a row is its choice), each with the
# option whose lines it names: typed in any case, it is written as there ("birds" for a
# sheet's "Birds").
ROW_WORDS = {"category": "categories"}


@overload
def words(text: str) -> str: ...
@overload
def words(text: None) -> None: ...
def words(text: str | None) -> str | None:
    """An option's words (a title, a description, a value's label) in the host's language."""
    return gettext(text) if text else text


def _kind(schema: dict) -> tuple[str, list | None]:
    if schema.get("type") == "boolean":
        return "checkbox", None
    if schema.get("type") == "integer" or _optional_number(schema):
        return "number", None
    if "enum" in schema:
        return "select", schema["enum"]
    optional_choices = _optional_choice(schema)
    if optional_choices is not None:
        return "select", [None, *optional_choices]
    if schema.get("type") == "string":
        return "text", None
    items = schema.get("items", {})
    if schema.get("type") == "array" and "enum" in items:
        return "choices", items["enum"]
    if schema.get("type") == "array" and items.get("type") == "string":
        return "lines", None
    if schema.get("type") == "array" and "discriminator" in items:
        return "rows", None
    return "json", None


def _optional_number(schema: dict) -> dict | None:
    """The integer of an option that is a whole number or none."""
    kinds = schema.get("anyOf", [])
    numbers = [kind for kind in kinds if kind.get("type") == "integer"]
    if len(kinds) == 2 and len(numbers) == 1 and {"type": "null"} in kinds:
        return numbers[0]
    return None


def _optional_choice(schema: dict) -> list | None:
    """The values of an option that is one of a few values or none (a sheet's bids)."""
    kinds = schema.get("anyOf", [])
    choices = [kind["enum"] for kind in kinds if "enum" in kind]
    if len(kinds) == 2 and len(choices) == 1 and {"type": "null"} in kinds:
        return list(choices[0])
    return None


@cache
def options_schema(engine: Game) -> dict[str, Any]:
    """The JSON schema of the game's options, made once (pydantic makes it anew at each
    call, and every new-table form and its every refusal read it). Read only."""
    return engine.Options.model_json_schema()


def fields(engine: Game, saved: dict | None = None, chosen: dict | None = None,
           suggestions: dict[str, list[str]] | None = None) -> list[Field]:
    """The form's fields: defaults are the game's own, under the server's saved ones. A
    required option (a score sheet's game name) has no default: it is typed."""
    schema = options_schema(engine)
    required = set(schema.get("required", []))
    defaults = {**engine.default_options().model_dump(mode="json"), **(saved or {})}
    for name in required - set(saved or {}):
        defaults[name] = None
    for name, prop in schema.get("properties", {}).items():
        if _kind(prop)[0] == "lines" and name not in (saved or {}) and defaults.get(name):
            # The game's own default words (a sheet's "Points") read in the host's language,
            # and a table made with them keeps them so.
            defaults[name] = [words(word) for word in defaults[name]]
    chosen = chosen or {}
    found = []
    for name, prop in schema.get("properties", {}).items():
        kind, choices = _kind(prop)
        number = _optional_number(prop) or prop
        found.append(Field(
            name=name, title=words(prop.get("title", name)),
            description=words(prop.get("description", "")),
            kind=kind, value=chosen.get(name, defaults.get(name)), default=defaults.get(name),
            minimum=number.get("minimum"), maximum=number.get("maximum"), choices=choices,
            labels={value: words(label) for value, label in prop.get("labels", {}).items()},
            default_words=None if name in (saved or {}) else words(prop.get("default_words")),
            required=name in required, optional=number is not prop,
            longest=prop.get("maxLength", prop.get("maxItems")),
            suggestions=(suggestions or {}).get(name, [])))
    return found


def read(engine: Game, form: MultiDict, saved: dict | None = None) -> dict:
    """The options the host changed from their defaults (the rest stay defaults, some of
    which depend on the number of players and are settled at the start)."""
    chosen: dict[str, Any] = {}
    for field in fields(engine, saved):
        if field.kind not in ("checkbox", "choices") and field.name not in form \
                and not _posted_parts(form, field):
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
        elif field.kind == "number" and field.optional and not form.get(field.name, "").strip():
            value = None
        elif field.kind == "number":
            try:
                value = int(form.get(field.name, "").strip())
            except ValueError:
                raise bad_request(gettext("%(option)s: type a whole number.",
                                          option=field.title)) from None
        elif field.kind == "text":
            value = " ".join(form.get(field.name, "").split())
        elif field.kind == "lines":
            value = _lines(form.get(field.name, ""), field)
        elif field.kind == "rows":
            value = _rows(form, field, options_schema(engine))
        elif field.kind == "select" and None in (field.choices or []):
            value = form.get(field.name) or None
        else:
            value = form.get(field.name)
        if value != field.default or field.required:
            chosen[field.name] = value
    for field in fields(engine, saved):
        if field.kind == "rows" and field.name in chosen:
            _as_named(chosen[field.name], {**{f.name: f.value for f in fields(engine, saved)},
                                           **chosen})
    return chosen


def _as_named(rows: list[dict], options: dict) -> None:
    """Each row's words as the option they name spells them."""
    for row in rows:
        for word, named in ROW_WORDS.items():
            lines = options.get(named)
            if isinstance(row.get(word), str) and isinstance(lines, list):
                spelt = {str(line).casefold(): line for line in lines}
                row[word] = spelt.get(row[word].casefold(), row[word])


def _lines(text: str, field: Field) -> list[str]:
    """Names one per line (blank lines left out), each once whatever its case."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    seen: dict[str, str] = {}
    for line in lines:
        if line.casefold() in seen:
            raise bad_request(gettext("%(option)s: %(name)s is there twice; each line once.",
                                      option=field.title, name=line))
        seen[line.casefold()] = line
    return lines


def _rows(form: MultiDict, field: Field, schema: dict, check: bool = True) -> list[dict]:
    """A list posted one row at a time, in order: `NAME.0` the row's choice of kind
    ("by=category;most=false", empty for no row) and `NAME.0.WORD` its words (those the
    chosen kind has). Rows left empty are left out."""
    items = schema["properties"][field.name]["items"]
    tag = items["discriminator"]["propertyName"]
    kinds = {value: schema["$defs"][ref.rsplit("/", 1)[-1]].get("properties", {})
             for value, ref in items["discriminator"].get("mapping", {}).items()}
    numbers = sorted(int(key[len(field.name) + 1:]) for key in form.keys()
                     if key.startswith(field.name + ".") and key[len(field.name) + 1:].isdigit())
    rows: list[dict[str, Any]] = []
    for number in numbers:
        choice = form.get(f"{field.name}.{number}", "").strip()
        if not choice:
            continue
        row: dict[str, Any] = {}
        for pair in choice.split(";"):
            key, _, value = pair.partition("=")
            row[key] = {"true": True, "false": False}.get(value, value)
        for word in kinds.get(row.get(tag), {}):
            if word in ROW_WORDS:
                row[word] = " ".join(form.get(f"{field.name}.{number}.{word}", "").split())
                if not row[word] and check:
                    raise bad_request(gettext("%(option)s: say which category for row %(number)s.",
                                              option=field.title, number=len(rows) + 1))
        rows.append(row)
    return rows


def _posted_parts(form: MultiDict, field: Field) -> bool:
    """Whether the field was posted in parts (`bills.5`, `tiebreaks.0`)."""
    if field.kind == "rows":
        return any(key.startswith(field.name + ".") for key in form.keys())
    return field.kind == "json" and bool(_parts(form, field))


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


def typed(engine: Game, form: MultiDict, saved: dict | None = None) -> dict:
    """What the host typed, as typed, to show the form again after a refusal (JSON and
    tables of numbers come back as the defaults)."""
    kept: dict[str, Any] = {}
    for field in fields(engine, saved):
        if field.kind == "checkbox":
            kept[field.name] = field.name in form
        elif field.kind == "choices":
            kept[field.name] = form.getlist(field.name)
        elif field.kind == "rows":
            kept[field.name] = _rows(form, field, options_schema(engine), False)
        elif field.kind == "lines" and field.name in form:
            kept[field.name] = [line.strip() for line in form[field.name].splitlines()
                                if line.strip()]
        elif field.kind != "json" and field.name in form:
            kept[field.name] = form[field.name]
    return kept


def check(engine: Game, chosen: dict, saved: dict | None = None) -> None:
    """Refuse, in a sentence naming the option, what the game's options would not take."""
    try:
        engine.options_for({**(saved or {}), **chosen})
    except ValidationError as exc:
        raise bad_request(refusal(engine, exc.errors()[0])) from None


def refusal(engine: Game, error: ErrorDetails) -> str:
    """One of pydantic's errors about the options as the host reads it."""
    properties = options_schema(engine).get("properties", {})
    where = error["loc"][0] if error["loc"] else None
    kind, context = error["type"], error.get("ctx", {})
    if where not in properties or kind == "value_error":
        reason = str(context.get("error", error["msg"]))
        return gettext("These options do not fit together: %(reason)s.", reason=gettext(reason))
    option = words(properties[where].get("title", where))
    if kind in ("missing", "string_too_short", "too_short"):
        return gettext("%(option)s: please fill this in.", option=option)
    if kind == "string_too_long":
        return ngettext("%(option)s: at most %(num)d character.",
                        "%(option)s: at most %(num)d characters.",
                        context["max_length"], option=option)
    if kind == "too_long":
        return ngettext("%(option)s: at most %(num)d entry.",
                        "%(option)s: at most %(num)d entries.",
                        context["max_length"], option=option)
    if kind in ("greater_than_equal", "greater_than"):
        return gettext("%(option)s: at least %(number)s.", option=option,
                       number=format_decimal(context.get("ge", context.get("gt"))))
    if kind in ("less_than_equal", "less_than"):
        return gettext("%(option)s: at most %(number)s.", option=option,
                       number=format_decimal(context.get("le", context.get("lt"))))
    if kind.startswith("int"):
        return gettext("%(option)s: type a whole number.", option=option)
    return gettext("%(option)s: this value cannot be used.", option=option)


def settled_by_count(engine: Game, chosen: dict, count: int) -> list[tuple[str, str]]:
    """The options the host left to the number of players (their default depends on it),
    each as (title, the value it takes with `count` players, in words): what the lobby
    says, once the players are known."""
    if count < 1:
        return []
    general = engine.default_options().model_dump(mode="json")
    here = engine.default_options(count).model_dump(mode="json")
    settled = []
    for field in fields(engine):
        if field.name in chosen or here.get(field.name) == general.get(field.name):
            continue
        value = here[field.name]
        settled.append((field.title, field.in_words(value)))
    return settled
