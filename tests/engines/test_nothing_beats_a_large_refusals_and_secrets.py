"""Nothing Beats a Large engine, what it refuses and what it hides: refusals that leave
the state untouched (and do not tell a locked piece), malformed actions refused by the
parser, the views and the secrets they keep (goal cards, a locked cast), and seeded random
games, of random moves from the actions' templates and of the engine's own random_action
(the bot), that end with one winner and every piece kept."""
from __future__ import annotations

import copy
import json
import random

import pytest
from pydantic import ValidationError

from companion.games.engine import IllegalAction, NotYourTurn
from companion.games.nothing_beats_a_large import COLORS
from tests.support.nothing_beats_a_large_engine import (ANN, BOB, CAT, EVEN_3, GAME, GOALS_3,
                                                        PLAYERS, act, arranged,
                                                        assert_pieces_accounted, cast_both,
                                                        completed_red, pieces, seat, start,
                                                        win_cast_and_steal)

STEP_CAP = 3000


# -- helpers ---------------------------------------------------------------------------
def dumped_view(state: dict, viewer) -> str:
    return json.dumps(GAME.view(state, viewer), sort_keys=True)


def random_action(template: dict, rng: random.Random) -> dict:
    """A concrete action from an `actions()` template: one choice for each list."""
    action = {"type": template["type"]}
    for key, choices in template.items():
        if key in ("type", "from"):
            continue
        if isinstance(choices, dict):
            action[key] = {k: rng.choice(v) for k, v in choices.items()}
        else:
            action[key] = rng.choice(choices)
    return action


def perturb_secrets(state: dict, players: list[int], rng: random.Random) -> dict:
    """A copy where the unrevealed goal cards and locked casts of `players` differ."""
    other = copy.deepcopy(state)
    if other["step"] == "over":  # every goal is shown at the end
        return other
    cast = other["cast"]
    for player in players:
        target = seat(other, player)
        hidden = list(target["goals"])
        for color in target["revealed_goals"]:
            hidden.remove(color)
        target["goals"] = target["revealed_goals"] + [
            rng.choice([c for c in other["colors"] if c != color]) for color in hidden]
        if cast and not cast["revealed"] and str(player) in cast["picks"]:
            choices = [p for p in target["pieces"] + [None] if p != cast["picks"][str(player)]]
            cast["picks"][str(player)] = rng.choice(choices)
    return other


def play_random_game(seed: int, on_step=None, cap: int = STEP_CAP) -> tuple[dict, list, int]:
    """Plays random legal actions; returns (state, [(player, action)], steps)."""
    rng = random.Random(seed)
    count = 2 + seed % 4
    casting = "by-hand" if seed % 3 == 0 else "phones"
    options = GAME.Options(colors=list(COLORS[:max(3, count)]), casting=casting)
    state = GAME.setup(PLAYERS[:count], options, random.Random(seed))
    log = []
    for steps in range(cap):
        if GAME.result(state) is not None:
            return state, log, steps
        player = rng.choice(GAME.waiting_for(state))
        template = rng.choice(GAME.actions(state, player))
        action = random_action(template, rng)
        act(state, player, action)
        log.append((player, action))
        if on_step:
            on_step(state)
    return state, log, cap


# -- refusals leave the state untouched --------------------------------------------------------
def at_start():
    return arranged(EVEN_3, GOALS_3)


def casting(mode="phones"):
    state = arranged(EVEN_3, GOALS_3, mode)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    return state


def locked():
    state = casting()
    act(state, ANN, {"type": "cast", "piece": "red-L"})
    return state


def stealing():
    state = casting()
    cast_both(state, {ANN: "red-L", BOB: "green-M"})
    return state


def after_a_cast():
    state = stealing()
    act(state, ANN, {"type": "steal", "piece": "red-S"})
    return state


def finished():
    state = completed_red({ANN: ["green-L", "green-M", "red-L"],
                           BOB: ["green-S", "yellow-L", "red-M"],
                           CAT: ["yellow-M", "red-S", "yellow-S"]},
                          {ANN: ["red", "green"], BOB: ["yellow", "green"],
                           CAT: ["red", "yellow"]})
    win_cast_and_steal(state, "green-S", ann_cast="green-L")
    return state


