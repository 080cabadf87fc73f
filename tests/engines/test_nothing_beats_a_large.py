"""Nothing Beats a Large engine: rules, refusals, secrecy, seeded random games."""
from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter

import pytest
from pydantic import ValidationError

from companion.games.engine import IllegalAction, NotYourTurn
from companion.games.messages import text_from_json
from companion.games.nothing_beats_a_large import COLORS, NothingBeatsALarge, sorted_pieces

GAME = NothingBeatsALarge()
ANN, BOB, CAT, DAN, EVE = 11, 22, 33, 44, 55
PLAYERS = [ANN, BOB, CAT, DAN, EVE]
STEP_CAP = 3000

# Three colours, everyone holding one Large, one Medium and one Small.
EVEN_3 = {ANN: ["red-L", "yellow-M", "green-S"],
          BOB: ["yellow-L", "green-M", "red-S"],
          CAT: ["green-L", "red-M", "yellow-S"]}
# Goals no one can complete with EVEN_3 in a single steal.
GOALS_3 = {ANN: ["yellow", "green"], BOB: ["red", "green"], CAT: ["red", "yellow"]}


# -- helpers ---------------------------------------------------------------------------
def all_pieces(colors) -> list[str]:
    return sorted(f"{c}-{s}" for c in colors for s in "LMS")


def start(count: int = 3, seed: int = 1, casting: str = "phones") -> dict:
    options = GAME.Options(colors=list(COLORS[:max(3, count)]), casting=casting)
    return GAME.setup(PLAYERS[:count], options, random.Random(seed))


def arranged(layout: dict, goals: dict | None = None, casting: str = "phones") -> dict:
    """A fresh game whose seats hold exactly the pieces of `layout` (and `goals`)."""
    state = start(len(layout), casting=casting)
    for place in state["seats"]:
        place["pieces"] = sorted_pieces(layout[place["player"]])
        if goals and place["player"] in goals:
            place["goals"] = list(goals[place["player"]])
    assert_pieces_accounted(state)
    return state


def act(state: dict, player, data: dict):
    return GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def cast_both(state: dict, picks: dict):
    """Both casters cast, in the table's casting mode; returns the notes of the last call."""
    if state["casting"] == "by-hand":
        first = state["cast"]["between"][0]
        return act(state, first, {"type": "record_cast",
                                  "pieces": {str(p): piece for p, piece in picks.items()}})
    notes = []
    for player, piece in picks.items():
        notes = act(state, player, {"type": "cast", "piece": piece})
    return notes


def seat(state: dict, player: int) -> dict:
    return next(s for s in state["seats"] if s["player"] == player)


def pieces(state: dict, player: int) -> list[str]:
    return seat(state, player)["pieces"]


def assert_pieces_accounted(state: dict) -> None:
    held = sorted(p for s in state["seats"] for p in s["pieces"])
    assert held == all_pieces(state["colors"])


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


# -- options and setup -------------------------------------------------------------------
@pytest.mark.parametrize("count, colors", [(2, 3), (3, 3), (4, 4), (5, 5)])
def test_default_options_give_one_colour_per_player_and_at_least_three(count, colors):
    options = GAME.default_options(count)
    assert options.colors == list(COLORS[:colors])
    assert options.casting == "phones"


@pytest.mark.parametrize("colors", [["red", "red", "green"], ["red", "purple", "green"],
                                    ["red", "green"], list(COLORS) + ["red"]])
def test_options_refuse_bad_colour_lists(colors):
    with pytest.raises(ValidationError):
        GAME.Options(colors=colors)


def test_options_fields_have_titles_and_descriptions():
    for name, field in GAME.Options.model_fields.items():
        assert field.title and field.description, name


@pytest.mark.parametrize("count, colors", [(2, 4), (3, 5), (4, 3), (5, 4)])
def test_setup_refuses_a_colour_count_that_does_not_fit(count, colors):
    options = GAME.Options(colors=list(COLORS[:colors]))
    with pytest.raises(IllegalAction, match="colours"):
        GAME.setup(PLAYERS[:count], options, random.Random(0))


@pytest.mark.parametrize("count", [3, 4, 5])
def test_setup_gives_each_player_a_trio_of_three_colours(count):
    for seed in range(40):
        state = start(count, seed)
        assert_pieces_accounted(state)
        for s in state["seats"]:
            assert sorted(p[-1] for p in s["pieces"]) == ["L", "M", "S"]
            assert len({p.split("-")[0] for p in s["pieces"]}) == 3


