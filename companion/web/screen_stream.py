"""What a screen's stream sends at each change of its table.

The first time (the page connects, or reconnects behind the table) and whenever the
table's status changes, the whole panel. Otherwise the table's parts, one event whose
bytes are the same for every screen of a language (panel_parts.public_event), and the
viewer's own part only when it differs from what this stream last sent of it: a phone
that another player's move leaves as it was is sent the table's parts and nothing else.
"""
from __future__ import annotations

import hashlib

from flask import Blueprint, render_template, request

from .. import live
from ..auth import Viewer
from ..snapshots import Snapshot
from ..table import read
from . import panel_parts
from .live_stream import event_stream
from .screens import (game_folder, panel_context, render_panel, screen_viewer,
                      signed_out_panel)

bp = Blueprint("screen_stream", __name__, url_prefix="/t/<code>")


class ScreenStream:
    """One screen's stream: what it last sent, to send only what changed."""

    def __init__(self, screen: str, viewer: Viewer) -> None:
        self.screen = screen
        self.viewer = viewer
        self.status: str | None = None
        self.own: bytes | None = None  # the digest of the own part last sent

    def message(self, seen: Snapshot) -> str:
        if self.status != seen.status or seen.state is None:
            self.status = seen.status
            html, _ = render_panel(seen, self.viewer, self.screen)
            self.own = self.own_part(seen)[1] if seen.state is not None else None
            return live.sse_lines("panel", html)
        sent = live.sse_lines("public", panel_parts.public_event(seen, game_folder(seen)))
        own, digest = self.own_part(seen)
        if digest != self.own:
            self.own = digest
            sent += live.sse_lines(
                "own", f'<template data-version="{seen.version}"></template>{own}')
        return sent

    def own_part(self, seen: Snapshot) -> tuple[str, bytes]:
        """The viewer's own part of the panel as the stream sends it, and its digest."""
        own = render_template("table/_own_event.html", fragment=True, oob=True,
                              **panel_context(seen, self.viewer, self.screen))
        return own, hashlib.blake2b(own.encode(), digest_size=16).digest()


def panel_message(screen: str, viewer: Viewer):
    """What a screen's stream sends at each version (see ScreenStream)."""
    return ScreenStream(screen, viewer).message


@bp.get("/events")
def events(code: str):
    """The screen's stream: its changes as they come, and its whole panel at once when the
    page (or a stream that reconnects) holds an older version than `since` says."""
    table = read.find(code)
    screen = request.args.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    since = request.args.get("since", "")
    return event_stream(table, viewer, panel_message(screen, viewer),
                        since=int(since) if since.isdigit() else -1,
                        revoked=live.sse_lines("revoked",
                                               signed_out_panel(table, str(live.REVOKED_MESSAGE))))
