"""The phone and host screens, the fragments htmx swaps into them, and their stream."""
from __future__ import annotations

import hmac
import re
import secrets
from typing import Any

from flask import (Blueprint, Response, current_app, jsonify, redirect, render_template,
                   request, url_for)
from flask_babel import gettext, lazy_gettext
from jinja2 import TemplateNotFound
from werkzeug.datastructures import MultiDict

from .. import records, store
from ..auth import Viewer, cookie_viewer, host_cookie, player_cookie
from ..errors import CompanionError, bad_request, forbidden, not_found
from ..games import GAMES
from ..snapshots import Snapshot
from ..table import moves, read, seating
from ..table.result_text import result_text
from . import entry_checks, languages, links, options_form, panel_parts
from .errors import error_answer
from .form_actions import form_action
from .lobby import set_cookie
from .panel_parts import game_folder

bp = Blueprint("screens", __name__, url_prefix="/t/<code>")

LOCAL_SCREEN = re.compile(r"as-(\d{1,12})")
NOT_SEATED = lazy_gettext("This device is not seated at this table: if the seat is yours, ask "
                          "the host for your rejoin code.")


class SignedOut(CompanionError):
    """A phone whose cookie holds no seat here (any more): its seat was given to a new
    phone, or removed."""

    def __init__(self, table_code: str, message: str | None = None):
        super().__init__("forbidden", str(NOT_SEATED) if message is None else message)
        self.table_code = table_code


def screen_viewer(table: Snapshot, screen: str) -> Viewer:
    """Who a screen's request stands for: "phone" (the player cookie), "host" (the host
    cookie), or "as-<id>" (the host device acting for a player who has no phone)."""
    local = LOCAL_SCREEN.fullmatch(screen or "")
    viewer = cookie_viewer(table, request, host=screen == "host" or bool(local))
    if viewer is None:
        if screen == "phone":
            raise SignedOut(table.code)
        raise forbidden(gettext("Only the device that created the table shows the host screen."))
    if local:
        player = table.seat(int(local.group(1)))
        if player is None or not player.local:
            raise forbidden(gettext("The host acts only for players without a phone."))
        return Viewer(player_id=player.id, token_hash=player.token_hash)
    return viewer


def panel_context(table: Snapshot, viewer: Viewer, screen: str,
                  error: CompanionError | None = None, second_look: dict | None = None,
                  whole: bool = True) -> dict:
    """What a screen's panel shows this viewer (unless not `whole`: its own part)."""
    view = read.view(table, viewer)
    names = read.names_of(table)
    templates = game_folder(table)
    return {
        "table": table, "view": view, "screen": screen, "names": names,
        **panel_parts.parts_for_viewer(table, viewer, view, templates, whole),
        "folder": GAMES[table.game].folder, "templates": templates,
        "error": error, "second_look": second_look,
        "first_player_role": GAMES[table.game].first_player_role,
        "picked": picked_line(table, viewer, names),
        "can_undo": moves.can_undo(table, viewer),
        "action_id": secrets.token_urlsafe(12),
        "join_url": links.join_url(table.code) if table.status == "lobby" else None,
        "display_url": links.display_url(table.code) if screen == "host" else None,
        "chart": (records.score_chart(table)
                  if table.status == "finished" and (view["result"] or {}).get("scored", True)
                  else None),
        "result_text": (result_text(table, languages.regional())
                        if table.status == "finished" else None),
        "catalogue": remembered_entries(table, view["actions"]),
        "settled_by_count": (options_form.settled_by_count(GAMES[table.game], table.options,
                                                           len(table.players))
                             if table.status == "lobby" else []),
        **phoneless_steps(table, view, screen),
    }


def picked_line(table: Snapshot, viewer: Viewer, names: dict[int, str]) -> str | None:
    """In the lobby, the log's line of the random pick that chose who starts, if one did."""
    notes = seating.random_pick(table)
    return read.summary(notes, viewer, names, html=True) if notes else None