def splits_into_trios(four: list[str], five: list[str]) -> bool:
    """The 2-player deal: the four pieces are a trio plus a Large, the five a trio plus a
    Medium and a Small, and that Large, Medium and Small form the split extra trio."""
    def is_trio(group):
        return (sorted(p[-1] for p in group) == ["L", "M", "S"]
                and len({p.split("-")[0] for p in group}) == 3)
    for large in (p for p in four if p.endswith("-L")):
        for medium, small in itertools.product([p for p in five if p.endswith("-M")],
                                               [p for p in five if p.endswith("-S")]):
            rest_four = [p for p in four if p != large]
            rest_five = [p for p in five if p not in (medium, small)]
            if is_trio(rest_four) and is_trio(rest_five) and is_trio([large, medium, small]):
                return True
    return False


def test_setup_with_two_players_splits_the_extra_trio():
    large_takers = set()
    for seed in range(60):
        state = start(2, seed)
        assert state["colors"] == ["red", "yellow", "green"]
        assert_pieces_accounted(state)
        by_count = {len(s["pieces"]): s for s in state["seats"]}
        assert sorted(by_count) == [4, 5]
        assert splits_into_trios(by_count[4]["pieces"], by_count[5]["pieces"])
        large_takers.add(by_count[4]["player"])
    assert large_takers == {ANN, BOB}  # who gets the Large is random


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_setup_deals_two_goals_each_from_two_cards_per_colour_in_play(count):
    deals = set()
    for seed in range(30):
        state = start(count, seed)
        dealt = Counter(c for s in state["seats"] for c in s["goals"])
        assert all(len(s["goals"]) == 2 for s in state["seats"])
        assert set(dealt) <= set(state["colors"])
        assert all(n <= 2 for n in dealt.values())
        if count >= 3:
            assert dealt == Counter({c: 2 for c in state["colors"]})
        deals.add(json.dumps([s["goals"] for s in state["seats"]]))
        assert json.loads(json.dumps(state)) == state
    assert len(deals) > 5


def test_setup_starts_with_the_first_player_challenging_anyone():
    state = start(4)
    assert state["challenger"] == ANN
    assert GAME.waiting_for(state) == [ANN]
    assert GAME.actions(state, ANN) == [{"type": "challenge", "opponent": [BOB, CAT, DAN]}]
    assert GAME.actions(state, BOB) == []
    assert GAME.actions(state, None) == []


def test_same_seed_gives_the_same_setup_and_seeds_differ():
    assert start(4, seed=7) == start(4, seed=7)
    assert len({json.dumps(start(4, seed=s)) for s in range(10)}) > 1


# -- casting -----------------------------------------------------------------------------
ANN_PIECE = {"L": "red-L", "M": "yellow-M", "S": "green-S", None: None}
BOB_PIECE = {"L": "yellow-L", "M": "green-M", "S": "red-S", None: None}
CASTING_TABLE = {  # (Ann's size, Bob's size): who wins
    ("L", "L"): "tie", ("L", "M"): ANN, ("L", "S"): ANN, ("L", None): BOB,
    ("M", "L"): BOB, ("M", "M"): "tie", ("M", "S"): ANN, ("M", None): ANN,
    ("S", "L"): BOB, ("S", "M"): BOB, ("S", "S"): "tie", ("S", None): ANN,
    (None, "L"): ANN, (None, "M"): BOB, (None, "S"): BOB, (None, None): "tie",
}


@pytest.mark.parametrize("casting", ["phones", "by-hand"])
@pytest.mark.parametrize("sizes, expected", list(CASTING_TABLE.items()))
def test_casting_table(sizes, expected, casting):
    state = arranged(EVEN_3, GOALS_3, casting)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: ANN_PIECE[sizes[0]], BOB: BOB_PIECE[sizes[1]]})
    last = state["last_cast"]
    assert last["pieces"] == {str(ANN): ANN_PIECE[sizes[0]], str(BOB): BOB_PIECE[sizes[1]]}
    if expected == "tie":  # equal piece counts: cast again
        assert last["winner"] is None and "cast again" in text_from_json(last["explanation"])
        assert state["step"] == "cast" and state["cast"]["round"] == 2
    else:
        loser = BOB if expected == ANN else ANN
        assert (last["winner"], last["loser"]) == (expected, loser)
        assert state["steals"] == [{"thief": expected, "victim": loser, "reason": "won"}]
        assert GAME.waiting_for(state) == [expected]


