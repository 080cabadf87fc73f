"""Entering hands: each entry checked on its own, then every hand together against the
deck. A failed check names the cards nobody entered to everyone, and a card entered twice
only to the players who entered it (to anyone else it would tell who holds it); never who
entered what."""
from __future__ import annotations

from collections import Counter

from ..engine import IllegalAction, Note, State
from .cards import DECK, DECK_ORDER, card_label, deck_sorted


def valid_entry(cards: list[str]) -> list[str]:
    """One player's entry, in deck order, or refused with a sentence."""
    if not cards:
        raise IllegalAction("Enter the cards you were dealt: a hand cannot be empty.")
    unknown = [c for c in cards if c not in DECK_ORDER]
    if unknown:
        raise IllegalAction(f"There is no card \"{unknown[0]}\" in a Big Top deck.")
    twice = [c for c, n in Counter(cards).items() if n > 1]
    if twice:
        raise IllegalAction(f"You listed the {card_label(twice[0])} more than once.")
    return deck_sorted(cards)


def check_deck(state: State) -> Note | None:
    """With every hand in: keeps the check's outcome in `state["check"]` (None when the
    hands make up the deck), and gives the line of a failed check."""
    counts = Counter(c for s in state["seats"] for c in s["hand"])
    missing = [c for c in DECK if counts[c] == 0]
    doubled = [c for c in DECK if counts[c] > 1]
    if not missing and not doubled:
        state["check"] = None
        return None
    state["check"] = {"missing": missing, "doubled": doubled}
    private = {}
    for seat in state["seats"]:
        yours = doubled_in(state, seat)
        if yours:
            private[seat["player"]] = check_line(missing, len(doubled), yours)
    return Note(check_line(missing, len(doubled), []), private=private)


def check_line(missing: list[str], doubled: int, yours: list[str]) -> str:
    problems = []
    if missing:
        problems.append("missing: " + ", ".join(map(card_label, missing)))
    if doubled:
        cards = "1 card was" if doubled == 1 else f"{doubled} cards were"
        problems.append(f"{cards} entered more than once")
    if yours:
        problems[-1] += (", the " + ", the ".join(map(card_label, yours))
                         + " by you and another player")
    return ("The hands do not make up the deck (" + "; ".join(problems)
            + "). Everyone, check your entry.")


def doubled_in(state: State, seat: dict) -> list[str]:
    """The cards of a failed check that this seat entered and another player did too."""
    doubled = state["check"]["doubled"] if state["check"] else []
    return [c for c in doubled if c in (seat["hand"] or [])]


def public_check(state: State) -> dict | None:
    """A failed check as everyone sees it: the missing cards, and how many were entered
    twice (which ones, only their holders see: `doubled_in`)."""
    check = state["check"]
    if check is None:
        return None
    return {"missing": list(check["missing"]), "doubled_count": len(check["doubled"])}
