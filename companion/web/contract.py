"""The JSON API's request models and its OpenAPI document, made from the same models
that validate the requests (the games' own action and option models included)."""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from ..errors import bad_request
from ..games import GAMES
from ..table.checks import Envelope, validation_message
from ..table.moves import SEED_MAX
from ..table.seating import NAME_MAX


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(Body):
    game: Literal[tuple(GAMES)]  # type: ignore[valid-type]
    options: dict[str, Any] = Field(default_factory=dict, description=(
        "Per game; every option has a default, so {} is valid."))


class JoinTable(Body):
    name: str = Field(description=f"1 to {NAME_MAX} characters after trimming, unique at "
                                  "the table (case-insensitive).", max_length=200)


class StartTable(Body):
    first_player: Optional[StrictInt] = Field(None, description="Defaults to seat 0.")
    seed: Optional[StrictInt] = Field(None, ge=0, le=SEED_MAX, description=(
        "Fixes every shuffle and random assignment. Refused (400, \"This server chooses "
        "the shuffle.\") unless the server runs with COMPANION_TEST_SEEDS=on, for tests "
        "and benchmarks; otherwise the server draws the seed."))


class Reorder(Body):
    order: list[int] = Field(max_length=64, description="Every seated player's id once.")


def validated(model: type[Body], data: dict) -> Body:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None


# -- the OpenAPI document -----------------------------------------------------------

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}
VIEW = {"type": "object", "required": ["code", "game", "status", "version", "players", "you",
                                       "turn", "waiting_for", "state", "private", "actions",
                                       "result"],
        "properties": {"code": {"type": "string"}, "game": {"type": "string"},
                       "status": {"enum": ["lobby", "playing", "finished", "ended"]},
                       "version": {"type": "integer"},
                       "players": {"type": "array", "items": {"type": "object"}},
                       "actions": {"type": "array", "items": {"type": "object"}}}}


def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema(ref_template="#/components/schemas/{model}", by_alias=True)


def _action_schemas(components: dict) -> list[dict]:
    """One schema per game action, with the envelope's fields beside its own."""
    envelope = _schema(Envelope)["properties"]
    found = []
    for engine in GAMES.values():
        union = engine.action_adapter().json_schema(
            ref_template="#/components/schemas/{model}")
        for name, schema in union.get("$defs", {}).items():
            components[name] = schema
        for option in union.get("oneOf", [union]):
            ref = option.get("$ref")
            if ref is None:
                continue
            model = components[ref.rsplit("/", 1)[1]]
            found.append({**model, "properties": {**model["properties"], **envelope},
                          "title": f"{engine.id}: {model.get('title', '')}"})
    return found


def _operation(summary: str, ok: int, body: dict | None = None, answer: dict | None = None,
               errors=(400, 401, 403, 404, 409, 422)) -> dict:
    operation: dict[str, Any] = {
        "summary": summary,
        "responses": {str(ok): {"description": "OK", "content": {
            "application/json": {"schema": answer or {"type": "object"}}}}},
    }
    # Any request may also be refused with 429 `too_many_requests`: an address that keeps
    # looking up codes or tokens that do not exist, or joins too often.
    for status in (*errors, 429):
        operation["responses"][str(status)] = {"description": "Error", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": body}}}
    return operation


def _stream_operation() -> dict:
    """The live stream: server-sent events, authorised like the view."""
    operation = _operation("The table's changes as server-sent events", 200,
                           errors=(401, 404, 503))
    operation["description"] = (
        "Sends `event: version` with `data: {\"version\": N, \"table\": VIEW}` on connect "
        "and after every change, and a comment line at least every 15 s. It ends with "
        "`event: revoked` when the caller's seat is given to another phone. A 429 (the "
        "caller's address holds as many streams as it may) or a 503 (the server holds as "
        "many streams as it can, or the database is busy) carries Retry-After: open the "
        "stream again then. With `?check=1` no stream is opened: 204 when one would be "
        "served now, else the answer it would get.")
    operation["responses"]["200"] = {"description": "An endless event stream", "content": {
        "text/event-stream": {"schema": {"type": "string"}}}}
    return operation


def openapi() -> dict:
    components: dict[str, Any] = {"Error": ERROR, "View": VIEW}
    for model in (CreateTable, JoinTable, StartTable, Reorder):
        schema = _schema(model)
        for name, sub in schema.pop("$defs", {}).items():
            components[name] = sub
        components[model.__name__] = schema
    actions = _action_schemas(components)
    view = {"$ref": "#/components/schemas/View"}
    code = {"name": "code", "in": "path", "required": True,
            "schema": {"type": "string", "maxLength": 16}}
    player = {"name": "player_id", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}}
    ref = lambda name: {"$ref": f"#/components/schemas/{name}"}  # noqa: E731
    paths = {
        "/api/v1/tables": {"post": _operation("Create a table", 201, ref("CreateTable"), {
            "type": "object", "required": ["code", "host_token", "join_url"]},
            errors=(400,))},
        "/api/v1/tables/{code}": {"get": _operation("The table as the caller may see it",
                                                    200, answer=view, errors=(400, 401, 404))},
        "/api/v1/tables/{code}/players": {"post": _operation(
            "Join the table", 201, ref("JoinTable"),
            {"type": "object", "required": ["player", "token"]}, errors=(400, 404, 409))},
        "/api/v1/tables/{code}/start": {"post": _operation("Start (host)", 200,
                                                           ref("StartTable"), view)},
        "/api/v1/tables/{code}/actions": {"post": _operation(
            "Make an action", 200, {"oneOf": actions},
            {"type": "object", "required": ["version", "events", "table"]})},
        "/api/v1/tables/{code}/undo": {"post": _operation("Undo the last action", 200,
                                                          answer=view)},
        "/api/v1/tables/{code}/stream": {"get": _stream_operation()},
        "/api/v1/tables/{code}/log": {"get": _operation("The log as the caller may read it",
                                                        200, errors=(401, 404))},
        "/api/v1/tables/{code}/seats": {"post": _operation("Reorder seats (host)", 200,
                                                           ref("Reorder"), view)},
        "/api/v1/tables/{code}/players/{player_id}/remove": {"post": _operation(
            "Remove a player (host, lobby)", 200, answer=view)},
        "/api/v1/tables/{code}/players/{player_id}/rejoin": {"post": _operation(
            "A new token for a player (host)", 200)},
    }
    for path, item in paths.items():
        item["parameters"] = [code] + ([player] if "{player_id}" in path else []) \
            if "{code}" in path else []
        if not item["parameters"]:
            del item["parameters"]
    # Described, not declared: as the stream's check=1, a query the view reads beside none
    # it refuses.
    paths["/api/v1/tables/{code}"]["get"]["description"] = (
        "With `?rows_since=VERSION` (a version of the table the caller holds), a score "
        "sheet's rows hold only the rounds entered or corrected after it and the open "
        "round's entries, and the state says `rows_since`; after an undo since, the whole "
        "view. A rows_since that is not a whole number: 400.")
    return {
        "openapi": "3.1.0",
        "info": {"title": "Companion API", "version": "1"},
        "paths": paths,
        "components": {"schemas": components, "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{}, {"bearer": []}],
    }