def phoneless_steps(table: Snapshot, view: dict, screen: str) -> dict:
    """On the host screen, the players without a phone: each the table awaits whose step is
    public is played there, with their name on its buttons (`phoneless_turns`: the player,
    their view without its private part; a move any of them makes for the table, the
    game's `shared_actions`, is shown once); the others awaited, and every secret step,
    behind the "pass the device" cover (`local_waiting`); and the rest who keep secrets
    (goal cards...), told where to see them, behind the cover too (`local_secrets`: none
    while the game keeps none, as a score sheet without secret entry)."""
    if screen != "host" or table.status != "playing":
        return {"phoneless_turns": [], "local_waiting": [], "local_secrets": []}
    engine = GAMES[table.game]
    local = [p for p in table.players if p.local]
    waiting = [p for p in local if p.id in view["waiting_for"]]
    public = [p for p in waiting if engine.public_step(table.state, p.id)]
    turns, shown = [], []
    for player in public:
        theirs = dict(read.view(table, Viewer(player_id=player.id)), private=None)
        theirs["actions"] = [a for a in theirs["actions"]
                             if a["type"] not in engine.shared_actions or a not in shown]
        shown += theirs["actions"]
        if theirs["actions"]:
            turns.append({"player": player, "view": theirs,
                          "catalogue": remembered_entries(table, theirs["actions"])})
    covered = [p for p in waiting if p not in public]
    return {"phoneless_turns": turns, "local_waiting": covered,
            "local_secrets": [p for p in local if p not in covered
                              and engine.keeps_secrets(table.state)
                              and engine.view(table.state, p.id)[1] is not None],
            "secrets_called": engine.secrets_called}


def remembered_entries(table: Snapshot, actions: list[dict]) -> list[dict]:
    """Entries typed at earlier tables that this viewer could enter again now (less what
    this table already holds)."""
    engine = GAMES[table.game]
    for action in actions:
        field = engine.remembered.get(action["type"])
        if field:
            return records.catalogue(table.game, action["type"], field, here=table)
    return []


def render_panel(table: Snapshot, viewer: Viewer, screen: str,
                 error: CompanionError | None = None, status: int = 200,
                 second_look: dict | None = None):
    context = panel_context(table, viewer, screen, error, second_look)
    template = "display/_panel.html" if screen == "display" else "table/_panel.html"
    return render_template(template, fragment=True, **context), status


@bp.errorhandler(SignedOut)
def signed_out(error: SignedOut):
    """A phone's page asking (htmx, or its check of a refused stream) is told, by a panel
    that replaces its own for good; any other request gets the error as usual."""
    if not request.headers.get("HX-Request"):
        return error_answer(error)
    table = read.find(error.table_code)
    return signed_out_panel(table, error.message), 403


def signed_out_panel(table: Snapshot, message: str) -> str:
    return render_template("table/_signed_out.html", table=table, message=message)


@bp.get("")
def phone(code: str):
    table = read.find(code)
    viewer = cookie_viewer(table, request)
    if viewer is None:  # in the lobby a seat is taken; after it, the game is watched
        if table.status == "lobby":
            return redirect(url_for("lobby.join_form", code=table.code))
        return redirect(url_for("display.display", code=table.code))
    return render_template("table/phone.html", **panel_context(table, viewer, "phone"))


@bp.get("/host")
def host(code: str):
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    return render_template("table/host.html", **panel_context(table, viewer, "host"))


@bp.get("/panel")
def panel(code: str):
    table = read.find(code)
    screen = request.args.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    since = request.args.get("since", "")
    if since.isdigit() and int(since) == table.version:
        return Response(status=204)
    return render_panel(table, viewer, screen)


@bp.post("/act")
def act(code: str):
    table = read.find(code)
    screen = request.form.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    try:
        action = form_action(request.form)
        entry_checks.check_drawn_for(request.form,
                                     lambda: render_panel(table, viewer, screen)[0])
        look = entry_checks.second_look(table, viewer, request.form, action)
        if look:
            return render_panel(table, viewer, screen, status=entry_checks.SECOND_LOOK_STATUS,
                                second_look=look)
        move = moves.act(table, viewer, action)
    except CompanionError as error:
        return panel_with_refusal(table, viewer, screen, error)
    return after_change(move.table, viewer, screen)


def panel_with_refusal(table: Snapshot, viewer: Viewer, screen: str, error: CompanionError):
    """The panel with the reason a change was refused, showing the table as it is now
    (it may be refused because the table moved on)."""
    return render_panel(store.latest(table), viewer, screen, error, error.status)


def after_change(table: Snapshot, viewer: Viewer, screen: str):
    """The answer to a change made from a screen, given the table after it."""
    if LOCAL_SCREEN.fullmatch(screen):
        # A player without a phone made their move: cover their secrets again at once.
        target = url_for("screens.host", code=table.code)
        if request.headers.get("HX-Request"):
            return Response(status=204, headers={"HX-Redirect": target})
        return redirect(target, code=303)
    if request.headers.get("HX-Request"):
        return render_panel(table, viewer, screen)
    target = "screens.host" if screen == "host" else "screens.phone"
    return redirect(url_for(target, code=table.code), code=303)


