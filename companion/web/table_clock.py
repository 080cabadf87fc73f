"""The table clock on the screens (companion/table/clock.py keeps its figures): the host
screen's Pause and Resume, and how a time is written ("4:05", "1:02:07", "−0:12" in
overtime). app.js counts the running times on from the view's figures."""
from __future__ import annotations

from flask import Blueprint, redirect, request, url_for

from ..errors import CompanionError
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

