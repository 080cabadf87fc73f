"""Pure engine tests of Go Big (companion/games/go_big.py): the box and the setup (a deck
of 13 copies of each value by default, two to six players, six cards each and two in the
market), hand counts, step 1 (the display banked as its owner's turn starts), turns in seat
order, and the refusals (a move out of turn or out of step, more cards than the hand holds
or than the copies left, a draw from an empty pile), each leaving the state as it was.

Law: the Go Big rulebook and the rulings on it (Go Big). The app tracks hand COUNTS,
not card contents: a play reports (value, count).
"""
from __future__ import annotations

import json
import random

import pydantic
import pytest

from companion.games.engine import IllegalAction, NotYourTurn
from companion.games.go_big import GoBig
from tests.support import go_big_engine
from tests.support.go_big_engine import (assert_refused, bank_cards, bank_total, cards_accounted,
                                         current, draw, new, play, seat)

g = go_big_engine.g  # the fixture of a fresh engine, found by pytest under this name


# -- the box and setup -----------------------------------------------------------------
def test_deck_is_91_cards_13_of_each_value_by_default(g):
    options = g.Options()
    assert options.copies_per_value == 13
    assert options.open_banks is False
    state = g.setup([1, 2], options, random.Random(0))
    assert state["copies"] == 13
    assert cards_accounted(state) == 91 == 13 * 7


@pytest.mark.parametrize("copies", [4, 10, 13, 20])
def test_copies_setting_changes_the_deck(g, copies):
    state = g.setup([1, 2], g.Options(copies_per_value=copies), random.Random(0))
    assert state["copies"] == copies
    assert state["deck"] == copies * 7 - 6 * 2 - 2
    assert cards_accounted(state) == copies * 7
    public, _ = g.view(state, None)
    assert public["copies_per_value"] == copies


def test_copies_setting_is_bounded_and_options_are_strict(g):
    with pytest.raises(pydantic.ValidationError):
        g.options_for({"copies_per_value": 0})
    with pytest.raises(pydantic.ValidationError):
        g.options_for({"house_rule": True})
    assert g.options_for({}) == g.Options()
    assert g.options_for({"open_banks": True}).open_banks is True


def test_not_enough_cards_is_refused(g):
    # 4 copies: 28 cards, not enough for 5 hands of 6 plus a market of 2.
    with pytest.raises(IllegalAction):
        g.setup([1, 2, 3, 4, 5], g.Options(copies_per_value=4), random.Random(0))


def test_two_to_six_players(g):
    assert GoBig.min_players == 2
    assert GoBig.max_players == 6
    assert GoBig.id == "go-big"
    for n in range(2, 7):
        g.setup(list(range(1, n + 1)), g.Options(), random.Random(0))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_six_each_and_two_to_the_market(g, n):
    players = [10 * i for i in range(1, n + 1)]
    state = g.setup(players, g.Options(), random.Random(n))
    assert state["deck"] == 91 - 6 * n - 2
    assert state["market"] == 2
    assert [s["player"] for s in state["seats"]] == players
    for s in state["seats"]:
        assert s["hand"] == 6
        assert s["display"] is None
        assert bank_cards(s) == 0
    assert g.waiting_for(state) == [players[0]]
    assert g.turn(state) == players[0]
    assert g.result(state) is None
    json.loads(json.dumps(state))  # plain JSON data
    public, _ = g.view(state, players[0])
    assert public["deck"] == 91 - 6 * n - 2
    assert public["market"] == 2
    assert public["step"] == "play"
    assert [s["hand"] for s in public["seats"]] == [6] * n


# -- hand counts, step 1, turn order ----------------------------------------------------
def test_hand_counts_are_six_plus_drawn_minus_played(g):
    state = new([1, 2])
    play(g, state, 1, 3, 2)
    assert seat(state, 1)["hand"] == 4
    assert state["step"] == "draw"
    assert g.waiting_for(state) == [1]
    draw(g, state, 1, "deck")
    assert seat(state, 1)["hand"] == 6
    assert g.waiting_for(state) == [2]
    play(g, state, 2, 4, 3)
    assert seat(state, 2)["hand"] == 3
    draw(g, state, 2, "market")
    assert seat(state, 2)["hand"] == 5
    assert seat(state, 1)["hand"] == 6


