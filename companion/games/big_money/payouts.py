"""What the dice earn: the Industry die pays every owner of the rolled industry, the
number dice pay the roller the single best category their roll fits."""
from __future__ import annotations

from ..engine import Note
from ..messages import Message, Player, message, plural
from .assets import INDUSTRY_NAMES, assets_of, discard_all
from .bank import collect, collected_text, is_over, roller_seat, seats_from_roller
from .dice import best_category
from .models import CATEGORY_NAMES
from .state import Asset, BigMoneyState, BonusTier, Industry, Seat

TIERS: dict[int, BonusTier] = {2: "2", 3: "3", 4: "4"}


def industry_bonus(state: BigMoneyState, count: int) -> int:
    """What owning `count` Assets of the rolled industry adds (nothing below two)."""
    if count < 2:
        return 0
    tier: BonusTier = "5+" if count >= 5 else TIERS[count]
    return state["rules"]["industry_bonus"][tier]


def collect_for_industry(state: BigMoneyState, industry: Industry) -> list[Note]:
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
        notes.append(Note(message("Nobody collects for %(industry)s.",
                                  industry=INDUSTRY_NAMES[industry])))
    return notes


def _collect_for_assets(state: BigMoneyState, seat: Seat, industry: Industry, owned: list[Asset],
                        owed: int) -> Note:
    name = INDUSTRY_NAMES[industry]
    paid = collect(state, seat, owed, message("%(industry)s Assets", industry=name))
    payouts = plus([asset["payout"] for asset in owned])
    why = plural("%(industry)s asset %(payouts)s", "%(industry)s assets %(payouts)s", "count",
                 industry=name, payouts=payouts, count=len(owned))
    bonus = industry_bonus(state, len(owned))
    if bonus:
        why = message("%(why)s, bonus %(bonus)s", why=why, bonus=bonus)
    stocks = [asset for asset in owned if asset["stock"]]
    if stocks:
        why = message("%(why)s; %(discarded)s", why=why,
                      discarded=discard_all(state, seat, stocks))
    return Note(message("%(player)s collects %(paid)s: %(why)s.", player=Player(seat["player"]),
                        paid=collected_text(owed, paid), why=why))


def plus(amounts: list[int]) -> int | Message:
    """10, or "10 + 5 + 5": the payouts that add up to a collection."""
    if len(amounts) == 1:
        return amounts[0]
    return message("%(amount)s + %(more)s", amount=amounts[0], more=plus(amounts[1:]))


def collect_for_number_dice(state: BigMoneyState, dice: list[int]) -> Note:
    """Record the roll and what it earns; the roller collects it."""
    roller = roller_seat(state)
    category, payout = best_category(dice, state["rules"]["number_payouts"])
    state["dice"] = {
        "dice": list(dice),
        "category": category,
        "name": None if category is None else CATEGORY_NAMES[category],
        "payout": payout,
    }
    # The dice as rolled ("3 3 5 6 1"): digits that read the same in every language.
    rolled = " ".join(str(die) for die in dice)
    player = Player(roller["player"])
    if category is None:
        return Note(message("%(player)s rolled %(dice)s: no payout.", player=player, dice=rolled))
    name = CATEGORY_NAMES[category]
    if not payout:
        return Note(message("%(player)s rolled %(dice)s: %(category)s, which pays nothing.",
                            player=player, dice=rolled, category=name))
    paid = collect(state, roller, payout, name)
    return Note(message("%(player)s rolled %(dice)s: %(category)s, collects %(paid)s.",
                        player=player, dice=rolled, category=name,
                        paid=collected_text(payout, paid)))
