"""What a viewer of a Big Top (or Fan Tan) table sees: everything but the hands and the
gate receipts, which only their own player sees until the deal's end reveals them."""
from __future__ import annotations

from typing import Any

from .cards import EARNINGS_SHOWN, token_position
from .hands import doubled_in, public_check
from .state import BigTopState, Seat


def seat_of(state: BigTopState, player: int | None) -> Seat | None:
    return next((s for s in state["seats"] if s["player"] == player), None)


def public_view(state: BigTopState) -> dict[str, Any]:
    fan_tan = state["variant"] == "fan-tan"
    seats = []
    for seat in state["seats"]:
        public: dict[str, Any] = {
            "player": seat["player"], "hand": len(seat["hand"] or []),
            "chart": dict(seat["chart"]), "track": seat["track"],
            "total": seat["total"], "entered": seat["hand"] is not None,
            "receipts_placed": seat["receipts"] is not None,
            "token": token_position(seat["track"])}
        if fan_tan:
            public["peanuts"] = seat["total"]
        seats.append(public)
    public_state: dict[str, Any] = {
        "variant": state["variant"], "deal": state["deal"], "deals": state["deals"],
        "dealer": state["seats"][state["dealer_seat"]]["player"],
        "step": state["step"],
        "piles": {suit: dict(pile) for suit, pile in state["piles"].items()},
        "check": public_check(state), "seats": seats,
        "earnings": state["earnings"][-EARNINGS_SHOWN:],
        "deal_results": state["deal_results"],
    }
    if fan_tan:
        public_state.update(pot=state["pot"], broke=state["broke"])
    return public_state


def private_view(state: BigTopState, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's own hand and receipts (None for anyone not playing)."""
    own = seat_of(state, viewer)
    if own is None:
        return None
    return {"hand": list(own["hand"] or []), "receipts": own["receipts"],
            "doubled": doubled_in(state, own)}
