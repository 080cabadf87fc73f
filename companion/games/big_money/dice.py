"""Scoring the five number dice: which categories a roll fits and the single best payout."""
from __future__ import annotations

from collections import Counter

from .state import Category

# The board's categories, lowest first (the rulebook's order).
CATEGORIES: tuple[Category, ...] = (
    "pair", "two_pair", "three_of_a_kind", "little_straight", "full_house", "four_of_a_kind",
    "big_straight", "five_of_a_kind")


def _has_run(faces: set[int], length: int) -> bool:
    return any(set(range(start, start + length)) <= faces for start in range(1, 8 - length))


def categories_of(dice: list[int]) -> set[Category]:
    """Every category the roll fits: a Big Straight is also a Little Straight, a Full
    House also a Pair, 2 Pairs and 3 of a Kind, 5 of a Kind also 4 and 3 of a Kind...
    2 Pairs and Full House need two different numbers, as the rulebook words them."""
    counts = sorted(Counter(dice).values(), reverse=True)
    faces = set(dice)
    fits: dict[Category, bool] = {
        "pair": counts[0] >= 2,
        "two_pair": len(counts) > 1 and counts[1] >= 2,
        "three_of_a_kind": counts[0] >= 3,
        "little_straight": _has_run(faces, 4),
        "full_house": counts[:2] == [3, 2],
        "four_of_a_kind": counts[0] >= 4,
        "big_straight": _has_run(faces, 5),
        "five_of_a_kind": counts[0] == 5,
    }
    return {category for category, fit in fits.items() if fit}


def best_category(dice: list[int],
                  payouts: dict[Category, int]) -> tuple[Category | None, int]:
    """(category, payout) of the single highest payout the roll earns; (None, 0) when it
    fits no category. On equal payouts the higher category names the roll."""
    fits = categories_of(dice)
    if not fits:
        return None, 0
    best = max(fits, key=lambda category: (payouts[category], CATEGORIES.index(category)))
    return best, payouts[best]
