"""Pure engine tests of Go Big (companion/games/go_big.py): step 2, what may be played (one
to three cards of one value, no more than the hand holds nor than the copies still out of
sight) and what a play beats (the nearest higher display of the same size, in the
rulebook's worked example and around it), and step 3, drawing from the deck or the market
until both are empty.

Law: the Go Big rulebook and the rulings on it (Go Big). The app tracks hand COUNTS,
not card contents: a play reports (value, count).
"""
from __future__ import annotations

import copy

import pydantic
import pytest

from companion.games.engine import Note
from tests.support import go_big_engine
from tests.support.go_big_engine import (VALUES, assert_refused, bank_cards, cards_accounted, draw,
                                         endgame_state, new, play, seat)

g = go_big_engine.g  # the fixture of a fresh engine, found by pytest under this name


# -- helpers -------------------------------------------------------------------------
def texts(notes):
    assert all(isinstance(n, Note) for n in notes)
    return " ".join(n.text for n in notes)


# -- step 2: what may be played ------------------------------------------------------------
@pytest.mark.parametrize("data", [
    {"type": "play", "value": 0, "count": 1},
    {"type": "play", "value": 8, "count": 1},
    {"type": "play", "value": 3, "count": 0},
    {"type": "play", "value": 3, "count": 4},
    {"type": "play", "value": 3},
    {"type": "play", "value": 3, "count": 1, "extra": 1},
    {"type": "draw", "source": "discard"},
    {"type": "bank"},
])
def test_malformed_actions_are_rejected_by_parse(g, data):
    with pytest.raises(pydantic.ValidationError):
        g.parse_action(data)


def test_one_to_three_cards_of_one_value(g):
    for value in VALUES:
        for count in (1, 2, 3):
            state = new([1, 2])
            notes = play(g, state, 1, value, count)
            assert seat(state, 1)["display"] == {"value": value, "count": count}
            assert seat(state, 1)["hand"] == 6 - count
            assert state["seen"][str(value)] == count
            assert "{name:1}" in texts(notes)


def test_actions_template_at_the_start(g):
    state = new([1, 2])
    (template,) = g.actions(state, 1)
    assert template["type"] == "play"
    assert sorted((s["value"], s["count"]) for s in template["sets"]) == sorted(
        (v, c) for v in VALUES for c in (1, 2, 3))
    assert template["value"] == list(VALUES)
    assert template["count"] == [1, 2, 3]
    assert g.actions(state, 2) == []
    assert g.actions(state, None) == []
    assert g.actions(state, 99) == []


def test_count_more_than_the_hand_holds_is_refused(g):
    state = new([1, 2])
    seat(state, 1)["hand"] = 2
    err = assert_refused(g, state, 1, {"type": "play", "value": 4, "count": 3})
    assert "2" in err.message
    (template,) = g.actions(state, 1)
    assert {s["count"] for s in template["sets"]} == {1, 2}
    play(g, state, 1, 4, 2)
    assert seat(state, 1)["hand"] == 0
    seat(state, 2)["hand"] = 1
    draw(g, state, 1)
    assert_refused(g, state, 2, {"type": "play", "value": 4, "count": 2})
    (template,) = g.actions(state, 2)
    assert {s["count"] for s in template["sets"]} == {1}


def test_too_many_copies_counts_displayed_banked_and_discarded(g):
    # 4 copies of each value: 28 cards.
    state = new([1, 2], copies_per_value=4)
    play(g, state, 1, 7, 3)             # three 7s displayed
    draw(g, state, 1)
    # Displayed: only one 7 can still be out of sight.
    err = assert_refused(g, state, 2, {"type": "play", "value": 7, "count": 2})
    assert "1" in err.message
    sets = g.actions(state, 2)[0]["sets"]
    assert {"value": 7, "count": 1} in sets
    assert {"value": 7, "count": 2} not in sets
    play(g, state, 2, 7, 1)             # the fourth 7
    draw(g, state, 2)
    # Banked (player 1's trio) + displayed (player 2's single): no 7 left.
    assert seat(state, 1)["bank"]["7"] == 3
    assert_refused(g, state, 1, {"type": "play", "value": 7, "count": 1})
    assert all(s["value"] != 7 for s in g.actions(state, 1)[0]["sets"])

    # Discarded (beaten) cards are out of the game too.
    state = new([1, 2], copies_per_value=4)
    play(g, state, 1, 6, 2)
    draw(g, state, 1)
    play(g, state, 2, 5, 2)             # beats player 1's pair of 6s
    assert state["beaten"] == 2
    draw(g, state, 2)
    assert_refused(g, state, 1, {"type": "play", "value": 6, "count": 3})
    sets = g.actions(state, 1)[0]["sets"]
    assert {"value": 6, "count": 2} in sets
    assert {"value": 6, "count": 3} not in sets
    play(g, state, 1, 6, 2)
    draw(g, state, 1)
    assert_refused(g, state, 2, {"type": "play", "value": 6, "count": 1})


