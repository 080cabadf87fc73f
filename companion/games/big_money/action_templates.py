"""The action templates of Big Money: what a player, or the host, may post now and the
fields or choices each action takes."""
from __future__ import annotations

from typing import Any

from ..messages import text_from_json
from . import biz_news
from .assets import empty_slots, label, public_asset, startup_of
from .bank import roller_seat
from .box import proposed_payout
from .models import BIZ_NEWS_FACE
from .state import INDUSTRIES, BigMoneyState, Seat


def step_templates(state: BigMoneyState, seat: Seat) -> list[dict[str, Any]]:
    """What the seat's player may do at this step of the turn."""
    step = state["step"]
    if step == "setup":
        startup = startup_of(seat)
        current = startup["industry"] if startup else None
        return [{"type": "startup", "industry": list(INDUSTRIES), "current": current}]
    if step == "biz_news":
        return _choose_templates(state, seat["player"])
    if seat is not roller_seat(state):
        return []
    if step == "industry":
        return [{"type": "industry", "face": [*INDUSTRIES, BIZ_NEWS_FACE]}]
    if step == "number_dice":
        return [{"type": "number_dice", "dice": {"count": 5, "min": 1, "max": 6}}]
    if step == "buy":
        return _buy_templates(state, seat)
    return [{"type": "end_turn", "leaves_empty": state["refill_slot"]}]  # refill


def _choose_templates(state: BigMoneyState, player: int) -> list[dict[str, Any]]:
    prompt = biz_news.prompt_for(state, player)
    if prompt is None:
        return []
    choose = {
        "type": "choose",
        "prompt": text_from_json(prompt["prompt"]),
        "choice": list(prompt["choices"]),
        "labels": {choice: text_from_json(label) for choice, label in prompt["labels"].items()},
    }
    return [choose]


def _buy_templates(state: BigMoneyState, seat: Seat) -> list[dict[str, Any]]:
    affordable = [
        slot
        for slot, asset in enumerate(state["market"])
        if asset is not None and asset["price"] <= seat["money"]
    ]
    buy = [{"type": "buy", "slot": affordable}] if affordable else []
    return [*buy, {"type": "end_turn"}]


def reveal_template(state: BigMoneyState) -> dict[str, Any]:
    """A card turned over into an empty market space: typed in while the box's unseen
    cards last, then picked from the reshuffled discard pile. `awaited` says whether
    the game waits for it (in setup and after a purchase) or it may come any time."""
    awaited = state["step"] in ("setup", "refill")
    template: dict[str, Any] = {"type": "reveal", "slot": empty_slots(state), "awaited": awaited}
    reshuffled = state["asset_deck"]["reshuffled"]
    if reshuffled:
        template["asset_id"] = [asset["id"] for asset in reshuffled]
        template["known"] = [public_asset(asset) for asset in reshuffled]
        return template
    proposed = {"regular": proposed_payout(1, False), "stock": proposed_payout(1, True)}
    payout = {"min": 0, "max": 1000, "optional": True, "proposed_per_price": proposed}
    template["asset"] = {
        "industry": list(INDUSTRIES),
        "price": {"min": 1, "max": 500},
        "payout": payout,
        "stock": [False, True],
        "name": {"max_length": 40},
    }
    return template


def adjust_template(state: BigMoneyState) -> dict[str, Any]:
    """The host's Bank adjustment: pay or charge any player, or discard an Asset that
    no Biz News prompt is waiting on."""
    locked = biz_news.asset_ids_in_prompts(state)
    discardable = [
        {"player": seat["player"], "asset": asset["id"], "label": label(asset)}
        for seat in state["seats"]
        for asset in seat["assets"]
        if asset["id"] not in locked
    ]
    return {
        "type": "adjust",
        "player": [seat["player"] for seat in state["seats"]],
        "amount": {"min": -100_000, "max": state["bank"]},
        "note": {"max_length": 200},
        "discard_asset": discardable,
    }
