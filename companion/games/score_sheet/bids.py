"""Bids and tricks on the score sheet (Wizard, Oh Hell, Skull King), and the dealer.

Round N deals N cards. Every player bids (with `secret`, the bids stay hidden from everyone
until all have bid, then are revealed together), then enters the tricks taken (and Skull
King's bonus); the sheet computes the round's score into its one category. With Wizard and
Oh Hell every trick is won by someone: a round whose tricks do not add up to N stays open
until an entry changes. The open round's bids and tricks are the state's `bidding`, each
closed round's are `played`.
"""
from __future__ import annotations

import random
from typing import Any

from ..engine import HOST, IllegalAction, Note
from ..messages import Message, Player, listed, message, plural
from . import sheet
from .models import Bid, BidsRule, Enter
from .state import Played, ScoreSheetState

ALL_TRICKS_WON = ("wizard", "oh_hell")  # every trick of a round is won by someone
SKULL_KING_BONUSES = (10, 20, 30, 40)


def rule(state: ScoreSheetState) -> BidsRule | None:
    return sheet.options(state).get("bids")


def hand(state: ScoreSheetState) -> int:
    """The cards dealt in the open round: as many as its number."""
    return len(state["closed"]) + 1


def dealer(state: ScoreSheetState) -> int | None:
    """Who deals the open round: the first player, then the next seat each round."""
    if not sheet.options(state).get("dealer") or state["finished"]:
        return None
    return state["players"][len(state["closed"]) % len(state["players"])]


def round_score(bids: BidsRule, cards: int, bid: int, tricks: int, bonus: int = 0) -> int:
    """A player's score for a round of `cards` cards, as the game counts it."""
    missed_by = abs(tricks - bid)
    if bids == "wizard":
        return 20 + 10 * tricks if not missed_by else -10 * missed_by
    if bids == "oh_hell":
        return 10 + tricks if not missed_by else 0
    if bid == 0:
        return 10 * cards + bonus if tricks == 0 else -10 * cards
    return 20 * bid + bonus if not missed_by else -10 * missed_by


def bidding(state: ScoreSheetState) -> dict[str, Played]:
    """The open round's bids and tricks, by player (read only: a view changes nothing)."""
    return state.get("bidding", {})


def all_bid(state: ScoreSheetState) -> bool:
    return len(bidding(state)) == len(state["players"])


def bids_shown(state: ScoreSheetState) -> bool:
    """Whether the open round's bids may be seen by all: not secret, or everyone has bid."""
    return not sheet.options(state)["secret"] or all_bid(state)


def tricks_off(state: ScoreSheetState) -> dict[str, int] | None:
    """With every player's tricks entered in a game where every trick is won, their sum
    and the hand when they do not add up to it; else None."""
    if rule(state) not in ALL_TRICKS_WON or len(state["open"]) != len(state["players"]):
        return None
    taken = sum(played.get("tricks", 0) for played in bidding(state).values())
    return None if taken == hand(state) else {"taken": taken, "hand": hand(state)}


def waiting(state: ScoreSheetState) -> list[int]:
    """Who is awaited: those yet to bid; then those yet to enter their tricks; and
    everyone while the tricks do not add up (any one of them may change an entry)."""
    players = state["players"]
    if not all_bid(state):
        return [p for p in players if str(p) not in bidding(state)]
    if tricks_off(state) is not None:
        return list(players)
    return [p for p in players if str(p) not in state["open"]]


def ready(state: ScoreSheetState) -> bool:
    """Whether the open round can close: every entry in, the tricks adding up."""
    return len(state["open"]) == len(state["players"]) and tricks_off(state) is None


def bids_tally(state: ScoreSheetState) -> Any:
    return listed((message("%(player)s %(bid)s", player=Player(p),
                           bid=bidding(state)[str(p)]["bid"]) for p in state["players"]),
                  tally=True)


