"""The JSON API against its own OpenAPI document: schemathesis reads
/api/v1/openapi.json from the live app (the document is made from the routes' own
declarations, with the same models that validate the requests) and sends generated
requests, valid and invalid, to every operation, with every one of its checks: never a
server error, only documented statuses and headers, the documented content type,
responses that match their schemas (the contract's error shape included), invalid data
refused, valid data accepted, and a method an address does not take refused with Allow.

The rate limits are off in these servers (the test app's settings), as they would refuse
a run this fast long before it ends.

Half of the generated cases are pointed at real tables of every game (lobbies and games
being played) with a real token (a player's or the host's), so the generated bodies reach
the rules rather than stopping at "no such table".
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from companion.games import GAMES
from tests.support.api import Api
from tests.support.counts import COUNTS
from tests.support.players import ALL_GAMES, names_for
from tests.support import schema_limits

EXAMPLES = int(os.environ.get("TRUST_EXAMPLES", "40"))  # per operation and mode
CASES = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


# Every check, as configured by default, but that a valid request may also be refused by
# the rules of the game being played (422 `illegal`, which the document lists): these
# tables are real games, where a move out of turn or after the end is valid JSON.
CONFIG = SchemathesisConfig.from_dict({"checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]}}})


def real_tables(base: str) -> list:
    api = Api(base)
    found = []
    for index, game in enumerate(ALL_GAMES):
        names = names_for(GAMES[game].min_players)
        found.append((game, api.table(game, players=names, start=False)))
        found.append((game, api.table(game, players=names, seed=index)))
    return found


# The operations whose body is an action: making it, and asking whether it could be made.
TAKE_AN_ACTION = ("/actions", "/check")


def takes(game: str, case, mode: GenerationMode) -> bool:
    """Whether a table of this game may take the case: the document describes the actions
    of every game, and a table reads its own game's (a valid action of one game is none of
    another's), so a valid action goes to a table whose game has it."""
    if mode is not GenerationMode.POSITIVE or not case.operation.path.endswith(TAKE_AN_ACTION):
        return True
    return not schema_limits.action_refusals(game, case.body) - {"value_error"}


@pytest.mark.counts(schemathesis_cases=10, inputs_tried=10)  # a case per operation at least
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_its_openapi_contract(unlimited_server, mode):
    """Limits lifted: hundreds of generated requests a minute from one address."""
    base = unlimited_server.url
    schema = schemathesis.openapi.from_url(f"{base}/api/v1/openapi.json", config=CONFIG)
    tables = real_tables(base)
    # The live stream never ends by itself: tests/web/test_live.py reads it over HTTP.
    operations = [result.ok() for result in schema.get_all_operations()
                  if result.ok().path != "/api/v1/tables/{code}/stream"]
    assert len(operations) >= 10

    for operation in operations:
        @CASES
        @given(case=operation.as_strategy(generation_mode=mode))
        def check(case):
            # The choice of a real table follows from the case itself, so that hypothesis
            # sees the same request when it replays a case.
            rng = random.Random(repr((case.path_parameters, case.body, case.query)))
            headers = {}
            fitting = [(game, table) for game, table in tables if takes(game, case, mode)]
            if rng.random() < 0.5 and "code" in (case.path_parameters or {}) and fitting:
                game, table = rng.choice(fitting)
                if mode is GenerationMode.POSITIVE and case.operation.path.endswith("/seats"):
                    # A valid order names exactly the players seated at that table.
                    seated = [player["id"] for player in table.view()["players"]]
                    case.body = {"order": rng.sample(seated, len(seated))}
                if (mode is GenerationMode.POSITIVE
                        and case.operation.path.endswith(TAKE_AN_ACTION)):
                    # Not one refused only by what JSON Schema cannot state (a card that
                    # is not in the deck).
                    assume(not schema_limits.beyond_the_schema(
                        schema_limits.action_refusals(game, case.body)))
                case.path_parameters["code"] = table.code
                if "player_id" in case.path_parameters and rng.random() < 0.5:
                    case.path_parameters["player_id"] = rng.choice(list(table.ids.values()))
                token = rng.choice([table.host, *table.tokens.values(), None])
                if token:
                    headers["Authorization"] = f"Bearer {token}"
            COUNTS["schemathesis_cases"] += 1
            COUNTS["inputs_tried"] += 1
            case.call_and_validate(base_url=base, headers=headers)

        check()


def test_schemathesis_run_with_every_check_finds_nothing(unlimited_server, tmp_path):
    """The run a developer makes against a server, `st run URL --checks all`, with all its
    phases: the examples, the coverage of each operation's edges (other methods
    included), generated cases and stateful sequences (a table made, then used). Limits
    lifted, as for any such run: hundreds of requests a minute from one address."""
    command = [sys.executable, "-m", "schemathesis.cli", "run",
               f"{unlimited_server.local_url}/api/v1/openapi.json", "--checks", "all",
               "--exclude-path", "/api/v1/tables/{code}/stream",
               "--max-examples", str(max(1, EXAMPLES // 2)), "--seed", "35",
               "--generation-database", "none", "--request-timeout", "30", "--no-color"]
    environment = {**os.environ, "SCHEMATHESIS_HOOKS": schema_limits.__name__,
                   "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-2000:]