def test_too_many_copies_with_the_default_deck(g):
    state = new([1, 2, 3])
    for p in (1, 2, 3):
        seat(state, p)["hand"] = 20
    play(g, state, 1, 2, 3)
    draw(g, state, 1)
    play(g, state, 2, 2, 3)
    draw(g, state, 2)
    play(g, state, 3, 2, 3)
    draw(g, state, 3)
    play(g, state, 1, 2, 3)     # player 1 banked three, now shows three: 12 seen
    draw(g, state, 1)
    assert state["seen"]["2"] == 12
    assert_refused(g, state, 2, {"type": "play", "value": 2, "count": 2})
    play(g, state, 2, 2, 1)
    draw(g, state, 2)
    assert_refused(g, state, 3, {"type": "play", "value": 2, "count": 1})


# -- beating ---------------------------------------------------------------------------
AMELIA, BEN, CHARLIE, JUDITH, PETER, STUART = 1, 2, 3, 4, 5, 6


def worked_example_state():
    """The rulebook's example: Amelia to play; Ben shows a pair of 1s, Charlie and Peter
    pairs of 5s, Judith a single 4, Stuart a pair of 6s."""
    state = new([AMELIA, BEN, CHARLIE, JUDITH, PETER, STUART])
    displays = {BEN: (1, 2), CHARLIE: (5, 2), JUDITH: (4, 1), PETER: (5, 2), STUART: (6, 2)}
    for player, (value, count) in displays.items():
        s = seat(state, player)
        s["display"] = {"value": value, "count": count}
        s["hand"] -= count
        state["seen"][str(value)] += count
    assert cards_accounted(state) == 91
    return state


def test_rulebook_worked_example(g):
    state = worked_example_state()
    action = g.parse_action({"type": "play", "value": 2, "count": 2})
    before = copy.deepcopy(state)
    preview = g.preview(state, AMELIA, action)
    assert state == before, "preview changed the state"
    assert preview is not None
    assert preview.startswith("beats")
    assert "pairs of 5s" in preview
    assert "{name:%d}" % CHARLIE in preview and "{name:%d}" % PETER in preview
    for other in (BEN, JUDITH, STUART, AMELIA):
        assert "{name:%d}" % other not in preview

    notes = g.apply(state, AMELIA, action, None)
    text = texts(notes)
    assert "{name:%d}" % AMELIA in text
    assert "{name:%d}" % CHARLIE in text and "{name:%d}" % PETER in text
    assert "pairs of 5s" in text
    for other in (BEN, JUDITH, STUART):
        assert "{name:%d}" % other not in text

    assert seat(state, CHARLIE)["display"] is None
    assert seat(state, PETER)["display"] is None
    assert seat(state, BEN)["display"] == {"value": 1, "count": 2}
    assert seat(state, JUDITH)["display"] == {"value": 4, "count": 1}
    assert seat(state, STUART)["display"] == {"value": 6, "count": 2}
    assert seat(state, AMELIA)["display"] == {"value": 2, "count": 2}
    assert seat(state, AMELIA)["hand"] == 4
    assert state["beaten"] == 4
    # Beaten cards are discarded, not banked.
    assert bank_cards(seat(state, CHARLIE)) == 0 and bank_cards(seat(state, PETER)) == 0
    assert cards_accounted(state) == 91
    assert state["step"] == "draw"

    # Stuart's 6s were hidden behind the 5s: now they are the nearest higher pair to a
    # pair of 3s (Amelia's 2s are lower and stay).
    draw(g, state, AMELIA)
    notes = play(g, state, BEN, 3, 2)
    assert seat(state, STUART)["display"] is None
    assert "{name:%d}" % STUART in texts(notes)
    assert seat(state, AMELIA)["display"] == {"value": 2, "count": 2}