def place_bid(state: ScoreSheetState, actor: int | None, target: int,
              action: Bid) -> list[Note]:
    number = hand(state)
    if action.round != number:
        raise IllegalAction(message("Round %(round)s is not open: round %(open)s is.",
                                    round=action.round, open=number), rule="bids")
    if all_bid(state):
        raise IllegalAction(message("Every player has bid: the bids of round %(round)s "
                                    "no longer change.", round=number), rule="bids")
    if action.bid > number:
        raise IllegalAction(message("In round %(round)s a bid is from 0 to %(most)s.",
                                    round=number, most=number), rule="bids")
    again = str(target) in bidding(state)
    state.setdefault("bidding", {})[str(target)] = {"bid": action.bid}
    who = Player(target)
    if sheet.options(state)["secret"]:
        line = (message("%(player)s changed their bid.", player=who) if again
                else message("%(player)s bid.", player=who))
    elif actor is HOST:
        line = message("The host entered %(player)s's bid: %(bid)s.", player=who,
                       bid=action.bid)
    else:
        line = (message("%(player)s changed their bid to %(bid)s.", player=who,
                        bid=action.bid) if again
                else message("%(player)s bid %(bid)s.", player=who, bid=action.bid))
    notes = [Note(line)]
    if all_bid(state):
        if sheet.options(state)["secret"]:
            notes.append(Note(message("Bids revealed for round %(round)s: %(bids)s.",
                                      round=number, bids=bids_tally(state)), reveal=True))
        else:
            notes.append(Note(message("Every player has bid for round %(round)s: %(bids)s.",
                                      round=number, bids=bids_tally(state))))
    return notes


def enter_tricks(state: ScoreSheetState, target: int, action: Enter) -> list[Note]:
    """A player's tricks for the open round (the round is checked by the caller); the
    score goes into the sheet's one category."""
    bids = rule(state)
    assert bids is not None
    number = hand(state)
    if not all_bid(state):
        raise IllegalAction(message("Not every player has bid yet: the tricks are entered "
                                    "after the bids."), rule="bids")
    if action.scores is not None:
        raise IllegalAction(message("On this sheet you enter the tricks you took: the "
                                    "sheet computes the score."), rule="bids")
    if action.tricks is None:
        raise IllegalAction(message("Enter how many tricks you took."), rule="bids")
    if action.tricks > number:
        raise IllegalAction(message("In round %(round)s the tricks taken are from 0 to "
                                    "%(most)s.", round=number, most=number), rule="bids")
    if action.bonus is not None and bids != "skull_king":
        raise IllegalAction(message("Only Skull King scores a bonus."), rule="bids")
    bonus = action.bonus or 0
    if bonus < 0:
        raise IllegalAction(message("A bonus is 0 or more."), rule="bids")
    played = bidding(state)[str(target)]
    played["tricks"] = action.tricks
    played["bonus"] = bonus
    score = round_score(bids, number, played["bid"], action.tricks, bonus)
    state["open"][str(target)] = {sheet.options(state)["categories"][0]: score}
    notes = [Note(tricks_line(target, played, score))]
    off = tricks_off(state)
    if off is not None:
        notes.append(Note(message("Tricks add up to %(taken)s of %(hand)s: round %(round)s "
                                  "stays open until an entry is changed.",
                                  taken=off["taken"], hand=off["hand"], round=number)))
    return notes


def tricks_line(player: int, played: Played, score: int) -> Message:
    tricks, bonus = played.get("tricks", 0), played.get("bonus", 0)
    if bonus:
        return plural("%(player)s took %(count)s trick (bid %(bid)s, bonus %(bonus)s): "
                      "%(score)s.",
                      "%(player)s took %(count)s tricks (bid %(bid)s, bonus %(bonus)s): "
                      "%(score)s.", "count", player=Player(player), count=tricks,
                      bid=played["bid"], bonus=bonus, score=score)
    return plural("%(player)s took %(count)s trick (bid %(bid)s): %(score)s.",
                  "%(player)s took %(count)s tricks (bid %(bid)s): %(score)s.", "count",
                  player=Player(player), count=tricks, bid=played["bid"], score=score)


def close(state: ScoreSheetState) -> None:
    """Keep the open round's bids and tricks with the round the sheet closes."""
    state.setdefault("played", []).append(
        {str(p): bidding(state)[str(p)] for p in state["players"]})
    state["bidding"] = {}