REFUSALS = [
    ("challenge out of turn", at_start, BOB, {"type": "challenge", "opponent": CAT}, NotYourTurn),
    ("host challenges", at_start, None, {"type": "challenge", "opponent": CAT}, NotYourTurn),
    ("challenge yourself", at_start, ANN, {"type": "challenge", "opponent": ANN}, IllegalAction),
    ("challenge a stranger", at_start, ANN, {"type": "challenge", "opponent": 999}, IllegalAction),
    ("challenge who just cast", after_a_cast, BOB, {"type": "challenge", "opponent": ANN},
     IllegalAction),
    ("challenge while casting", casting, ANN, {"type": "challenge", "opponent": CAT},
     IllegalAction),
    ("cast when not casting", at_start, ANN, {"type": "cast", "piece": "red-L"}, IllegalAction),
    ("cast a piece you do not own", casting, ANN, {"type": "cast", "piece": "yellow-L"},
     IllegalAction),
    ("cast a colour not in play", casting, ANN, {"type": "cast", "piece": "blue-L"},
     IllegalAction),
    ("change a locked cast", locked, ANN, {"type": "cast", "piece": "yellow-M"}, IllegalAction),
    ("lock nothing after a lock", locked, ANN, {"type": "cast", "piece": None}, IllegalAction),
    ("cast by a bystander", casting, CAT, {"type": "cast", "piece": "green-L"}, NotYourTurn),
    ("cast on a by-hand table", lambda: casting("by-hand"), ANN,
     {"type": "cast", "piece": "red-L"}, IllegalAction),
    ("record on a phones table", casting, ANN,
     {"type": "record_cast", "pieces": {str(ANN): "red-L", str(BOB): None}}, IllegalAction),
    ("record a piece the caster does not own", lambda: casting("by-hand"), ANN,
     {"type": "record_cast", "pieces": {str(ANN): "red-L", str(BOB): "red-M"}}, IllegalAction),
    ("record for the wrong players", lambda: casting("by-hand"), ANN,
     {"type": "record_cast", "pieces": {str(ANN): "red-L", str(CAT): None}}, IllegalAction),
    ("record by a bystander", lambda: casting("by-hand"), CAT,
     {"type": "record_cast", "pieces": {str(ANN): "red-L", str(BOB): None}}, NotYourTurn),
    ("record by the host", lambda: casting("by-hand"), None,
     {"type": "record_cast", "pieces": {str(ANN): "red-L", str(BOB): None}}, NotYourTurn),
    ("steal a piece the loser lacks", stealing, ANN, {"type": "steal", "piece": "red-M"},
     IllegalAction),
    ("steal your own piece", stealing, ANN, {"type": "steal", "piece": "red-L"}, IllegalAction),
    ("the loser steals", stealing, BOB, {"type": "steal", "piece": "red-L"}, NotYourTurn),
    ("steal when nothing is stolen", at_start, ANN, {"type": "steal", "piece": "yellow-L"},
     IllegalAction),
    ("challenge when stealing", stealing, ANN, {"type": "challenge", "opponent": CAT},
     IllegalAction),
    ("play after the end", finished, BOB, {"type": "challenge", "opponent": CAT},
     IllegalAction),
]


@pytest.mark.parametrize("name, make_state, player, action, error", REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_refusals_raise_and_leave_the_state_unchanged(name, make_state, player, action, error):
    state = make_state()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, player, action)
    assert type(refused.value) is error
    assert refused.value.message.endswith(".")
    assert state == before


def test_refusing_to_change_a_locked_cast_does_not_tell_the_locked_piece():
    state = locked()
    with pytest.raises(IllegalAction) as refused:
        act(state, ANN, {"type": "cast", "piece": "yellow-M"})
    assert "red" not in refused.value.message and "Large" not in refused.value.message


@pytest.mark.parametrize("data", [
    {"type": "cast", "piece": "purple-L"}, {"type": "cast", "piece": "red-X"},
    {"type": "cast"}, {"type": "cast", "piece": "red-L", "extra": 1},
    {"type": "steal", "piece": None}, {"type": "challenge", "opponent": -1},
    {"type": "challenge", "opponent": "Bob"}, {"type": "toString"},
    {"type": "record_cast", "pieces": {"1": None}},
    {"type": "record_cast", "pieces": {"1": None, "2": None, "3": None}},
    {"type": "record_cast", "pieces": {"x": None, "2": None}},
])
def test_malformed_actions_are_refused_by_the_parser(data):
    with pytest.raises(ValidationError):
        GAME.parse_action(data)


def test_api_action_shapes_parse():
    for data in [{"type": "challenge", "opponent": 5}, {"type": "cast", "piece": None},
                 {"type": "cast", "piece": "black-S"}, {"type": "steal", "piece": "blue-M"},
                 {"type": "record_cast", "pieces": {"3": "red-L", "5": None}}]:
        assert GAME.parse_action(data).type == data["type"]


# -- views and secrets -------------------------------------------------------------------------
def test_view_follows_the_api_shapes():
    state = locked()
    public, private = GAME.view(state, ANN)
    assert public["challenger"] == ANN
    assert public["cast"]["between"] == [ANN, BOB]
    assert public["cast"]["locked"] == [ANN] and public["cast"]["revealed"] is None
    assert public["seats"][0] == {"player": ANN, "pieces": pieces(state, ANN),
                                  "piece_count": 3, "revealed_goals": [], "completed": []}
    assert private == {"goals": GOALS_3[ANN], "completed": [], "cast": "red-L", "locked": True}
    assert GAME.view(state, BOB)[1] == {"goals": GOALS_3[BOB], "completed": [], "cast": None,
                                        "locked": False}
    assert GAME.view(state, None)[1] is None
    assert GAME.view(state, 999)[1] is None
    assert GAME.secrets(state)[ANN] == [{"goals": GOALS_3[ANN]}, {"cast": "red-L"}]


