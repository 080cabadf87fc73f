"""Messages: an engine never writes a sentence in a language. It writes a message, a
message id (the English source text, with named `%(param)s` placeholders) and its
parameters; the web layer translates it for each screen. `message(...)` and `plural(...)`
mark the ids for `pybabel extract` (babel.cfg names them as keywords)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Union, cast

NAME_PLACEHOLDER = re.compile(r"\{name:(\d+)\}")



@dataclass(frozen=True)
class Player:
    """A parameter naming a player: each screen fills in the name (escaped)."""

    id: int


@dataclass(frozen=True)
class Listed:
    """A parameter listing values (players, nested messages, words) as a sentence lists
    them in the reader's language: "A, B and C"; or, with `tally`, as a tally lists its
    entries: "A 3, B 5, C 1"."""

    items: tuple[Param, ...]
    tally: bool = False


Param = Union[int, str, "Message", Player, Listed]

TextJSON = Union[dict[str, Any], str]
"""A text as a state or a log keeps it: a message's JSON form (a plain string only in what
was stored before the engines spoke in messages)."""


class Message(str):
    """A message id with its parameters. It reads (as a str) as its English text with the
    `{name:ID}` placeholders of the players it names, so a sentence can be compared and
    searched in tests and logs; the web layer renders it from `id` and `params` instead.
    A plural message also has its plural id and the name of the parameter that counts
    (`counted_by`; a str's own `count` stays the str's)."""

    id: str
    params: dict[str, Any]
    plural_id: str | None
    counted_by: str | None

    def __new__(cls, msgid: str, params: dict[str, Any] | None = None,
                plural_id: str | None = None, counted_by: str | None = None) -> "Message":
        params = dict(params or {})
        chosen = msgid
        if plural_id is not None:
            if counted_by is None:
                raise ValueError("a plural message names the parameter that counts")
            chosen = msgid if params[counted_by] == 1 else plural_id
        english = chosen % {k: english_of(v) for k, v in params.items()} if params else chosen
        made = super().__new__(cls, english)
        made.id, made.params, made.plural_id = msgid, params, plural_id
        made.counted_by = counted_by
        return made

    def __reduce__(self) -> tuple[type[Message], tuple[Any, ...]]:
        return Message, (self.id, self.params, self.plural_id, self.counted_by)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"msg": self.id}
        if self.params:
            data["params"] = {k: param_json(v) for k, v in self.params.items()}
        if self.plural_id is not None:
            data.update(plural=self.plural_id, count=self.counted_by)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Message":
        return cls(data["msg"], {k: param_from_json(v) for k, v in data.get("params", {}).items()},
                   data.get("plural"), data.get("count"))

    def renumbered(self, renumber: dict[int, int]) -> "Message":
        return Message(self.id, {k: _renumbered_param(v, renumber) for k, v in self.params.items()},
                       self.plural_id, self.counted_by)


def message(msgid: str, **params: Param) -> Message:
    """A message: `msgid` is the English text with `%(param)s` placeholders."""
    return Message(msgid, params)


def plural(singular: str, plural_id: str, counted: str, /, **params: Param) -> Message:
    """A message with plural forms, chosen by the number in the parameter named
    `counted`: plural("%(who)s drew one card.", "%(who)s drew %(count)s cards.", "count",
    who=Player(id), count=n)."""
    return Message(singular, params, plural_id, counted)


def english_of(value: Param) -> str:
    if isinstance(value, Player):
        return "{name:%d}" % value.id
    if isinstance(value, Listed):
        words = [english_of(item) for item in value.items]
        return ", ".join(words) if value.tally else join_names(words)
    return str(value)


def listed(values: Iterable[Param], tally: bool = False) -> Listed:
    return Listed(tuple(values), tally)


def players(ids: Iterable[int]) -> Listed:
    """The players of these ids, listed."""
    return Listed(tuple(Player(i) for i in ids))


def semicolons(lines: list[Message]) -> Message:
    """Clauses one after another, split by semicolons: "A; B; C"."""
    joined = lines[-1]
    for line in reversed(lines[:-1]):
        joined = message("%(line)s; %(more)s", line=line, more=joined)
    return joined


def param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, Player):
        return {"player": value.id}
    if isinstance(value, Listed):
        data = {"list": [param_json(item) for item in value.items]}
        return {**data, "tally": True} if value.tally else data
    return value


def param_from_json(data: Any) -> Param:
    if isinstance(data, dict):
        if "player" in data:
            return Player(int(data["player"]))
        if "list" in data:
            return Listed(tuple(param_from_json(item) for item in data["list"]),
                          bool(data.get("tally")))
        return Message.from_json(data)
    return cast(Param, data)  # a number or a word, as the message was given it


MESSAGE_KEYS = frozenset(("msg", "params", "plural", "count"))


def is_message_json(data: Any) -> bool:
    """Whether `data` is a message in its JSON form (as a state keeps one)."""
    return (isinstance(data, dict) and isinstance(data.get("msg"), str)
            and data.keys() <= MESSAGE_KEYS)


def text_json(text: str) -> TextJSON:
    """A note's line as stored: a message's id and parameters (a plain string only in
    what was stored before the engines spoke in messages)."""
    return text.to_json() if isinstance(text, Message) else text


def text_from_json(data: Any) -> str:
    """A text kept as JSON (a note's line, a message in a state) as the engine speaks it:
    a message, or a plain string as it was stored."""
    return Message.from_json(data) if isinstance(data, dict) else data


def _renumbered_param(value: Param, renumber: dict[int, int]) -> Param:
    if isinstance(value, Message):
        return value.renumbered(renumber)
    if isinstance(value, Player):
        return Player(renumber.get(value.id, value.id))
    if isinstance(value, Listed):
        return Listed(tuple(_renumbered_param(item, renumber) for item in value.items),
                      value.tally)
    return value


def renumbered_text(text: str, renumber: dict[int, int]) -> str:
    if isinstance(text, Message):
        return text.renumbered(renumber)

    def placeholder(match: re.Match[str]) -> str:
        return "{name:%d}" % renumber.get(int(match.group(1)), int(match.group(1)))
    return NAME_PLACEHOLDER.sub(placeholder, text)


def join_names(names: list[str]) -> str:
    """Names (or any words) as a sentence lists them: "A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
