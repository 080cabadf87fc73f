"""Pure engine tests of Go Big (companion/games/go_big.py): the end (the last card played
with nothing left to draw), the ranking by banked total with its tie-break on banked cards
and the tie explained in words, the bank totals kept secret until the end (unless the
banks are open), and seeded random games played to the end with every card accounted for
and a consistent result.

Law: the Go Big rulebook and the rulings on it (Go Big). The app tracks hand COUNTS,
not card contents: a play reports (value, count).
"""
from __future__ import annotations

import copy
import json
import random

import pytest

from companion.games.engine import IllegalAction, Note, NotYourTurn, Result
from companion.games.go_big import GoBig
from tests.support import go_big_engine
from tests.support.go_big_engine import (VALUES, assert_refused, bank_cards, bank_total,
                                         cards_accounted, current, draw, endgame_state, new, play,
                                         seat)

g = go_big_engine.g  # the fixture of a fresh engine, found by pytest under this name


# -- the end ---------------------------------------------------------------------------
def test_the_game_ends_when_the_last_card_is_played_and_nothing_is_left(g):
    state = endgame_state([1, 2, 3])
    seat(state, 1)["hand"] = 1
    seat(state, 1)["bank"]["7"] = 2
    seat(state, 3)["display"] = {"value": 4, "count": 2}
    seat(state, 2)["hand"] += 1         # keeps the 91 cards accounted for
    state["seen"]["4"] += 2
    state["seen"]["7"] += 2
    assert cards_accounted(state) == 91
    hands = {s["player"]: s["hand"] for s in state["seats"]}
    total = cards_accounted(state)
    notes = play(g, state, 1, 6, 1)
    assert state["finished"] is True
    assert g.waiting_for(state) == []
    assert g.turn(state) is None
    for p in (1, 2, 3):
        assert g.actions(state, p) == []
    # Hands discarded, displays banked.
    assert all(s["hand"] == 0 for s in state["seats"])
    assert all(s["display"] is None for s in state["seats"])
    assert state["hands_discarded"] == hands[2] + hands[3]
    assert seat(state, 1)["bank"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 1, "7": 2}
    assert seat(state, 3)["bank"]["4"] == 2
    assert cards_accounted(state) == total
    # The last line reveals the banks.
    assert notes[-1].reveal is True
    assert "{name:1} 20" in notes[-1].text and "{name:3} 8" in notes[-1].text
    result = g.result(state)
    assert isinstance(result, Result)
    scores = {s.player: s.score for s in result.standings}
    assert scores == {1: 20, 2: 0, 3: 8}
    assert result.winners == [1]
    # Nothing more can be done.
    assert_refused(g, state, 2, {"type": "play", "value": 1, "count": 1}, NotYourTurn)


def test_no_end_while_the_hand_holds_cards(g):
    state = endgame_state([1, 2])
    seat(state, 1)["hand"] = 3
    play(g, state, 1, 5, 2)
    assert not state["finished"]
    assert g.waiting_for(state) == [2]


def test_the_end_is_checked_for_the_player_who_plays(g):
    # Another player with an empty hand does not end the game; the player who plays does.
    state = endgame_state([1, 2])
    seat(state, 2)["hand"] = 2
    seat(state, 1)["hand"] = 5
    play(g, state, 1, 5, 1)
    assert not state["finished"]
    play(g, state, 2, 4, 2)
    assert state["finished"]


# -- ranking ---------------------------------------------------------------------------
def finished_with_banks(g, banks: dict[int, dict[int, int]], last=(7, 1)):
    """Play out a finish: player order from `banks`; the first player plays `last`,
    their last card, with nothing left to draw. Banks are given BEFORE that play."""
    players = list(banks)
    state = endgame_state(players)
    for p, bank in banks.items():
        for v, n in bank.items():
            seat(state, p)["bank"][str(v)] += n
            state["seen"][str(v)] += n
    seat(state, players[0])["hand"] = last[1]
    play(g, state, players[0], *last)
    assert state["finished"]
    return state


def test_ranking_by_banked_total(g):
    state = finished_with_banks(g, {1: {1: 1}, 2: {7: 3}, 3: {5: 2}, 4: {}}, last=(1, 1))
    result = g.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (2, 1, 21), (3, 2, 10), (1, 3, 2), (4, 4, 0)]
    assert result.winners == [2]
    assert "{name:2}" in result.explanation
    assert "21" in result.explanation
    assert {s.player: s.tiebreak for s in result.standings} == {
        1: {"bank_cards": 2}, 2: {"bank_cards": 3}, 3: {"bank_cards": 2}, 4: {"bank_cards": 0}}
    data = result.to_json()
    assert data["winners"] == [2]
    json.dumps(data)


