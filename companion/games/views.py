"""What engines and tests read of views alike: a viewer's own seat, and whether plain data
mentions a secret."""
from __future__ import annotations

from typing import Any


def own_seat(public: dict[str, Any], you: int | None, *keys: str) -> list[dict[str, Any]]:
    """Viewer `you`'s seat of a public state, cut down to `keys`, as a list of one (none
    for the host or the display): what `Game.own_reads` names of the seats when a viewer's
    secrets read their own seat."""
    return [{key: seat.get(key) for key in ("player", *keys)}
            for seat in public["seats"] if seat["player"] == you]


def mentions(value: Any, secret: Any) -> bool:
    """Whether plain data holds a secret as `secrets` declares one: a text anywhere (a
    card), a keyed value under its key ({"bank_total": 12}), or any item of a list."""
    if isinstance(secret, (list, tuple)):
        return any(mentions(value, item) for item in secret)
    if isinstance(value, dict):
        if isinstance(secret, dict) and any(
                key in value and value[key] == item for key, item in secret.items()):
            return True
        return any(mentions(item, secret) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(mentions(item, secret) for item in value)
    return isinstance(secret, str) and value == secret
