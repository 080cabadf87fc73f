"""The new-table form's table clock: its fields, their defaults, and the clock they make
(companion/games/clock.py has the setting's rules)."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext

from ..errors import bad_request

FORM_DEFAULTS = {"clock_mode": "off", "clock_bank_minutes": "20",
                 "clock_increment_seconds": "0", "clock_warn_seconds": "30"}
BANK_MINUTES = (1, 600)
SECONDS_MOST = 600


def form_values(form: Any = None, saved: dict[str, Any] | None = None) -> dict[str, str]:
    """The clock's fields as the form shows them: as typed, or else as the clock saved
    (with the defaults or a saved sheet), or else their defaults."""
    defaults = {**FORM_DEFAULTS, **saved_values(saved)}
    return {name: str((form or {}).get(name, default)).strip()
            for name, default in defaults.items()}


def saved_values(clock: dict[str, Any] | None) -> dict[str, str]:
    """A saved clock as the form's fields."""
    if not clock:
        return {}
    values = {"clock_mode": clock["mode"], "clock_warn_seconds": str(clock["warn_seconds"])}
    if clock["mode"] == "bank":
        values.update(clock_bank_minutes=str(max(1, clock["bank_seconds"] // 60)),
                      clock_increment_seconds=str(clock["increment_seconds"]))
    return values


def _whole(value: str, least: int, most: int, refusal: Any) -> int:
    if not value.isdigit() or not least <= int(value) <= most:
        raise bad_request(refusal)
    return int(value)


def from_form(form: Any) -> dict[str, Any] | None:
    """The clock the new-table form asks for (None: no clock); a value out of range is
    refused in the reader's language, saying what the field takes."""
    values = form_values(form)
    mode = values["clock_mode"]
    if mode == "off":
        return None
    warn = _whole(values["clock_warn_seconds"], 0, SECONDS_MOST, lazy_gettext(
        "The warning is a whole number of seconds from 0 to %(most)s.", most=SECONDS_MOST))
    if mode == "count_up":
        return {"mode": "count_up", "warn_seconds": warn}
    if mode != "bank":
        raise bad_request(lazy_gettext("Choose one of the clocks offered."))
    minutes = _whole(values["clock_bank_minutes"], *BANK_MINUTES, lazy_gettext(
        "The time bank is a whole number of minutes from %(least)s to %(most)s.",
        least=BANK_MINUTES[0], most=BANK_MINUTES[1]))
    increment = _whole(values["clock_increment_seconds"], 0, SECONDS_MOST, lazy_gettext(
        "The time added after each move is a whole number of seconds from 0 to %(most)s.",
        most=SECONDS_MOST))
    return {"mode": "bank", "bank_seconds": minutes * 60, "increment_seconds": increment,
            "warn_seconds": warn}
