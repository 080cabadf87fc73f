"""JSON text, encoded by orjson: the views of every stream event and every answer, and
the state written at every move, are encoded on the path of a move (bench/README.md).
What orjson refuses (an integer beyond 64 bits, echoed in an error) goes to the standard
library's encoder; decoding stays the standard library's (orjson reads a huge integer as
a float)."""
from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_NON_STR_KEYS  # integer keys become strings, as with json.dumps


def to_json(value: Any) -> str:
    """Compact JSON text (UTF-8, not \\u-escaped)."""
    try:
        return orjson.dumps(value, option=OPTIONS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON (jsonify, the API's answers) with orjson's encoder: keys sorted and
    anything else (datetimes, dataclasses, Markup) as Flask's default encodes it."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs.keys() - {"separators"}:  # not an indented dump (debug mode)
            try:
                return orjson.dumps(obj, default=self.default,
                                    option=OPTIONS | orjson.OPT_SORT_KEYS
                                    | orjson.OPT_PASSTHROUGH_DATETIME
                                    | orjson.OPT_PASSTHROUGH_DATACLASS).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)
