"""Assets: the cards players own, the market, the Asset deck and its discard pile.

The physical cards stay on the table; the app knows a card once a player has entered it.
The Asset deck is tracked as a count of cards never seen (from the box data) plus, once
that runs out, the reshuffled discard pile: cards the app knows, in an order it does not.
"""
from __future__ import annotations

from ..engine import Note, State
from .box import proposed_payout
from .models import AssetCard

INDUSTRY_NAMES = {"sports": "Sports", "food": "Food", "travel": "Travel",
                  "entertainment": "Entertainment", "technology": "Technology"}


def new_asset(state: State, industry: str, price: int, payout: int, stock: bool,
              name: str, startup: bool = False) -> dict:
    asset = {"id": state["next_asset_id"], "industry": industry, "price": price,
             "payout": payout, "stock": stock, "name": name or _default_name(industry, stock,
                                                                              startup),
             "startup": startup}
    state["next_asset_id"] += 1
    return asset


def new_startup(state: State, industry: str, payout: int) -> dict:
    """A Start-Up Asset: free, never a stock, named after its industry."""
    return new_asset(state, industry, 0, payout, False, "", startup=True)


def _default_name(industry: str, stock: bool, startup: bool) -> str:
    kind = "Start-Up" if startup else "Stock" if stock else "Asset"
    return f"{INDUSTRY_NAMES[industry]} {kind}"


def asset_from_card(state: State, card: AssetCard) -> dict:
    payout = card.payout if card.payout is not None else proposed_payout(card.price, card.stock)
    return new_asset(state, card.industry, card.price, payout, card.stock, card.name)


def label(asset: dict) -> str:
    """"Book Publisher Stock": a stock's name always says it is one."""
    name = asset["name"]
    if asset["stock"] and not name.lower().endswith("stock"):
        return f"{name} Stock"
    return name


def describe(asset: dict) -> str:
    return (f"the {label(asset)} ({INDUSTRY_NAMES[asset['industry']]}, price "
            f"{asset['price']}, pays {asset['payout']})")


def public_asset(asset: dict | None) -> dict | None:
    return None if asset is None else dict(asset)


def assets_of(seat: dict, industry: str, discardable_only: bool = False) -> list[dict]:
    """A seat's assets of one industry; `discardable_only` leaves out the Start-Up, which
    is not an Asset card and never goes to the discard pile."""
    return [asset for asset in seat["assets"] if asset["industry"] == industry
            and not (discardable_only and asset["startup"])]


def industries_owned(seat: dict) -> list[str]:
    return [industry for industry in INDUSTRY_NAMES if assets_of(seat, industry)]


def find_owned(seat: dict, asset_id: int) -> dict | None:
    return next((asset for asset in seat["assets"] if asset["id"] == asset_id), None)


def startup_of(seat: dict) -> dict | None:
    return next((asset for asset in seat["assets"] if asset["startup"]), None)


# -- the market, the deck and the discard pile -----------------------------------------
def deck_is_empty(state: State) -> bool:
    deck = state["asset_deck"]
    return not deck["unseen"] and not deck["reshuffled"]


def empty_slots(state: State) -> list[int]:
    return [slot for slot, asset in enumerate(state["market"]) if asset is None]


def _slot_waiting_for_a_discard(state: State) -> int | None:
    """The first market space the rulebook says the next discarded Asset fills: one left
    empty because the deck and the discard pile were both empty."""
    if state["step"] == "setup" or not deck_is_empty(state) or state["asset_discard"]:
        return None
    return next((slot for slot in empty_slots(state) if slot != state["refill_slot"]), None)


def discard(state: State, seat: dict, asset: dict) -> str:
    """Take the asset from its owner; return what happened to it, as words."""
    seat["assets"].remove(asset)
    if asset["startup"]:
        return "is returned to the box"
    slot = _slot_waiting_for_a_discard(state)
    if slot is not None:
        state["market"][slot] = asset
        return f"is discarded into the empty Market space {slot + 1}"
    state["asset_discard"].append(asset)
    return "is discarded"


def discard_all(state: State, seat: dict, assets: list[dict]) -> str:
    """Discard several assets: "the A Stock is discarded; the B Stock is discarded"."""
    return "; ".join(f"the {label(asset)} {discard(state, seat, asset)}" for asset in assets)


def prepare_refill(state: State, slot: int) -> tuple[bool, Note]:
    """After a purchase: (a card must be revealed into `slot`, what the players do).
    An empty deck is replaced by the shuffled discard pile; with no discard pile either,
    the space stays empty until the next discard."""
    space = f"Market space {slot + 1}"
    if not deck_is_empty(state):
        return True, Note(f"Reveal the next Asset into {space}.")
    if state["asset_discard"]:
        count = len(state["asset_discard"])
        state["asset_deck"]["reshuffled"] = state["asset_discard"]
        state["asset_discard"] = []
        return True, Note(f"The Asset deck is empty: shuffle the discard pile ({count} "
                          f"Asset{'s' if count != 1 else ''}) into a new deck and reveal the "
                          f"top card into {space}.")
    return False, Note(f"The Asset deck and the discard pile are empty: {space} stays empty "
                       "until the next Asset is discarded.")


def place_new_card(state: State, slot: int, card: AssetCard) -> dict:
    asset = asset_from_card(state, card)
    state["asset_deck"]["unseen"] = max(0, state["asset_deck"]["unseen"] - 1)
    state["market"][slot] = asset
    return asset


def place_known_card(state: State, slot: int, asset_id: int) -> dict:
    reshuffled = state["asset_deck"]["reshuffled"]
    asset = next(asset for asset in reshuffled if asset["id"] == asset_id)
    reshuffled.remove(asset)
    state["market"][slot] = asset
    return asset
