"""Big Top engine, the hands and what is secret: hand entry (open to fixes until every
hand is in, and the check of missing and doubled cards, a doubled card named only to the
two who entered it), the gate receipts placed with each value once, the refusals of both,
and no view or note showing another player's hand or receipts in seeded random games."""
from __future__ import annotations

import copy
import json
import random
import re

import pytest
from pydantic import ValidationError

from companion.games.big_top import DECK, RECEIPT_VALUES, SUIT_TITLES, SUITS, BigTop, card_label
from companion.games.engine import NotYourTurn
from tests.support.big_top_engine import (GAME, PLAIN_RECEIPTS, act, arranged, deal_cards, options,
                                          play_random_game, refused)


# -- helpers ---------------------------------------------------------------------------
def hand_of(state, player) -> list[str]:
    return GAME.view(state, player)[1]["hand"]


# -- hand entry and receipts -----------------------------------------------------------
def test_hand_entry_can_be_fixed_before_every_hand_is_in():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(5))
    notes = act(state, 1, type="hand", cards=hands[1][:-1])
    assert notes[0].for_viewer(1) == "You entered your hand (16 cards)."
    assert notes[0].for_viewer(2) == "{name:1} entered their hand."
    assert GAME.waiting_for(state) == [2, 3]
    assert GAME.actions(state, 1)[0]["type"] == "hand"  # a fix is still open
    act(state, 1, type="hand", cards=hands[1])
    assert hand_of(state, 1) == sorted(hands[1], key=DECK.index)
    act(state, 2, type="hand", cards=hands[2])
    act(state, 3, type="hand", cards=hands[3])
    assert GAME.view(state, None)[0]["step"] == "receipts"


def test_the_check_names_missing_cards_to_all_and_a_doubled_one_to_its_holders_only():
    """A missing card is in nobody's hand: everyone is told. A card entered twice is in
    the hand of one of the two who entered it: naming it to anyone else (another player,
    the host) would tell them who holds it, so only those two are told which it is."""
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(6))
    mine, theirs = hands[2][0], hands[3][0]
    act(state, 1, type="hand", cards=hands[1])
    act(state, 2, type="hand", cards=[theirs] + hands[2][1:])
    notes = act(state, 3, type="hand", cards=hands[3])

    public = GAME.view(state, None)[0]
    assert public["check"] == {"missing": [mine], "doubled_count": 1}
    assert public["step"] == "hands"
    assert GAME.waiting_for(state) == [1, 2, 3]
    assert all(GAME.actions(state, p)[0]["type"] == "hand" for p in (1, 2, 3))
    note = notes[-1]
    assert card_label(mine) in note.text and card_label(theirs) not in note.text
    assert "1 card was entered more than once" in note.text
    assert set(note.private) == {2, 3}
    for holder in (2, 3):
        assert card_label(theirs) in note.private[holder]
        assert card_label(mine) in note.private[holder]
        assert GAME.view(state, holder)[1]["doubled"] == [theirs]
    assert GAME.view(state, 1)[1]["doubled"] == []
    assert theirs not in json.dumps(GAME.view(state, 1)) + json.dumps(GAME.view(state, None))
    assert "{name:" not in note.text + "".join(note.private.values())

    act(state, 1, type="hand", cards=hands[1])  # a correct entry again: still off
    assert GAME.view(state, None)[0]["check"] == {"missing": [mine], "doubled_count": 1}
    act(state, 2, type="hand", cards=hands[2])
    public = GAME.view(state, None)[0]
    assert (public["check"], public["step"]) == (None, "receipts")


def test_a_card_entered_twice_fails_the_check_even_with_nothing_missing():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(4))
    extra = hands[3][0]
    act(state, 1, type="hand", cards=hands[1])
    act(state, 2, type="hand", cards=hands[2] + [extra])
    act(state, 3, type="hand", cards=hands[3])
    assert GAME.view(state, None)[0]["check"] == {"missing": [], "doubled_count": 1}
    assert GAME.view(state, 2)[1]["doubled"] == GAME.view(state, 3)[1]["doubled"] == [extra]
    assert GAME.waiting_for(state) == [1, 2, 3]


def test_hand_entry_refusals_leave_the_state_as_it_was():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(7))
    act(state, 1, type="hand", cards=hands[1])
    assert "clowns-L7" in refused(state, 2, {"type": "hand", "cards": ["clowns-L7"]})
    assert "more than once" in refused(
        state, 2, {"type": "hand", "cards": hands[2] + [hands[2][0]]})
    refused(state, 2, {"type": "hand", "cards": []})
    refused(state, None, {"type": "hand", "cards": hands[2]}, NotYourTurn)
    refused(state, 99, {"type": "hand", "cards": hands[2]}, NotYourTurn)
    refused(state, 2, {"type": "receipts", "receipts": PLAIN_RECEIPTS})
    refused(state, 2, {"type": "play", "card": hands[2][0]})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "hand", "cards": ["x" * 40]})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "hand", "cards": list(DECK) * 2})


