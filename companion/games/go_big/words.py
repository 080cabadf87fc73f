"""The names Go Big's messages give its sets, their owners and the empty sources."""
from __future__ import annotations

from ..messages import Listed, Message, Player, listed, message
from .models import Source
from .state import Seat

EMPTY_SOURCE: dict[Source, Message] = {"deck": message("The deck is empty."),
                                       "market": message("The market is empty.")}


def set_name(value: int, count: int, several: bool = False) -> Message:
    """"single 4", "pair of 5s", "pairs of 5s", "trio of 6s"."""
    if count == 1:
        return (message("single %(value)ss", value=value) if several
                else message("single %(value)s", value=value))
    if count == 2:
        return (message("pairs of %(value)ss", value=value) if several
                else message("pair of %(value)ss", value=value))
    return (message("trios of %(value)ss", value=value) if several
            else message("trio of %(value)ss", value=value))


def owners(seats: list[Seat]) -> Listed:
    """"Ann's and Bob's": the owners of the displays a set beats."""
    return listed(message("%(player)s's", player=Player(s["player"])) for s in seats)
