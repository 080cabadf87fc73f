"""What a request to a table must be: the sentence for a refused one, and the envelope
around an action (its fields sit beside the envelope's in one JSON object)."""
from __future__ import annotations

from typing import Any, Optional

from pydantic import (BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError,
                      field_validator)

from ..errors import bad_request

ACTION_ID_MAX = 64


def validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error["loc"])
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    return "That was not understood (" + "; ".join(parts) + ")."


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
    "version": "version is a whole number.",
    "action_id": f"action_id is a text of 1 to {ACTION_ID_MAX} printable characters.",
    "as": '"as" is a player id.',
}
ENVELOPE_KEYS = set(REFUSED)


def read_envelope(data: Any) -> tuple[Envelope, dict]:
    """The envelope of a posted action, and the action's own fields."""
    if not isinstance(data, dict):
        raise bad_request('An action is an object with a "type".')
    try:
        envelope = Envelope.model_validate(data)
    except ValidationError as exc:
        raise bad_request(REFUSED[exc.errors()[0]["loc"][0]]) from None
    return envelope, {k: v for k, v in data.items() if k not in ENVELOPE_KEYS}