def test_tie_broken_by_most_banked_cards(g):
    # 3 and 1 both bank 12: player 3 with 4 cards beats player 2 with 2 cards.
    state = finished_with_banks(g, {1: {}, 2: {6: 2}, 3: {3: 4}}, last=(1, 1))
    result = g.result(state)
    places = {s.player: s.place for s in result.standings}
    assert places == {3: 1, 2: 2, 1: 3}
    assert result.winners == [3]
    assert "{name:3}" in result.explanation
    assert "{name:2}" in result.explanation
    assert "4" in result.explanation and "2" in result.explanation


def test_still_tied_shares_the_place_competition_ranking(g):
    # Players 2 and 3: 12 with 3 cards each; player 4: 5; player 1: 1 -> places 1, 1, 3, 4.
    state = finished_with_banks(g, {1: {}, 2: {4: 3}, 3: {3: 2, 6: 1}, 4: {5: 1}},
                                last=(1, 1))
    result = g.result(state)
    places = {s.player: s.place for s in result.standings}
    assert places == {2: 1, 3: 1, 4: 3, 1: 4}
    assert sorted(result.winners) == [2, 3]
    assert (result.score_label, result.ranked) == ("bank total", True)
    assert "{name:2}" in result.explanation and "{name:3}" in result.explanation
    assert [s.place for s in result.standings] == sorted(s.place for s in result.standings)


def test_shared_second_place_skips_the_third(g):
    state = finished_with_banks(g, {1: {}, 2: {7: 3}, 3: {2: 2}, 4: {4: 1}},
                                last=(1, 1))
    # 1: 1 (1 card); 2: 21; 3: 4 (2 cards); 4: 4 (1 card) -> 3 beats 4 on cards.
    places = {s.player: s.place for s in g.result(state).standings}
    assert places == {2: 1, 3: 2, 4: 3, 1: 4}
    state2 = finished_with_banks(g, {1: {}, 2: {7: 3}, 3: {3: 1}, 4: {3: 1}, 5: {}},
                                 last=(2, 1))
    places = {s.player: s.place for s in g.result(state2).standings}
    # 2: 21; 3: 3 (1 card); 4: 3 (1 card); 1: 2 (1 card); 5: 0.
    assert places == {2: 1, 3: 2, 4: 2, 1: 4, 5: 5}


def test_everyone_tied_at_zero_share_the_victory(g):
    state = endgame_state([1, 2])
    seat(state, 2)["bank"]["1"] = 1
    state["seen"]["1"] += 1
    seat(state, 1)["hand"] = 1
    play(g, state, 1, 1, 1)
    result = g.result(state)
    assert [s.place for s in result.standings] == [1, 1]
    assert sorted(result.winners) == [1, 2]


# -- secret banks ----------------------------------------------------------------------
def game_with_banks(**options):
    g = GoBig()
    state = new([1, 2, 3], **options)
    play(g, state, 1, 7, 3)
    draw(g, state, 1)
    play(g, state, 2, 2, 1)
    draw(g, state, 2)
    play(g, state, 3, 5, 2)
    draw(g, state, 3)
    play(g, state, 1, 6, 1)       # player 1 banked 21; no higher single to beat
    draw(g, state, 1)
    play(g, state, 2, 3, 2)       # player 2 banked 2; beats player 3's pair of 5s
    draw(g, state, 2)
    return g, state


def test_bank_totals_are_secret_until_the_end(g):
    g, state = game_with_banks()
    assert bank_total(seat(state, 1)) == 21
    assert bank_total(seat(state, 2)) == 2
    public, private = g.view(state, None)
    assert private is None
    assert "bank_total" not in json.dumps(public)
    assert [s["bank_cards"] for s in public["seats"]] == [3, 1, 0]
    for viewer in (1, 2, 3):
        public, private = g.view(state, viewer)
        assert "bank_total" not in json.dumps(public)
        assert private["bank_total"] == bank_total(seat(state, viewer))
        assert json.dumps([public, private]).count("bank_total") == 1
        assert [s["bank_cards"] for s in public["seats"]] == [3, 1, 0]
    # Player 2's view never shows player 1's 21 (nor their banked 7s).
    public, private = g.view(state, 2)
    assert "21" not in json.dumps([public, private])
    assert private.get("bank", {}) in ({"2": 1}, {2: 1})
    secrets = g.secrets(state)
    assert set(secrets) == {1, 2, 3}
    # A stranger sees the public view only.
    public, private = g.view(state, 99)
    assert private is None
    assert "bank_total" not in json.dumps(public)


