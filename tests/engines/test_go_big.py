"""Pure engine tests of Go Big (companion/games/go_big.py).

Law: the Go Big rulebook and the rulings on it (Go Big). The app tracks hand COUNTS,
not card contents: a play reports (value, count).
"""
from __future__ import annotations

import copy
import json
import random

import pydantic
import pytest

from companion.games.engine import IllegalAction, Note, NotYourTurn, Result
from companion.games.go_big import GoBig

VALUES = range(1, 8)


# -- helpers -------------------------------------------------------------------------
@pytest.fixture
def g() -> GoBig:
    return GoBig()


def new(players=(1, 2, 3), seed=0, **options):
    game = GoBig()
    return game.setup(list(players), game.Options(**options), random.Random(seed))


def act(game, state, player, **data):
    return game.apply(state, player, game.parse_action(data), None)


def play(game, state, player, value, count):
    return act(game, state, player, type="play", value=value, count=count)


def draw(game, state, player, source="deck"):
    return act(game, state, player, type="draw", source=source)


def seat(state, player):
    return next(s for s in state["seats"] if s["player"] == player)


def bank_total(s):
    return sum(int(v) * n for v, n in s["bank"].items())


def bank_cards(s):
    return sum(s["bank"].values())


def cards_accounted(state) -> int:
    seats = state["seats"]
    return (state["deck"] + state["market"]
            + sum(s["hand"] for s in seats)
            + sum(s["display"]["count"] for s in seats if s["display"])
            + sum(bank_cards(s) for s in seats)
            + state["beaten"] + state["hands_discarded"])


def current(game, state):
    waiting = game.waiting_for(state)
    assert len(waiting) == 1
    return waiting[0]


def texts(notes):
    assert all(isinstance(n, Note) for n in notes)
    return " ".join(n.text for n in notes)


def assert_refused(game, state, player, data, exc=IllegalAction):
    before = copy.deepcopy(state)
    with pytest.raises(exc) as info:
        game.apply(state, player, game.parse_action(data), None)
    assert state == before, "a refused action changed the state"
    assert isinstance(info.value.message, str) and info.value.message
    return info.value


def endgame_state(players=(1, 2, 3, 4)):
    """A state with the deck and market empty: the next play of a last card ends it."""
    state = new(players)
    # Move the deck and market into the hands so that the cards stay accounted for.
    extra = state["deck"] + state["market"]
    state["deck"] = state["market"] = 0
    state["seats"][1]["hand"] += extra
    return state


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