def test_step_one_banks_the_display_when_a_turn_starts(g):
    state = new([1, 2, 3])
    play(g, state, 1, 3, 2)
    assert seat(state, 1)["display"] == {"value": 3, "count": 2}
    draw(g, state, 1)
    # Still displayed during the others' turns.
    assert seat(state, 1)["display"] == {"value": 3, "count": 2}
    assert bank_cards(seat(state, 1)) == 0
    play(g, state, 2, 5, 1)
    draw(g, state, 2)
    play(g, state, 3, 6, 1)
    assert seat(state, 1)["display"] == {"value": 3, "count": 2}
    draw(g, state, 3)
    # Player 1's turn starts: the pair of 3s is banked automatically.
    assert g.waiting_for(state) == [1]
    assert state["step"] == "play"
    assert seat(state, 1)["display"] is None
    assert seat(state, 1)["bank"]["3"] == 2
    assert bank_total(seat(state, 1)) == 6
    # Only the player whose turn starts banks.
    assert seat(state, 2)["display"] == {"value": 5, "count": 1}
    assert seat(state, 3)["display"] == {"value": 6, "count": 1}
    _, private = g.view(state, 1)
    assert private["bank_total"] == 6
    assert g.view(state, None)[0]["seats"][0]["bank_cards"] == 2


def test_turns_pass_in_seat_order_and_wrap(g):
    state = new([7, 3, 5])
    order = []
    for _ in range(7):
        p = current(g, state)
        order.append(p)
        play(g, state, p, 1 + len(order) % 7, 1)
        draw(g, state, p)
    assert order == [7, 3, 5, 7, 3, 5, 7]


# -- refusals leave the state as it was --------------------------------------------------
def test_out_of_turn_is_refused(g):
    state = new([1, 2, 3])
    for player in (2, 3, 99, None):
        assert_refused(g, state, player, {"type": "play", "value": 1, "count": 1},
                       NotYourTurn)
    play(g, state, 1, 1, 1)
    for player in (2, 3, None):
        assert_refused(g, state, player, {"type": "draw", "source": "deck"}, NotYourTurn)
    err = assert_refused(g, state, 2, {"type": "draw", "source": "deck"}, NotYourTurn)
    assert err.code == "forbidden"


def test_play_during_the_draw_step_is_refused(g):
    state = new([1, 2])
    play(g, state, 1, 1, 1)
    err = assert_refused(g, state, 1, {"type": "play", "value": 2, "count": 1})
    assert not isinstance(err, NotYourTurn)
    assert err.code == "illegal"


def test_draw_during_the_play_step_is_refused(g):
    state = new([1, 2])
    for source in ("deck", "market"):
        err = assert_refused(g, state, 1, {"type": "draw", "source": source})
        assert not isinstance(err, NotYourTurn)


def test_refusals_after_constructed_situations(g):
    # count > hand
    state = new([1, 2])
    seat(state, 1)["hand"] = 1
    assert_refused(g, state, 1, {"type": "play", "value": 3, "count": 2})
    # too many copies
    state = new([1, 2])
    seat(state, 2)["bank"]["4"] = 12
    state["seen"]["4"] = 12
    assert_refused(g, state, 1, {"type": "play", "value": 4, "count": 2})
    assert_refused(g, state, 1, {"type": "play", "value": 4, "count": 3})
    # empty source
    state = new([1, 2])
    play(g, state, 1, 3, 1)
    state["deck"] = 0
    err = assert_refused(g, state, 1, {"type": "draw", "source": "deck"})
    assert "deck" in err.message
    state["deck"], state["market"] = 5, 0
    err = assert_refused(g, state, 1, {"type": "draw", "source": "market"})
    assert "market" in err.message
