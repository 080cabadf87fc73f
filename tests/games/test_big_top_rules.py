"""Big Top's rules as the engine cites them: the section of each step (Big Top and Fan Tan),
the setup checklist for the table's variant and player count, the section each refusal
cites, and why a card of the player's own hand is not offered to play."""
from __future__ import annotations

import copy
import random

import pytest

from companion.games.big_top import DECK, BigTop
from companion.games.engine import IllegalAction, NotYourTurn

GAME = BigTop()
SECTIONS = GAME.rule_sections
PLAIN_RECEIPTS = {"clowns": 10, "sideshow": 7, "animals": 5, "performers": 3}


def started(players: int = 3, **chosen) -> dict:
    ids = list(range(1, players + 1))
    return GAME.setup(ids, GAME.options_for(chosen, players), random.Random(0))


def act(state, player, **data) -> None:
    GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def enter_hands(state) -> None:
    """Deal the deck in order round the table; each player enters their share."""
    players = [seat["player"] for seat in state["seats"]]
    for index, player in enumerate(players):
        act(state, player, type="hand", cards=list(DECK[index::len(players)]))


def in_play(current: int, hands: dict, charts: dict | None = None, piles: dict | None = None,
            variant: str = "big-top") -> dict:
    """Three players in play, `current` on turn; `piles` maps a suit to (poster, light,
    dark). The cards no one is given lie nowhere: these rules never count them."""
    state = started(3, variant=variant)
    state.update(step="play", current=current - 1)
    for suit, (poster, light, dark) in (piles or {}).items():
        state["piles"][suit] = {"poster": poster, "light": light, "dark": dark}
    for seat in state["seats"]:
        seat["hand"] = list(hands.get(seat["player"], []))
        seat["chart"].update((charts or {}).get(seat["player"], {}))
        if variant == "big-top":
            seat["receipts"] = dict(PLAIN_RECEIPTS)
    return state


def play_out(state) -> None:
    rng = random.Random(5)
    while GAME.waiting_for(state):
        player = GAME.waiting_for(state)[0]
        act(state, player, **GAME.random_action(state, player, rng))