@bp.get("/preview")
def preview(code: str):
    """What an action would do, before it is confirmed (Go Big: which sets it beats)."""
    table = read.find(code)
    screen = request.args.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    try:
        confirm = current_app.jinja_env.get_template(f"{game_folder(table)}/_confirm.html")
    except TemplateNotFound:  # a game whose moves need no confirmation
        raise not_found(gettext("This game has no preview of a move.")) from None
    action = form_action(request.args)
    try:
        lines = moves.preview(table, viewer, action)
    except CompanionError as error:  # a move that would be refused: its preview says why
        status = 200 if error.code in ("bad_request", "illegal") else error.status
        return render_template("_error.html", error=error), status
    acting_for = table.seat(action.get("as")) if viewer.is_host else None
    if (acting_for is None or not acting_for.local
            or not GAMES[table.game].public_step(table.state, acting_for.id)):
        acting_for = None
    view = (dict(read.view(table, Viewer(player_id=acting_for.id)), private=None)
            if acting_for else read.view(table, viewer))
    return render_template(confirm, action=action, lines=lines, view=view, screen=screen,
                           action_id=secrets.token_urlsafe(12), table=table,
                           acting_for=acting_for)


@bp.get("/undo")
def undo_confirm(code: str):
    """Says exactly what an undo would take back, with the button that does it."""
    table = read.find(code)
    screen = request.args.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    steps = request.args.get("steps", "1")
    undoable = moves.undoable(table, viewer)
    if not steps.isdigit() or not 1 <= int(steps) <= len(undoable):
        return render_template("_error.html", error=CompanionError(
            "illegal", gettext("There is nothing to undo there."))), 422
    names = read.names_of(table)
    lines = [read.summary(e.notes, viewer, names, html=True)
             for e in undoable[:int(steps)]]
    # Without the script the confirmation is a page of its own, with its way back.
    page = ("table/_undo_confirm.html" if request.headers.get("HX-Request")
            else "table/undo_confirm.html")
    return render_template(page, table=table, screen=screen, steps=int(steps), lines=lines)


@bp.post("/undo")
def undo(code: str):
    table = read.find(code)
    screen = request.form.get("screen", "phone")
    viewer = screen_viewer(table, screen)
    steps = request.form.get("steps", "1")
    seen = request.form.get("version", "")
    try:
        after = moves.undo(table, viewer, int(steps) if steps.isdigit() else steps,
                           int(seen) if seen.isdigit() else None if not seen else seen)
    except CompanionError as error:
        return panel_with_refusal(table, viewer, screen, error)
    return after_change(after, viewer, screen)


@bp.get("/history")
def history(code: str):
    table = read.find(code)
    screen = request.args.get("screen", "phone")
    if LOCAL_SCREEN.fullmatch(screen):
        # A page of its own, which Back would show again: a phoneless player's history is
        # the host's, without their secrets (their screen shows its own last lines).
        screen = "host"
    viewer = screen_viewer(table, screen)
    undoable = moves.undoable(table, viewer)
    return render_template("table/history.html", table=table, screen=screen,
                           view=read.view(table, viewer),
                           lines=read.log(table, viewer, html=True, newest_first=True),
                           undoable={event.seq: index + 1 for index, event in enumerate(undoable)})


REVEAL_COOKIE = "companion_reveal"


@bp.get("/as/<int:player_id>")
def local_player(code: str, player_id: int):
    """The host device showing one phoneless player's screen, behind a privacy cover.

    The cover's link reveals the screen once: it carries a word that a cookie of the cover
    holds too, and the screen shown forgets it. So an address that showed the screen (Back,
    Forward, the history list, a reload, a restored tab) shows the cover again."""
    table = read.find(code)
    screen = f"as-{player_id}"
    viewer = screen_viewer(table, screen)
    context = panel_context(table, viewer, screen)
    asked, held = request.args.get("reveal", ""), request.cookies.get(REVEAL_COOKIE, "")
    context["revealed"] = bool(asked) and hmac.compare_digest(asked, held)
    context["reveal_word"] = None if context["revealed"] else secrets.token_urlsafe(16)
    response = current_app.make_response(render_template("table/local.html", **context))
    cover = url_for("screens.local_player", code=table.code, player_id=player_id)
    if context["revealed"]:
        response.delete_cookie(REVEAL_COOKIE, path=cover, httponly=True,
                               samesite="Strict", secure=request.is_secure)
    else:
        response.set_cookie(REVEAL_COOKIE, context["reveal_word"], path=cover,
                            httponly=True, samesite="Strict", secure=request.is_secure)
    return response


