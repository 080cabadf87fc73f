"""The JSON API's request models and its OpenAPI document. Each route of the API declares
what it takes and answers (`described`), and validates what it was sent with the model it
declared (`sent`); the document is made by walking the app's /api/v1 rules, so a route
without a description cannot be served a document, and the document and the validation
cannot differ (the games' own action and option models included)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Literal, Optional, Self, TypeVar, Union

from flask import Flask, current_app, request
from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError,
                      field_validator)

from ..errors import bad_request
from ..games import GAMES
from ..games.clock import ClockSetting
from ..table.checks import Envelope, validation_message
from ..table.moves import SEED_MAX
from ..table.seating import NAME_MAX, clean_name

PREFIX = "/api/v1/"
SCHEMAS = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": SCHEMAS + name}


def model_schema(model: type[BaseModel], components: dict, prefix: str = "") -> dict:
    """The model's JSON schema, its own models put among the components (each name after
    `prefix`, which keeps apart the models of different games)."""
    schema = model.model_json_schema(ref_template=SCHEMAS + prefix + "{model}", by_alias=True)
    for name, sub in schema.pop("$defs", {}).items():
        components[prefix + name] = sub
    return schema


def whole_numbers(value: Any) -> Any:
    """The value with each float that is a whole number (2.0) as an integer: to JSON
    Schema, as to the games, it is one."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @classmethod
    def parse(cls, data: dict) -> Self:
        """The body, validated (raises pydantic.ValidationError)."""
        return cls.model_validate(data)

    @classmethod
    def document(cls, components: dict) -> dict:
        components[cls.__name__] = model_schema(cls, components)
        return ref(cls.__name__)


class CreateTable(Body):
    game: Literal[tuple(GAMES)]  # type: ignore[valid-type]
    options: dict[str, Any] = Field(default_factory=dict)
    clock: Optional[ClockSetting] = None
    teach: StrictBool = Field(False, description=(
        "A first game: each player's screen explains each kind of step the first time it "
        "comes to them, and the table display once for the table."))

    @classmethod
    def parse(cls, data: dict) -> Self:
        """Also the options, by the game's own model and as strictly as the document's
        JSON Schema reads them (no 0 for false, no "5" for 5); the game then makes the
        table with them."""
        created = super().parse(data)
        engine = GAMES[created.game]
        every = {**engine.default_options().model_dump(mode="json"), **created.options}
        engine.Options.model_validate_json(json.dumps(every), strict=True)
        return created

    @classmethod
    def document(cls, components: dict) -> dict:
        """One body per game, told apart by `game`: its options are the game's own
        (validated by the game's model when the table is made), each one optional."""
        mapping = {}
        properties = model_schema(cls, components)["properties"]
        clock, teach = properties["clock"], properties["teach"]
        for engine in GAMES.values():
            options = model_schema(engine.Options, components, f"{engine.id}.")
            options.pop("required", None)
            options["description"] = "Every option has a default, so {} is valid."
            components[f"{engine.id}.Options"] = options
            name = f"CreateTable.{engine.id}"
            components[name] = {
                "type": "object", "title": f"Create a table of {engine.id}",
                "properties": {"game": {"const": engine.id},
                               "options": ref(f"{engine.id}.Options"), "clock": clock,
                               "teach": teach},
                "required": ["game"], "additionalProperties": False}
            mapping[engine.id] = SCHEMAS + name
        return {"oneOf": [{"$ref": target} for target in mapping.values()],
                "discriminator": {"propertyName": "game", "mapping": mapping}}


# What str.split() takes for spaces, spelt out: regular expression engines differ on \s.
SPACES = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# 1 to NAME_MAX characters once trimmed and each run of spaces made one: a first
# character, then at most NAME_MAX - 1 characters or runs of spaces.
NAME_PATTERN = (rf"^[{SPACES}]*[^{SPACES}](?:[{SPACES}]+|[^{SPACES}]){{0,{NAME_MAX - 1}}}"
                rf"[{SPACES}]*$")


class JoinTable(Body):
    model_config = ConfigDict(extra="forbid", regex_engine="python-re")

    name: str = Field(description=(
        f"1 to {NAME_MAX} characters after trimming (each run of spaces counts as one), "
        "every one of them printable, unique at the table (case-insensitive)."),
        max_length=200, pattern=NAME_PATTERN)

    @field_validator("name")
    @classmethod
    def printable(cls, name: str) -> str:
        if not " ".join(name.split()).isprintable():
            raise ValueError("characters that cannot be shown")
        return name

    @classmethod
    def parse(cls, data: dict) -> Self:
        try:
            return super().parse(data)
        except ValidationError:
            clean_name(data.get("name"))  # what is wrong with a name, in its own words
            raise


class StartTable(Body):
    first_player: Optional[Union[StrictInt, Literal["random"]]] = Field(None, description=(
        "A seated player's id, or \"random\": the server picks one seated player (from "
        "the table's seed, never from the client) and a public line of the log names who. "
        "Defaults to the player the host chose in the lobby, else seat 0."))
    seed: Optional[StrictInt] = Field(None, ge=0, le=SEED_MAX, description=(
        "Fixes every shuffle and random assignment. Refused (400, \"This server chooses "
        "the shuffle.\") unless the server runs with COMPANION_TEST_SEEDS=on, for tests "
        "and benchmarks; otherwise the server draws the seed."))


class PauseClock(Body):
    paused: StrictBool = Field(description="true: pause the clock; false: resume it.")


