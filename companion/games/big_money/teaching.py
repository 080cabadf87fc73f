"""A first game of Big Money taught at the table: what each kind of step asks of a player,
and why, keyed by the type of the move the step offers."""
from __future__ import annotations

from ..messages import message

LESSONS = {
    "startup": message("Choose the start-up asset you took and laid in front of you. It pays "
                       "you each time its industry is rolled."),
    "reveal": message("Type in the asset card turned over for this empty space of the "
                      "market, so that everyone can buy it."),
    "industry": message("Roll all six dice and enter the industry die. Everyone collects for "
                        "their assets of that industry; the Biz News face draws a card "
                        "instead."),
    "number_dice": message("Enter your five number dice. You may reroll any of them twice "
                           "first; your last roll's best payout is yours."),
    "buy": message("You may buy one asset from the market: you pay its price, and it pays "
                   "you whenever its industry comes up. Or end your turn without buying."),
    "end_turn": message("End your turn: the dice go to the next player."),
    "choose": message("The Biz News card asks you to choose: pick one of the choices "
                      "shown."),
}