def test_nothing_beats_a_large_is_explained():
    state = arranged(EVEN_3, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    notes = cast_both(state, {ANN: None, BOB: "yellow-L"})
    assert text_from_json(state["last_cast"]["explanation"]) == "Nothing beats a Large"
    assert "Nothing beats a Large" in notes[-1].text


UNEVEN = {ANN: ["red-L", "yellow-M"],
          BOB: ["yellow-L", "green-M", "red-S", "green-S"],
          CAT: ["green-L", "red-M", "yellow-S"]}


@pytest.mark.parametrize("ann_piece, bob_piece", [("red-L", "yellow-L"),
                                                  ("yellow-M", "green-M"), (None, None)])
@pytest.mark.parametrize("challenger", [ANN, BOB])
def test_a_tie_goes_to_the_player_with_fewer_pieces(ann_piece, bob_piece, challenger):
    state = arranged(UNEVEN, GOALS_3)
    state["challenger"] = challenger
    act(state, challenger, {"type": "challenge", "opponent": BOB if challenger == ANN else ANN})
    cast_both(state, {ANN: ann_piece, BOB: bob_piece})
    assert state["last_cast"]["winner"] == ANN
    assert text_from_json(state["last_cast"]["explanation"]).endswith(
        f"{{name:{ANN}}} has fewer pieces (2 against 4)")
    assert state["steals"][0] == {"thief": ANN, "victim": BOB, "reason": "won"}


@pytest.mark.parametrize("casting", ["phones", "by-hand"])
def test_equal_counts_cast_again_between_the_same_players(casting):
    state = arranged(EVEN_3, GOALS_3, casting)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    before_pieces = copy.deepcopy([s["pieces"] for s in state["seats"]])
    cast_both(state, {ANN: "green-S", BOB: "red-S"})
    assert state["cast"] == {"between": [ANN, BOB], "round": 2, "picks": {},
                             "revealed": False}
    assert [s["pieces"] for s in state["seats"]] == before_pieces
    assert sorted(GAME.waiting_for(state)) == [ANN, BOB]
    public, _ = GAME.view(state, CAT)
    assert public["cast"]["revealed"] is None and public["cast"]["locked"] == []
    assert public["last_cast"]["pieces"] == {str(ANN): "green-S", str(BOB): "red-S"}
    cast_both(state, {ANN: "red-L", BOB: "red-S"})
    assert state["last_cast"]["winner"] == ANN and state["step"] == "steal"


def test_phones_reveal_is_a_reveal_note_and_the_lock_is_private():
    state = arranged(EVEN_3, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    [lock] = act(state, ANN, {"type": "cast", "piece": "red-L"})
    # A locked cast is final (undo stops there), though nobody else sees it yet.
    assert "red" not in lock.text and lock.reveal
    assert "red Large" in lock.for_viewer(ANN)
    assert GAME.waiting_for(state) == [BOB]
    notes = act(state, BOB, {"type": "cast", "piece": "green-M"})
    assert [n.reveal for n in notes] == [True, True]
    assert "red Large" in notes[1].text and "green Medium" in notes[1].text


def test_by_hand_record_is_not_a_reveal_note():
    # The pieces were shown at the table, so a mistyped record may be undone.
    state = arranged(EVEN_3, GOALS_3, "by-hand")
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    assert sorted(GAME.waiting_for(state)) == [ANN, BOB]
    [template] = GAME.actions(state, BOB)
    assert template == {"type": "record_cast",
                        "pieces": {str(ANN): pieces(state, ANN) + [None],
                                   str(BOB): pieces(state, BOB) + [None]}}
    notes = act(state, BOB, {"type": "record_cast",
                             "pieces": {str(ANN): "red-L", str(BOB): "green-M"}})
    assert not any(n.reveal for n in notes)
    assert state["last_cast"]["winner"] == ANN


# -- steals and zero pieces ------------------------------------------------------------------
def test_the_winner_steals_a_piece_of_their_choice_then_the_loser_challenges():
    state = arranged(EVEN_3, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "red-L", BOB: "green-M"})
    assert GAME.actions(state, ANN) == [{"type": "steal", "piece": pieces(state, BOB),
                                         "from": BOB}]
    act(state, ANN, {"type": "steal", "piece": "red-S"})
    assert "red-S" in pieces(state, ANN) and "red-S" not in pieces(state, BOB)
    assert state["step"] == "challenge" and state["challenger"] == BOB
    assert state["cast"] is None
    assert_pieces_accounted(state)


def test_zero_pieces_steals_one_piece_from_every_other_player():
    state = arranged({ANN: ["red-L"], BOB: ["yellow-S"],
                      CAT: ["red-M", "red-S", "yellow-L", "yellow-M", "green-L", "green-M",
                            "green-S"]}, GOALS_3)
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "red-L", BOB: "yellow-S"})
    notes = act(state, ANN, {"type": "steal", "piece": "yellow-S"})
    assert "no pieces left" in notes[-1].text
    assert pieces(state, BOB) == []
    # Clockwise from the player at zero: Cat, then Ann.
    assert GAME.actions(state, BOB) == [{"type": "steal", "piece": pieces(state, CAT),
                                         "from": CAT}]
    act(state, BOB, {"type": "steal", "piece": "green-L"})
    assert GAME.actions(state, BOB) == [{"type": "steal", "piece": ["red-L", "yellow-S"],
                                         "from": ANN}]
    act(state, BOB, {"type": "steal", "piece": "yellow-S"})
    assert pieces(state, BOB) == ["yellow-S", "green-L"]
    assert [len(s["pieces"]) for s in state["seats"]] == [1, 2, 6]
    assert state["step"] == "challenge" and state["challenger"] == BOB
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT]}]
    assert_pieces_accounted(state)


