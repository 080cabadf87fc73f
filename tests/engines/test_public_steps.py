"""Which steps of a player without a phone the host plays in front of everyone, decided by
one rule from what each engine offers (`Game.public_step`): a step is played behind the
"pass the device" cover when one of its actions asks for a secret (`secret_actions`) or
shows one of the player's own (`secrets`), and in the open otherwise. Checked over seeded
random games of every registered game, and step by step for the games built in."""
from __future__ import annotations

import random
from collections import defaultdict

import pytest

from companion.games import GAMES
from companion.games.views import mentions
from companion.games.replay import action_rng, setup_rng
from tests.support.bots import choose_move

SEEDS = range(4)


def steps_seen(game_id: str, options: dict | None = None) -> dict[str, set[bool]]:
    """Per step name ("play", "hands", ...), whether the awaited players' steps were
    public, over seeded games played to the end; and checks the rule on each."""
    engine = GAMES[game_id]
    seen: dict[str, set[bool]] = defaultdict(set)
    for seed in SEEDS:
        players = [11, 12, 13][:max(engine.min_players, min(3, engine.max_players))]
        state = engine.setup(players, engine.options_for(options or {}, len(players)),
                             setup_rng(seed))
        bot = random.Random(seed)
        for index in range(3000):
            waiting = engine.waiting_for(state)
            if not waiting:
                break
            for player in waiting:
                public = engine.public_step(state, player)
                offered = engine.actions(state, player)
                if public:
                    assert offered, "a public step offers something to do"
                    assert not {a["type"] for a in offered} & engine.secret_actions
                    for secret in engine.secrets(state).get(player, []):
                        assert not mentions(offered, secret), (offered, secret)
                seen[str(state.get("step"))].add(public)
            player, action = choose_move(engine, state, bot)
            engine.apply(state, player, engine.parse_action(action), action_rng(seed, index))
    return seen


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_public_step_neither_asks_for_nor_shows_a_secret(game_id):
    assert steps_seen(game_id)


def test_go_big_is_played_in_the_open():
    assert steps_seen("go-big") == {"play": {True}, "draw": {True}}


def test_big_money_has_no_secret_step():
    seen = steps_seen("big-money")
    assert {"setup", "industry", "number_dice", "buy"} <= set(seen)
    assert all(public == {True} for public in seen.values()), seen


def test_big_top_hands_receipts_and_calls_from_a_hand_are_secret():
    seen = steps_seen("big-top")
    assert seen["hands"] == seen["receipts"] == {False}
    # A turn offers the cards of the hand to call or play: secret; a pass alone is not.
    assert seen["play"] == {False, True}
    fan_tan = steps_seen("big-top", {"variant": "fan-tan"})
    assert fan_tan["hands"] == {False} and False in fan_tan["play"]


def test_nothing_beats_a_large_casts_are_secret_challenges_and_steals_are_not():
    seen = steps_seen("nothing-beats-a-large")
    assert seen["challenge"] == {True} and seen["cast"] == {False}
    assert seen.get("steal", {True}) == {True}


def test_mentions_finds_a_secret_as_declared():
    offered = [{"type": "play", "card": ["clowns-L2", "animals-P"]}]
    assert mentions(offered, "animals-P") and not mentions(offered, "animals")
    assert mentions([{"bank_total": 12}], {"bank_total": 12})
    assert not mentions([{"value": 12}], {"bank_total": 12})
    assert mentions({"a": [{"goals": ["red", "blue"]}]}, [{"goals": ["red", "blue"]}])
