"""The contract every engine in the registry keeps, checked the same way for each: a game
added to `GAMES` is checked here without a line of its own.

- determinism: the same seed and actions give the same game;
- a refused action changes nothing;
- no view or log line shows a viewer another player's declared secret (`engine.secrets`);
- every move the bot makes applies, is among the moves offered to its player, and is made
  only for a player the game awaits; an awaited player is always offered a move;
- the replay of the log equals the state the platform keeps (stored as JSON);
- seeded random games finish.

The games are played by the engines' own bot (`random_action`), as the trust suite and the
benchmark play them through the API.
"""
from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pytest
from pydantic import ValidationError

from companion.games import GAMES, Game
from companion.games.engine import HOST, IllegalAction, Note, State
from companion.games.replay import action_rng, replay, setup_rng
from tests.support.bots import actors
from tests.support.players import VARIANTS, other_options

ALL_GAMES = sorted(GAMES)
SEEDS = range(6)
MOVE_CAP = 5000
FULL_CHECK = 300


def player_ids(engine: Game, seed: int) -> list[int]:
    """Seat counts from the fewest to the most, by seed; ids that are not seat numbers."""
    span = engine.max_players - engine.min_players + 1
    return [101 + 7 * index for index in range(engine.min_players + seed % span)]


def as_stored(data: Any) -> Any:
    """The data as the platform keeps it: through JSON."""
    return json.loads(json.dumps(data))


@dataclass
class Move:
    actor: int | None
    data: dict
    before: State
    after: State
    notes: list[Note]


@dataclass
class Played:
    engine: Game
    players: list[int]
    options: dict
    seed: int
    start: State
    moves: list[Move] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.moves[-1].after if self.moves else self.start

    @property
    def log(self) -> list[tuple[int, dict]]:
        return [(move.actor, move.data) for move in self.moves]


