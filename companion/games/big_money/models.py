"""The options (box data the host may edit) and the actions of Big Money.

Every default comes from box.json; every number and list is bounded.
"""
from __future__ import annotations

from typing import Annotated, Any, Final, Literal, Union

from pydantic import Field, field_validator, model_validator

from ..engine import PlayerId, StrictModel
from ..messages import Message, message
from .box import option_defaults
from .state import BonusTier, Category, Face, Industry, Who

BIZ_NEWS_FACE: Final = "biz-news"
MARKET_SLOTS = 4
BILLS = ("1", "5", "10")
BONUS_TIERS = ("2", "3", "4", "5+")  # "5+": five or more assets of the industry
MAX_DECK = 100

DEFAULTS = option_defaults()
# The names the board prints for the number-dice categories (box.json's, as messages: they
# are the game's words, not typed by anyone, so each screen reads them in its language).
CATEGORY_NAMES: dict[Category, Message] = {
    "pair": message("1 Pair"), "two_pair": message("2 Pairs"),
    "three_of_a_kind": message("3 of a Kind"), "little_straight": message("Little Straight"),
    "full_house": message("Full House"), "four_of_a_kind": message("4 of a Kind"),
    "big_straight": message("Big Straight"), "five_of_a_kind": message("5 of a Kind"),
}

Payout = Annotated[int, Field(ge=0, le=1000)]
BillCount = Annotated[int, Field(ge=0, le=500)]


# -- Biz News effects: the small vocabulary the app can apply ------------------------
class PayPerAsset(StrictModel):
    kind: Literal["pay_per_asset"]
    amount: Payout = Field(title="Per Asset", description="Money per Asset owned.")
    payer: Literal["player", "bank"] = Field(
        default="player", title="Who pays", description="player: each player pays the Bank; "
        "bank: the Bank pays each player (roller first, then clockwise).")
    who: Who = Field("everyone", title="Players", description="Every player, or the roller only.")


class PayPerIndustry(StrictModel):
    kind: Literal["pay_per_industry"]
    amount: Payout = Field(title="Per industry",
                           description="Money per industry the player owns an Asset of.")
    cap: Payout | None = Field(default=None, title="The most a player pays",
                               description="Empty: no limit.")
    who: Who = Field("everyone", title="Players", description="Every player, or the roller only.")


class FineLargestIndustry(StrictModel):
    kind: Literal["fine_largest_industry"]
    amount: Payout = Field(title="Fine per Asset",
                           description="Money per Asset of the player's largest industry; "
                           "on a tie the player chooses the industry.")
    who: Who = Field("everyone", title="Players", description="Every player, or the roller only.")


class RollThenPay(StrictModel):
    kind: Literal["roll_then_pay"]
    amount: Payout = Field(title="Per Asset",
                           description="The roller rolls the Industry die (Biz News: reroll); "
                           "players pay this much per Asset of that industry.")
    who: Who = Field("everyone", title="Players", description="Every player, or the roller only.")


class RollThenDiscard(StrictModel):
    kind: Literal["roll_then_discard"]
    who: Who = Field("everyone", title="Players",
                     description="The roller rolls the Industry die (Biz News: reroll); each "
                     "player discards their highest-priced Asset of that industry, choosing "
                     "on a tie.")


class Liquidation(StrictModel):
    kind: Literal["liquidation"]


class Manual(StrictModel):
    kind: Literal["manual"]


Effect = Annotated[Union[PayPerAsset, PayPerIndustry, FineLargestIndustry, RollThenPay,
                         RollThenDiscard, Liquidation, Manual], Field(discriminator="kind")]


class BizNewsCard(StrictModel):
    name: str = Field(min_length=1, max_length=40, title="Name")
    text: str = Field(default="", max_length=400, title="Text", description="What the card says.")
    count: int = Field(default=1, ge=0, le=20, title="Copies", description="Copies in the deck.")
    effect: Effect = Field(title="Effect", description="What the app does when it is drawn; "
                           "manual: the host applies it with a Bank adjustment.")


# -- options -------------------------------------------------------------------------
def _payout_field(key: Category, example: str) -> Any:
    return Field(default=DEFAULTS["number_payouts"][key], ge=0, le=1000,
                 title=CATEGORY_NAMES[key], description=f"e.g. {example}")


class NumberPayouts(StrictModel):
    pair: Payout = _payout_field("pair", "1 1 6 5 2")
    two_pair: Payout = _payout_field("two_pair", "3 3 5 5 1")
    three_of_a_kind: Payout = _payout_field("three_of_a_kind", "4 4 4 6 3")
    little_straight: Payout = _payout_field("little_straight", "2 3 4 5 4")
    full_house: Payout = _payout_field("full_house", "2 2 2 6 6")
    four_of_a_kind: Payout = _payout_field("four_of_a_kind", "3 3 3 3 1")
    big_straight: Payout = _payout_field("big_straight", "1 2 3 4 5")
    five_of_a_kind: Payout = _payout_field("five_of_a_kind", "5 5 5 5 5")


