"""The JSON API of the contract (/api/v1): the same calls into the table package as the
screens."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from flask_babel import lazy_gettext

from .. import live
from ..auth import bearer_viewer
from ..errors import CompanionError, bad_request
from ..extensions import csrf, limiter
from ..table import bg_stats, clock, moves, read, seating
from . import contract, links
from .errors import error_json
from .contract import A_VIEW, described, sent, whole_numbers
from .live_stream import event_stream

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# What `check` answers as a move that could not be made now; the others (a body that is
# no action, who asks, where) are answered as any request's.
MOVE_REFUSALS = frozenset({"forbidden", "illegal", "stale", "conflict"})
csrf.exempt(bp)  # no cookies here: a bearer token in a header cannot be forged cross-site


def body() -> dict:
    """The request's JSON object; `{}` for an empty body. A number with nothing after
    the point (2.0) is an integer there, as JSON Schema reads it."""
    if not request.get_data(cache=True):
        return {}
    if not request.is_json:
        raise bad_request(lazy_gettext("Send JSON, with Content-Type: application/json."))
    try:
        data = whole_numbers(request.get_json(silent=True))
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
@described("This document", errors=())
def openapi_document():
    return jsonify(contract.openapi(current_app))


@bp.post("/tables")
@limiter.limit("30/minute")
@described("Create a table", 201, body=contract.CreateTable, errors=(400,), answer={
    "type": "object", "required": ["code", "host_token", "join_url"]})
def create_table():
    data = sent(contract.CreateTable, body())
    code, token = seating.create_table(
        data.game, data.options, data.clock.model_dump(mode="json") if data.clock else None,
        data.teach)
    return jsonify(code=code, host_token=token, join_url=links.join_url(code)), 201


@bp.get("/tables/<code>")
@limiter.limit("600/minute")
@described("The table as the caller may see it", answer=A_VIEW, errors=(400, 401, 404),
           # Described, not declared: as the stream's check=1, a query the view reads
           # beside none it refuses.
           description=(
               "With `?rows_since=VERSION` (a version of the table the caller holds), a "
               "score sheet's rows hold only the rounds entered or corrected after it and "
               "the open round's entries, and the state says `rows_since`; after an undo "
               "since, the whole view. A rows_since that is not a whole number: 400."))
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
@described("Join the table", 201, body=contract.JoinTable, errors=(400, 404, 409), answer={
    "type": "object", "required": ["player", "token"]})
def join(code: str):
    data = sent(contract.JoinTable, body())
    player, token = seating.join(read.find(code), data.name)
    return jsonify(player=player.public(), token=token), 201


@bp.post("/tables/<code>/start")
@described("Start (host)", body=contract.StartTable, answer=A_VIEW)
def start(code: str):
    table, viewer = table_and_viewer(code)
    data = sent(contract.StartTable, body())
    return jsonify(read.view(moves.start(table, viewer, data.first_player, data.seed), viewer))


@bp.post("/tables/<code>/actions")
@described("Make an action", body_schema=contract.action_schemas, answer={
    "type": "object", "required": ["version", "events", "table"]})
def act(code: str):
    table, viewer = table_and_viewer(code)
    data = body()
    return jsonify(moves.answer(moves.act(table, viewer, data), viewer))


@bp.post("/tables/<code>/check")
@described("Whether a move could be made now", body_schema=contract.action_schemas, answer={
    "type": "object", "required": ["legal"],
    "properties": {"legal": {"type": "boolean"}, "error": contract.ERROR_BODY}},
    description=("The body is an action, as for `actions`. Nothing changes: the answer says "
                 "whether the caller could make that move now and, when not, why (the "
                 "refusal `actions` would give, with the rule that forbids it)."))
def check(code: str):
    table, viewer = table_and_viewer(code)
    data = body()
    try:
        moves.check(table, viewer, data)
    except CompanionError as error:
        if error.code not in MOVE_REFUSALS:
            raise
        return jsonify(legal=False, error=error_json(error)["error"])
    return jsonify(legal=True)


@bp.post("/tables/<code>/undo")
@described("Undo the last action", answer=A_VIEW)
def undo(code: str):
    table, viewer = table_and_viewer(code)
    body()
    if viewer.player_id is None and not viewer.is_host:
        raise CompanionError("unauthorized", lazy_gettext("Join the table to undo."))
    return jsonify(read.view(moves.undo(table, viewer), viewer))


@bp.post("/tables/<code>/clock")
@described("Pause or resume the table clock (host)", body=contract.PauseClock, answer=A_VIEW,
           description=("Each pause and resume is a public line of the log, which no undo "
                        "takes back. 409 `conflict` for a table without a clock, before the "
                        "start, after the end, or when the clock is already as asked."))
def pause_clock(code: str):
    table, viewer = table_and_viewer(code)
    data = sent(contract.PauseClock, body())
    return jsonify(read.view(clock.pause(table, viewer, data.paused), viewer))


@bp.get("/tables/<code>/log")
@described("The log as the caller may read it", errors=(401, 404))
def log(code: str):
    table, viewer = table_and_viewer(code)
    return jsonify(events=read.log(table, viewer))


@bp.get("/tables/<code>/bgstats")
@described("The finished play as BG Stats imports it", errors=(401, 404, 409), answer={
    "type": "object", "required": ["sourceName", "sourcePlayId", "playDate", "durationMin",
                                   "game", "players", "comments"]}, description=(
    "The JSON of BG Stats' createPlay link (https://app.bgstatsapp.com/createPlay.html?data= "
    "and this JSON, URL-encoded): every player's `winner`, one `startPlayer`, ranks as "
    "places, `score` unless the game's `noPoints`, `comments` in the caller's language. "
    "409 before the end."))
def bgstats(code: str):
    table, _ = table_and_viewer(code)
    return jsonify(bg_stats.play(table))


@bp.post("/tables/<code>/players/<int:player_id>/remove")
@described("Remove a player (host, lobby)", answer=A_VIEW)
def remove_player(code: str, player_id: int):
    table, viewer = table_and_viewer(code)
    return jsonify(read.view(seating.remove_player(table, viewer, player_id), viewer))


@bp.post("/tables/<code>/seats")
@described("Reorder seats (host)", body=contract.Reorder, answer=A_VIEW)
def reorder(code: str):
    table, viewer = table_and_viewer(code)
    data = sent(contract.Reorder, body())
    return jsonify(read.view(seating.reorder(table, viewer, data.order), viewer))


@bp.post("/tables/<code>/players/<int:player_id>/rejoin")
@described("A new token for a player (host)")
def rejoin(code: str, player_id: int):
    table, viewer = table_and_viewer(code)
    token, _ = seating.rejoin(table, viewer, player_id)
    return jsonify(player_id=player_id, token=token,
                   rejoin_url=links.rejoin_url(table.code, token))


@bp.get("/tables/<code>/stream")
@described("The table's changes as server-sent events", errors=(401, 404, 503),
           media_type="text/event-stream", answer={"type": "string"},
           answered="An endless event stream", description=(
               "Sends `event: version` with `data: {\"version\": N, \"table\": VIEW}` on "
               "connect and after every change, and a comment line at least every 15 s. It "
               "ends with `event: revoked` when the caller's seat is given to another phone. "
               "A 429 (the caller's address holds as many streams as it may) or a 503 (the "
               "server holds as many streams as it can, or the database is busy) carries "
               "Retry-After: open the stream again then. With `?check=1` no stream is "
               "opened: 204 when one would be served now, else the answer it would get."))
def stream(code: str):
    """`event: version` on connect and at every change, with the caller's view of the
    table at that version, so a client need not fetch it."""
    table, viewer = table_and_viewer(code)

    def message(seen):
        return live.sse("version", {"version": seen.version, "table": read.view(seen, viewer)})
    return event_stream(table, viewer, message)
