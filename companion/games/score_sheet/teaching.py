"""A first evening with the score sheet taught at the table: what each kind of step asks of
a player, and why, keyed by the type of the move the step offers."""
from __future__ import annotations

from ..messages import message

LESSONS = {
    "bid": message("Bid the number of tricks you think you will take this round. The round "
                   "scores well only if you take exactly that many."),
    "enter": message("Enter your score for this round. The round closes when every row is "
                     "in; until then you can change yours."),
    "enter_round": message("Enter every player's score for this round, then send the "
                           "round."),
    "finish": message("When the game is over, end it here, naming how it ended."),
}
