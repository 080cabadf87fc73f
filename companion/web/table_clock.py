"""The table clock on the screens (companion/table/clock.py keeps its figures): the host
screen's Pause and Resume, and how a time is written ("4:05", "1:02:07", "−0:12" in
overtime). app.js counts the running times on from the view's figures."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, request, url_for
from flask_babel import lazy_gettext

from ..errors import CompanionError, bad_request
from ..table import clock, read
from .screens import panel_with_refusal, render_panel, screen_viewer

bp = Blueprint("table_clock", __name__, url_prefix="/t/<code>")

MINUS = "\u2212"


@bp.post("/clock")
def pause(code: str):
    """The host pauses the clock ("paused" 1) or resumes it ("paused" 0)."""
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    try:
        table = clock.pause(table, viewer, request.form.get("paused") == "1")
    except CompanionError as error:
        return panel_with_refusal(table, viewer, "host", error)
    if request.headers.get("HX-Request"):
        return render_panel(table, viewer, "host")
    return redirect(url_for("screens.host", code=table.code), code=303)


@bp.app_template_filter("clock_time")
def clock_time(ms: int) -> str:
    """A time in whole seconds, as a clock shows it: m:ss, or h:mm:ss from an hour;
    below zero (a bank overspent) with a minus sign."""
    seconds = abs(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    shown = f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
    return MINUS + shown if ms <= -1000 else shown


# The new-table form's clock: its fields, their defaults, and what they make.
FORM_DEFAULTS = {"clock_mode": "off", "clock_bank_minutes": "20",
                 "clock_increment_seconds": "0", "clock_warn_seconds": "30"}
BANK_MINUTES = (1, 600)
SECONDS_MOST = 600


def form_values(form: Any = None) -> dict[str, str]:
    """The clock's fields as the form shows them: as typed, or their defaults."""
    return {name: str((form or {}).get(name, default)).strip()
            for name, default in FORM_DEFAULTS.items()}


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
