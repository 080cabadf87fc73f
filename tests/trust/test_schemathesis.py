"""The JSON API against its own OpenAPI document: schemathesis reads
/api/v1/openapi.json from the live app (the document is made from the same models that
validate the requests) and sends generated requests, valid and invalid, to every
operation. Its checks: never a server error, only documented statuses, the documented
content type, responses that match their schemas (the contract's error shape included),
and invalid data refused.

Half of the generated cases are pointed at real tables of every game (lobbies and games
being played) with a real token (a player's or the host's), so the generated bodies reach
the rules rather than stopping at "no such table".
"""
from __future__ import annotations

import os
import random

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from companion.games import GAMES
from tests.support.api import Api
from tests.support.counts import COUNTS
from tests.support.players import ALL_GAMES, names_for

EXAMPLES = int(os.environ.get("TRUST_EXAMPLES", "40"))  # per operation and mode
CASES = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def real_tables(base: str) -> list:
    api = Api(base)
    found = []
    for index, game in enumerate(ALL_GAMES):
        names = names_for(GAMES[game].min_players)
        found.append(api.table(game, players=names, start=False))
        found.append(api.table(game, players=names, seed=index))
    return found


@pytest.mark.counts(schemathesis_cases=10, inputs_tried=10)  # a case per operation at least
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_its_openapi_contract(live_server, mode):
    base = live_server.url
    schema = schemathesis.openapi.from_url(f"{base}/api/v1/openapi.json")
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
            if rng.random() < 0.5 and "code" in (case.path_parameters or {}):
                table = rng.choice(tables)
                case.path_parameters["code"] = table.code
                if "player_id" in case.path_parameters and rng.random() < 0.5:
                    case.path_parameters["player_id"] = rng.choice(list(table.ids.values()))
                token = rng.choice([table.host, *table.tokens.values(), None])
                if token:
                    headers["Authorization"] = f"Bearer {token}"
            COUNTS["schemathesis_cases"] += 1
            COUNTS["inputs_tried"] += 1
            # Valid data may still be refused by the rules (a move out of turn, a name
            # taken): the document lists those refusals, so "valid means accepted" is the
            # one check left out.
            case.call_and_validate(base_url=base, headers=headers,
                                   excluded_checks=[positive_data_acceptance])

        check()
