"""What the dice earn: the Industry die pays every owner of the rolled industry, the
number dice pay the roller the single best category their roll fits."""
from __future__ import annotations

from ..engine import Note, State
from .assets import INDUSTRY_NAMES, assets_of, discard_all
from .bank import collect, collected_text, is_over, roller_seat, seats_from_roller
from .dice import best_category
from .models import CATEGORY_NAMES


def industry_bonus(state: State, count: int) -> int:
    """What owning `count` Assets of the rolled industry adds (nothing below two)."""
    if count < 2:
        return 0
    tier = "5+" if count >= 5 else str(count)
    return state["rules"]["industry_bonus"][tier]


def collect_for_industry(state: State, industry: str) -> list[Note]:
    """Every owner collects, the roller first, then clockwise; stocks that paid are
    discarded. Once the Bank is empty, later collections are ignored."""
    notes = []
    for seat in seats_from_roller(state):
        owned = assets_of(seat, industry)
        bonus = industry_bonus(state, len(owned))
        owed = sum(asset["payout"] for asset in owned) + bonus
        if not owed:
            continue
        notes.append(_collect_for_assets(state, seat, industry, owned, owed))
        if is_over(state):
            break
    if not notes:
        notes.append(Note(f"Nobody collects for {INDUSTRY_NAMES[industry]}."))
    return notes


def _collect_for_assets(state: State, seat: dict, industry: str, owned: list[dict],
                        owed: int) -> Note:
    name = INDUSTRY_NAMES[industry]
    paid = collect(state, seat, owed, f"{name} Assets")
    assets = "assets" if len(owned) > 1 else "asset"
    payouts = " + ".join(str(asset["payout"]) for asset in owned)
    collected = collected_text(owed, paid)
    text = f"{{name:{seat['player']}}} collects {collected}: {name} {assets} {payouts}"
    bonus = industry_bonus(state, len(owned))
    if bonus:
        text += f", bonus {bonus}"
    stocks = [asset for asset in owned if asset["stock"]]
    if stocks:
        text += f"; {discard_all(state, seat, stocks)}"
    return Note(text + ".")


def collect_for_number_dice(state: State, dice: list[int]) -> Note:
    """Record the roll and what it earns; the roller collects it."""
    roller = roller_seat(state)
    category, payout = best_category(dice, state["rules"]["number_payouts"])
    state["dice"] = {
        "dice": list(dice),
        "category": category,
        "name": CATEGORY_NAMES.get(category),
        "payout": payout,
    }
    rolled = " ".join(str(die) for die in dice)
    said = f"{{name:{roller['player']}}} rolled {rolled}"
    if category is None:
        return Note(f"{said}: no payout.")
    name = CATEGORY_NAMES[category]
    if not payout:
        return Note(f"{said}: {name}, which pays nothing.")
    paid = collect(state, roller, payout, name)
    return Note(f"{said}: {name}, collects {collected_text(payout, paid)}.")
