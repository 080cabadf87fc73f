"""Handing a finished play on to BG Stats: the link on each phone's result, which opens
the player's own BG Stats with the play filled in, and the QR code the host screen and
the table display show, of an address here that forwards to that link.

The QR holds this server's short address rather than the link itself: a twenty-player
link is longer than a QR code can hold (docs/playing.md, "Logging the play in BG Stats"),
and a short one is read at a glance from across the table. The phone that scans it gets
the play in its own language."""
from __future__ import annotations

from flask import Blueprint, redirect, url_for
from markupsafe import Markup

from ..i18n import messages
from ..snapshots import Snapshot
from ..table import bg_stats, read
from . import links

bp = Blueprint("handing_on", __name__)


@bp.get("/t/<code>/bgstats")
def forward(code: str):
    """To the play's createPlay link (409 before the end)."""
    return redirect(bg_stats.create_play_link(bg_stats.play(read.find(code))), 303)


@bp.app_template_global()
def bgstats_link(table: Snapshot) -> str | None:
    """The createPlay link of a finished table, in the reader's language; None before."""
    if table.status != "finished":
        return None
    return table.memo(("bgstats", messages.language()),
                      lambda: bg_stats.create_play_link(bg_stats.play(table)))


@bp.app_template_global()
def bgstats_qr(table: Snapshot) -> Markup | None:
    """The QR code of the address that forwards to the play's link; None before the end."""
    if table.status != "finished":
        return None
    return links.qr_svg(links.base_url() + url_for("handing_on.forward", code=table.code))
