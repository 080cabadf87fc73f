"""Big Money's rules page: its sections, the section of each step, what to lay out at the
table, and why a market card cannot be bought now."""
from __future__ import annotations

from ..engine import IllegalAction, NotYourTurn
from ..messages import Message, message, plural
from .assets import label
from .bank import roller_seat, seat_of
from .models import Options
from .state import BigMoneyState, Step

SECTIONS = {
    "setup": message("Setting up the table"),
    "turn": message("A turn, step by step"),
    "industry": message("The Industry die"),
    "biz-news": message("Biz News"),
    "number-dice": message("The number dice"),
    "buy": message("Buying an Asset"),
    "market": message("The market and the Asset deck"),
    "bank": message("The Bank"),
    "end": message("The end and the tie-breaks"),
    "rulings": message("Our rulings"),
}

SECTION_OF_STEP: dict[Step, str] = {
    "setup": "setup", "industry": "industry", "biz_news": "biz-news",
    "number_dice": "number-dice", "buy": "buy", "refill": "market", "over": "end",
}

# What each step waits for, said when a move comes at the wrong time.
NEXT_MOVE = {
    "setup": message("every player takes a Start-Up and the market is filled first"),
    "industry": message("enter the Industry die first"),
    "biz_news": message("answer the Biz News card first"),
    "number_dice": message("enter the number dice first"),
    "buy": message("buy an Asset or end the turn"),
    "refill": message("reveal the new Asset into the market first"),
}
# The moves a roller makes, as a refusal at the wrong step names them.
DOING = {"buy": message("buy"), "industry": message("industry"),
         "number_dice": message("number_dice"), "end": message("end the turn")}


def rule_for(state: BigMoneyState) -> str:
    return SECTION_OF_STEP[state["step"]]


def setup_checklist(options: Options, players: int) -> list[Message]:
    news_cards = sum(card.count for card in options.biz_news)
    return [
        plural("Each player takes one Start-Up Asset (green back) and lays it face up: "
               "%(num)s card in all.", "Each player takes one Start-Up Asset (green back) "
               "and lays it face up: %(num)s cards in all.", "num", num=players),
        message("Put the other Start-Up Assets back in the box."),
        plural("Shuffle the Asset deck (gold backs, %(num)s card) face down onto the board.",
               "Shuffle the Asset deck (gold backs, %(num)s cards) face down onto the board.",
               "num", num=options.asset_cards),
        message("Turn four Asset cards face up on the market spaces and enter them on a "
                "phone."),
        message("Leave the bills in the box: the app is the Bank, which starts with "
                "%(total)s.", total=options.bank_total),
        plural("The app shuffles and draws the Biz News deck (%(num)s card): leave the cards "
               "in the box.", "The app shuffles and draws the Biz News deck (%(num)s cards): "
               "leave the cards in the box.", "num", num=news_cards),
        message("Give the first player the dice cup and all six dice."),
    ]


def wrong_step(state: BigMoneyState, player: int, steps: tuple[Step, ...],
               doing: str) -> IllegalAction | None:
    """The refusal of a roller's move made out of turn, or at another step than `steps`."""
    step = state["step"]
    everyone_acts = step in ("setup", "biz_news")
    if not everyone_acts and roller_seat(state)["player"] != player:
        return NotYourTurn(message("It is not your turn."), rule="turn")
    if step not in steps:
        return IllegalAction(message("You cannot %(doing)s now: %(next)s.",
                                     doing=DOING[doing], next=NEXT_MOVE[step]), rule="turn")
    return None


def cannot_buy(state: BigMoneyState, player: int, slot: int) -> IllegalAction | None:
    """Why `player` may not buy the card in market space `slot` now; None: they may."""
    refused = wrong_step(state, player, ("buy",), "buy")
    if refused is not None:
        return refused
    asset = state["market"][slot]
    if asset is None:
        return IllegalAction(message("Market space %(space)s is empty.", space=slot + 1),
                             rule="buy")
    money = roller_seat(state)["money"]
    if asset["price"] > money:
        return IllegalAction(message("The %(asset)s costs %(price)s; you have %(money)s.",
                                     asset=label(asset), price=asset["price"], money=money),
                             rule="buy")
    return None


def why_not_buy(state: BigMoneyState, player: int | None) -> list[IllegalAction]:
    """The roller's reasons the market's cards are not for sale now: the step of the turn
    (once), or, at the buy step, each card that costs more than they have."""
    if player is None or seat_of(state, player) is None or state["step"] in ("setup", "over"):
        return []
    if roller_seat(state)["player"] != player:
        return []
    cards = [slot for slot, asset in enumerate(state["market"]) if asset is not None]
    if state["step"] != "buy":
        refused = wrong_step(state, player, ("buy",), "buy")
        return [refused] if cards and refused is not None else []
    return [refused for slot in cards
            if (refused := cannot_buy(state, player, slot)) is not None]
