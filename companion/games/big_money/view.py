"""What a viewer of a Big Money table sees: everything but the order of the Biz News deck
(money and Assets are public)."""
from __future__ import annotations

from typing import Any

from .assets import public_asset
from .bank import roller_seat
from .state import BigMoneyState, Seat


def public_view(state: BigMoneyState) -> dict[str, Any]:
    deck = state["asset_deck"]
    roller = None if state["step"] == "setup" else roller_seat(state)["player"]
    return {
        "bank": state["bank"],
        "step": state["step"],
        "roller": roller,
        "market": [public_asset(asset) for asset in state["market"]],
        "refill_slot": state["refill_slot"],
        "asset_deck": {
            "unseen": deck["unseen"],
            "reshuffled": [public_asset(asset) for asset in deck["reshuffled"]],
        },
        "asset_discard": [public_asset(asset) for asset in state["asset_discard"]],
        "biz_news": _public_biz_news(state),
        "prompts": _public_prompts(state),
        "industry": state["industry"],
        "dice": dict(state["dice"]) if state["dice"] else None,
        "ledger": [dict(entry) for entry in state["ledger"]],
        "seats": [_public_seat(seat) for seat in state["seats"]],
        "start_total": state["start_total"],
        "last_bill": state["last_bill"],
    }


def _public_biz_news(state: BigMoneyState) -> dict[str, Any]:
    """The deck and discard pile as counts, the card last drawn and whether it is still
    being resolved."""
    news = state["biz_news"]
    pending = state["pending"]
    last = None
    if news["last"] is not None:
        card = news["cards"][news["last"]]
        last = {"name": card["name"], "text": card["text"]}
    return {
        "deck": len(news["deck"]),
        "discard": len(news["discard"]),
        "last": last,
        "resolving": pending is not None,
        "industry": pending["industry"] if pending else None,
    }


def _public_prompts(state: BigMoneyState) -> list[dict[str, Any]]:
    """Who is asked what (a prompt's kind is the engine's own)."""
    pending = state["pending"]
    return [{"player": prompt["player"], "prompt": prompt["prompt"],
             "choices": prompt["choices"], "labels": prompt["labels"]}
            for prompt in (pending["prompts"] if pending else [])]


def _public_seat(seat: Seat) -> dict[str, Any]:
    assets = [public_asset(asset) for asset in seat["assets"]]
    return {"player": seat["player"], "money": seat["money"], "assets": assets}