def test_zero_steals_cascade_and_skip_players_with_nothing_left():
    dan = ["blue-L", "red-M", "red-S", "yellow-M", "yellow-S", "green-M", "green-S",
           "blue-M", "blue-S"]
    state = arranged({ANN: ["red-L"], BOB: ["yellow-L"], CAT: ["green-L"], DAN: dan},
                     {ANN: ["red", "blue"], BOB: ["red", "yellow"], CAT: ["blue", "green"],
                      DAN: ["yellow", "green"]})
    act(state, ANN, {"type": "challenge", "opponent": DAN})  # the first challenge: anyone
    cast_both(state, {ANN: None, DAN: "blue-S"})
    taken = [(DAN, ANN, "red-L"), (ANN, BOB, "yellow-L"), (ANN, CAT, "green-L"),
             (ANN, DAN, "blue-M"), (BOB, DAN, "red-M"), (BOB, ANN, "blue-M"),
             (CAT, DAN, "red-S"), (CAT, ANN, "yellow-L")]
    skipped = []
    for thief, victim, piece in taken:
        assert GAME.waiting_for(state) == [thief]
        assert GAME.actions(state, thief)[0]["from"] == victim
        notes = act(state, thief, {"type": "steal", "piece": piece})
        skipped += [n.text for n in notes if "no piece left" in n.text]
        assert_pieces_accounted(state)
    # Bob's steal from Cat was skipped: Cat had been emptied by then.
    assert skipped == [f"{{name:{CAT}}} has no piece left for {{name:{BOB}}} to take."]
    assert [len(s["pieces"]) for s in state["seats"]] == [1, 2, 2, 7]
    assert state["step"] == "challenge" and state["challenger"] == ANN
    assert GAME.actions(state, ANN) == [{"type": "challenge", "opponent": [BOB, CAT]}]


# -- the challenge restriction -------------------------------------------------------------
def cast_then_steal(state, challenger, opponent, picks, steal):
    act(state, challenger, {"type": "challenge", "opponent": opponent})
    cast_both(state, picks)
    act(state, state["last_cast"]["winner"], {"type": "steal", "piece": steal})


