"""A first game of Go Big taught at the table: what each kind of step asks of a player, and
why, keyed by the type of the move the step offers."""
from __future__ import annotations

from ..messages import message

LESSONS = {
    "play": message("Play a set from your hand: one, two or three cards of the same number. "
                    "It knocks out of the game the sets of the same size with the nearest "
                    "higher number in front of the others. Last turn's set has already gone "
                    "to your bank, where it scores."),
    "draw": message("Now draw two cards: the top two of the deck, or both cards of the "
                    "market. The more cards you hold, the more sets you can play."),
}
