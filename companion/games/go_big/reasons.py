"""Go Big's "why not" lines: why a set or a step a player looks for is not offered now."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import IllegalAction
from ..messages import message
from .models import SOURCES, VALUES
from .state import GoBigState, Seat
from .words import EMPTY_SOURCE, owners, set_name

if TYPE_CHECKING:
    from .engine import GoBig


def why_not(game: GoBig, state: GoBigState, player: int | None) -> list[IllegalAction]:
    """Only for the player whose turn it is: the others are offered nothing, and their
    panel already says whose turn it is."""
    if player is None or state["finished"] or game.waiting_for(state) != [player]:
        return []
    if state["step"] == "draw":
        return [IllegalAction(EMPTY_SOURCE[source], rule="draw")
                for source in SOURCES if state[source] == 0]
    reasons = [IllegalAction(message("There is no banking step to tap: the app banks your "
                                     "display as your turn begins."), rule="bank")]
    reasons += sets_the_hand_cannot_hold(state, game.seat_of(state, player)["hand"])
    reasons += displays_out_of_reach(game, state, player)
    if state["deck"] == 0 and state["market"] == 0:
        reasons.append(IllegalAction(message("Nothing is left to draw: your turn ends with "
                                             "your play."), rule="draw"))
    return reasons


def sets_the_hand_cannot_hold(state: GoBigState, hand: int) -> list[IllegalAction]:
    reasons = []
    if hand == 1:
        reasons.append(IllegalAction(message("You hold only one card: you can play a "
                                             "single, no pair or trio."), rule="play"))
    elif hand == 2:
        reasons.append(IllegalAction(message("You hold only two cards: a trio needs three "
                                             "of a kind."), rule="play"))
    largest = min(3, hand)
    for value in VALUES:
        left = state["copies"] - state["seen"][str(value)]
        if left >= largest:
            continue
        if left == 0:
            text = message("No %(value)ss are left to play: every one is displayed, banked "
                           "or out of the game.", value=value)
        elif left == 1:
            text = message("Only one %(value)s can still be in a hand: no pair or trio of "
                           "%(value)ss.", value=value)
        else:
            text = message("Only two %(value)ss can still be in a hand: no trio of "
                           "%(value)ss.", value=value)
        reasons.append(IllegalAction(text, rule="play"))
    return reasons


def displays_out_of_reach(game: GoBig, state: GoBigState,
                          player: int) -> list[IllegalAction]:
    """The others' displays of a size the player can play that no set they may play
    beats (a larger display is out of reach for want of cards, said above)."""
    shown = [s for s in state["seats"] if s["player"] != player and s["display"]]
    if not shown:
        return [IllegalAction(message("No one else shows a set: whatever you play now "
                                      "beats nothing."), rule="beating")]
    playable = game.playable(state, player)
    largest = max((count for _, count in playable), default=0)
    reasons = []
    for seat in shown:
        display = seat["display"]
        assert display is not None
        if display["count"] > largest or beatable(game, state, player, seat, playable):
            continue
        owner, shown_set = owners([seat]), set_name(display["value"], display["count"])
        if display["value"] == 1:
            text = message("No one can beat %(owner)s %(set)s: no value is lower than 1.",
                           owner=owner, set=shown_set)
        else:
            text = message("No set you can play beats %(owner)s %(set)s: the values that "
                           "would beat it are used up.", owner=owner, set=shown_set)
        reasons.append(IllegalAction(text, rule="beating"))
    return reasons


def beatable(game: GoBig, state: GoBigState, player: int, seat: Seat,
             playable: list[tuple[int, int]]) -> bool:
    """Whether one of the sets the player may play beats the seat's display."""
    return any(beaten is seat
               for value, count in playable
               for beaten, _ in game.beaten_by(state, player, value, count))
