"""The pyramids: naming, sorting and dealing pieces, and who wins a cast."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from ..messages import Message, Player, message, plural
from .models import BEATS, COLORS, NOTHING, SIZES

Item = TypeVar("Item")

COLOR_NAMES = {"red": message("red"), "yellow": message("yellow"),
               "green": message("green"), "blue": message("blue"),
               "black": message("black")}
SIZE_NAMES = {"L": message("Large"), "M": message("Medium"), "S": message("Small"),
              NOTHING: message("Nothing")}


def size_of(piece: str | None) -> str:
    return NOTHING if piece is None else piece.split("-")[1]


def color_of(piece: str) -> str:
    return piece.split("-")[0]


def color_name(color: str) -> Message:
    return COLOR_NAMES[color]


def piece_label(piece: str | None) -> Message:
    """"Nothing", "the red Large"."""
    if piece is None:
        return message("Nothing")
    return message("the %(color)s %(size)s", color=color_name(color_of(piece)),
                   size=SIZE_NAMES[size_of(piece)])


def sorted_pieces(pieces: list[str]) -> list[str]:
    return sorted(pieces, key=lambda p: (COLORS.index(color_of(p)), SIZES.index(size_of(p))))


def deal_trios(colors: Sequence[str], rng: random.Random) -> list[list[str]]:
    """One trio per colour: a Large, a Medium and a Small of three different colours,
    every piece used once. Rejection sampling keeps every valid deal equally likely."""
    while True:
        by_size = [rng.sample(colors, len(colors)) for _ in SIZES]
        trios = list(zip(*by_size))
        if all(len(set(trio)) == len(SIZES) for trio in trios):
            return [[f"{color}-{size}" for color, size in zip(trio, SIZES)]
                    for trio in trios]


def beats_phrase(winner: str, loser: str) -> Message:
    if winner == NOTHING:
        return message("Nothing beats a Large")  # the only thing Nothing beats
    return message("%(winner)s beats %(loser)s", winner=SIZE_NAMES[winner],
                   loser=SIZE_NAMES[loser])


def cast_outcome(picks: dict[int, str | None],
                 counts: dict[int, int]) -> tuple[int | None, Message]:
    """(winner or None for a recast, why) for a cast between the two keys of `picks`."""
    first, second = picks
    size_a, size_b = size_of(picks[first]), size_of(picks[second])
    if size_a != size_b:
        if size_b in BEATS[size_a]:
            return first, beats_phrase(size_a, size_b)
        return second, beats_phrase(size_b, size_a)
    if counts[first] == counts[second]:
        return None, plural("Tie (both %(size)s) and %(count)s piece each: cast again",
                            "Tie (both %(size)s) and %(count)s pieces each: cast again",
                            "count", size=SIZE_NAMES[size_a], count=counts[first])
    winner = min(picks, key=lambda player: counts[player])
    loser = second if winner == first else first
    return winner, message("Tie (both %(size)s): %(player)s has fewer pieces (%(fewer)s "
                           "against %(more)s)", size=SIZE_NAMES[size_a], player=Player(winner),
                           fewer=counts[winner], more=counts[loser])


def remove_one(items: list[Item], value: Item) -> list[Item]:
    rest = list(items)
    rest.remove(value)
    return rest