def test_the_loser_challenges_someone_who_did_not_just_cast():
    state = arranged({ANN: ["red-L", "green-M", "blue-S"], BOB: ["yellow-L", "red-M", "green-S"],
                      CAT: ["green-L", "blue-M", "red-S"], DAN: ["blue-L", "yellow-M", "yellow-S"]},
                     {ANN: ["red", "blue"], BOB: ["red", "yellow"], CAT: ["blue", "green"],
                      DAN: ["yellow", "green"]})
    cast_then_steal(state, ANN, BOB, {ANN: "red-L", BOB: "red-M"}, "green-S")
    assert GAME.waiting_for(state) == [BOB]
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT, DAN]}]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="did not just cast"):
        act(state, BOB, {"type": "challenge", "opponent": ANN})
    assert state == before
    act(state, BOB, {"type": "challenge", "opponent": DAN})
    assert state["cast"]["between"] == [BOB, DAN]


def test_with_three_players_the_loser_must_challenge_the_third():
    state = arranged(EVEN_3, GOALS_3)
    cast_then_steal(state, ANN, BOB, {ANN: "red-L", BOB: "green-M"}, "red-S")
    assert GAME.actions(state, BOB) == [{"type": "challenge", "opponent": [CAT]}]


def test_with_two_players_the_loser_challenges_the_winner():
    state = start(2, seed=3)
    ann_large = next(p for p in pieces(state, ANN) if p.endswith("-L"))
    bob_small = next(p for p in pieces(state, BOB) if p.endswith("-S"))
    cast_then_steal(state, ANN, BOB, {ANN: None, BOB: bob_small}, ann_large)
    # Ann cast Nothing against Bob's Small: Bob won, Ann lost and challenges Bob.
    assert state["challenger"] == ANN
    assert GAME.actions(state, ANN) == [{"type": "challenge", "opponent": [BOB]}]
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    assert state["step"] == "cast"


# -- goals ---------------------------------------------------------------------------------------
def win_cast_and_steal(state, piece_to_steal, ann_cast="red-L"):
    """Ann challenges Bob, wins with a Large against Bob's Medium-or-smaller, and steals."""
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    bob_cast = next(p for p in pieces(state, BOB) if not p.endswith("-L"))
    cast_both(state, {ANN: ann_cast, BOB: bob_cast})
    assert state["last_cast"]["winner"] == ANN
    return act(state, ANN, {"type": "steal", "piece": piece_to_steal})