# -- what a viewer sees ------------------------------------------------------------------
def row_of(played: Played) -> dict[str, Any]:
    return {"bid": played["bid"], "tricks": played.get("tricks"),
            "bonus": played.get("bonus", 0)}


def public_part(state: ScoreSheetState) -> dict[str, Any]:
    """The view's bids: the rule, the hand, who has bid, and the tricks that are off."""
    if rule(state) is None or state["finished"]:
        return {"bids": rule(state), "hand": None, "bidden": [], "bids_in": False,
                "tricks_off": None}
    return {"bids": rule(state), "hand": hand(state),
            "bidden": [p for p in state["players"] if str(p) in bidding(state)],
            "bids_in": all_bid(state), "tricks_off": tricks_off(state)}


def closed_rows(state: ScoreSheetState, player: int) -> list[dict[str, Any]]:
    return [row_of(played[str(player)]) for played in state.get("played", [])]


def open_row(state: ScoreSheetState, player: int) -> dict[str, Any] | None:
    """The player's open round as all may see it: the bid once the bids are shown, and
    the tricks and score once entered."""
    played = bidding(state).get(str(player))
    if state["finished"] or played is None or not bids_shown(state):
        return None
    row = {"round": hand(state), "open": True, **row_of(played)}
    entry = state["open"].get(str(player))
    if entry is not None:
        row.update(scores=entry, total=sheet.row_total(entry))
    return row


def own_bid(state: ScoreSheetState, player: int) -> dict[str, int] | None:
    """The player's own bid for the open round, as their private view holds it."""
    played = bidding(state).get(str(player))
    if state["finished"] or played is None:
        return None
    return {"round": hand(state), "bid": played["bid"]}


def secrets(state: ScoreSheetState) -> dict[int, list[Any]]:
    """Each secret bid as the player's own view holds it, and as the sheet's row will show
    it once the bids are revealed."""
    if state["finished"] or bids_shown(state):
        return {}
    return {int(p): [{"bid": own_bid(state, int(p))},
                     {"rows": [{"round": hand(state), "open": True, **row_of(played)}]}]
            for p, played in bidding(state).items()}


# -- what a screen may do ------------------------------------------------------------------
def offered(state: ScoreSheetState, player: int | None) -> dict[str, Any]:
    """The open round's move for a player (or the host, for everyone): the bid while the
    bids are not all in, then the tricks."""
    number = hand(state)
    if not all_bid(state):
        shape: dict[str, Any] = {"type": "bid", "round": number, "min": 0, "max": number}
    else:
        shape = {"type": "enter", "round": number, "min": 0, "max": number,
                 "bonus": rule(state) == "skull_king", "categories": [],
                 "tricks_off": tricks_off(state)}
    if player is HOST:
        done = bidding(state) if shape["type"] == "bid" else state["open"]
        return {**shape, "players": state["players"],
                "entered": [p for p in state["players"] if str(p) in done]}
    played = bidding(state).get(str(player))
    if shape["type"] == "bid":
        return {**shape, "bid": played["bid"] if played else None}
    entered = str(player) in state["open"]
    return {**shape, "bid": played["bid"] if played else None,
            "tricks": played.get("tricks") if played and entered else None,
            "entry": {"tricks": played.get("tricks"), "bonus": played.get("bonus", 0)}
            if played and entered else None}


def bot_move(state: ScoreSheetState, player: int, rng: random.Random) -> dict[str, Any]:
    """A bid, or tricks that add up when this player is the last to enter them."""
    number = hand(state)
    if not all_bid(state):
        return {"type": "bid", "round": number, "bid": rng.randint(0, number)}
    others = [played.get("tricks", 0) for p, played in bidding(state).items()
              if p != str(player) and p in state["open"]]
    left = number - sum(others)
    if rule(state) == "skull_king":
        tricks = rng.randint(0, number)
    elif len(others) == len(state["players"]) - 1:
        tricks = max(0, min(number, left))
    else:
        tricks = rng.randint(0, max(0, left))
    move: dict[str, Any] = {"type": "enter", "round": number, "tricks": tricks}
    if rule(state) == "skull_king" and tricks == bidding(state)[str(player)]["bid"]:
        move["bonus"] = rng.choice((0, 0, *SKULL_KING_BONUSES))
    return move