def play(engine: Game, seed: int, cap: int = MOVE_CAP) -> Played:
    """A seeded game: each move is a random awaited player's bot move, applied as the
    platform applies it (parsed from JSON, with the action's own generator). Odd seeds
    play the house rules and variants (every yes/no option and single choice turned);
    every third seed, a game's variants they do not reach (`VARIANTS`)."""
    players = player_ids(engine, seed)
    chosen = other_options(engine) if seed % 2 else {}
    if seed % 3 == 2 and engine.id in VARIANTS:
        chosen = VARIANTS[engine.id][seed // 3 % len(VARIANTS[engine.id])]
    options = engine.options_for(chosen, len(players)).model_dump(mode="json")
    state = engine.setup(players, engine.Options.model_validate(options), setup_rng(seed))
    played = Played(engine, players, options, seed, copy.deepcopy(state))
    bot = random.Random(f"bot:{seed}")
    for index in range(cap):
        waiting = actors(engine, state)
        if not waiting:
            break
        actor = bot.choice(waiting)
        data = as_stored(engine.random_action(state, actor, bot))
        before = copy.deepcopy(state)
        notes = engine.apply(state, actor, engine.parse_action(data), action_rng(seed, index))
        played.moves.append(Move(actor, data, before, copy.deepcopy(state), notes))
    return played


@pytest.fixture(scope="module", params=ALL_GAMES)
def games(request) -> list[Played]:
    engine = GAMES[request.param]
    return [play(engine, seed) for seed in SEEDS]


# -- determinism --------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_setup_depends_only_on_its_arguments(game_id):
    engine = GAMES[game_id]
    players = player_ids(engine, 0)
    options = engine.default_options(len(players))
    first = engine.setup(list(players), options, random.Random(5))
    assert engine.setup(list(players), options, random.Random(5)) == first
    assert as_stored(first) == first, "a state is plain JSON data"


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_the_same_seed_gives_the_same_game(game_id):
    engine = GAMES[game_id]
    first, second = play(engine, 3), play(engine, 3)
    assert first.log == second.log
    assert first.state == second.state
    assert ([[n.to_json() for n in m.notes] for m in first.moves]
            == [[n.to_json() for n in m.notes] for m in second.moves])
    assert play(engine, 5).log != first.log, "another seed, another game"


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_setup_refuses_a_player_count_the_game_is_not_for(game_id):
    engine = GAMES[game_id]
    options = engine.default_options()
    for count in (engine.min_players - 1, engine.max_players + 1):
        with pytest.raises(IllegalAction, match=f"{engine.min_players} to {engine.max_players}"):
            engine.setup(list(range(1, count + 1)), options, random.Random(0))


# -- the games finish, every offered move applies, the replay is the state ------------------

def test_seeded_random_games_finish(games):
    for played in games:
        engine, state = played.engine, played.state
        assert not actors(engine, state), (
            f"{engine.id} seed {played.seed}: not over after {MOVE_CAP} moves")
        result = engine.result(state)
        assert result is not None
        assert sorted(s.player for s in result.standings) == sorted(played.players)
        assert set(engine.scores(state)) == set(played.players)
        for player in played.players + [HOST]:
            assert engine.actions(state, player) == [] or player is HOST
            assert engine.random_action(state, player, random.Random(0)) is None


def test_an_awaited_player_is_offered_a_move_and_the_bot_moves_only_as_offered(games):
    for played in games:
        engine = played.engine
        for move in played.moves[::3]:
            waiting = actors(engine, move.before)
            assert move.actor in waiting
            assert engine.result(move.before) is None
            for player in played.players + [HOST] * engine.host_may_act(move.before):
                offered = engine.actions(move.before, player)
                bot = engine.random_action(move.before, player, random.Random(1))
                assert offered or player not in waiting, f"{engine.id}: {player} awaited"
                if bot is not None:
                    assert player in waiting
                    assert bot["type"] in {template["type"] for template in offered}


def test_the_replay_of_the_log_is_the_stored_state(games):
    for played in games:
        engine = played.engine
        for cut in sorted({len(played.moves) // 3, len(played.moves)}):
            stored = as_stored(played.moves[cut - 1].after if cut else played.start)
            replayed = replay(engine, played.players, played.options, played.seed,
                              played.log[:cut])
            assert as_stored(replayed) == stored


# -- refusals ---------------------------------------------------------------------------------

def refusal_attempts(played: Played):
    """(state, actor, action data) that are often refused: every awaited player's move
    posted by everyone else and by the host, the move just made posted again, and anything
    after the end."""
    engine = played.engine
    for index, move in enumerate(played.moves[::2]):
        rng = random.Random(index)
        for waiting in actors(engine, move.before):
            data = as_stored(engine.random_action(move.before, waiting, rng))
            for actor in played.players + [HOST]:
                if actor != waiting:
                    yield move.before, actor, data
        yield move.after, move.actor, move.data
    for move in played.moves[-5:]:
        yield played.state, move.actor, move.data


def test_a_refused_action_changes_nothing(games):
    refused = 0
    for played in games:
        engine = played.engine
        for state, actor, data in refusal_attempts(played):
            attempt = copy.deepcopy(state)
            try:
                engine.apply(attempt, actor, engine.parse_action(data), random.Random(0))
            except IllegalAction as refusal:
                refused += 1
                assert attempt == state, f"{engine.id}: {refusal.message} changed the state"
                assert refusal.message.strip()
    assert refused >= 20


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_an_action_of_no_known_type_is_refused_by_the_models(game_id):
    engine = GAMES[game_id]
    for data in ({"type": "no-such-move"}, {}, {"type": None}):
        with pytest.raises(ValidationError):
            engine.parse_action(data)


# -- secrets ----------------------------------------------------------------------------------

@dataclass
class Needles:
    """Another player's declared secrets: texts (a card) and (key, value) pairs."""

    texts: set[str] = field(default_factory=set)
    pairs: list[tuple[str, Any]] = field(default_factory=list)

    @classmethod
    def against(cls, secrets: dict[int, list], viewer: int | None) -> "Needles":
        needles = cls()

        def add(value: Any) -> None:
            if isinstance(value, str):
                needles.texts.add(value)
            elif isinstance(value, dict):
                needles.pairs += [(str(key), item) for key, item in value.items()]
            elif isinstance(value, (list, tuple)):
                for item in value:
                    add(item)
            else:
                raise AssertionError(f"secrets() gave a bare {value!r}: declare it under a key")

        for owner, values in secrets.items():
            if owner != viewer:
                add(values)
        return needles

    def in_text(self, text: str) -> list[str]:
        found = whole_tokens(frozenset(self.texts)).findall(text) if self.texts else []
        for key, value in self.pairs:
            for written in (f'"{key}": {json.dumps(value)}', f"'{key}': {value!r}"):
                if written in text:
                    found.append(written)
        return found

    def in_data(self, data: Any, path: str = "", own: bool = False) -> list[str]:
        """Where `data` holds a secret; `own`: `data` is the viewer's private part, whose
        fields hold the viewer's own values (their bank total may equal another's)."""
        found = []
        if isinstance(data, dict):
            for key, item in data.items():
                for secret_key, value in self.pairs:
                    if str(key) == secret_key and holds(item, value) and not own:
                        found.append(f"{path}{key}")
                found += self.in_data(item, f"{path}{key}.")
        elif isinstance(data, list):
            for index, item in enumerate(data):
                found += self.in_data(item, f"{path}{index}.")
        elif isinstance(data, str):
            found += [f"{path}: {t}" for t in self.in_text(data)]
        return found


@lru_cache(maxsize=1024)
def whole_tokens(texts: frozenset[str]) -> re.Pattern:
    """Any of `texts` as a whole token ("clowns-L3", not "clowns-L3x")."""
    alternatives = "|".join(map(re.escape, sorted(texts, key=len, reverse=True)))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def holds(shown: Any, secret: Any) -> bool:
    if isinstance(secret, list) and isinstance(shown, list):
        return all(item in shown for item in secret)
    return shown == secret


def leaks(engine: Game, state: State, notes: list[Note], players: list[int]) -> list[str]:
    """Where a viewer finds another player's secret in the view or the move's log lines."""
    secrets = engine.secrets(state)
    found = []
    for viewer in players + [None]:
        needles = Needles.against(secrets, viewer)
        public, private = as_stored(engine.view(state, viewer))
        found += [f"viewer {viewer}, view: {where}"
                  for where in needles.in_data(public, "public.")
                  + needles.in_data(private, "private.", own=True)]
        for note in notes:
            found += [f"viewer {viewer}, log: {where}"
                      for where in needles.in_text(note.for_viewer(viewer))]
    return found


def test_no_view_or_log_line_shows_another_players_secret(games):
    """After every move of the first FULL_CHECK, then after every tenth and every reveal
    (the long tail of a long game repeats its situations)."""
    for played in games:
        engine = played.engine
        assert not leaks(engine, played.start, [], played.players)
        for index, move in enumerate(played.moves):
            if index >= FULL_CHECK and index % 10 and not any(n.reveal for n in move.notes):
                continue
            found = leaks(engine, move.after, move.notes, played.players)
            assert not found, f"{engine.id} seed {played.seed}: {found[:3]}"


def test_the_secrecy_check_sees_a_leak(games):
    """The check above can fail: a view that also shows the declared secrets is caught,
    for every game that has secrets in the games played."""
    for played in games:
        engine = played.engine
        for move in played.moves:
            secrets = engine.secrets(move.after)
            if len(secrets) < 2:
                continue
            public, private = engine.view(move.after, None)
            needles = Needles.against(secrets, None)
            assert needles.in_data({"public": {**public, "leak": as_stored(secrets)}})
            assert needles.in_text(f"leak {json.dumps(as_stored(secrets))}") or not needles.texts
            break


def test_a_message_is_a_str_whose_own_methods_work():
    """A message reads as its English text: a str's methods work on it, a plural's too."""
    from companion.games.messages import Player, message, plural

    said = plural("%(who)s took %(count)s card", "%(who)s took %(count)s cards", "count",
                  who=Player(1), count=3)
    assert said.count("card") == 1 and said.counted_by == "count"
    assert message("Ann and Ann").count("Ann") == 2


def test_the_public_part_of_a_view_is_the_same_for_every_viewer(games):
    """What every screen shows alike is worked out once per version (and rendered once per
    language): a game's public part may not depend on who looks. `private_view` is the
    viewer's own part alone, as `view` gives it."""
    for played in games:
        engine = played.engine
        for index, move in enumerate([None, *played.moves]):
            if index > FULL_CHECK and index % 10:
                continue
            state = played.start if move is None else move.after
            public = engine.view(state, None)[0]
            for viewer in played.players:
                shown, private = engine.view(state, viewer)
                assert shown == public, f"{engine.id} seed {played.seed} move {index}"
                assert engine.private_view(state, viewer) == private
            assert engine.private_view(state, None) is None
