"""The start and the end of a deal: fresh piles and charts; then the pot (Fan Tan) or the
gate receipts and the tracks (Big Top) paid out."""
from __future__ import annotations

from ..engine import Note
from ..messages import Player, message, plural, semicolons
from .cards import card_parts, chart_cards, empty_chart, new_piles
from .state import BigTopState, DealResult, DealScore, Seat


def start_deal(state: BigTopState) -> None:
    state["deal"] += 1
    state["dealer_seat"] = (state["dealer_seat"] + 1) % len(state["seats"])
    state["step"] = "hands"
    state["current"] = None
    state["piles"] = new_piles()
    state["check"] = None
    state["earnings"] = []
    for seat in state["seats"]:
        seat.update({"hand": None, "chart": empty_chart(), "receipts": None, "track": 0})


def take_pot(state: BigTopState, winner: Seat) -> tuple[Note, DealResult]:
    """The player who went out takes the pot (Fan Tan)."""
    pot = state["pot"]
    winner["total"] += pot
    state["pot"] = 0
    return (Note(plural("%(player)s played their last card and takes the pot: %(count)s peanut.",
                        "%(player)s played their last card and takes the pot: %(count)s "
                        "peanuts.", "count", player=Player(winner["player"]), count=pot)),
            _deal_result(state, winner, pot=pot))


def _deal_result(state: BigTopState, winner: Seat, *, pot: int | None = None,
                 scores: list[DealScore] | None = None) -> DealResult:
    result: DealResult = {"deal": state["deal"],
                          "dealer": state["seats"][state["dealer_seat"]]["player"],
                          "out": winner["player"]}
    if scores is not None:
        result["seats"] = scores
    if pot is not None:
        result["pot"] = pot
    return result


def pay_receipts(state: BigTopState, winner: Seat) -> tuple[Note, DealResult]:
    """Everyone earns the receipts of the suits they hold no card of (all $25 for
    the player who went out) plus their track. This reveals those receipts."""
    lines = []
    scores: list[DealScore] = []
    for seat in state["seats"]:
        held = {card_parts(c)[0] for c in (seat["hand"] or []) + chart_cards(seat["chart"])}
        completed = {suit: value for suit, value in (seat["receipts"] or {}).items()
                     if suit not in held}
        receipts = sum(completed.values())
        score = receipts + seat["track"]
        seat["total"] += score
        scores.append({"player": seat["player"], "went_out": seat is winner,
                       "completed": completed, "receipts": receipts,
                       "track": seat["track"], "score": score})
        lines.append(message("%(player)s $%(score)s ($%(receipts)s receipts + $%(track)s track)",
                             player=Player(seat["player"]), score=score, receipts=receipts,
                             track=seat["track"]))
    note = Note(message("%(player)s went out and ends deal %(deal)s. Scores: %(scores)s.",
                        player=Player(winner["player"]), deal=state["deal"],
                        scores=semicolons(lines)), reveal=True)
    return note, _deal_result(state, winner, scores=scores)
