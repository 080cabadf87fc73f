"""A first game of Big Top (and Fan Tan) taught at the table: what each kind of step asks of
a player, and why, keyed by the type of the move the step offers."""
from __future__ import annotations

from ..messages import message

LESSONS = {
    "hand": message("Enter the cards you were dealt. Only you see them here; the app checks "
                    "them against everyone else's and keeps track of what you can play."),
    "receipts": message("Put your gate receipts face down, one on each suit: the biggest on "
                        "the suit you are surest to play out. Nobody sees them until the "
                        "deal ends."),
    "play_called": message("One of your called cards can be played: you must play it now. "
                           "It ends your turn and earns nothing."),
    "play": message("Play a card from your hand: a suit starts with its Poster, then its "
                    "light and dark piles go up from 1 to 6. A card that matches someone's "
                    "called card earns you what that card is worth on their chart."),
    "call": message("Or call a card you cannot play yet: it goes on the 3 space of your "
                    "chart and moves down a space each turn; you must play it as soon as "
                    "you can."),
    "pass": message("You can neither play nor call a card: pass."),
}
