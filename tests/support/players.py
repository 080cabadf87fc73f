"""The trust suite's players and tables: hostile names, the player counts and options
every game is played with, seeds, and tables started over real HTTP. Everything is
driven by the game registry, so a game added to `GAMES` is played, fuzzed and checked
without new test code."""
from __future__ import annotations

import random
import uuid

from companion.games import GAMES, Game
from tests.support.api import Api, Seated
from tests.support.clients import Client
from tests.support.pages import HOSTILE_NAMES

ALL_GAMES = sorted(GAMES)


def names_for(count: int) -> tuple[str, ...]:
    extra = tuple(f"Player {n}" for n in range(len(HOSTILE_NAMES), count))
    return (HOSTILE_NAMES + extra)[:count]


def player_counts(engine: Game) -> list[int]:
    """The player counts the suite plays a game with: the fewest, and one more."""
    return [engine.min_players, min(engine.max_players, engine.min_players + 1)]


# Variants that turning every yes/no option and single choice does not reach, which the
# suites play besides the defaults and `other_options`: a score sheet of secret bids on the
# phones, one of Skull King the host enters as the scorer, a secret zero-sum Mahjong sheet
# and a cooperative game the host ends won or lost.
VARIANTS: dict[str, list[dict]] = {"score-sheet": [
    {"name": "Wizard", "bids": "wizard", "secret": True, "dealer": True, "rounds": 4},
    {"name": "Skull King", "bids": "skull_king", "entry": "scorer", "dealer": True,
     "rounds": 4},
    {"name": "Mahjong", "zero_sum": True, "secret": True, "rounds": 4},
    {"name": "Pandemic", "outcome": "cooperative"}]}


def other_options(engine: Game) -> dict:
    """The other value of every yes/no option and single choice of a game (the house
    rules and variants: open banks, Fan Tan, casting by hand), for a second game."""
    defaults = engine.default_options().model_dump(mode="json")
    chosen = {}
    for name, schema in engine.Options.model_json_schema().get("properties", {}).items():
        if schema.get("type") == "boolean":
            chosen[name] = not defaults[name]
        elif "enum" in schema:
            chosen[name] = next(v for v in schema["enum"] if v != defaults[name])
    return chosen


def big_seed(game_id: str, index: int) -> int:
    """A seed with many digits, so the suite can tell it never leaves the server."""
    return random.Random(f"{game_id}:{index}").randrange(10**14, 10**15)


def new_action_id() -> str:
    return uuid.uuid4().hex


def new_table(base: str, game: str, count: int, seed: int, options=None,
              local: int = 0) -> Seated:
    """A started table of `count` players; the last `local` of them have no phone (the
    host device plays for them), so they are seated from the host screen."""
    names = names_for(count)
    api = Api(base)
    table = api.table(game, players=names[:count - local], start=False, options=options)
    if local:
        host = Client(base, table.code, table.host, host=True)
        csrf = host.csrf()
        for name in names[count - local:]:
            response = host.post_form("/players/local", {"name": name, "csrf_token": csrf})
            assert response.status_code == 200, response.text[:300]
        players = api.call("GET", f"/tables/{table.code}")[1]["players"]
        table.local = {p["id"]: p["name"] for p in players if p["name"] not in table.ids}
        table.names.update(table.local)
    else:
        table.local = {}
    status, view = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": seed})
    assert status == 200, view
    return table