@pytest.mark.parametrize("value,count,beaten", [
    (2, 2, {CHARLIE, PETER}),       # the example
    (1, 2, {CHARLIE, PETER}),       # equal to Ben's 1s: Ben is not beaten
    (4, 2, {CHARLIE, PETER}),
    (5, 2, {STUART}),               # equal to the 5s: the nearest higher pair is the 6s
    (6, 2, set()),                  # equal to Stuart's 6s: beats nothing
    (7, 2, set()),                  # nothing higher
    (3, 1, {JUDITH}),               # singles beat singles only
    (4, 1, set()),                  # equal single
    (5, 1, set()),
    (1, 3, set()),                  # no trios on the table
])
def test_beating_nearest_higher_same_size(g, value, count, beaten):
    state = worked_example_state()
    before = {s["player"]: s["display"] for s in state["seats"]}
    action = g.parse_action({"type": "play", "value": value, "count": count})
    preview = g.preview(state, AMELIA, action)
    notes = g.apply(state, AMELIA, action, None)
    gone = {s["player"] for s in state["seats"]
            if s["player"] != AMELIA and before[s["player"]] and s["display"] is None}
    assert gone == beaten
    for s in state["seats"]:
        if s["player"] not in beaten and s["player"] != AMELIA:
            assert s["display"] == before[s["player"]]
    assert state["beaten"] == sum(before[p]["count"] for p in beaten)
    text = texts(notes)
    for p in (BEN, CHARLIE, JUDITH, PETER, STUART):
        assert (("{name:%d}" % p) in text) == (p in beaten)
        assert (("{name:%d}" % p) in preview) == (p in beaten)
    if not beaten:
        assert "beat" not in text
        assert preview == "beats nothing."
    assert cards_accounted(state) == 91


def test_beating_a_single_display_and_a_trio(g):
    state = new([1, 2, 3])
    seat(state, 2)["display"] = {"value": 7, "count": 3}
    seat(state, 2)["hand"] -= 3
    seat(state, 3)["display"] = {"value": 5, "count": 3}
    seat(state, 3)["hand"] -= 3
    state["seen"]["7"] += 3
    state["seen"]["5"] += 3
    preview = g.preview(state, 1, g.parse_action({"type": "play", "value": 4, "count": 3}))
    assert preview == "beats {name:3}'s trio of 5s."
    notes = play(g, state, 1, 4, 3)
    assert texts(notes) == "{name:1} played a trio of 4s, beating {name:3}'s trio of 5s."
    assert seat(state, 3)["display"] is None
    assert seat(state, 2)["display"] == {"value": 7, "count": 3}
    assert state["beaten"] == 3
    assert cards_accounted(state) == 91


def test_play_note_and_preview_when_nothing_is_beaten(g):
    state = new([1, 2])
    action = g.parse_action({"type": "play", "value": 4, "count": 1})
    assert g.preview(state, 1, action) == "beats nothing."
    notes = g.apply(state, 1, action, None)
    assert len(notes) == 1
    assert notes[0].text == "{name:1} played a single 4."
    assert notes[0].reveal is False


def test_beating_does_not_touch_banks(g):
    state = new([1, 2])
    play(g, state, 1, 6, 2)
    draw(g, state, 1)
    play(g, state, 2, 6, 1)
    draw(g, state, 2)
    assert seat(state, 1)["bank"]["6"] == 2      # banked: safe
    play(g, state, 1, 3, 1)                      # beats player 2's single 6
    assert seat(state, 2)["display"] is None
    assert seat(state, 1)["bank"]["6"] == 2
    assert bank_cards(seat(state, 2)) == 0


