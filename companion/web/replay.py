"""A finished game's replay, move by move (each step at its own address, swapped in by
htmx where it runs), and a game's record opened from a file: downloaded at the end of a
game, on this server or another."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext
from jinja2 import TemplateNotFound
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from .. import records
from ..auth import PUBLIC, Viewer
from ..extensions import csrf, limiter
from ..games import GAMES
from ..games.messages import text_from_json
from ..record_import import import_record, is_record
from ..table import read, replaying
from ..table.replaying import Step
from ..transfer import ImportRefused, parse_json
from ..i18n import messages
from . import public_part
from .panel_parts import LOG_LINES, game_folder

bp = Blueprint("replay", __name__)

SEEK_FORM = "replay-seek"  # the slider's form: a step it asked for leaves the slider be
RECORD_LIMIT = 2 * 1024 * 1024  # bytes: the longest games' records are a few hundred KB
TOO_LARGE = lazy_gettext("That file is larger than 2 MB: it is not a Companion game record.")
NO_FILE = lazy_gettext("Choose the record file to open (the .json file downloaded at the end of "
                       "a game).")
AN_EXPORT = lazy_gettext("That file is a whole server's export: the server's keeper imports it "
                         "with `flask import`. Here a single game's record opens.")
NOT_TEXT = lazy_gettext("That file is not text: it is not a Companion game record.")


def line_of(notes: list, viewer: Viewer, names: dict[int, str]) -> Markup:
    return read.summary(notes, viewer, names, html=True)


def secret_lines(notes: list, names: dict[int, str]) -> list[tuple[str, Markup]]:
    """The lines of a move that only some player read at the time (by that player)."""
    found = []
    for note in notes:
        for player, text in note.get("private", {}).items():
            found.append((names.get(int(player), gettext("someone")),
                          messages.render(text_from_json(text), names, html=True)))
    return found


def step_context(table, step: Step) -> dict:
    """What a step of the replay shows: the public table as it was, every player's own
    part, and the move's line of the log."""
    then = step.table
    names = read.names_of(table)
    templates = game_folder(table)
    view = read.view(then, PUBLIC)
    log = [{"summary": line_of(move.notes, PUBLIC, names), "undone": False}
           for move in reversed(step.moves[-LOG_LINES:])]
    public = public_part.for_viewer(public_part.pieces(render_template(
        templates + "/_public.html", view=view, log=log, names=names)), None, idle=True)
    return {
        "table": table, "step": step, "view": view, "names": names, "public": public,
        "templates": templates, "folder": GAMES[table.game].folder, "screen": "replay",
        "line": line_of(step.move.notes, PUBLIC, names) if step.move else None,
        "secret_lines": secret_lines(step.move.notes, names) if step.move else [],
        "secrets": player_parts(then, templates),
        "chart": records.score_chart(table) if view["result"] else None,
    }


def player_parts(then, templates: str) -> list[tuple[object, dict]]:
    """Each player's own view of the table as it was, where the game has such a part."""
    try:
        current_app.jinja_env.get_template(templates + "/_private.html")
    except TemplateNotFound:  # a game without secrets
        return []
    parts = []
    for player in then.players:
        view = read.view(then, Viewer(player_id=player.id))
        if view["private"]:
            parts.append((player, view))
    return parts


@bp.get("/t/<code>/replay")
def replay(code: str):
    table = read.find(code)
    step = replaying.step(table, request.args.get("step"))
    context = step_context(table, step)
    if request.headers.get("HX-Request") and not request.headers.get(
            "HX-History-Restore-Request"):
        return render_template("replay/_step.html", fragment=True,
                               move_slider=request.headers.get("HX-Trigger") != SEEK_FORM,
                               **context)
    return render_template("replay/page.html", **context)


@bp.post("/games/records")
@csrf.exempt  # checked below, once the larger limit of a file is set
@limiter.limit("20/minute")
def upload():
    """A game's record file opened here: imported (once), then shown at its end."""
    request.max_content_length = RECORD_LIMIT
    try:
        csrf.protect()
        upload = request.files.get("record")
    except RequestEntityTooLarge:
        return upload_refused(TOO_LARGE, 413)
    if upload is None or not upload.filename:
        return upload_refused(NO_FILE, 400)
    try:
        content = upload.read(RECORD_LIMIT + 1)
        if len(content) > RECORD_LIMIT:
            return upload_refused(TOO_LARGE, 413)
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            return upload_refused(NOT_TEXT, 400)
        name = upload.filename[:80]  # (as the phone named it: the refusals name it so)
        document = parse_json(text, name)
        if not is_record(document) and isinstance(document, dict) and "tables" in document:
            return upload_refused(AN_EXPORT, 400)
        code, imported = import_record(document, name)
    except ImportRefused as refusal:
        return upload_refused(refusal.message, refusal.status)
    if not imported:
        return upload_refused(gettext("This game is already on this server, as table %(code)s: "
                                      "nothing was imported.", code=code), 409, code=code)
    last = len(replaying.moves_of(read.find(code)))
    return redirect(url_for("replay.replay", code=code, step=last), code=303)


def upload_refused(message: str, status: int, code: str | None = None) -> tuple[str, int]:
    return render_template("lobby/record_refused.html", upload_error=str(message),
                           existing=code), status