@bp.get("/record.json")
def record(code: str):
    table = read.find(code)
    viewer = cookie_viewer(table, request, host=True) or cookie_viewer(table, request)
    if viewer is None and table.status != "finished":  # the end reveals every secret
        raise forbidden(gettext("Only the players and the host can download the game's record."))
    response = jsonify(records.record(table))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{table.game}-{table.code}.json"')
    return response


@bp.post("/again")
def play_again(code: str):
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    again, token = seating.play_again(table, viewer)
    response = redirect(url_for("screens.host", code=again), code=303)
    return set_cookie(response, host_cookie(again), token)


@bp.post("/follow")
def follow(code: str):
    table = read.find(code)
    viewer = screen_viewer(table, "phone")
    again, token = seating.follow(table, viewer)
    response = redirect(url_for("screens.phone", code=again), code=303)
    return set_cookie(response, player_cookie(again), token)


@bp.post("/players/local")
def add_local_player(code: str):
    return host_change(code, lambda t, v: _seat_local(t, v, request.form.get("name", "")))


def _seat_local(table: Snapshot, viewer: Viewer, name: str) -> Snapshot:
    if not viewer.is_host:
        raise forbidden(gettext("Only the host can add a player without a phone."))
    seating.join(table, name, local=True)
    return store.latest(table)


# -- the host's lobby controls -----------------------------------------------------

def host_change(code: str, change) -> Any:
    """Make `change(table, viewer)`, which gives the table after it, from the host screen."""
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    try:
        after = change(table, viewer)
    except CompanionError as error:
        return panel_with_refusal(table, viewer, "host", error)
    return after_change(after, viewer, "host")


def player_id_from(fields: MultiDict) -> int:
    value = fields.get("player", "")
    if not value.isdigit():
        raise bad_request(gettext("Pick a player."))
    return int(value)


def player_id_from_form() -> int:
    return player_id_from(request.form)


@bp.post("/seats/move")
def move_seat(code: str):
    step = -1 if request.form.get("direction") == "up" else 1
    return host_change(code, lambda t, v: seating.move_seat(t, v, player_id_from_form(), step))


@bp.post("/players/remove")
def remove_player(code: str):
    return host_change(code, lambda t, v: seating.remove_player(t, v, player_id_from_form()))


@bp.post("/first")
def choose_first(code: str):
    return host_change(code, lambda t, v: seating.choose_first(t, v, player_id_from_form()))


@bp.post("/first/random")
def pick_first(code: str):
    return host_change(code, seating.pick_first_at_random)


@bp.post("/start")
def start(code: str):
    return host_change(code, moves.start)


@bp.get("/rejoin")
def rejoin_confirm(code: str):
    """Asks the host before a seat goes to a new phone (nothing changes here)."""
    table = read.find(code)
    screen_viewer(table, "host")
    player = read.seated(table, player_id_from(request.args))
    return render_template("table/rejoin_confirm.html", table=table, player=player)


@bp.post("/rejoin")
def rejoin(code: str):
    """The seat given to a new phone: its QR code, its link and a short code to type."""
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    player_id = player_id_from_form()
    token, typed = seating.rejoin(table, viewer, player_id, code_to_type=True)
    url = links.rejoin_url(table.code, token)
    return render_template("table/rejoin_qr.html", table=table, player=table.seat(player_id),
                           qr=links.qr_svg(url), url=url, code_to_type=typed,
                           join_url=links.join_url(table.code),
                           minutes=seating.REJOIN_CODE_MINUTES,
                           shown=seating.rejoin_shown(token))


@bp.get("/rejoin/<int:player_id>/state")
def rejoin_state(code: str, player_id: int):
    """The rejoin page, asking whether its code still waits for a phone: nothing to
    change (204) while it does, and what happened once it does not."""
    table = read.find(code)
    viewer = screen_viewer(table, "host")
    state = seating.rejoin_state(table, viewer, player_id, request.args.get("shown", ""))
    if state == "waiting":
        return Response(status=204)
    return render_template("table/_rejoin_state.html", state=state,
                           player=table.seat(player_id))


@bp.get("/qr.svg")
def join_qr(code: str):
    table = read.find(code)
    return Response(links.qr_svg(links.join_url(table.code)), mimetype="image/svg+xml")
