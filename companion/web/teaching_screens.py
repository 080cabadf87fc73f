"""A first game taught at the table, on the screens: the lesson of the step a player is at
(with "Got it") and the table display's lessons for everyone (companion/table/teaching.py
decides what is due)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from ..errors import CompanionError
from ..i18n import messages
from ..snapshots import Snapshot
from ..table import read, teaching
from .rules_pages import has_rules_page, rule_address, section_now
from .screens import after_change, panel_with_refusal, screen_viewer

bp = Blueprint("teaching", __name__, url_prefix="/t/<code>")


@bp.post("/got-it")
def got_it(code: str):
    """A player has read the lesson of a kind of step."""
    table = read.find(code)
    screen = request.form.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    try:
        table = teaching.got_it(table, viewer, request.form.get("step"))
    except CompanionError as error:
        return panel_with_refusal(table, viewer, screen, error)
    return after_change(table, viewer, screen)


def lesson(table: Snapshot, step: str, text: str) -> dict[str, Any]:
    return {"step": step, "text": messages.render(text, read.names_of(table), html=True),
            "rule": (rule_address(table.game, section_now(table), table.code)
                     if has_rules_page(table.game) else None)}


@bp.app_template_global()
def lesson_now(table: Snapshot, view: dict[str, Any]) -> dict[str, Any] | None:
    """The lesson this viewer's screen shows now, if any."""
    due = teaching.lesson_for(table, view["you"])
    return lesson(table, *due) if due else None


@bp.app_template_global()
def lessons_on_the_display(table: Snapshot) -> list[dict[str, Any]]:
    return [lesson(table, step, text) for step, text in teaching.lessons_for_the_table(table)]
