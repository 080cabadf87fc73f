"""What a screen's stream sends at each change of its table.

The first time (the page connects, or reconnects behind the table) and whenever the
table's status changes, the whole panel. Otherwise the table's parts, one event whose
bytes are the same for every screen of a language (panel_parts.public_event), and the
viewer's own part only when it differs from what this stream last sent of it: a phone
that another player's move leaves as it was is sent the table's parts and nothing else.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

import orjson
from flask import Blueprint, render_template, request

from .. import live
from ..auth import Viewer
from ..games import GAMES
from ..jsontext import OPTIONS
from ..snapshots import Snapshot
from ..table import read
from . import panel_parts
from .panel_parts import game_folder
from .languages import current
from .rules_pages import why_not_lines
from .teaching_screens import lesson_now, lessons_on_the_display
from .live_stream import event_stream
from .screens import (SignedOut, panel_context, render_panel, screen_viewer,
                      signed_out, signed_out_panel)

bp = Blueprint("screen_stream", __name__, url_prefix="/t/<code>")
# A phone signed out asking why its stream is refused is told as the screens tell it.
bp.register_error_handler(SignedOut, signed_out)

# The own part is rendered with this in place of its forms' action id, and compared
# without the version its forms were made on and their CSRF token (which does not
# expire): none is a change of the part. As sent, it gets a fresh action id; the page
# brings its forms' version and action id up to date with each newer version of the
# table's parts (app.js).
ACTION_ID = secrets.token_hex(12)
NOT_A_CHANGE = re.compile(r'name="(?:version|csrf_token)" value="[^"]*"')
# The own part's elements, each sent only when it changed (the turn line of a player
# awaited with others changes at each of their moves, the form under it does not).
OWN_ELEMENTS = re.compile(r'(?=<div id="own-(?:turn|head|foot)"|<template id="own-lines")')
OWN_ID = re.compile(r'<(?:div|template) id="(own-[a-z]+)"')


class ScreenStream:
    """One screen's stream: what it last sent, to send only what changed."""

    def __init__(self, screen: str, viewer: Viewer) -> None:
        self.screen = screen
        self.viewer = viewer
        self.status: str | None = None
        self.own: dict[str, bytes] = {}  # the digest of each own element last sent
        self.inputs: bytes | None = None  # the digest of what the own part read then
        self.can_undo: bool | None = None  # whether its undo button was offered then
        self.public: tuple[int, panel_parts.Cut] | None = None  # the public part last sent

    def message(self, seen: Snapshot) -> str:
        if self.status != seen.status or seen.state is None:
            self.status = seen.status
            html, _ = render_panel(seen, self.viewer, self.screen)
            self.own, self.public, self.inputs, self.can_undo = {}, None, None, None
            if seen.state is not None:
                self.own_changes(seen)  # what the whole panel holds of the own part
                self.public = seen.version, panel_parts.public_cut(seen, game_folder(seen))
            return live.sse_lines("panel", html)
        templates = game_folder(seen)
        sent = live.sse_lines("public", panel_parts.public_event(seen, templates, self.public))
        self.public = seen.version, panel_parts.public_cut(seen, templates)
        changed = self.own_changes(seen)
        if changed:
            own = "".join(changed).replace(ACTION_ID, secrets.token_urlsafe(12))
            sent += live.sse_lines(
                "own", f'<template data-version="{seen.version}"></template>{own}')
        return sent

    def own_changes(self, seen: Snapshot) -> list[str]:
        """The elements of the viewer's own part that changed since this stream last sent
        them. The turn line is rendered every time (it names who else is awaited); the
        rest only when what it reads changed (`own_inputs`), and only the foot when all
        that changed is the undo button it holds (the last mover's, once another moves)."""
        context = dict(panel_context(seen, self.viewer, self.screen, whole=False),
                       action_id=ACTION_ID, fragment=True, oob=True)
        found = {}
        if self.screen != "display":
            found.update(elements(streamed_turn_line(seen, context)))
        inputs, can_undo = own_inputs(seen, context), bool(context["can_undo"])
        if inputs != self.inputs:
            found.update(elements(render_template("table/_own_event.html", **context)))
        elif can_undo != self.can_undo:
            screens = "display" if self.screen == "display" else "table"
            found.update(elements(render_template(f"{screens}/_own_foot.html", **context)))
        self.inputs, self.can_undo = inputs, can_undo
        changed = [html for key, (html, digest) in found.items() if self.own.get(key) != digest]
        self.own.update({key: digest for key, (_, digest) in found.items()})
        return changed


def streamed_turn_line(seen: Snapshot, context: dict[str, Any]) -> str:
    """The viewer's turn line as the stream sends it (the end of the game, which the
    panel also announces, is a whole panel)."""
    turn = panel_parts.own_turn_html(seen, context["view"], context["screen"], True)
    return str(panel_parts.own_turn_element(turn, oob=True))


def elements(own: str) -> dict[str, tuple[str, bytes]]:
    """The own part's elements in `own`, by id, each with the digest of what in it is a
    change."""
    found = {}
    for element in OWN_ELEMENTS.split(own):
        start = OWN_ID.match(element)
        if start:
            digest = hashlib.blake2b(NOT_A_CHANGE.sub("", element).encode(), digest_size=16)
            found[start.group(1)] = (element, digest.digest())
    return found


def own_inputs(seen: Snapshot, context: dict[str, Any]) -> bytes:
    """A digest of what a viewer's own part (but its turn line and its undo button) reads:
    their view but the public state, the version and who is awaited (whether they are
    instead), what the game says their moves and secrets read of the public state and of
    the actions offered (`Game.own_reads`, `Game.own_actions`), and what the templates
    work out from the table (their "why not" lines, their lesson, the display's lessons,
    the log's lines only they read, the players without a phone)."""
    view = context["view"]
    awaited = view["you"] is not None and view["you"] in view["waiting_for"]
    engine = GAMES[seen.game]
    read = [
        context["screen"], current(), request.script_root, seen.next_code, awaited,
        {key: value for key, value in view.items()
         if key not in ("state", "version", "waiting_for", "turn", "actions")},
        (engine.own_reads(view["state"], view["you"], view["actions"]),
         engine.own_actions(view["state"], view["you"], view["actions"],
                            [p.id for p in seen.players if p.local]))
        if view["state"] is not None else view["actions"],
        context["catalogue"], context["own_lines"],
        why_not_lines(seen, view), lesson_now(seen, view),
        lessons_on_the_display(seen) if context["screen"] == "display" else None,
        [repr(context.get(key)) for key in ("phoneless_turns", "local_waiting",
                                             "local_secrets")],
    ]
    text = orjson.dumps(read, option=OPTIONS, default=repr)  # (repr: the players' seats)
    return hashlib.blake2b(text, digest_size=16).digest()


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
