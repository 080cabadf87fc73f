"""Entering hands: each entry checked on its own, then every hand together against the
deck. A failed check names the cards nobody entered to everyone, and a card entered twice
only to the players who entered it (to anyone else it would tell who holds it); never who
entered what."""
from __future__ import annotations

import random
from collections import Counter
from typing import TypedDict

from ..engine import IllegalAction, Note
from ..messages import Message, listed, message, plural, semicolons
from .cards import DECK, DECK_ORDER, card_label, deck_sorted
from .state import BigTopState, Card, Seat


class PublicCheck(TypedDict):
    missing: list[Card]
    doubled_count: int


def valid_entry(cards: list[str]) -> list[Card]:
    """One player's entry, in deck order, or refused with a sentence."""
    if not cards:
        raise IllegalAction(message("Enter the cards you were dealt: a hand cannot be empty."),
                             rule="hands")
    unknown = [c for c in cards if c not in DECK_ORDER]
    if unknown:
        raise IllegalAction(unknown_card(unknown[0]), rule="hands")
    twice = [c for c, n in Counter(cards).items() if n > 1]
    if twice:
        raise IllegalAction(message("You listed the %(card)s more than once.",
                                    card=card_label(twice[0])), rule="hands")
    return deck_sorted(cards)


def check_deck(state: BigTopState) -> Note | None:
    """With every hand in: keeps the check's outcome in `state["check"]` (None when the
    hands make up the deck), and gives the line of a failed check."""
    counts = Counter(c for s in state["seats"] for c in s["hand"] or [])
    missing = [c for c in DECK if counts[c] == 0]
    doubled = [c for c in DECK if counts[c] > 1]
    if not missing and not doubled:
        state["check"] = None
        return None
    state["check"] = {"missing": missing, "doubled": doubled}
    private: dict[int, str] = {}
    for seat in state["seats"]:
        yours = doubled_in(state, seat)
        if yours:
            private[seat["player"]] = check_line(missing, len(doubled), yours)
    return Note(check_line(missing, len(doubled), []), private=private)


def unknown_card(card: str) -> Message:
    """The card is what the player typed: a parameter, never a message of ours."""
    return message("There is no card \"%(card)s\" in a Big Top deck.", card=card)


def not_held(card: Card) -> Message:
    """The refusal of a card the player does not hold."""
    return message("You do not hold the %(card)s.", card=card_label(card))


def check_line(missing: list[Card], doubled: int, yours: list[Card]) -> Message:
    problems = []
    if missing:
        problems.append(message("missing: %(cards)s",
                                cards=listed(map(card_label, missing), tally=True)))
    if yours:
        # (Named first: a message inside the plural's call would hide it from extraction.)
        named = listed((message("the %(card)s", card=card_label(c)) for c in yours), tally=True)
        problems.append(plural(
            "%(count)s card was entered more than once, %(yours)s by you and another player",
            "%(count)s cards were entered more than once, %(yours)s by you and another "
            "player", "count", count=doubled, yours=named))
    elif doubled:
        problems.append(plural("%(count)s card was entered more than once",
                               "%(count)s cards were entered more than once", "count",
                               count=doubled))
    return message("The hands do not make up the deck (%(problems)s). Everyone, check your "
                   "entry.", problems=semicolons(problems))


def doubled_in(state: BigTopState, seat: Seat) -> list[Card]:
    """The cards of a failed check that this seat entered and another player did too."""
    doubled = state["check"]["doubled"] if state["check"] else []
    return [c for c in doubled if c in (seat["hand"] or [])]


def public_check(state: BigTopState) -> PublicCheck | None:
    """A failed check as everyone sees it: the missing cards, and how many were entered
    twice (which ones, only their holders see: `doubled_in`)."""
    check = state["check"]
    if check is None:
        return None
    return {"missing": list(check["missing"]), "doubled_count": len(check["doubled"])}


def bot_hand(state: BigTopState, player: int) -> list[Card]:
    """The bots' deal: one shuffle per deal, dealt one card at a time from the left of the
    dealer, so every bot enters its share of the same 52 cards."""
    deck = list(DECK)
    random.Random(f"bot-deal:{state['deal']}").shuffle(deck)
    seats = len(state["seats"])
    index = [s["player"] for s in state["seats"]].index(player)
    offset = (index - state["dealer_seat"] - 1) % seats
    return deck[offset::seats]
