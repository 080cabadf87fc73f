"""Go Big's rules page: its sections, the section of each step, and the setup a table needs."""
from __future__ import annotations

from ..messages import Message, message, plural
from .models import VALUES, Options
from .state import GoBigState

HAND_SIZE = 6
MARKET_SIZE = 2

SECTIONS: dict[str, str] = {
    "setup": message("Setting up the table"),
    "turn": message("A turn, step by step"),
    "bank": message("Banking your display"),
    "play": message("Playing a set"),
    "beating": message("Which sets are beaten"),
    "draw": message("Drawing cards"),
    "end": message("The end and the tie-breaks"),
    "rulings": message("Our rulings"),
}


def rule_for(state: GoBigState) -> str:
    """The section of the step the table is at."""
    if state["finished"]:
        return "end"
    return "play" if state["step"] == "play" else "draw"


def setup_checklist(options: Options, players: int) -> list[Message]:
    copies = options.copies_per_value
    cards = copies * len(VALUES)
    pile = cards - HAND_SIZE * players - MARKET_SIZE
    lines = [
        message("Take %(copies)s cards of each value from 1 to 7: %(cards)s number cards. "
                "Leave the reference cards in the box.", copies=copies, cards=cards),
        plural("Shuffle them and deal 6 cards to the %(count)s player.",
               "Shuffle them and deal 6 cards to each of the %(count)s players.", "count",
               count=players),
        message("Turn 2 cards face up beside the pile: the market."),
        plural("The last %(count)s card stays face down: the draw pile.",
               "The other %(count)s cards stay face down: the draw pile.", "count",
               count=max(pile, 0)),
        message("The host picks who goes first; play passes to the left."),
    ]
    if options.open_banks:
        lines.append(message("Open banks (house rule): every bank total is shown to all."))
    else:
        lines.append(message("Banks are secret: each phone shows its own bank total."))
    return lines