def cited(state, player, error=IllegalAction, **data) -> str:
    """The section the refusal of this action cites; the state is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as refused:
        act(state, player, **data)
    assert type(refused.value) is error and state == before
    assert refused.value.rule in SECTIONS
    return refused.value.rule


# -- the section of each step -------------------------------------------------------------
def test_rule_for_follows_the_steps_of_big_top():
    state = started(3)
    assert GAME.rule_for(state) == "hands"
    enter_hands(state)
    assert GAME.rule_for(state) == "receipts"
    for player in (1, 2, 3):
        act(state, player, type="receipts", receipts=PLAIN_RECEIPTS)
    assert GAME.rule_for(state) == "turn"
    play_out(state)
    assert state["step"] == "over" and GAME.rule_for(state) == "end"


def test_rule_for_in_fan_tan_opens_its_own_section_once_play_starts():
    state = started(3, variant="fan-tan")
    assert GAME.rule_for(state) == "hands"
    enter_hands(state)
    assert state["step"] == "play" and GAME.rule_for(state) == "fan-tan"
    play_out(state)
    assert state["step"] == "over" and GAME.rule_for(state) == "fan-tan"


def test_the_sections_run_from_the_setup_to_the_rulings_with_fan_tan_among_them():
    assert list(SECTIONS)[0] == "setup" and list(SECTIONS)[-1] == "rulings"
    assert {"turn", "end", "fan-tan", "play", "call", "called", "pass"} <= set(SECTIONS)


# -- the checklist ----------------------------------------------------------------------
@pytest.mark.parametrize("players, deals, times", [(3, 6, "2 times"), (5, 5, "1 time")])
def test_big_top_checklist_counts_the_deals_of_the_player_count(players, deals, times):
    lines = GAME.setup_checklist(GAME.options_for({}, players), players)
    assert started(players)["deals"] == deals
    assert f"Number of deals: {deals}." in lines
    assert f"Each player deals {times}." in lines
    assert any("Organizing Chart, a set of gate receipts ($10, $7, $5 and $3)" in line
               for line in lines)
    assert not any("peanut" in line for line in lines)


def test_fan_tan_checklist_gives_the_peanuts_and_the_hands_set_by_the_host():
    options = GAME.options_for({"variant": "fan-tan", "peanuts": 10, "hands": 7}, 4)
    lines = GAME.setup_checklist(options, 4)
    assert "Give each player 10 peanuts." in lines and "Number of hands: 7." in lines
    assert ("Leave the Organizing Charts, gate receipts and scoring tokens in the box."
            in lines)
    assert not any(line.startswith(("Number of deals", "Each player deals")) for line in lines)
    by_default = GAME.setup_checklist(GAME.options_for({"variant": "fan-tan", "peanuts": 1},
                                                       3), 3)
    assert "Give each player 1 peanut." in by_default and "Number of hands: 6." in by_default


# -- the section each refusal cites ------------------------------------------------------------
def test_refusals_in_play_cite_the_move_they_break():
    state = in_play(1, hands={1: ["clowns-L3", "performers-P", "sideshow-D2"], 2: ["sideshow-P"]},
                    piles={"clowns": (True, 1, 0)})
    assert cited(state, 2, NotYourTurn, type="play", card="sideshow-P") == "turn"
    assert cited(state, 99, NotYourTurn, type="pass") == "setup"
    assert cited(state, 1, type="play", card="clowns-L3") == "play"
    assert cited(state, 1, type="play", card="animals-P") == "play"  # not held
    assert cited(state, 1, type="call", card="performers-P") == "call"
    assert cited(state, 1, type="pass") == "pass"
    assert cited(state, 1, type="play_called", card="clowns-L3") == "called"
    assert cited(state, 1, type="receipts", receipts=PLAIN_RECEIPTS) == "receipts"
    assert cited(state, 1, type="hand", cards=["clowns-L3"]) == "hands"

    state = in_play(1, hands={1: ["sideshow-D2"]}, piles={"clowns": (True, 1, 0)},
                    charts={1: {"2": "clowns-L2"}})
    assert cited(state, 1, type="play", card="sideshow-D2") == "called"


def test_fan_tan_refusals_cite_the_fan_tan_section():
    state = in_play(1, hands={1: ["clowns-P", "clowns-L3"]}, variant="fan-tan")
    assert cited(state, 1, type="call", card="clowns-L3") == "fan-tan"
    assert cited(state, 1, type="pass") == "fan-tan"
    assert cited(state, 1, type="receipts", receipts=PLAIN_RECEIPTS) == "fan-tan"
    state["step"] = "over"
    assert cited(state, 1, type="pass") == "fan-tan"


def test_entering_hands_and_receipts_cite_their_sections_and_the_end_its_own():
    state = started(3)
    assert cited(state, 1, type="hand", cards=[]) == "hands"
    assert cited(state, 1, type="hand", cards=["clowns-L9"]) == "hands"
    assert cited(state, 1, type="hand", cards=["clowns-L1", "clowns-L1"]) == "hands"
    enter_hands(state)
    assert cited(state, 1, type="receipts", receipts=dict(PLAIN_RECEIPTS, clowns=7)) == "receipts"
    state["step"] = "over"
    assert cited(state, 1, type="pass") == "end"


# -- why a card of the player's own hand is not offered -------------------------------------
def test_why_not_names_each_pile_the_players_own_cards_wait_for():
    hand = ["clowns-L2", "clowns-L3", "clowns-L4", "clowns-D2", "sideshow-L1"]
    state = in_play(1, hands={1: hand, 2: ["clowns-D1", "sideshow-P"]},
                    piles={"clowns": (True, 1, 0)})
    reasons = GAME.why_not(state, 1)
    assert [(reason.message, reason.rule) for reason in reasons] == [
        ("Not yet playable: your light 3 Clown and light 4 Clown, until the light 2 Clown is "
         "played.", "play"),
        ("Not yet playable: your dark 2 Clown, until the dark 1 Clown is played.", "play"),
        ("Not yet playable: your light 1 Sideshow, until the Sideshow Poster is played.",
         "play")]
    named = [card for reason in reasons for card in reason.message.params["cards"].items]
    assert "light 2 Clown" not in named  # it can be played: it is offered, not explained


def test_why_not_says_a_playable_called_card_goes_first():
    state = in_play(1, hands={1: ["clowns-D1", "sideshow-L4"]}, piles={"clowns": (True, 1, 0)},
                    charts={1: {"2": "clowns-L2"}})
    [reason] = GAME.why_not(state, 1)
    assert (reason.message, reason.rule) == ("You must play your called light 2 Clown first.",
                                             "called")


def test_why_not_speaks_only_to_the_player_on_turn_of_their_own_hand():
    state = in_play(1, hands={1: ["clowns-L3"], 2: ["clowns-L4"]})
    assert GAME.why_not(state, 2) == [] and GAME.why_not(state, None) == []
    assert GAME.why_not(state, 3) == []
    assert len(GAME.why_not(state, 1)) == 1
    hands_step = started(3)
    assert all(GAME.why_not(hands_step, player) == [] for player in (1, 2, 3, None))


def test_why_not_in_fan_tan_explains_the_same_piles():
    state = in_play(2, hands={2: ["sideshow-L2"], 3: ["sideshow-P"]}, variant="fan-tan")
    [reason] = GAME.why_not(state, 2)
    assert reason.rule == "play" and "until the Sideshow Poster is played" in reason.message
