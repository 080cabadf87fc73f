"""A panel in its parts: the table's, the same for every screen of a language and rendered
once per version (whose turn it is, the game's public part, the last lines of the log),
and the viewer's own (their turn where it reads otherwise, their moves, their secrets,
their tools, the log's lines only they read).

A page or a move's answer is the whole panel, with the table's parts marked for its
viewer (public_part.for_viewer). A screen's stream sends the table's parts as one event
whose bytes are the same for every screen, and the viewer's own only when they changed
(screen_stream.py).
"""
from __future__ import annotations

from typing import Any

from flask import render_template, request
from markupsafe import Markup

from ..auth import PUBLIC, Viewer
from ..games import GAMES
from ..snapshots import Snapshot
from ..table import read
from . import public_part, public_pieces
from .languages import current
from .templating import template_exists

LOG_LINES = 6
OOB = ' hx-swap-oob="morph"'


def game_folder(table: Snapshot) -> str:
    """Where the game's own screen templates are (_actions, _private, _public, ...)."""
    return "table/" + GAMES[table.game].folder


def _shared_key(kind: str) -> tuple:
    """What names a table's part of a version: the part, the address prefix (should a
    proxy serve the app under several) and the language."""
    return (kind, request.script_root, current())


def public_turn(table: Snapshot, templates: str) -> Markup:
    """Whose turn it is, as the table display says it (no one's "your turn")."""
    def render() -> Markup:
        turn = render_template("table/_turn.html", view=read.view(table, PUBLIC),
                               names=read.names_of(table), templates=templates,
                               screen="display", fragment=False, table=table)
        return Markup(turn.strip())
    return table.memo(_shared_key("public-turn"), render)


def own_turn_html(table: Snapshot, view: dict[str, Any], screen: str,
                  fragment: bool) -> Markup | None:
    """The viewer's turn line where it reads otherwise than the table's (theirs to play,
    or a game's own words for them); None where it reads the same. A game's own words
    read alike for every viewer of a screen it does not await (docs/developers.md): theirs
    is worked out once."""
    templates = game_folder(table)
    awaited = view["you"] is not None and view["you"] in view["waiting_for"]
    if not awaited and not template_exists(templates + "/_turn_text.html"):
        return None  # the line a viewer not awaited reads is the table's

    def render() -> Markup | None:
        mine = render_template("table/_turn.html", view=view, names=read.names_of(table),
                               templates=templates, screen=screen, fragment=fragment,
                               table=table).strip()
        return None if mine == public_turn(table, templates) else Markup(mine)
    if awaited:
        return render()
    return table.memo(_shared_key("idle-turn") + (screen, fragment), render)


def own_turn_element(turn: Markup | None, oob: bool = False,
                     announced: str | None = None) -> Markup:
    """The element of the viewer's turn line (`turn`: own_turn_html's), marked where it
    stands for the table's (which the page then hides); with `announced`, what screen
    readers are told with it. The panel and the stream both send this one."""
    told = Markup('<div hx-swap-oob="innerHTML:#announcer">{}</div>').format(announced) \
        if announced else ""
    return Markup('<div id="own-turn"{}{}>{}{}</div>').format(
        Markup(OOB) if oob else "", Markup(" data-own-turn") if turn is not None else "",
        turn or "", told)


def public_log(table: Snapshot) -> list[dict]:
    return read.log(table, PUBLIC, limit=LOG_LINES, html=True, newest_first=True)


def public_log_html(table: Snapshot) -> Markup:
    """The last lines of the log as the table reads them."""
    return table.memo(_shared_key("public-log"), lambda: Markup(
        render_template("table/_log.html", log=public_log(table)).strip()))


def board(table: Snapshot, templates: str, viewer_you: int | None, idle: bool) -> Markup:
    """The game's public part, marked for one viewer."""
    marked = public_part.for_viewer(public_part.public_html(table, templates, LOG_LINES),
                                    viewer_you, idle)
    return Markup(f'<div id="public" data-version="{table.version}">') + marked + \
        Markup("</div>")


def parts_for_viewer(table: Snapshot, viewer: Viewer, view: dict[str, Any],
                     templates: str, whole: bool = True) -> dict[str, Any]:
    """The table's parts of a whole panel for this viewer (unless not `whole`: the own
    part alone), and the log's lines they read otherwise than the table."""
    if table.state is None:
        return {"public_turn": None, "public": None, "public_log": None, "own_lines": []}
    mine = read.log(table, viewer, limit=LOG_LINES, html=True, newest_first=True)
    if not whole:
        return {"own_lines": own_lines(table, mine), "log": mine}
    return {
        "public_turn": public_turn(table, templates),
        "public": board(table, templates, view["you"], idle=not view["actions"]),
        "public_log": Markup(render_template("table/_log.html", log=mine).strip()),
        "own_lines": own_lines(table, mine),
        "log": mine,
    }


def own_lines(table: Snapshot, mine: list[dict]) -> list[dict]:
    """Of a viewer's last lines of the log, those that read otherwise than the table's."""
    shared = {line["seq"]: line["summary"] for line in public_log(table)}
    return [line for line in mine if shared.get(line["seq"]) != line["summary"]]


Cut = tuple  # a public part's frame and pieces (public_pieces.cut)


def public_cut(table: Snapshot, templates: str) -> Cut:
    """The game's public part of this version, cut into its frame and pieces."""
    return table.memo(_shared_key("public-cut"), lambda: public_pieces.cut(
        public_part.shared_html(table, templates, LOG_LINES)))


def public_event(table: Snapshot, templates: str, since: tuple[int, Cut] | None) -> str:
    """The table's parts of this version as one event's HTML, the same bytes for every
    screen of this language that was sent the same version before (`since`: that
    version and its public part): each part replaces the screen's own copy (htmx's
    out-of-band swaps), the page marking it for its viewer (app.js). Of the game's public
    part, only the pieces that changed since, where its frame stayed the same (the event
    then names the version it builds on, `data-base`); else the whole part."""
    def render() -> str:
        now = public_cut(table, templates)
        pieces = public_pieces.changed(since[1], now) if since is not None else None
        based = f' data-base="{since[0]}"' if since is not None and pieces is not None else ""
        turn = (f'<div id="public-turn"{OOB} class="public-turn" data-version="{table.version}"'
                f'{based}>{public_turn(table, templates)}</div>')
        board = ("".join(pieces) if pieces is not None else
                 f'<div id="public"{OOB} data-version="{table.version}">'
                 f'{public_part.shared_html(table, templates, LOG_LINES)}</div>')
        log = str(public_log_html(table)).replace('<section class="log" id="public-log"',
                                                  f'<section class="log" id="public-log"{OOB}', 1)
        return turn + board + log
    key = _shared_key("public-event") + (since[0] if since is not None else None,)
    return table.memo(key, render)
