"""Big Money's state as the platform keeps it: plain JSON data, typed.

JSON turns every key into a string: the industry bonus's tiers are counts of Assets ("2",
"3", "4", and "5+" for five or more).
"""
from __future__ import annotations

from typing import Literal, TypedDict, Union

from typing_extensions import TypeIs

from ..messages import TextJSON

Industry = Literal["sports", "food", "travel", "entertainment", "technology"]
INDUSTRIES: tuple[Industry, ...] = ("sports", "food", "travel", "entertainment", "technology")
Face = Literal[Industry, "biz-news"]
"""A face of the Industry die."""
Category = Literal["pair", "two_pair", "three_of_a_kind", "little_straight", "full_house",
                   "four_of_a_kind", "big_straight", "five_of_a_kind"]
"""A category of the number dice, as the board lists them."""
BonusTier = Literal["2", "3", "4", "5+"]
Who = Literal["everyone", "roller"]
Step = Literal["setup", "industry", "biz_news", "number_dice", "buy", "refill", "over"]


def is_industry(word: str) -> TypeIs[Industry]:
    return word in INDUSTRIES


class Asset(TypedDict):
    id: int
    industry: Industry
    price: int
    payout: int
    stock: bool
    name: str  # typed by a player, or our default name (a message until stored)
    startup: bool  # a Start-Up: not an Asset card, it never goes to the discard pile


class Seat(TypedDict):
    player: int
    money: int
    assets: list[Asset]


class Rules(TypedDict):
    """The options the game plays by, kept from the table's options."""

    number_payouts: dict[Category, int]
    industry_bonus: dict[BonusTier, int]
    startup_payout: int


# -- Biz News: the effects, as the options' models dump them --------------------------
class PayPerAssetEffect(TypedDict):
    kind: Literal["pay_per_asset"]
    amount: int
    payer: Literal["player", "bank"]
    who: Who


class PayPerIndustryEffect(TypedDict):
    kind: Literal["pay_per_industry"]
    amount: int
    cap: int | None
    who: Who


class FineLargestIndustryEffect(TypedDict):
    kind: Literal["fine_largest_industry"]
    amount: int
    who: Who


class ManualEffect(TypedDict):
    kind: Literal["manual"]


class RollThenPayEffect(TypedDict):
    kind: Literal["roll_then_pay"]
    amount: int
    who: Who


class RollThenDiscardEffect(TypedDict):
    kind: Literal["roll_then_discard"]
    who: Who


class LiquidationEffect(TypedDict):
    kind: Literal["liquidation"]


DrawnEffect = Union[PayPerAssetEffect, PayPerIndustryEffect, FineLargestIndustryEffect,
                    ManualEffect]
"""An effect applied as its card is drawn."""
RolledEffect = Union[RollThenPayEffect, RollThenDiscardEffect, LiquidationEffect]
"""An effect applied once the roller has rolled the Industry die for it."""
Effect = Union[DrawnEffect, RolledEffect]


ROLLED_EFFECTS = frozenset({"roll_then_pay", "roll_then_discard", "liquidation"})


def is_rolled(effect: Effect) -> TypeIs[RolledEffect]:
    return effect["kind"] in ROLLED_EFFECTS


class NewsCard(TypedDict):
    name: str
    text: str
    effect: Effect


class BizNews(TypedDict):
    """The Biz News deck: its cards, and the deck and the discard pile as indexes into
    them (the deck in its shuffled order, which nobody sees)."""

    cards: list[NewsCard]
    deck: list[int]
    discard: list[int]
    last: int | None  # the card drawn last


AskedFor = Literal["roll", "fine_industry", "discard_asset"]
"""What a prompt asks: the face the roller rolled, the industry to be fined for, the Asset to
discard."""


class Prompt(TypedDict):
    """A question of the Biz News card to one player, on their phone."""

    player: int
    kind: AskedFor
    prompt: TextJSON
    choices: list[str]  # faces, industries, or Asset ids as strings
    labels: dict[str, TextJSON]  # per choice


class Pending(TypedDict):
    """The Biz News card being resolved."""

    card: int
    industry: Industry | None  # the industry the roller rolled for it
    prompts: list[Prompt]


class AssetDeck(TypedDict):
    unseen: int  # cards of the box never entered
    reshuffled: list[Asset]  # once those ran out: the discard pile, shuffled


class DiceRoll(TypedDict):
    dice: list[int]
    category: Category | None  # the best category the roll fits
    name: str | None  # the category's name (a message until stored)
    payout: int


class LedgerEntry(TypedDict):
    player: int
    amount: int  # paid by the Bank to the player (negative: by the player to the Bank)
    reason: TextJSON


class BigMoneyState(TypedDict):
    rules: Rules
    start_total: int
    bank: int
    step: Step
    roller: int  # seat index
    seats: list[Seat]
    market: list[Asset | None]
    refill_slot: int | None  # the market space a bought card left, waiting for the next
    asset_deck: AssetDeck
    asset_discard: list[Asset]
    next_asset_id: int
    biz_news: BizNews
    pending: Pending | None
    industry: Face | None  # the Industry die this turn
    dice: DiceRoll | None  # the number dice this turn and what they earned
    ledger: list[LedgerEntry]  # the money moved since this turn's Industry die
    last_bill: int | None  # the player who took the Bank's last bill