def test_banks_are_revealed_at_the_end(g):
    state = finished_with_banks(g, {1: {}, 2: {6: 2}, 3: {3: 1}}, last=(1, 1))
    for viewer in (None, 1, 2, 3):
        public, _ = g.view(state, viewer)
        assert [s["bank_total"] for s in public["seats"]] == [1, 12, 3]
        assert public["step"] is None
    assert g.secrets(state) == {}


def test_open_banks_option_shows_every_total(g):
    g, state = game_with_banks(open_banks=True)
    for viewer in (None, 1, 2, 3):
        public, _ = g.view(state, viewer)
        assert [s["bank_total"] for s in public["seats"]] == [21, 2, 0]
    assert g.secrets(state) == {}


def test_refusal_messages_do_not_leak_bank_totals(g):
    g, state = game_with_banks()
    for data in ({"type": "play", "value": 7, "count": 3},
                 {"type": "draw", "source": "deck"}):
        for player in (1, 2):
            try:
                g.apply(copy.deepcopy(state), player, g.parse_action(data), None)
            except IllegalAction as exc:
                assert "21" not in exc.message


# -- seeded random games -------------------------------------------------------------------
def check_invariants(game, state, total):
    assert cards_accounted(state) == total
    seats = state["seats"]
    seen = sum(state["seen"].values())
    assert seen == (sum(s["display"]["count"] for s in seats if s["display"])
                    + sum(bank_cards(s) for s in seats) + state["beaten"])
    for v in VALUES:
        on_table = (sum(s["bank"][str(v)] for s in seats)
                    + sum(s["display"]["count"] for s in seats
                          if s["display"] and s["display"]["value"] == v))
        assert on_table <= state["seen"][str(v)] <= state["copies"]
    for s in seats:
        assert s["hand"] >= 0
        if s["display"]:
            assert 1 <= s["display"]["count"] <= 3 and 1 <= s["display"]["value"] <= 7
    assert state["deck"] >= 0 and 0 <= state["market"] <= 2
    if state["deck"] > 0:
        assert state["market"] == 2
    json.loads(json.dumps(state))


def expected_places(state):
    keys = {s["player"]: (bank_total(s), bank_cards(s)) for s in state["seats"]}
    return {p: 1 + sum(1 for q in keys if keys[q] > keys[p]) for p in keys}


def check_views(game, state):
    show = state["finished"] or state["open_banks"]
    for viewer in [None] + [s["player"] for s in state["seats"]]:
        public, private = game.view(state, viewer)
        for ps, s in zip(public["seats"], state["seats"]):
            assert ps["player"] == s["player"]
            assert ps["hand"] == s["hand"]
            assert ps["display"] == s["display"]
            assert ps["bank_cards"] == bank_cards(s)
            if show:
                assert ps["bank_total"] == bank_total(s)
            else:
                assert "bank_total" not in ps
        if not show:
            assert "bank_total" not in json.dumps(public)
        if viewer is None:
            assert private is None
        else:
            assert private["bank_total"] == bank_total(seat(state, viewer))


