"""A first game of Nothing Beats a Large taught at the table: what each kind of step asks of
a player, and why, keyed by the type of the move the step offers."""
from __future__ import annotations

from ..messages import message

LESSONS = {
    "challenge": message("Challenge a player who did not just cast. You will both cast a "
                         "piece, or nothing, in secret, and the winner steals a piece from "
                         "the loser."),
    "cast": message("Choose the piece you hold out, or nothing. A Large beats a Medium and a "
                    "Small, a Medium beats a Small, a piece beats nothing, and nothing beats "
                    "a Large. A tie goes to the one with fewer pieces."),
    "record_cast": message("Both players show their piece at once; enter what each one cast."),
    "steal": message("Take one piece of your choice from that player: aim for the colours "
                     "on your goal cards."),
}
