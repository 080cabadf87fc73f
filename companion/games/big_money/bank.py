"""Money between the Bank and the players. The money is conserved: what leaves the Bank
goes to a player and back. The Bank paying its last bill ends the game at once."""
from __future__ import annotations

from ..messages import Message, message, text_json
from .state import BigMoneyState, Seat


def is_over(state: BigMoneyState) -> bool:
    return state["step"] == "over"


def seat_of(state: BigMoneyState, player: int | None) -> Seat | None:
    return next((seat for seat in state["seats"] if seat["player"] == player), None)


def seats_from_roller(state: BigMoneyState) -> list[Seat]:
    """The seats in collection order: the roller first, then clockwise."""
    seats = state["seats"]
    return [seats[(state["roller"] + step) % len(seats)] for step in range(len(seats))]


def roller_seat(state: BigMoneyState) -> Seat:
    return state["seats"][state["roller"]]


def collect(state: BigMoneyState, seat: Seat, amount: int, reason: str) -> int:
    """The Bank pays `amount`, or what it has left; returns what was paid. `reason` (a
    message, kept in the ledger in its JSON form) says what for. Emptying the
    Bank ends the game with this player holding the last bill."""
    paid = min(amount, state["bank"])
    state["bank"] -= paid
    seat["money"] += paid
    state["ledger"].append({"player": seat["player"], "amount": paid,
                            "reason": text_json(reason)})
    if paid and state["bank"] == 0:
        end_game(state, seat["player"])
    return paid


def pay(state: BigMoneyState, seat: Seat, amount: int, reason: str) -> int:
    """The player pays the Bank `amount`; one who owes more than they have pays all they
    have and the rest is ignored. Returns what was paid."""
    paid = min(amount, seat["money"])
    seat["money"] -= paid
    state["bank"] += paid
    state["ledger"].append({"player": seat["player"], "amount": -paid,
                            "reason": text_json(reason)})
    return paid


def end_game(state: BigMoneyState, last_bill: int) -> None:
    state["step"] = "over"
    state["last_bill"] = last_bill
    state["refill_slot"] = None
    pending = state["pending"]
    if pending is not None:
        state["biz_news"]["discard"].append(pending["card"])
        state["pending"] = None


def collected_text(owed: int, paid: int) -> int | Message:
    """85, or "40 of 85 (all the Bank had left)"."""
    if paid == owed:
        return owed
    return message("%(paid)s of %(owed)s (all the Bank had left)", paid=paid, owed=owed)


def paid_text(owed: int, paid: int) -> int | Message:
    """15, or "7, all they have (15 owed)"."""
    if paid == owed:
        return owed
    if paid == 0:
        return message("nothing: they have no money (%(owed)s owed)", owed=owed)
    return message("%(paid)s, all they have (%(owed)s owed)", paid=paid, owed=owed)
