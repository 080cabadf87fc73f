"""Home, new table, joining by code or QR, and rejoining with a new phone."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import records, store
from ..auth import (COOKIE_MAX_AGE, Viewer, cookie_viewer, host_cookie, player_cookie,
                    seated_codes, viewer_for_token)
from ..errors import CompanionError, bad_request
from ..extensions import count_missed_lookup, limiter
from ..games import GAMES
from ..snapshots import Seat, Snapshot
from ..table import read, seating
from . import clock_form, options_form

bp = Blueprint("lobby", __name__)

# The name this phone last took a seat with: its next join form offers it.
LAST_NAME_COOKIE = "companion_name"


def set_cookie(response, name: str, token: str):
    response.set_cookie(name, token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@bp.get("/")
def home():
    return render_template("lobby/home.html", games=GAMES.values())


@bp.get("/games")
def past_games():
    games = records.past_games(limit=1000)
    in_play = records.games_in_play()
    idle = [game for game in in_play if game["idle"]]
    for game in idle:  # the host's device may end a table nobody plays any more
        table = read.find(game["code"]) if host_cookie(game["code"]) in request.cookies else None
        game["hosted"] = table is not None and cookie_viewer(table, request, host=True) is not None
    return render_template("lobby/games.html", games=games[:50],
                           in_play=[game for game in in_play if not game["idle"]], idle=idle,
                           ended=records.games_in_play(status="ended"),
                           stats=records.player_stats(games),
                           sheet_stats=records.player_stats(games, totals=True),
                           together_stats=records.player_stats(games, cooperative=True))


@bp.get("/join")
@limiter.limit("20/minute")
def find():
    code = read.normalise_code(request.args.get("code", ""))
    try:
        read.find(code)
    except CompanionError as error:
        return render_template("lobby/home.html", games=GAMES.values(), code=code,
                               error=error), error.status
    return redirect(url_for("lobby.join_form", code=code))


def game_or_404(game_id: str):
    engine = GAMES.get(game_id)
    if engine is None:
        raise CompanionError("not_found", gettext("There is no such game here."))
    return engine


def options_page(engine, status: int = 200, **context):
    saved = seating.saved_defaults(engine)
    named = seating.saved_by_name(engine)
    offered = {engine.saved_by: seating.names_seen(engine)} if engine.saved_by else {}
    clock_fields = clock_form.form_values(context.pop("clock_typed", None),
                                          context.pop("clock_saved", None)
                                          or seating.saved_clock(engine))
    return render_template("lobby/new.html", engine=engine, saved=saved, box=engine.box_data(),
                           clock_fields=clock_fields,
                           fields=options_form.fields(engine, saved, context.pop("chosen", None),
                                                      offered),
                           named=named[:NAMED_SHOWN], folder=engine.folder, **context), status


# The saved sheets the new-table page shows as buttons (the rest are offered as the name
# is typed).
NAMED_SHOWN = 24


@bp.get("/new/<game_id>")
def new_table(game_id: str):
    """The new-table form; `?saved=NAME` fills it with the options saved under a name."""
    engine = game_or_404(game_id)
    named = seating.saved_under(engine, request.args.get("saved"))
    return options_page(engine, chosen=named.options if named else None,
                        clock_saved=named.clock if named else None)


@bp.post("/new/<game_id>")
@limiter.limit("30/minute")
def create(game_id: str):
    engine = game_or_404(game_id)
    saved = seating.saved_defaults(engine)
    try:
        chosen = options_form.read(engine, request.form, saved)
        options_form.check(engine, chosen, saved)
        code, token = seating.create_table(game_id, chosen,
                                           clock_form.from_form(request.form),
                                           teach=request.form.get("teach") == "on")
    except CompanionError as error:
        return options_page(engine, error.status, error=error,
                            chosen=options_form.typed(engine, request.form, saved),
                            clock_typed=request.form)
    return hosted(code, token)


@bp.post("/new/<game_id>/saved")
@limiter.limit("30/minute")
def create_saved(game_id: str):
    """A table with the options saved under a name, in one tap ("Wingspan")."""
    engine = game_or_404(game_id)
    named = seating.saved_under(engine, request.form.get("name"))
    if named is None:
        return options_page(engine, 404, error=CompanionError(
            "not_found", gettext("Nothing is saved under that name on this server.")))
    code, token = seating.create_table(game_id, named.options, named.clock)
    return hosted(code, token)


def hosted(code: str, token: str):
    """To the new table's host screen, this browser its host."""
    response = redirect(url_for("screens.host", code=code), code=303)
    return set_cookie(response, host_cookie(code), token)