def test_completing_a_first_goal_reveals_it():
    state = arranged({ANN: ["red-L", "red-M", "green-S"], BOB: ["yellow-L", "red-S", "green-M"],
                      CAT: ["green-L", "yellow-M", "yellow-S"]},
                     {ANN: ["green", "red"], BOB: ["yellow", "green"], CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "red-S")
    [reveal] = [n for n in notes if n.reveal]
    assert "red" in reveal.text and f"{{name:{ANN}}}" in reveal.text
    assert seat(state, ANN)["revealed_goals"] == ["red"]
    assert seat(state, ANN)["completed"] == ["red"]
    assert GAME.result(state) is None
    public, _ = GAME.view(state, CAT)
    assert public["seats"][0]["revealed_goals"] == ["red"]
    assert "goals" not in public["seats"][0]
    assert GAME.secrets(state)[ANN] == [{"goals": ["green"]}]
    assert state["step"] == "challenge" and state["challenger"] == BOB


def completed_red(pieces_by_player, goals):
    state = arranged(pieces_by_player, goals)
    target = seat(state, ANN)
    target["completed"], target["revealed_goals"] = ["red"], ["red"]
    return state


@pytest.mark.parametrize("still_holds_red", [True, False])
def test_completing_the_second_goal_wins_even_without_the_first_colour(still_holds_red):
    if still_holds_red:
        layout = {ANN: ["red-L", "red-M", "red-S", "green-L", "green-M"],
                  BOB: ["green-S", "yellow-L", "yellow-M"], CAT: ["yellow-S"]}
    else:
        layout = {ANN: ["green-L", "green-M", "red-L"], BOB: ["green-S", "yellow-L", "red-M"],
                  CAT: ["yellow-M", "red-S", "yellow-S"]}
    state = completed_red(layout, {ANN: ["red", "green"], BOB: ["yellow", "green"],
                                   CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "green-S", ann_cast="green-L")
    assert notes[-1].reveal
    assert notes[-1].text == f"{{name:{ANN}}} completed a second goal (green after red) and wins."
    result = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (ANN, 1, 2), (BOB, 2, 0), (CAT, 2, 0)]
    assert result.winners == [ANN]
    assert result.explanation == notes[-1].text
    # Only the winner is ranked: the others share place 2 whatever they completed.
    assert result.to_json()["ranked"] is False and result.score_label == "goals completed"
    assert state["step"] == "over" and GAME.waiting_for(state) == []
    assert all(GAME.actions(state, p) == [] for p in (ANN, BOB, CAT))
    public, _ = GAME.view(state, None)
    assert [s["goals"] for s in public["seats"]] == [["red", "green"], ["yellow", "green"],
                                                     ["red", "yellow"]]
    assert GAME.secrets(state) == {}


def test_a_trio_of_a_colour_that_is_not_the_second_goal_does_not_win():
    state = completed_red({ANN: ["yellow-L", "yellow-M", "red-L"],
                           BOB: ["yellow-S", "green-L", "red-M"],
                           CAT: ["green-M", "red-S", "green-S"]},
                          {ANN: ["red", "green"], BOB: ["yellow", "green"],
                           CAT: ["red", "yellow"]})
    notes = win_cast_and_steal(state, "yellow-S")
    assert not any(n.reveal for n in notes)
    assert GAME.result(state) is None and state["step"] == "challenge"


RED_RED = {ANN: ["red", "red"], BOB: ["yellow", "green"], CAT: ["yellow", "green"]}


def test_two_goal_cards_of_one_colour_reveal_only_the_first():
    state = arranged({ANN: ["red-L", "red-M", "yellow-L", "yellow-M"],
                      BOB: ["red-S", "yellow-S", "green-M"], CAT: ["green-L", "green-S"]},
                     RED_RED)
    notes = win_cast_and_steal(state, "red-S")
    assert [n.reveal for n in notes] == [False, True]
    assert seat(state, ANN)["revealed_goals"] == ["red"]
    assert GAME.secrets(state)[ANN] == [{"goals": ["red"]}]
    assert GAME.result(state) is None


def test_two_goal_cards_of_one_colour_are_not_won_by_that_colour_again():
    state = completed_red({ANN: ["red-L", "red-M", "green-L"],
                           BOB: ["red-S", "yellow-M", "green-M"],
                           CAT: ["yellow-L", "yellow-S", "green-S"]}, RED_RED)
    notes = win_cast_and_steal(state, "red-S")
    assert not any(n.reveal for n in notes)
    assert GAME.result(state) is None


def test_two_goal_cards_of_one_colour_are_won_by_a_trio_of_any_other_colour():
    state = completed_red({ANN: ["yellow-L", "yellow-M", "red-L"],
                           BOB: ["yellow-S", "red-M", "green-M"],
                           CAT: ["red-S", "green-L", "green-S"]}, RED_RED)
    notes = win_cast_and_steal(state, "yellow-S")
    assert GAME.result(state).winners == [ANN]
    assert notes[-1].reveal
    assert "yellow after red" in notes[-1].text and "both goal cards are red" in notes[-1].text
    assert seat(state, ANN)["revealed_goals"] == ["red", "red"]


def test_holding_a_second_trio_when_completing_the_first_wins_at_once():
    layout = {ANN: ["red-L", "red-M", "yellow-L", "yellow-M", "yellow-S"],
              BOB: ["red-S", "green-M", "green-S"], CAT: ["green-L"]}
    state = arranged(layout, {ANN: ["red", "red"], BOB: ["yellow", "green"],
                              CAT: ["yellow", "green"]})
    notes = win_cast_and_steal(state, "red-S")
    assert [n.reveal for n in notes] == [False, True, True]
    assert GAME.result(state).winners == [ANN]


def test_a_win_ends_the_game_at_once_and_drops_pending_steals():
    state = completed_red({ANN: ["green-L", "green-M", "red-L"],
                           BOB: ["green-S", "yellow-L", "red-M"],
                           CAT: ["yellow-M", "red-S", "yellow-S"]},
                          {ANN: ["red", "green"], BOB: ["yellow", "green"],
                           CAT: ["red", "yellow"]})
    act(state, ANN, {"type": "challenge", "opponent": BOB})
    cast_both(state, {ANN: "green-L", BOB: "red-M"})
    state["steals"].append({"thief": CAT, "victim": BOB, "reason": "zero"})
    act(state, ANN, {"type": "steal", "piece": "green-S"})
    assert GAME.result(state).winners == [ANN]
    assert state["steals"] == [] and GAME.view(state, None)[0]["steals"] == []
    assert GAME.waiting_for(state) == []


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