def random_game(seed, record=None):
    """Plays a whole game with random legal actions. Returns (game, state, actions)."""
    rng = random.Random(seed)
    game = GoBig()
    n = rng.randint(2, 6)
    players = rng.sample(range(1, 50), n)
    copies = 13 if seed % 3 else rng.randint(max(4, (6 * n + 2 + 6) // 7), 20)
    options = game.Options(copies_per_value=copies, open_banks=(seed % 5 == 0))
    state = game.setup(players, options, random.Random(seed))
    initial = copy.deepcopy(state)
    total = copies * 7
    log = []
    check_invariants(game, state, total)
    bound = 4 * total + 10
    for step in range(bound):
        if state["finished"]:
            break
        p = current(game, state)
        for other in players:
            if other != p:
                assert game.actions(state, other) == []
        (template,) = game.actions(state, p)
        if template["type"] == "play":
            assert state["step"] == "play"
            assert template["sets"], "a player to play has nothing legal"
            choice = rng.choice(template["sets"])
            data = {"type": "play", **choice}
            hand_before = seat(state, p)["hand"]
            assert choice["count"] <= hand_before
            assert choice["count"] <= state["copies"] - state["seen"][str(choice["value"])]
            ends = (hand_before == choice["count"] and state["deck"] == 0
                    and state["market"] == 0)
            empty = state["deck"] == 0 and state["market"] == 0
        else:
            assert state["step"] == "draw"
            assert template["source"]
            assert all(state[src] > 0 for src in template["source"])
            assert set(template["source"]) == {s for s in ("deck", "market") if state[s]}
            data = {"type": "draw", "source": rng.choice(template["source"])}
        if step % 7 == 0:
            # Wrong player, wrong step: refused without change.
            wrong = next(q for q in players if q != p)
            assert_refused(game, state, wrong, data, NotYourTurn)
            other = ({"type": "draw", "source": "deck"} if data["type"] == "play"
                     else {"type": "play", "value": 1, "count": 1})
            assert_refused(game, state, p, other)
        action = game.parse_action(data)
        before = copy.deepcopy(state)
        game.preview(state, p, action)
        assert state == before
        notes = game.apply(state, p, action, None)
        log.append((p, data))
        assert notes and all(isinstance(n, Note) for n in notes)
        assert "{name:%d}" % p in notes[0].text
        check_invariants(game, state, total)
        if data["type"] == "play":
            assert state["finished"] == ends
            if not ends:
                if empty:
                    assert state["step"] == "play"
                    assert current(game, state) != p or n == 1
                else:
                    assert state["step"] == "draw" and current(game, state) == p
                    assert seat(state, p)["display"] == choice
        else:
            nxt = current(game, state)
            assert state["step"] == "play"
            assert players.index(nxt) == (players.index(p) + 1) % n
            assert seat(state, nxt)["display"] is None
            prev = seat(before, nxt)
            if prev["display"]:
                assert (seat(state, nxt)["bank"][str(prev["display"]["value"])]
                        == prev["bank"][str(prev["display"]["value"])]
                        + prev["display"]["count"])
        if step % 5 == 0 or state["finished"]:
            check_views(game, state)
        if not state["finished"]:
            assert game.result(state) is None
    assert state["finished"], f"seed {seed}: no end after {bound} actions"
    return game, state, log, initial


@pytest.mark.parametrize("seed", range(300))
def test_random_game_ends_with_cards_accounted_and_a_consistent_result(seed):
    game, state, log, _ = random_game(seed)
    assert all(s["hand"] == 0 and s["display"] is None for s in state["seats"])
    assert state["deck"] == 0 and state["market"] == 0
    assert game.waiting_for(state) == []
    result = game.result(state)
    assert result is not None
    standings = result.standings
    assert sorted(s.player for s in standings) == sorted(x["player"] for x in state["seats"])
    places = expected_places(state)
    for st in standings:
        s = seat(state, st.player)
        assert st.score == bank_total(s)
        assert st.tiebreak == {"bank_cards": bank_cards(s)}
        assert st.place == places[st.player]
    assert [st.place for st in standings] == sorted(st.place for st in standings)
    assert result.winners and all(places[w] == 1 for w in result.winners)
    assert set(result.winners) == {p for p, pl in places.items() if pl == 1}
    for w in result.winners:
        assert "{name:%d}" % w in result.explanation
    assert json.loads(json.dumps(result.to_json()))["winners"] == result.winners


# -- Go Big ------------------------------------------------------------------------------
# "4. Highest total wins! 5. Tie? The tied player with the most banked cards wins."

def tie_explanation(banks: dict[int, dict[int, int]]) -> str:
    game = GoBig()
    return game.result(finished_with_banks(game, banks, last=(1, 1))).explanation


def test_go_big_explains_a_tie_of_two():
    assert tie_explanation({1: {}, 2: {6: 2}, 3: {3: 4}}) == (
        "{name:3} and {name:2} both banked 12; {name:3} wins the tie with more banked cards "
        "(4 against 2).")


def test_go_big_explains_a_tie_of_three():
    assert tie_explanation({1: {}, 2: {6: 2}, 3: {3: 4}, 4: {4: 3}}) == (
        "{name:3}, {name:4} and {name:2} all banked 12; {name:3} wins the tie with more "
        "banked cards (4 against 3).")


def test_go_big_explains_a_tie_of_four():
    assert tie_explanation({1: {}, 2: {6: 2}, 3: {3: 4}, 4: {4: 3}, 5: {2: 6}}) == (
        "{name:5}, {name:3}, {name:4} and {name:2} all banked 12; {name:5} wins the tie with "
        "more banked cards (6 against 4).")
