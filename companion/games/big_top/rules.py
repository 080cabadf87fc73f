"""Big Top's rules as the engine cites them: the sections of its rules page, the section
of the step a table is at, what to set out at the table, which cards may be called, and
why a card of a player's own hand is not offered to play."""
from __future__ import annotations

from ..engine import IllegalAction
from ..messages import Message, listed, message, plural
from .cards import (CARD_NOUNS, card_label, card_parts, chart_cards, deck_sorted, is_playable,
                    next_needed)
from .models import Options
from .state import BigTopState, Card, Seat

# Stable ids (they are the page's addresses), in page order.
SECTIONS: dict[str, str] = {
    "setup": message("Setting up the table"),
    "hands": message("Entering your hand"),
    "receipts": message("Placing the gate receipts"),
    "turn": message("A turn, step by step"),
    "called": message("Playing a called card"),
    "play": message("Playing a card from your hand"),
    "call": message("Calling a card"),
    "pass": message("Passing"),
    "end": message("The end and the tie-breaks"),
    "fan-tan": message("Fan Tan: what changes"),
    "rulings": message("Our rulings"),
}


def is_fan_tan(state: BigTopState) -> bool:
    return state["variant"] == "fan-tan"


def deals_for(player_count: int) -> int:
    """The rulebook's deals per player: once each, twice with 3 players."""
    return 2 if player_count == 3 else 1


def deal_count(options: Options, players: int) -> int:
    """Fan Tan plays the host's `hands` if set; otherwise (and always in Big Top) each
    player deals `deals_per_player` times."""
    if options.variant == "fan-tan" and options.hands:
        return options.hands
    return players * (options.deals_per_player or deals_for(players))


def rule_for(state: BigTopState) -> str:
    """Entering hands and placing receipts have their sections; play and the end are
    Big Top's, or the Fan Tan section's."""
    step = state["step"]
    if step in ("hands", "receipts"):
        return step
    if is_fan_tan(state):
        return "fan-tan"
    return "turn" if step == "play" else "end"


def setup_checklist(options: Options, players: int) -> list[Message]:
    deals = deal_count(options, players)
    lines = [message("Shuffle the 52 circus cards; the dealer deals them all out, one at a "
                     "time, starting on their left.")]
    if options.variant == "fan-tan":
        return lines + [
            plural("Give each player %(count)s peanut.", "Give each player %(count)s peanuts.",
                   "count", count=options.peanuts),
            message("Leave the Organizing Charts, gate receipts and scoring tokens in the box."),
            message("Number of hands: %(count)s.", count=deals),
            message("The app counts everyone's peanuts and the pot.")]
    return lines + [
        message("Each player takes an Organizing Chart, a set of gate receipts ($10, $7, $5 "
                "and $3) and a scoring token."),
        message("Number of deals: %(count)s.", count=deals),
        plural("Each player deals %(count)s time.", "Each player deals %(count)s times.",
               "count", count=deals // players),
        message("The app keeps everyone's money from deal to deal: no paper needed.")]


def call_refusal(state: BigTopState, seat: Seat, card: Card) -> Message | None:
    """Why the seat may not call this hand card now, or None if it may."""
    suit, shade, _ = card_parts(card)
    if shade == "poster":
        return message("A Poster can never be called.")
    if is_playable(state["piles"], card):
        return message("You can play the %(card)s, so you cannot call it.",
                       card=card_label(card))
    if seat["chart"]["3"] is not None:
        return message("Your $3 space is taken, so you cannot call.")
    if any(card_parts(c)[0] == suit for c in chart_cards(seat["chart"])):
        return message("You already have a %(suit)s card on your chart.",
                       suit=CARD_NOUNS[suit])
    return None


def playable_called(state: BigTopState, seat: Seat) -> list[Card]:
    return deck_sorted(c for c in chart_cards(seat["chart"]) if is_playable(state["piles"], c))


def why_not(state: BigTopState, player: int | None) -> list[IllegalAction]:
    """On the player's own turn, why cards of their own hand are not offered to play: a
    called card that must go first, or, per pile, the card that pile waits for."""
    current = state["current"]
    if state["step"] != "play" or current is None or player is None:
        return []
    seat = state["seats"][current]
    if seat["player"] != player:
        return []
    called = playable_called(state, seat)
    if called:
        return [IllegalAction(message("You must play your called %(card)s first.",
                                      card=card_label(called[0])), rule="called")]
    waiting: dict[tuple[str, str], list[Card]] = {}
    for card in deck_sorted(seat["hand"] or []):
        if not is_playable(state["piles"], card):
            suit, shade, _ = card_parts(card)
            pile = shade if state["piles"][suit]["poster"] else "poster"
            waiting.setdefault((suit, pile), []).append(card)
    return [IllegalAction(message("Not yet playable: your %(cards)s, until the %(needed)s is "
                                  "played.", cards=listed(map(card_label, cards)),
                                  needed=next_needed(state["piles"], cards[0])), rule="play")
            for cards in waiting.values()]
