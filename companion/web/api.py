"""The JSON API of the contract (/api/v1): the same calls into tables.py as the screens."""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from .. import live, tables
from ..auth import bearer_viewer
from ..errors import CompanionError, bad_request
from ..extensions import csrf, limiter
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
        raise bad_request("Send JSON, with Content-Type: application/json.")
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if not isinstance(data, dict):
        raise bad_request("The body must be a JSON object.")
    return data


def table_and_viewer(code: str, changing: bool = False):
    """The table and who is asking: a caller is recognised (or refused) before anything
    it sent is read. The table as a row for `changing` it (other than by a move), else
    as its snapshot."""
    table = tables.find_table(code) if changing else tables.find(code)
    return table, bearer_viewer(table, request)


@bp.get("/openapi.json")
def openapi_document():
    return jsonify(contract.openapi())


@bp.post("/tables")
@limiter.limit("30/minute")
def create_table():
    data = validated(contract.CreateTable, body())
    table, token = tables.create_table(data.game, data.options)
    return jsonify(code=table.code, host_token=token,
                   join_url=links.join_url(table.code)), 201


@bp.get("/tables/<code>")
@limiter.limit("600/minute")
def get_table(code: str):
    table, viewer = table_and_viewer(code)
    return jsonify(tables.view(table, viewer))


@bp.post("/tables/<code>/players")
@limiter.limit("20/minute")
def join(code: str):
    data = validated(contract.JoinTable, body())
    table = tables.find_table(code)
    player, token = tables.join(table, data.name)
    return jsonify(player=player.public(), token=token), 201


@bp.post("/tables/<code>/start")
def start(code: str):
    table, viewer = table_and_viewer(code, changing=True)
    data = validated(contract.StartTable, body())
    tables.start(table, viewer, data.first_player, data.seed)
    return jsonify(tables.view(table, viewer))


@bp.post("/tables/<code>/actions")
def act(code: str):
    table, viewer = table_and_viewer(code)
    data = body()
    return jsonify(tables.act(table, viewer, data))


@bp.post("/tables/<code>/undo")
def undo(code: str):
    table, viewer = table_and_viewer(code, changing=True)
    body()
    if viewer.player_id is None and not viewer.is_host:
        raise CompanionError("unauthorized", "Join the table to undo.")
    tables.undo(table, viewer)
    return jsonify(tables.view(table, viewer))


@bp.get("/tables/<code>/log")
def log(code: str):
    table, viewer = table_and_viewer(code)
    return jsonify(events=tables.log(table, viewer))


@bp.post("/tables/<code>/players/<int:player_id>/remove")
def remove_player(code: str, player_id: int):
    table, viewer = table_and_viewer(code, changing=True)
    tables.remove_player(table, viewer, player_id)
    return jsonify(tables.view(table, viewer))


@bp.post("/tables/<code>/seats")
def reorder(code: str):
    table, viewer = table_and_viewer(code, changing=True)
    data = validated(contract.Reorder, body())
    tables.reorder(table, viewer, data.order)
    return jsonify(tables.view(table, viewer))


@bp.post("/tables/<code>/players/<int:player_id>/rejoin")
def rejoin(code: str, player_id: int):
    table, viewer = table_and_viewer(code, changing=True)
    token = tables.rejoin(table, viewer, player_id)
    return jsonify(player_id=player_id, token=token,
                   rejoin_url=links.rejoin_url(table.code, token))


@bp.get("/tables/<code>/stream")
def stream(code: str):
    """`event: version` on connect and at every change, with the caller's view of the
    table at that version, so a client need not fetch it."""
    table, viewer = table_and_viewer(code)

    def message(seen):
        return live.sse("version", {"version": seen.version, "table": tables.view(seen, viewer)})
    return event_stream(table, viewer, message)