@bp.post("/new/<game_id>/defaults")
@limiter.limit("30/minute")
def save_defaults(game_id: str):
    """Keep the form's values as this server's defaults for the game's next tables."""
    engine = game_or_404(game_id)
    saved = seating.saved_defaults(engine)
    try:
        chosen = {**saved, **options_form.read(engine, request.form, saved)}
        seating.save_defaults(engine, chosen, clock_form.from_form(request.form))
    except CompanionError as error:
        return options_page(engine, error.status, error=error, clock_typed=request.form)
    return options_page(engine,
                        notice=gettext("Saved as this server's defaults for the next tables."))


# A phone may hold the cookies of many past tables: the join page looks at this many.
COOKIES_LOOKED_AT = 20


def returning_player(table: Snapshot) -> tuple[Snapshot, Viewer, Seat] | None:
    """(the previous table, this phone there, its seat here) when this phone had a seat at
    the game the group played before this one ("play again"): its cookie from that table
    proves the seat."""
    if table.status != "lobby":
        return None
    codes = [code for code in seated_codes(request.cookies) if code != table.code]
    for code in codes[:COOKIES_LOOKED_AT]:
        try:
            previous = read.find(code)
        except CompanionError:
            continue
        if previous.next_code == table.code:
            viewer = cookie_viewer(previous, request)
            seat = seating.carried_seat(previous, viewer, table)
            if viewer is None or seat is None:
                return None
            return previous, viewer, seat
    return None


def join_page(table: Snapshot, status: int = 200, **context):
    return render_template("lobby/join.html", table=table, engine=GAMES[table.game],
                           returning=returning_player(table), **context), status


@bp.get("/j/<code>")
@limiter.limit("30/minute")
def join_form(code: str):
    table = read.find(code)
    if cookie_viewer(table, request) is not None:
        return redirect(url_for("screens.phone", code=table.code))
    return join_page(table, name=request.cookies.get(LAST_NAME_COOKIE, "")[:seating.NAME_MAX])


@bp.post("/j/<code>")
@limiter.limit("20/minute")
def join(code: str):
    table = read.find(code)
    name, typed = request.form.get("name", ""), None
    returning = returning_player(table)
    try:
        typed = seating.clean_name(name)
        if returning and typed.casefold() == returning[2].name_key:
            # The phone that had this seat at the last game typed its name: its seat.
            _, token = seating.follow(returning[0], returning[1])
            seated = returning[2]
        else:
            seated, token = seating.join(table, typed)
    except CompanionError as error:
        taken = typed is not None and any(p.name_key == typed.casefold()
                                          for p in store.latest(table).players)
        return join_page(table, error.status, error=error, name=name, name_taken=taken)
    response = redirect(url_for("screens.phone", code=table.code), code=303)
    set_cookie(response, LAST_NAME_COOKIE, seated.name)
    return set_cookie(response, player_cookie(table.code), token)


@bp.post("/j/<code>/rejoin")
@limiter.limit("20/minute")
def rejoin_by_code(code: str):
    """A seat taken back with the rejoin code the host screen shows (typed, not scanned)."""
    table = read.find(code)
    typed = request.form.get("rejoin_code", "")
    try:
        token = seating.take_seat_by_code(table, typed)
    except CompanionError as error:
        if error.code == "illegal":
            count_missed_lookup()
        return join_page(table, error.status, rejoin_error=error, typed=typed[:20])
    response = redirect(url_for("screens.phone", code=table.code), code=303)
    return set_cookie(response, player_cookie(table.code), token)


@bp.get("/r/<code>")
def rejoin_page(code: str):
    table = read.find(code)
    return render_template("lobby/rejoin.html", table=table)


@bp.post("/r/<code>")
@limiter.limit("20/minute")
def rejoin(code: str):
    table = read.find(code)
    token = request.form.get("token", "")
    viewer = viewer_for_token(table, token)
    if viewer is None or viewer.is_host:
        raise bad_request(
            gettext("This rejoin link is no longer valid: ask the host for a new one."))
    seating.rejoin_qr_used(table, viewer)
    response = redirect(url_for("screens.phone", code=table.code), code=303)
    return set_cookie(response, player_cookie(table.code), token)
