"""The JSON API of the contract (/api/v1): the same calls into the table package as the
screens."""
from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext

from .. import live
from ..auth import bearer_viewer
from ..errors import CompanionError, bad_request
from ..extensions import csrf, limiter
from ..table import moves, read, seating
from . import contract, links
from .contract import validated
from .live_stream import event_stream

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # no cookies here: a bearer token in a header cannot be forged cross-site


def body() -> dict:
    """The request's JSON object; `{}` for an empty body."""
    if not request.get_data(cache=True):
        return {}
    if not request.is_json:
        raise bad_request(lazy_gettext("Send JSON, with Content-Type: application/json."))
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if not isinstance(data, dict):
        raise bad_request(lazy_gettext("The body must be a JSON object."))
    return data


def table_and_viewer(code: str):
    """The table and who is asking: a caller is recognised (or refused) before anything
    it sent is read."""
    table = read.find(code)
    return table, bearer_viewer(table, request)


@bp.get("/openapi.json")
def openapi_document():
    return jsonify(contract.openapi())


@bp.post("/tables")
@limiter.limit("30/minute")
def create_table():
    data = validated(contract.CreateTable, body())
    code, token = seating.create_table(data.game, data.options)
    return jsonify(code=code, host_token=token, join_url=links.join_url(code)), 201


@bp.get("/tables/<code>")
@limiter.limit("600/minute")
def get_table(code: str):
    table, viewer = table_and_viewer(code)
    since = request.args.get("rows_since")
    if since is None:
        return jsonify(read.view(table, viewer))
    if not since.isdigit() or len(since) > 18:
        raise bad_request(lazy_gettext("rows_since is a version of the table: a whole number."))
    return jsonify(read.view_since(table, viewer, int(since)))


@bp.post("/tables/<code>/players")
@limiter.limit("20/minute")
def join(code: str):
    data = validated(contract.JoinTable, body())
    player, token = seating.join(read.find(code), data.name)
    return jsonify(player=player.public(), token=token), 201


@bp.post("/tables/<code>/start")
def start(code: str):
    table, viewer = table_and_viewer(code)
    data = validated(contract.StartTable, body())
    return jsonify(read.view(moves.start(table, viewer, data.first_player, data.seed), viewer))


@bp.post("/tables/<code>/actions")
def act(code: str):
    table, viewer = table_and_viewer(code)
    data = body()
    return jsonify(moves.answer(moves.act(table, viewer, data), viewer))


@bp.post("/tables/<code>/undo")
def undo(code: str):
    table, viewer = table_and_viewer(code)
    body()
    if viewer.player_id is None and not viewer.is_host:
        raise CompanionError("unauthorized", lazy_gettext("Join the table to undo."))
    return jsonify(read.view(moves.undo(table, viewer), viewer))


@bp.get("/tables/<code>/log")
def log(code: str):
    table, viewer = table_and_viewer(code)
    return jsonify(events=read.log(table, viewer))


@bp.post("/tables/<code>/players/<int:player_id>/remove")
def remove_player(code: str, player_id: int):
    table, viewer = table_and_viewer(code)
    return jsonify(read.view(seating.remove_player(table, viewer, player_id), viewer))


@bp.post("/tables/<code>/seats")
def reorder(code: str):
    table, viewer = table_and_viewer(code)
    data = validated(contract.Reorder, body())
    return jsonify(read.view(seating.reorder(table, viewer, data.order), viewer))


@bp.post("/tables/<code>/players/<int:player_id>/rejoin")
def rejoin(code: str, player_id: int):
    table, viewer = table_and_viewer(code)
    token, _ = seating.rejoin(table, viewer, player_id)
    return jsonify(player_id=player_id, token=token,
                   rejoin_url=links.rejoin_url(table.code, token))


@bp.get("/tables/<code>/stream")
def stream(code: str):
    """`event: version` on connect and at every change, with the caller's view of the
    table at that version, so a client need not fetch it."""
    table, viewer = table_and_viewer(code)

    def message(seen):
        return live.sse("version", {"version": seen.version, "table": read.view(seen, viewer)})
    return event_stream(table, viewer, message)
