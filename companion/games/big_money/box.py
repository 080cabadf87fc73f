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
from typing import Any

BOX_FILE = Path(__file__).with_name("box.json")

Box = dict[str, Any]
"""box.json as parsed: each value with where it comes from (it is read, never kept in a
state)."""


@lru_cache(maxsize=1)
def _box_text() -> str:
    return BOX_FILE.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _shared_box() -> Box:
    """One parsed copy for this module's own reading; never handed out."""
    return load_box()


def load_box() -> Box:
    """The parsed box data, a fresh copy each call (callers may change it freely)."""
    box: Box = json.loads(_box_text())
    return box


def option_defaults(box: Box | None = None) -> dict[str, Any]:
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


def proposed_payout(price: int, stock: bool, box: Box | None = None) -> int:
    """What a newly entered asset pays unless the player says otherwise: its price for a
    regular asset, double for a stock (our ruling, docs/rulings.md, Big Money)."""
    box = box if box is not None else _shared_box()
    kind = "stock" if stock else "regular"
    per_price: int = box["asset_payout_per_price"][kind]["value"]
    return price * per_price