def test_the_view_does_not_depend_on_another_players_goals():
    state = at_start()
    other = copy.deepcopy(state)
    seat(other, ANN)["goals"] = ["blue", "black"]  # colours that are not even in play
    for viewer in (BOB, CAT, None, 999):
        assert dumped_view(state, viewer) == dumped_view(other, viewer)
        assert "blue" not in dumped_view(other, viewer)
    assert "blue" in dumped_view(other, ANN)


def test_the_view_and_log_do_not_depend_on_an_unrevealed_cast():
    seen = {}
    for piece in ("red-L", None):
        state = casting()
        [note] = act(state, ANN, {"type": "cast", "piece": piece})
        seen[piece] = ([dumped_view(state, v) for v in (BOB, CAT, None)],
                       [note.for_viewer(v) for v in (BOB, CAT, None)],
                       GAME.actions(state, BOB), GAME.waiting_for(state))
        assert '"picks"' not in json.dumps(GAME.view(state, BOB))
    assert seen["red-L"] == seen[None]


def test_random_games_never_show_a_secret_to_another_viewer():
    rng = random.Random(2024)

    def check(state):
        players = [s["player"] for s in state["seats"]]
        for viewer in players + [None, 999]:
            others = [p for p in players if p != viewer]
            perturbed = perturb_secrets(state, others, rng)
            assert GAME.view(state, viewer) == GAME.view(perturbed, viewer)
    for seed in range(40):
        play_random_game(seed, check, cap=600)


# -- seeded random games ---------------------------------------------------------------------
def test_random_games_end_with_one_winner_and_keep_every_piece():
    def check(state):
        assert_pieces_accounted(state)
        if state["step"] in ("challenge", "cast"):
            assert all(s["pieces"] for s in state["seats"])
        if state["step"] != "over":
            assert GAME.waiting_for(state) and GAME.result(state) is None
    finished_games = 0
    for seed in range(200):
        state, _, steps = play_random_game(seed, check)
        result = GAME.result(state)
        if steps < STEP_CAP:
            finished_games += 1
            assert len(result.winners) == 1
            winner = seat(state, result.winners[0])
            assert len(winner["completed"]) == 2 and winner["revealed_goals"]
            assert sorted(s.place for s in result.standings) == [1] + [2] * (
                len(state["seats"]) - 1)
        else:
            assert result is None
    assert finished_games >= 150


# -- the bot: random_action ------------------------------------------------------------------
def test_random_action_is_none_for_players_nothing_is_awaited_from():
    state = start(3)
    rng = random.Random(0)
    assert GAME.random_action(state, BOB, rng) is None
    assert GAME.random_action(state, CAT, rng) is None
    assert GAME.random_action(state, 999, rng) is None
    action = GAME.random_action(state, ANN, rng)
    assert action["type"] == "challenge" and action["opponent"] in (BOB, CAT)
    state = locked()
    assert GAME.random_action(state, ANN, rng) is None  # locked in: nothing more to do
    assert GAME.random_action(state, BOB, rng)["type"] == "cast"
    state = finished()
    assert all(GAME.random_action(state, p, rng) is None for p in (ANN, BOB, CAT))


def test_random_action_records_both_casters_by_hand_as_posted_data():
    state = casting("by-hand")
    first, second = state["cast"]["between"]
    action = GAME.random_action(state, second, random.Random(3))
    assert action["type"] == "record_cast"
    assert set(action["pieces"]) == {str(first), str(second)}
    for caster, piece in action["pieces"].items():
        assert piece is None or piece in pieces(state, int(caster))
    act(state, second, json.loads(json.dumps(action)))  # plain JSON, as the API receives it
    assert state["last_cast"]["pieces"] == action["pieces"]


def bot_game(seed: int) -> dict:
    """A seeded game in which every move comes from random_action, as the bot posts it."""
    rng = random.Random(seed)
    count = 2 + seed % 4
    casting_mode = "by-hand" if seed % 3 == 0 else "phones"
    options = GAME.Options(colors=list(COLORS[:max(3, count)]), casting=casting_mode)
    players = PLAYERS[:count]
    state = GAME.setup(players, options, random.Random(seed))
    for _ in range(STEP_CAP):
        if GAME.result(state) is not None:
            break
        awaited = GAME.waiting_for(state)
        assert awaited
        for player in players:
            assert (GAME.random_action(state, player, rng) is None) == (player not in awaited)
        player = rng.choice(awaited)
        action = GAME.random_action(state, player, rng)
        act(state, player, json.loads(json.dumps(action)))  # plain JSON, as the API gets it
        assert_pieces_accounted(state)
    return state


def test_random_games_driven_by_random_action_end_or_hit_the_cap():
    finished_games = 0
    for seed in range(60):
        state = bot_game(seed)
        result = GAME.result(state)
        if result is None:  # the step cap
            assert state["step"] != "over" and GAME.waiting_for(state)
            continue
        finished_games += 1
        assert state["step"] == "over" and len(result.winners) == 1
        assert all(GAME.random_action(state, s["player"], random.Random(0)) is None
                   for s in state["seats"])
    assert finished_games >= 45
