"""Assets: the cards players own, the market, the Asset deck and its discard pile.

The physical cards stay on the table; the app knows a card once a player has entered it.
The Asset deck is tracked as a count of cards never seen (from the box data) plus, once
that runs out, the reshuffled discard pile: cards the app knows, in an order it does not.
"""
from __future__ import annotations

from typing import Any

from ..engine import Note
from ..messages import Message, Player, message, plural, semicolons
from .box import proposed_payout
from .models import AssetCard
from .state import Asset, BigMoneyState, Industry, Seat

INDUSTRY_NAMES: dict[Industry, Message] = {"sports": message("Sports"), "food": message("Food"),
                  "travel": message("Travel"), "entertainment": message("Entertainment"),
                  "technology": message("Technology")}


def new_asset(state: BigMoneyState, industry: Industry, price: int, payout: int, stock: bool,
              name: str, startup: bool = False) -> Asset:
    asset: Asset = {"id": state["next_asset_id"], "industry": industry, "price": price,
             "payout": payout, "stock": stock, "name": name or _default_name(industry, stock,
                                                                              startup),
             "startup": startup}
    state["next_asset_id"] += 1
    return asset


def new_startup(state: BigMoneyState, industry: Industry, payout: int) -> Asset:
    """A Start-Up Asset: free, never a stock, named after its industry."""
    return new_asset(state, industry, 0, payout, False, "", startup=True)


def _default_name(industry: Industry, stock: bool, startup: bool) -> Message:
    """An unnamed card is called after its industry, in our words (a typed name is the
    players' words and stays as typed)."""
    if startup:
        return startup_name(industry)
    if stock:
        return message("%(industry)s Stock", industry=INDUSTRY_NAMES[industry])
    return message("%(industry)s Asset", industry=INDUSTRY_NAMES[industry])


def startup_name(industry: Industry) -> Message:
    return message("%(industry)s Start-Up", industry=INDUSTRY_NAMES[industry])


def asset_from_card(state: BigMoneyState, card: AssetCard) -> Asset:
    payout = card.payout if card.payout is not None else proposed_payout(card.price, card.stock)
    return new_asset(state, card.industry, card.price, payout, card.stock, card.name)


def display_name(asset: Asset) -> str:
    """The asset's name: its default name as a message (the state, once stored, holds
    it as English text), a typed name as typed."""
    default = _default_name(asset["industry"], asset["stock"], asset["startup"])
    return default if asset["name"] == default else asset["name"]


def label(asset: Asset) -> str:
    """"Book Publisher Stock": a stock's name always says it is one."""
    name = display_name(asset)
    if asset["stock"] and not name.lower().endswith("stock"):
        return message("%(asset)s Stock", asset=name)
    return name


def describe(asset: Asset) -> Message:
    return message("the %(asset)s (%(industry)s, price %(price)s, pays %(payout)s)",
                   asset=label(asset), industry=INDUSTRY_NAMES[asset["industry"]],
                   price=asset["price"], payout=asset["payout"])


def public_asset(asset: Asset | None) -> dict[str, Any] | None:
    """The asset as a view shows it: its name, and its label (a stock's name saying it is
    one, decided here on the message, never again on a name already translated)."""
    return None if asset is None else {**asset, "name": display_name(asset), "label": label(asset)}


def assets_of(seat: Seat, industry: Industry, discardable_only: bool = False) -> list[Asset]:
    """A seat's assets of one industry; `discardable_only` leaves out the Start-Up, which
    is not an Asset card and never goes to the discard pile."""
    return [asset for asset in seat["assets"] if asset["industry"] == industry
            and not (discardable_only and asset["startup"])]


def industries_owned(seat: Seat) -> list[Industry]:
    return [industry for industry in INDUSTRY_NAMES if assets_of(seat, industry)]


def find_owned(seat: Seat, asset_id: int) -> Asset | None:
    return next((asset for asset in seat["assets"] if asset["id"] == asset_id), None)


def startup_of(seat: Seat) -> Asset | None:
    return next((asset for asset in seat["assets"] if asset["startup"]), None)


# -- the market, the deck and the discard pile -----------------------------------------
def deck_is_empty(state: BigMoneyState) -> bool:
    deck = state["asset_deck"]
    return not deck["unseen"] and not deck["reshuffled"]


def empty_slots(state: BigMoneyState) -> list[int]:
    return [slot for slot, asset in enumerate(state["market"]) if asset is None]


def _slot_waiting_for_a_discard(state: BigMoneyState) -> int | None:
    """The first market space the rulebook says the next discarded Asset fills: one left
    empty because the deck and the discard pile were both empty."""
    if state["step"] == "setup" or not deck_is_empty(state) or state["asset_discard"]:
        return None
    return next((slot for slot in empty_slots(state) if slot != state["refill_slot"]), None)


def discard(state: BigMoneyState, seat: Seat, asset: Asset,
            named: Message | None = None) -> Message:
    """Take the asset from its owner; return what happened to it: "`named` is discarded"
    (`named` is "the <label>" unless given)."""
    seat["assets"].remove(asset)
    named = named or message("the %(asset)s", asset=label(asset))
    if asset["startup"]:
        return message("%(asset)s is returned to the box", asset=named)
    slot = _slot_waiting_for_a_discard(state)
    if slot is not None:
        state["market"][slot] = asset
        return message("%(asset)s is discarded into the empty Market space %(space)s",
                       asset=named, space=slot + 1)
    state["asset_discard"].append(asset)
    return message("%(asset)s is discarded", asset=named)


def discard_all(state: BigMoneyState, seat: Seat, assets: list[Asset]) -> Message:
    """Discard several assets: "the A Stock is discarded; the B Stock is discarded"."""
    return semicolons([discard(state, seat, asset) for asset in assets])


def owned_by(asset: Asset, player: int) -> Message:
    """"Ann's Pizza Stand"."""
    return message("%(player)s's %(asset)s", player=Player(player), asset=label(asset))


def prepare_refill(state: BigMoneyState, slot: int) -> tuple[bool, Note]:
    """After a purchase: (a card must be revealed into `slot`, what the players do).
    An empty deck is replaced by the shuffled discard pile; with no discard pile either,
    the space stays empty until the next discard."""
    space = slot + 1
    if not deck_is_empty(state):
        return True, Note(message("Reveal the next Asset into Market space %(space)s.",
                                  space=space))
    if state["asset_discard"]:
        count = len(state["asset_discard"])
        state["asset_deck"]["reshuffled"] = state["asset_discard"]
        state["asset_discard"] = []
        return True, Note(plural(
            "The Asset deck is empty: shuffle the discard pile (%(count)s Asset) into a new "
            "deck and reveal the top card into Market space %(space)s.",
            "The Asset deck is empty: shuffle the discard pile (%(count)s Assets) into a new "
            "deck and reveal the top card into Market space %(space)s.", "count",
            count=count, space=space))
    return False, Note(message("The Asset deck and the discard pile are empty: Market space "
                               "%(space)s stays empty until the next Asset is discarded.",
                               space=space))


def place_new_card(state: BigMoneyState, slot: int, card: AssetCard) -> Asset:
    asset = asset_from_card(state, card)
    state["asset_deck"]["unseen"] = max(0, state["asset_deck"]["unseen"] - 1)
    state["market"][slot] = asset
    return asset


def place_known_card(state: BigMoneyState, slot: int, asset_id: int) -> Asset:
    reshuffled = state["asset_deck"]["reshuffled"]
    asset = next(asset for asset in reshuffled if asset["id"] == asset_id)
    reshuffled.remove(asset)
    state["market"][slot] = asset
    return asset