class Options(StrictModel):
    bills: dict[Literal["1", "5", "10"], BillCount] = Field(
        default_factory=lambda: dict(DEFAULTS["bills"]), title="Bills in the Bank",
        description="How many $1z, $5z and $10z bills; the Bank starts with their total.")
    number_payouts: NumberPayouts = Field(
        default_factory=NumberPayouts, title="Number dice payouts",
        description="The board's table; the roller collects the single highest that applies.")
    industry_bonus: dict[BonusTier, Payout] = Field(
        default_factory=lambda: dict(DEFAULTS["industry_bonus"]), title="Industry bonus",
        description="Paid on top when a player owns 2, 3, 4, or 5 or more Assets of the "
                    "rolled industry.")
    biz_news: list[BizNewsCard] = Field(
        default_factory=lambda: list(DEFAULTS["biz_news"]), validate_default=True,
        max_length=30, title="Biz News cards",
        # (A literal, so that the catalogs find it: MAX_DECK is 100.)
        description="The deck: each card's name, text, copies and effect (100 cards at "
                    "most).")
    startup_payout: Payout = Field(default=DEFAULTS["startup_payout"],
                                   title="Start-Up Asset payout",
                                   description="What every Start-Up Asset pays.")
    asset_cards: int = Field(default=DEFAULTS["asset_cards"], ge=MARKET_SLOTS, le=200,
                             title="Asset cards (gold backs)",
                             description="How many are in the box: the app counts them to "
                                         "know when the Asset deck is empty.")

    @field_validator("bills")
    @classmethod
    def _every_bill(cls, bills: dict[str, int]) -> dict[str, int]:
        if set(bills) != set(BILLS):
            raise ValueError("give the count of $1z, $5z and $10z bills")
        if not sum(int(bill) * count for bill, count in bills.items()):
            raise ValueError("the Bank needs at least one bill")
        return bills

    @field_validator("industry_bonus")
    @classmethod
    def _every_tier(cls, bonus: dict[str, int]) -> dict[str, int]:
        if set(bonus) != set(BONUS_TIERS):
            raise ValueError("give the bonus for 2, 3, 4 and 5+ Assets")
        return bonus

    @model_validator(mode="after")
    def _deck_size(self) -> "Options":
        if sum(card.count for card in self.biz_news) > MAX_DECK:
            raise ValueError(f"the Biz News deck holds at most {MAX_DECK} cards")
        return self

    @property
    def bank_total(self) -> int:
        return sum(int(bill) * count for bill, count in self.bills.items())


# -- actions ---------------------------------------------------------------------------
Slot = Annotated[int, Field(ge=0, le=MARKET_SLOTS - 1)]
Die = Annotated[int, Field(ge=1, le=6)]


class Startup(StrictModel):
    type: Literal["startup"]
    industry: Industry


class AssetCard(StrictModel):
    industry: Industry = Field(json_schema_extra={"asks": "Tap the industry of the card."})
    price: int = Field(ge=1, le=500, json_schema_extra={
        "asks": "Type the price printed on the card, from 1 to 500."})
    payout: Payout | None = Field(default=None,
                                  description="Empty: the price, doubled for a stock.")
    stock: bool = False
    name: str = Field(default="", max_length=40)


class Reveal(StrictModel):
    """A card revealed into an empty market slot: entered, or picked by id from the
    reshuffled discard pile (cards the app already knows)."""
    type: Literal["reveal"]
    slot: Slot
    asset: AssetCard | None = None
    asset_id: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _one_card(self) -> "Reveal":
        if (self.asset is None) == (self.asset_id is None):
            raise ValueError("give either the asset or the asset_id of a known card")
        return self


class RollIndustry(StrictModel):
    type: Literal["industry"]
    face: Face


class NumberDice(StrictModel):
    type: Literal["number_dice"]
    dice: list[Die] = Field(min_length=5, max_length=5, json_schema_extra={
        "asks": "Tap one face on each of the five dice, then send them."})


class Buy(StrictModel):
    type: Literal["buy"]
    slot: Slot


class EndTurn(StrictModel):
    type: Literal["end_turn"]


class Choose(StrictModel):
    """The answer to a Biz News prompt: one of the choices it offers."""
    type: Literal["choose"]
    choice: str = Field(min_length=1, max_length=40)


class Adjust(StrictModel):
    """Host only: the Bank pays the player `amount` (negative: the player pays the Bank),
    optionally discarding one of their assets."""
    type: Literal["adjust"]
    player: PlayerId
    amount: int = Field(default=0, ge=-100_000, le=100_000, json_schema_extra={
        "asks": "Type the amount as a whole number (negative: the player pays the Bank)."})
    note: str = Field(min_length=1, max_length=200, json_schema_extra={
        "asks": "Say why in the note (at most 200 characters)."})
    discard_asset: int | None = None

