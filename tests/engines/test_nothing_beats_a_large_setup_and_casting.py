"""Nothing Beats a Large engine, the setup and the cast: the options (the colours in play
and how casts are made), the pieces and goal cards dealt (a trio each, the extra trio
split between two players), the first challenge, the casting table, a tie that goes to the
player with fewer pieces or is cast again, and a cast locked and revealed on the phones or
recorded by hand."""
from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter

import pytest
from pydantic import ValidationError

from companion.games.engine import IllegalAction
from companion.games.messages import text_from_json
from companion.games.nothing_beats_a_large import COLORS
from tests.support.nothing_beats_a_large_engine import (ANN, BOB, CAT, DAN, EVEN_3, GAME, GOALS_3,
                                                        PLAYERS, act, arranged,
                                                        assert_pieces_accounted, cast_both, pieces,
                                                        start)


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