# -- step 3: drawing -------------------------------------------------------------------
def test_draw_from_the_deck(g):
    state = new([1, 2])
    play(g, state, 1, 1, 1)
    assert g.actions(state, 1) == [{"type": "draw", "source": ["deck", "market"]}]
    preview = g.preview(state, 1, g.parse_action({"type": "draw", "source": "deck"}))
    assert preview is None or isinstance(preview, str)
    notes = draw(g, state, 1, "deck")
    assert state["deck"] == 91 - 12 - 2 - 2
    assert state["market"] == 2
    assert seat(state, 1)["hand"] == 7
    assert "{name:1}" in texts(notes) and "2" in texts(notes)
    assert cards_accounted(state) == 91


def test_draw_the_market_refills_it_from_the_deck(g):
    state = new([1, 2])
    play(g, state, 1, 1, 1)
    draw(g, state, 1, "market")
    assert seat(state, 1)["hand"] == 7
    assert state["market"] == 2
    assert state["deck"] == 91 - 12 - 2 - 2
    assert cards_accounted(state) == 91


def test_draw_as_many_as_you_can_from_the_deck(g):
    state = endgame_state([1, 2])
    state["deck"], state["market"] = 1, 2
    seat(state, 2)["hand"] -= 3
    assert cards_accounted(state) == 91
    play(g, state, 1, 1, 1)
    notes = draw(g, state, 1, "deck")
    assert seat(state, 1)["hand"] == 6
    assert state["deck"] == 0 and state["market"] == 2
    assert "1 card " in texts(notes)
    assert cards_accounted(state) == 91


def test_draw_the_market_when_the_deck_is_short(g):
    state = endgame_state([1, 2])
    state["deck"], state["market"] = 1, 2
    seat(state, 2)["hand"] -= 3
    play(g, state, 1, 1, 1)
    draw(g, state, 1, "market")
    assert seat(state, 1)["hand"] == 7
    assert state["market"] == 1 and state["deck"] == 0
    # Next turn: only the market is offered, and it gives what it has.
    play(g, state, 2, 2, 1)
    assert g.actions(state, 2) == [{"type": "draw", "source": ["market"]}]
    assert_refused(g, state, 2, {"type": "draw", "source": "deck"})
    before = seat(state, 2)["hand"]
    draw(g, state, 2, "market")
    assert seat(state, 2)["hand"] == before + 1
    assert state["market"] == 0 and state["deck"] == 0
    assert cards_accounted(state) == 91


def test_only_sources_with_cards_are_offered(g):
    state = new([1, 2])
    play(g, state, 1, 1, 1)
    state["market"] = 0
    assert g.actions(state, 1) == [{"type": "draw", "source": ["deck"]}]
    assert_refused(g, state, 1, {"type": "draw", "source": "market"})


def test_draw_step_is_skipped_when_deck_and_market_are_empty(g):
    state = endgame_state([1, 2, 3])
    seat(state, 1)["display"] = None
    seat(state, 2)["display"] = {"value": 5, "count": 1}
    seat(state, 2)["hand"] -= 1
    state["seen"]["5"] += 1
    play(g, state, 1, 2, 2)
    # No draw: player 2's turn starts at once, and their display is banked.
    assert not state["finished"]
    assert g.waiting_for(state) == [2]
    assert state["step"] == "play"
    assert seat(state, 2)["display"] is None
    assert seat(state, 2)["bank"]["5"] == 1
    assert g.actions(state, 2)[0]["type"] == "play"
    assert g.actions(state, 1) == []
    assert_refused(g, state, 2, {"type": "draw", "source": "deck"})
    assert cards_accounted(state) == 91


def test_emptying_the_hand_while_cards_remain_means_drawing(g):
    state = endgame_state([1, 2])
    state["deck"], state["market"] = 0, 1
    seat(state, 2)["hand"] -= 1
    seat(state, 1)["hand"] = 2
    seat(state, 2)["hand"] += 4
    assert cards_accounted(state) == 91
    play(g, state, 1, 3, 2)
    assert seat(state, 1)["hand"] == 0
    assert not state["finished"]
    assert g.result(state) is None
    assert state["step"] == "draw"
    assert g.actions(state, 1) == [{"type": "draw", "source": ["market"]}]
    draw(g, state, 1, "market")
    assert seat(state, 1)["hand"] == 1
    assert g.waiting_for(state) == [2]
