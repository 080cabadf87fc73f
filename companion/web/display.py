"""The table display: a public, read-only page for a TV or a laptop at the end of the
table, live like the phones. It shows the public view, as the API gives it to a caller
without a token: no secret, no control that changes anything, no token of its own."""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from ..auth import PUBLIC
from ..table import read
from . import links
from .live_stream import event_stream
from .screen_stream import panel_message
from .screens import panel_context, render_panel

bp = Blueprint("display", __name__, url_prefix="/d/<code>")

SCREEN = "display"


@bp.get("")
def display(code: str):
    table = read.find(code)
    return render_template("display/page.html", **panel_context(table, PUBLIC, SCREEN))


@bp.get("/panel")
def panel(code: str):
    """The display's panel, fetched again after the device slept or lost the network."""
    table = read.find(code)
    return render_panel(table, PUBLIC, SCREEN)


@bp.get("/events")
def events(code: str):
    """The display's stream: its panel at every change of the table."""
    table = read.find(code)
    since = request.args.get("since", "")
    return event_stream(table, PUBLIC, panel_message(SCREEN, PUBLIC),
                        since=int(since) if since.isdigit() else -1)


@bp.get("/history")
def history(code: str):
    """Every move as the table may read it (what the display's log shows, from the start):
    for anyone, while the game is played and after (past games link here)."""
    table = read.find(code)
    return render_template("table/history.html", table=table, screen=SCREEN,
                           view=read.view(table, PUBLIC), undoable={},
                           lines=read.log(table, PUBLIC, html=True, newest_first=True))


@bp.get("/qr.svg")
def qr(code: str):
    """The display's QR code, which the host screen shows: any device that scans it opens
    the display."""
    table = read.find(code)
    return Response(links.qr_svg(links.display_url(table.code)), mimetype="image/svg+xml")