def test_receipts_use_each_value_once_and_can_change_until_all_are_placed():
    state = GAME.setup([1, 2, 3], options(3), random.Random(0))
    hands = deal_cards(state, random.Random(8))
    for player, cards in hands.items():
        act(state, player, type="hand", cards=cards)
    twice = {"clowns": 10, "sideshow": 10, "animals": 5, "performers": 3}
    assert "exactly once" in refused(state, 1, {"type": "receipts", "receipts": twice})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "receipts", "receipts": {"clowns": 10, "sideshow": 7,
                                                            "animals": 5}})
    with pytest.raises(ValidationError):
        GAME.parse_action({"type": "receipts", "receipts": {**PLAIN_RECEIPTS, "clowns": 4}})

    notes = act(state, 1, type="receipts", receipts=PLAIN_RECEIPTS)
    assert notes[0].for_viewer(2) == "{name:1} placed their gate receipts."
    assert "$10 on Clowns" in notes[0].for_viewer(1)
    changed = {"clowns": 3, "sideshow": 5, "animals": 7, "performers": 10}
    act(state, 1, type="receipts", receipts=changed)
    assert GAME.view(state, 1)[1]["receipts"] == changed
    assert GAME.waiting_for(state) == [2, 3]
    act(state, 2, type="receipts", receipts=PLAIN_RECEIPTS)
    act(state, 3, type="receipts", receipts=PLAIN_RECEIPTS)
    assert GAME.waiting_for(state) == [2]  # left of the first dealer, player 1
    refused(state, 1, {"type": "receipts", "receipts": PLAIN_RECEIPTS})
    refused(state, 1, {"type": "hand", "cards": hands[1]})


# -- secrecy ---------------------------------------------------------------------------
def receipt_shaped(value):
    """Every mapping in `value` that looks like (part of) a receipts placement."""
    if isinstance(value, dict):
        if value and set(value) <= set(SUITS) and all(v in RECEIPT_VALUES
                                                      for v in value.values()):
            yield value
        for item in value.values():
            yield from receipt_shaped(item)
    elif isinstance(value, list):
        for item in value:
            yield from receipt_shaped(item)


def assert_nothing_leaks(game, state, notes):
    """No view or note line for another viewer holds a player's hand cards; no public
    view holds a receipts placement (past deals' results set aside) and no line tells
    a viewer any placement but their own."""
    state = copy.deepcopy(state)
    state["deal_results"] = []  # the receipts they show were revealed at the deal's end
    secrets = game.secrets(state)
    players = [s["player"] for s in state["seats"]]
    for viewer in [None] + players:
        public, private = game.view(state, viewer)
        seen = json.dumps([public, private])
        lines = [note.for_viewer(viewer) for note in notes]
        for owner in players:
            if owner == viewer:
                continue
            hand = game.view(state, owner)[1]["hand"]
            if state["step"] != "over":  # at the end the game's record opens every entry
                assert set(hand) <= {s for s in secrets[owner] if isinstance(s, str)}
            assert not [card for card in hand if card in seen]
            assert not [card for card in hand for line in lines if card_label(card) in line]
        assert not list(receipt_shaped(public))
        own = (private or {}).get("receipts") or {}
        told = {(int(value), title) for line in lines
                for value, title in re.findall(r"\$(\d+) on (\w+)", line)}
        assert told <= {(value, SUIT_TITLES[suit]) for suit, value in own.items()}


@pytest.mark.parametrize("variant", ["big-top", "fan-tan"])
@pytest.mark.parametrize("seed", range(8))
def test_no_view_or_note_shows_another_players_hand_or_receipts(seed, variant):
    def check(state, player, notes):
        assert_nothing_leaks(GAME, state, notes)

    play_random_game([3, 1, 2, 4][: 3 + seed % 2], {"variant": variant}, seed, check)


class LeakyBigTop(BigTop):
    def view(self, state, viewer):
        public, private = super().view(state, viewer)
        first = state["seats"][0]
        return dict(public, first_hand=first["hand"], first_receipts=first["receipts"]), private


def test_the_secrecy_check_sees_a_leak():
    state = arranged([1, 2, 3], current=1, hands={1: ["clowns-P"]})
    assert_nothing_leaks(GAME, state, [])
    with pytest.raises(AssertionError):
        assert_nothing_leaks(LeakyBigTop(), state, [])
    state["seats"][0]["hand"] = []  # the receipts alone leak too
    with pytest.raises(AssertionError):
        assert_nothing_leaks(LeakyBigTop(), state, [])
