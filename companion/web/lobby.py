"""Home, new table, joining by code or QR, and rejoining with a new phone."""
from __future__ import annotations

from flask import (Blueprint, make_response, redirect, render_template, request,
                   url_for)

from .. import tables
from ..auth import COOKIE_MAX_AGE, cookie_viewer, host_cookie, player_cookie, viewer_for_token
from ..errors import CompanionError, bad_request
from ..extensions import limiter
from ..games import GAMES
from . import links, options_form

bp = Blueprint("lobby", __name__)


def set_cookie(response, name: str, token: str):
    response.set_cookie(name, token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


@bp.get("/")
def home():
    return render_template("lobby/home.html", games=GAMES.values())


@bp.get("/join")
@limiter.limit("20/minute")
def find():
    code = tables.normalise_code(request.args.get("code", ""))
    try:
        tables.find_table(code)
    except CompanionError as error:
        return render_template("lobby/home.html", games=GAMES.values(), code=code,
                               error=error), error.status
    return redirect(url_for("lobby.join_form", code=code))


@bp.get("/new/<game_id>")
def new_table(game_id: str):
    engine = GAMES.get(game_id)
    if engine is None:
        raise CompanionError("not_found", "There is no such game here.")
    return render_template("lobby/new.html", engine=engine,
                           fields=options_form.fields(engine))


@bp.post("/new/<game_id>")
@limiter.limit("30/minute")
def create(game_id: str):
    engine = GAMES.get(game_id)
    if engine is None:
        raise CompanionError("not_found", "There is no such game here.")
    try:
        chosen = options_form.read(engine, request.form)
        table, token = tables.create_table(game_id, chosen)
    except CompanionError as error:
        chosen_fields = options_form.fields(engine)
        return render_template("lobby/new.html", engine=engine, fields=chosen_fields,
                               error=error), error.status
    response = redirect(url_for("screens.host", code=table.code), code=303)
    return set_cookie(response, host_cookie(table.code), token)


@bp.get("/j/<code>")
@limiter.limit("30/minute")
def join_form(code: str):
    table = tables.find_table(code)
    if cookie_viewer(table, request) is not None:
        return redirect(url_for("screens.phone", code=table.code))
    return render_template("lobby/join.html", table=table, engine=tables.game_of(table))


@bp.post("/j/<code>")
@limiter.limit("20/minute")
def join(code: str):
    table = tables.find_table(code)
    try:
        _, token = tables.join(table, request.form.get("name", ""))
    except CompanionError as error:
        return render_template("lobby/join.html", table=table, engine=tables.game_of(table),
                               error=error, name=request.form.get("name", "")), error.status
    response = redirect(url_for("screens.phone", code=table.code), code=303)
    return set_cookie(response, player_cookie(table.code), token)


@bp.get("/r/<code>")
def rejoin_page(code: str):
    table = tables.find_table(code)
    return render_template("lobby/rejoin.html", table=table)


@bp.post("/r/<code>")
@limiter.limit("20/minute")
def rejoin(code: str):
    table = tables.find_table(code)
    token = request.form.get("token", "")
    viewer = viewer_for_token(table, token)
    if viewer is None or viewer.is_host:
        raise bad_request("This rejoin link is no longer valid: ask the host for a new one.")
    response = redirect(url_for("screens.phone", code=table.code), code=303)
    return set_cookie(response, player_cookie(table.code), token)
