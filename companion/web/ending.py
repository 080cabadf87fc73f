"""The host ending a table nobody plays any more (companion/table/moves.py, `end`): its
confirmation, a page of its own, and the post that ends it, from the host's device only."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import lazy_gettext

from ..errors import conflict
from ..table import moves, read
from .screens import screen_viewer

bp = Blueprint("ending", __name__, url_prefix="/t/<code>")

NOT_PLAYED = {"lobby": lazy_gettext("The game has not started yet."),
              "finished": lazy_gettext("The game is over."), "ended": moves.ENDED}


@bp.get("/end")
def confirm(code: str):
    """What ending the table does, with the button that does it and the way back."""
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    if table.status != "playing":
        raise conflict(NOT_PLAYED[table.status])
    return render_template("table/end_confirm.html", table=table,
                           view=read.view(table, viewer))


@bp.post("/end")
def end(code: str):
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    seen = request.form.get("version", "")
    moves.end(table, viewer, int(seen) if seen.isdigit() else seen or None)
    return redirect(url_for("screens.host", code=code), code=303)
