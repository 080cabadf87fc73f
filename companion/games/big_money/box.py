"""The box data of Big Money (box.json): the one source of truth for the defaults.

The rulebook does not print the board's tables, the bill counts or the card texts, so
they live in box.json, each value with where it comes from. The engine's Options, the
host's options form and the tests all read them through this module.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

BOX_FILE = Path(__file__).with_name("box.json")


@lru_cache(maxsize=1)
def _box_text() -> str:
    return BOX_FILE.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _shared_box() -> dict:
    """One parsed copy for this module's own reading; never handed out."""
    return json.loads(_box_text())


def load_box() -> dict:
    """The parsed box data, a fresh copy each call (callers may change it freely)."""
    return json.loads(_box_text())


def option_defaults(box: dict | None = None) -> dict:
    """The plain option values of the box data (what `Options()` defaults to)."""
    box = copy.deepcopy(box if box is not None else _shared_box())
    return {
        "bills": {bill: entry["count"] for bill, entry in box["bills"].items()},
        "number_payouts": {name: entry["payout"]
                           for name, entry in box["number_payouts"].items()},
        "industry_bonus": {assets: entry["bonus"]
                           for assets, entry in box["industry_bonus"].items()},
        "startup_payout": box["startup_payout"]["value"],
        "asset_cards": box["asset_cards"]["value"],
        "biz_news": [{"name": card["name"], "text": card["text"], "count": card["count"],
                      "effect": card["effect"]} for card in box["biz_news"]],
    }


def category_names(box: dict | None = None) -> dict[str, str]:
    """Number-dice category key -> the name printed on the board ("full_house" -> "Full House")."""
    box = box if box is not None else _shared_box()
    return {key: entry["name"] for key, entry in box["number_payouts"].items()}


def proposed_payout(price: int, stock: bool, box: dict | None = None) -> int:
    """What a newly entered asset pays unless the player says otherwise: its price for a
    regular asset, double for a stock (our ruling, docs/rulings.md, Big Money)."""
    box = box if box is not None else _shared_box()
    kind = "stock" if stock else "regular"
    return price * box["asset_payout_per_price"][kind]["value"]
