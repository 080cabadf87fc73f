"""What a request to a table must be: the sentence for a refused one, and the envelope
around an action (its fields sit beside the envelope's in one JSON object)."""
from __future__ import annotations

from typing import Any, Optional

from flask_babel import lazy_gettext
from pydantic import (BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError,
                      field_validator)
from pydantic_core import ErrorDetails

from ..errors import bad_request

ACTION_ID_MAX = 64


# What was wrong with a field, in the reader's language (the field's name stays as the
# contract spells it): the errors a person may make by hand, each in its words; the rest
# by their kind.
FIELD_ERRORS = {
    "greater_than_equal": lazy_gettext("%(field)s: at least %(limit)s"),
    "greater_than": lazy_gettext("%(field)s: more than %(limit)s"),
    "less_than_equal": lazy_gettext("%(field)s: at most %(limit)s"),
    "less_than": lazy_gettext("%(field)s: less than %(limit)s"),
    "int_parsing": lazy_gettext("%(field)s: a whole number"),
    "int_type": lazy_gettext("%(field)s: a whole number"),
    "int_from_float": lazy_gettext("%(field)s: a whole number"),
    "missing": lazy_gettext("%(field)s: missing"),
    "string_too_long": lazy_gettext("%(field)s: too long"),
    "string_too_short": lazy_gettext("%(field)s: too short"),
    "too_long": lazy_gettext("%(field)s: too many"),
    "too_short": lazy_gettext("%(field)s: too few"),
    "extra_forbidden": lazy_gettext("%(field)s: not expected here"),
    "literal_error": lazy_gettext("%(field)s: one of %(limit)s"),
    "enum": lazy_gettext("%(field)s: one of %(limit)s"),
}
WRONG_KIND = lazy_gettext("%(field)s: not the right kind of value")
NOT_VALID = lazy_gettext("%(field)s: not valid")
WHOLE = lazy_gettext("the input")  # the field of an error about the input as a whole


def field_problem(error: ErrorDetails) -> str:
    """One error of pydantic's, in the reader's language: the field, and what is wrong."""
    where = ".".join(str(part) for part in error["loc"]) or str(WHOLE)
    kind = error["type"]
    said = FIELD_ERRORS.get(kind) or (
        WRONG_KIND if kind.endswith(("_type", "_parsing")) else NOT_VALID)
    limit = next(iter((error.get("ctx") or {}).values()), "")
    if kind in ("literal_error", "enum"):  # the values, as the contract spells them
        limit = str(limit).replace(" or ", ", ")  # (pydantic joins the last in English)
    return said % {"field": where, "limit": limit}


def validation_message(exc: ValidationError) -> str:
    return lazy_gettext("That was not understood (%(details)s).",
                        details="; ".join(field_problem(error) for error in exc.errors()[:3]))


class Envelope(BaseModel):
    """The envelope of an action; what it leaves out is the action's own."""

    model_config = ConfigDict(extra="ignore")

    version: Optional[StrictInt] = Field(None, description="409 stale when not current.")
    action_id: Optional[StrictStr] = Field(None, min_length=1, max_length=ACTION_ID_MAX,
                                           description="A retried action_id applies once.")
    as_: Optional[StrictInt] = Field(None, alias="as",
                                     description="The host acting for a player.")

    @field_validator("action_id")
    @classmethod
    def printable(cls, value: str | None) -> str | None:
        if value is not None and not value.isprintable():
            raise ValueError("not printable")
        return value


REFUSED = {
    "version": lazy_gettext("version is a whole number."),
    "action_id": lazy_gettext("action_id is a text of 1 to %(most)s printable characters.",
                              most=ACTION_ID_MAX),
    "as": lazy_gettext('"as" is a player id.'),
}
ENVELOPE_KEYS = set(REFUSED)


def read_envelope(data: Any) -> tuple[Envelope, dict]:
    """The envelope of a posted action, and the action's own fields."""
    if not isinstance(data, dict):
        raise bad_request(lazy_gettext('An action is an object with a "type".'))
    try:
        envelope = Envelope.model_validate(data)
    except ValidationError as exc:
        raise bad_request(REFUSED[str(exc.errors()[0]["loc"][0])]) from None
    return envelope, {k: v for k, v in data.items() if k not in ENVELOPE_KEYS}