class Reorder(Body):
    order: list[int] = Field(max_length=64, description="Every seated player's id once.")


def action_schemas(components: dict) -> dict:
    """One schema per game action, with the envelope's fields beside its own; each is
    validated by the game's own model when the action is made."""
    envelope = model_schema(Envelope, components)["properties"]
    found = []
    for engine in GAMES.values():
        prefix = f"{engine.id}."
        union = engine.action_adapter().json_schema(ref_template=SCHEMAS + prefix + "{model}")
        for name, schema in union.pop("$defs", {}).items():
            components[prefix + name] = schema
        for option in union.get("oneOf", [union]):
            model = components[option["$ref"].removeprefix(SCHEMAS)] \
                if "$ref" in option else option
            found.append({**model, "properties": {**model["properties"], **envelope},
                          "title": f"{engine.id}: {model.get('title', '')}"})
    return {"oneOf": found}


# -- what each route declares ------------------------------------------------------------

ERRORS = (400, 401, 403, 404, 409, 422)
View = TypeVar("View", bound=Callable[..., Any])
ModelT = TypeVar("ModelT", bound=Body)


@dataclass(frozen=True)
class Operation:
    """`body`: the model that validates the request; `body_schema`, for a body that the
    games' own models validate, what makes its schema; `answer`: the schema of the
    successful answer."""
    summary: str
    ok: int = 200
    body: type[Body] | None = None
    body_schema: Callable[[dict], dict] | None = None
    answer: dict | None = None
    errors: tuple[int, ...] = ERRORS
    description: str | None = None
    media_type: str = "application/json"
    answered: str = "OK"


OPERATIONS: dict[str, Operation] = {}


def key_of(view: Callable[..., Any]) -> str:
    return f"{view.__module__}.{view.__qualname__}"


def described(summary: str, ok: int = 200, **details: Any) -> Callable[[View], View]:
    """Declares what an API route takes and answers (the fields of `Operation`)."""
    def declare(view: View) -> View:
        OPERATIONS[key_of(view)] = Operation(summary, ok, **details)
        return view
    return declare


def declared(view: Callable[..., Any]) -> Operation:
    try:
        return OPERATIONS[key_of(view)]
    except KeyError:
        raise LookupError(f"The API route {key_of(view)} has no description: declare it "
                          "with @described.") from None


def sent(model: type[ModelT], data: dict) -> ModelT:
    """The request's body validated by the model its route declared (and named here, for
    its type): a route cannot validate with one model and document another."""
    body = declared(current_app.view_functions[request.endpoint or ""]).body
    if body is not model:
        raise TypeError(f"{request.endpoint} declares {body}, not {model.__name__}")
    try:
        return model.parse(data)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None


# -- the OpenAPI document ----------------------------------------------------------------

RULE = {"type": "object", "required": ["id", "title", "url"],
        "properties": {"id": {"type": "string"}, "title": {"type": "string"},
                       "url": {"type": "string"}}}
ERROR_BODY = {"type": "object", "required": ["code", "message"],
              "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                             "rule": RULE}}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": ERROR_BODY}}
VIEW = {"type": "object", "required": ["code", "game", "status", "version", "players", "you",
                                       "turn", "waiting_for", "state", "private", "actions",
                                       "result"],
        "properties": {"code": {"type": "string"}, "game": {"type": "string"},
                       "status": {"enum": ["lobby", "playing", "finished", "ended"]},
                       "version": {"type": "integer"},
                       "players": {"type": "array", "items": {"type": "object"}},
                       "clock": {"type": ["object", "null"]},
                       "actions": {"type": "array", "items": {"type": "object"}}}}
A_VIEW = ref("View")
PATH_PARAMETERS = {
    "code": {"name": "code", "in": "path", "required": True,
             "schema": {"type": "string", "maxLength": 16}},
    "player_id": {"name": "player_id", "in": "path", "required": True,
                  "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}},
}
ARGUMENT = re.compile(r"<(?:[^<>:]+:)?(\w+)>")


def operation_document(operation: Operation, components: dict) -> dict:
    document: dict[str, Any] = {"summary": operation.summary, "responses": {
        str(operation.ok): {"description": operation.answered, "content": {
            operation.media_type: {"schema": operation.answer or {"type": "object"}}}}}}
    if operation.description:
        document["description"] = operation.description
    # Any request may also be refused with 429 `too_many_requests`: an address that keeps
    # looking up codes or tokens that do not exist, or joins too often.
    for status in (*operation.errors, 429):
        document["responses"][str(status)] = {"description": "Error", "content": {
            "application/json": {"schema": ref("Error")}}}
    schema = (operation.body.document(components) if operation.body is not None
              else operation.body_schema(components) if operation.body_schema is not None
              else None)
    if schema is not None:
        document["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": schema}}}
    return document


def openapi(app: Flask) -> dict:
    """The document of every /api/v1 rule the app serves, each from its route's
    declaration (LookupError for a route without one)."""
    components: dict[str, Any] = {"Error": ERROR, "View": VIEW}
    paths: dict[str, dict] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(PREFIX):
            continue
        operation = declared(app.view_functions[rule.endpoint])
        item = paths.setdefault(ARGUMENT.sub(r"{\1}", rule.rule), {})
        arguments = ARGUMENT.findall(rule.rule)
        if arguments:
            item["parameters"] = [PATH_PARAMETERS[name] for name in arguments]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            item[method.lower()] = operation_document(operation, components)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Companion API", "version": "1"},
        "paths": paths,
        "components": {"schemas": components, "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{}, {"bearer": []}],
    }
