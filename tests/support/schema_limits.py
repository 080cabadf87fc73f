"""Rules of a request that JSON Schema cannot state, and schemathesis' generated requests
kept within them (its hook, which its command line loads from SCHEMATHESIS_HOOKS and a
test registers by importing this module).

A game's options are described by the game's own model, and the model's validators keep
rules between values that a schema cannot say: each colour chosen once, a tie-break
naming one of the sheet's own categories, a Bank with at least one bill, a name of
printable characters, a tie-break on the time used only with the table clock. A body that only
such a validator refuses is a request the document calls valid and the game refuses,
rightly; the generated bodies leave those out, and every other refusal still counts.
"""
from __future__ import annotations

from typing import Any, Callable

import schemathesis
from pydantic import ValidationError

from companion.games import GAMES
from companion.table.checks import Envelope
from companion.web.contract import JoinTable


def refusals(validate: Callable[[], Any]) -> set[str]:
    """The kinds of error the validation finds (none: it passes)."""
    try:
        validate()
    except ValidationError as exc:
        return {error["type"] for error in exc.errors()}
    return set()


def beyond_the_schema(found: set[str]) -> bool:
    """Refused only by a model's own validators (a ValueError of theirs)."""
    return found == {"value_error"}


def counts_time(engine, options: dict) -> bool:
    """Whether these options (well formed or not) break a tie on the time used."""
    try:
        return engine.needs_clock(options)
    except (AttributeError, TypeError):  # not options the game could read at all
        return False


def refused_beyond_the_schema(method: str, path: str, body: Any) -> bool:
    """Whether the server refuses this body to make a table, or to join one, only by a
    rule JSON Schema cannot state."""
    if not isinstance(body, dict) or method.upper() != "POST":
        return False
    if path == "/api/v1/tables/{code}/players":
        return beyond_the_schema(refusals(lambda: JoinTable.model_validate(body)))
    if path != "/api/v1/tables":
        return False
    engine = GAMES.get(body.get("game")) if isinstance(body.get("game"), str) else None
    options = body.get("options", {})
    if engine is None or not isinstance(options, dict):
        return False
    if not body.get("clock") and counts_time(engine, options):
        return True  # a tie-break on the time used, on a table made without a clock
    return beyond_the_schema(refusals(lambda: engine.options_for(options)))


def action_refusals(game: str, body: Any) -> set[str]:
    """What a table of this game finds wrong in this action (its envelope and fields):
    the document describes the actions of every game, and a table takes its own."""
    if not isinstance(body, dict):
        return {"not_an_object"}
    fields = {key: value for key, value in body.items()
              if key not in ("version", "action_id", "as")}
    return (refusals(lambda: Envelope.model_validate(body))
            | refusals(lambda: GAMES[game].parse_action(fields)))


@schemathesis.hook
def filter_case(context, case) -> bool:
    return not refused_beyond_the_schema(case.method, case.operation.path, case.body)
