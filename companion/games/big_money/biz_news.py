"""Biz News: drawing a card and applying its effect, with the rulebook's clarifications.

- All money is paid to the Bank; a player who owes more than they have pays all they have.
- Antitrust Fine (fine_largest_industry): a player whose largest industries tie chooses.
- Bubble Burst, Demerger, Liquidation (rolled effects): the roller rolls the Industry die
  and reports it; a Biz News face is rolled again.
- Demerger (roll_then_discard): a player whose highest-priced Assets tie chooses one.
- Liquidation: every player tied for the most Assets of the industry discards them.
- Global Recession (pay_per_industry): the cap is the most a player pays.

A choice that belongs to a player is a prompt on that player's phone; the card stays
current until every prompt is answered.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from ..engine import Note
from ..messages import Message, Player, message, plural, text_json
from .assets import (INDUSTRY_NAMES, assets_of, discard, discard_all, find_owned,
                     industries_owned, label, owned_by)
from .bank import (collect, collected_text, is_over, pay, paid_text, roller_seat, seat_of,
                   seats_from_roller)
from .models import BIZ_NEWS_FACE
from .state import (INDUSTRIES, AskedFor, Asset, BigMoneyState, DrawnEffect,
                    FineLargestIndustryEffect, Industry, NewsCard, PayPerAssetEffect,
                    PayPerIndustryEffect, Prompt, RolledEffect, RollThenDiscardEffect,
                    RollThenPayEffect, Seat, Who, is_industry, is_rolled)

ROLL_CHOICES: list[str] = [*INDUSTRIES, BIZ_NEWS_FACE]
BIZ_NEWS_NAME = message("Biz News")


def printed(words: str) -> Message:
    """A card's name or text: the box's own read in the reader's language (they are messages
    of the catalogs, companion/web/box_labels.py), a host's own words as typed (a message no
    catalog holds reads as it is)."""
    return Message(words)


def draw(state: BigMoneyState, rng: random.Random) -> list[Note]:
    """Draw the top card (reshuffling the discard pile into an empty deck), show it and
    start its effect."""
    news = state["biz_news"]
    if not news["deck"] and not news["discard"]:
        state["step"] = "number_dice"
        return [Note(message("Biz News came up, but this game has no Biz News cards."))]
    notes = []
    if not news["deck"]:
        news["deck"], news["discard"] = news["discard"], []
        rng.shuffle(news["deck"])
        notes.append(Note(message("The Biz News deck is empty: the discard pile is shuffled "
                                  "into a new deck.")))
    card_index = news["deck"].pop(0)
    news["last"] = card_index
    card = news["cards"][card_index]
    shown = (message("Biz News: %(card)s. %(text)s", card=printed(card["name"]),
                     text=printed(card["text"].strip()))
             if card["text"].strip() else message("Biz News: %(card)s.",
                                                  card=printed(card["name"])))
    notes.append(Note(shown, reveal=True))
    state["pending"] = {"card": card_index, "industry": None, "prompts": []}
    effect = card["effect"]
    if is_rolled(effect):
        roller = roller_seat(state)["player"]
        _ask(state, roller, "roll",
             message("%(card)s: roll the Industry die and enter the face (Biz News: roll "
                     "again).", card=printed(card["name"])),
             ROLL_CHOICES,
             {face: INDUSTRY_NAMES[face] if is_industry(face) else BIZ_NEWS_NAME
              for face in ROLL_CHOICES})
    else:
        notes += _drawn_effect(state, effect)
    return notes + _finish_if_settled(state)


def current_card(state: BigMoneyState) -> NewsCard:
    """The card being resolved (while one is)."""
    pending = state["pending"]
    assert pending is not None, "no Biz News card is being resolved"
    return state["biz_news"]["cards"][pending["card"]]


def prompt_for(state: BigMoneyState, player: int | None) -> Prompt | None:
    pending = state["pending"]
    if pending is None:
        return None
    return next((p for p in pending["prompts"] if p["player"] == player), None)


def answer(state: BigMoneyState, player: int, choice: str) -> list[Note]:
    """Apply a player's answer to their prompt (already checked to be one of its choices)."""
    pending, prompt, seat = state["pending"], prompt_for(state, player), seat_of(state, player)
    if pending is None or prompt is None or seat is None:
        return []  # (the engine checks first that a card asks this player)
    if prompt["kind"] == "roll" and choice == BIZ_NEWS_FACE:
        return [Note(message("%(player)s rolled Biz News: roll the Industry die again.",
                             player=Player(player)))]
    pending["prompts"].remove(prompt)
    notes = ANSWERS[prompt["kind"]](state, seat, choice)
    return notes + _finish_if_settled(state)


def _ask(state: BigMoneyState, player: int, kind: AskedFor, prompt: Message,
         choices: Sequence[str], labels: Mapping[str, Message]) -> None:
    """A prompt on `player`'s phone: its words and its choices' labels are messages, kept
    in the state in their JSON form."""
    pending = state["pending"]
    assert pending is not None, "a prompt asks about the card being resolved"
    pending["prompts"].append({
        "player": player, "kind": kind, "prompt": text_json(prompt), "choices": list(choices),
        "labels": {choice: text_json(label) for choice, label in labels.items()}})


def _finish_if_settled(state: BigMoneyState) -> list[Note]:
    """Once nothing is left to ask, the card is discarded and the turn goes on."""
    pending = state["pending"]
    if is_over(state) or pending is None or pending["prompts"]:
        return []
    state["biz_news"]["discard"].append(pending["card"])
    state["pending"] = None
    state["step"] = "number_dice"
    return [Note(message("%(player)s rolls the number dice.",
                         player=Player(roller_seat(state)["player"])))]


def _affected(state: BigMoneyState, who: Who) -> list[Seat]:
    if who == "roller":
        return [roller_seat(state)]
    return seats_from_roller(state)


def _assets(count: int) -> Message:
    return plural("%(count)s Asset", "%(count)s Assets", "count", count=count)


def _industry_assets(count: int, industry: Industry) -> Message:
    return plural("%(count)s %(industry)s Asset", "%(count)s %(industry)s Assets", "count",
                  count=count, industry=INDUSTRY_NAMES[industry])


def _times(counted: Message, amount: int) -> Message:
    """"2 Assets x 5": why a player pays or collects what they do."""
    return message("%(counted)s x %(amount)s", counted=counted, amount=amount)


def _charge(state: BigMoneyState, seat: Seat, owed: int, why: Message) -> Note:
    card = printed(current_card(state)["name"])
    paid = pay(state, seat, owed, message("%(card)s: %(why)s", card=card, why=why))
    return Note(message("%(player)s pays %(paid)s for %(card)s (%(why)s).",
                        player=Player(seat["player"]), paid=paid_text(owed, paid), card=card,
                        why=why))


# -- the effects: each returns its notes and may ask players ---------------------------
def _drawn_effect(state: BigMoneyState, effect: DrawnEffect) -> list[Note]:
    if effect["kind"] == "pay_per_asset":
        return _pay_per_asset(state, effect)
    if effect["kind"] == "pay_per_industry":
        return _pay_per_industry(state, effect)
    if effect["kind"] == "fine_largest_industry":
        return _fine_largest_industry(state, effect)
    return _manual()


def _rolled_effect(state: BigMoneyState, effect: RolledEffect, industry: Industry) -> list[Note]:
    if effect["kind"] == "roll_then_pay":
        return _roll_then_pay(state, effect, industry)
    if effect["kind"] == "roll_then_discard":
        return _roll_then_discard(state, effect, industry)
    return _liquidation(state, industry)


def _pay_per_asset(state: BigMoneyState, effect: PayPerAssetEffect) -> list[Note]:
    notes = []
    for seat in _affected(state, effect["who"]):
        count = len(seat["assets"])
        owed = effect["amount"] * count
        why = _times(_assets(count), effect["amount"])
        if not owed:
            continue
        if effect["payer"] == "player":
            notes.append(_charge(state, seat, owed, why))
            continue
        card = printed(current_card(state)["name"])
        paid = collect(state, seat, owed, message("%(card)s: %(why)s", card=card, why=why))
        notes.append(Note(message("%(player)s collects %(paid)s for %(card)s (%(why)s).",
                                  player=Player(seat["player"]),
                                  paid=collected_text(owed, paid), card=card, why=why)))
        if is_over(state):
            break
    return notes or [Note(message("Nobody pays or collects anything."))]


def _pay_per_industry(state: BigMoneyState, effect: PayPerIndustryEffect) -> list[Note]:
    notes = []
    cap = effect["cap"]
    for seat in _affected(state, effect["who"]):
        count = len(industries_owned(seat))
        owed = effect["amount"] * count
        why = _times(plural("%(count)s industry", "%(count)s industries", "count",
                            count=count), effect["amount"])
        if cap is not None and owed > cap:
            owed = cap
            why = message("%(why)s, at most %(cap)s", why=why, cap=cap)
        if owed:
            notes.append(_charge(state, seat, owed, why))
    return notes or [Note(message("Nobody owns anything to pay for."))]


def _fine_largest_industry(state: BigMoneyState,
                           effect: FineLargestIndustryEffect) -> list[Note]:
    notes = []
    for seat in _affected(state, effect["who"]):
        counts = {ind: len(assets_of(seat, ind)) for ind in industries_owned(seat)}
        if not counts:
            continue
        most = max(counts.values())
        largest = [ind for ind, count in counts.items() if count == most]
        if len(largest) == 1:
            notes.append(_fine(state, seat, largest[0], effect["amount"]))
            continue
        fine = effect["amount"] * most
        _ask(state, seat["player"], "fine_industry",
             message("%(card)s: your largest industries are tied. Choose the one you pay the "
                     "fine for.", card=printed(current_card(state)["name"])),
             largest,
             {ind: message("%(industry)s: %(assets)s, fine %(fine)s", industry=INDUSTRY_NAMES[ind],
                           assets=_assets(most), fine=fine) for ind in largest})
        notes.append(Note(message("%(player)s chooses which tied industry to pay the fine for.",
                                  player=Player(seat["player"]))))
    return notes or [Note(message("Nobody owns an Asset to be fined for."))]


def _fine(state: BigMoneyState, seat: Seat, industry: Industry, per_asset: int) -> Note:
    count = len(assets_of(seat, industry))
    return _charge(state, seat, per_asset * count,
                   _times(_industry_assets(count, industry), per_asset))


def _roll_then_pay(state: BigMoneyState, effect: RollThenPayEffect,
                   industry: Industry) -> list[Note]:
    notes = []
    for seat in _affected(state, effect["who"]):
        count = len(assets_of(seat, industry))
        if count:
            notes.append(_charge(state, seat, effect["amount"] * count,
                                 _times(_industry_assets(count, industry), effect["amount"])))
    return notes or [Note(message("Nobody owns a %(industry)s Asset.",
                                  industry=INDUSTRY_NAMES[industry]))]


def _roll_then_discard(state: BigMoneyState, effect: RollThenDiscardEffect,
                       industry: Industry) -> list[Note]:
    notes = []
    for seat in _affected(state, effect["who"]):
        owned = assets_of(seat, industry, discardable_only=True)
        if not owned:
            continue
        top_price = max(asset["price"] for asset in owned)
        tied = [asset for asset in owned if asset["price"] == top_price]
        if len(tied) == 1:
            notes.append(_discard_note(state, seat, tied[0]))
            continue
        _ask(state, seat["player"], "discard_asset",
             message("%(card)s: your highest-priced %(industry)s Assets are tied. Choose the "
                     "one to discard.", card=printed(current_card(state)["name"]),
                     industry=INDUSTRY_NAMES[industry]),
             [str(asset["id"]) for asset in tied],
             {str(asset["id"]): message("%(asset)s (price %(price)s, pays %(payout)s)",
                                        asset=label(asset), price=asset["price"],
                                        payout=asset["payout"]) for asset in tied})
        notes.append(Note(message("%(player)s chooses which tied Asset to discard.",
                                  player=Player(seat["player"]))))
    return notes or [Note(nobody_owns_card(industry))]


def _discard_note(state: BigMoneyState, seat: Seat, asset: Asset) -> Note:
    named = owned_by(asset, seat["player"])
    return Note(message("%(discarded)s.", discarded=discard(state, seat, asset, named)))


def _liquidation(state: BigMoneyState, industry: Industry) -> list[Note]:
    holdings = {seat["player"]: assets_of(seat, industry, discardable_only=True)
                for seat in seats_from_roller(state)}
    most = max(len(owned) for owned in holdings.values())
    if not most:
        return [Note(nobody_owns_card(industry))]
    notes = []
    for seat in seats_from_roller(state):
        owned = holdings[seat["player"]]
        if len(owned) == most:
            notes.append(Note(message("%(player)s owns the most %(industry)s Assets (%(most)s): "
                                      "%(discarded)s.", player=Player(seat["player"]),
                                      industry=INDUSTRY_NAMES[industry], most=most,
                                      discarded=discard_all(state, seat, owned))))
    return notes


def _manual() -> list[Note]:
    return [Note(message("The host applies this card by hand with a Bank adjustment."))]


def nobody_owns_card(industry: Industry) -> Message:
    return message("Nobody owns a %(industry)s Asset card.", industry=INDUSTRY_NAMES[industry])


# -- the answers to prompts --------------------------------------------------------------
# Each gets a choice its prompt offers (the engine checks it first).
def _answer_roll(state: BigMoneyState, seat: Seat, face: str) -> list[Note]:
    industry = _industry(face)
    pending = state["pending"]
    card = current_card(state)
    if pending is not None:
        pending["industry"] = industry
    note = Note(message("%(player)s rolled %(industry)s for %(card)s.",
                        player=Player(seat["player"]), industry=INDUSTRY_NAMES[industry],
                        card=printed(card["name"])))
    effect = card["effect"]
    applied = (_rolled_effect(state, effect, industry) if is_rolled(effect)
               else _drawn_effect(state, effect))
    return [note, *applied]


def _answer_fine_industry(state: BigMoneyState, seat: Seat, industry: str) -> list[Note]:
    effect = current_card(state)["effect"]
    per_asset = effect["amount"] if effect["kind"] == "fine_largest_industry" else 0
    return [_fine(state, seat, _industry(industry), per_asset)]


def _answer_discard_asset(state: BigMoneyState, seat: Seat, asset_id: str) -> list[Note]:
    asset = find_owned(seat, int(asset_id))
    return [] if asset is None else [_discard_note(state, seat, asset)]


def _industry(choice: str) -> Industry:
    if not is_industry(choice):
        raise ValueError(f"not an industry: {choice}")
    return choice


ANSWERS: dict[AskedFor, Callable[[BigMoneyState, Seat, str], list[Note]]] = {
    "roll": _answer_roll,
    "fine_industry": _answer_fine_industry,
    "discard_asset": _answer_discard_asset,
}


def asset_ids_in_prompts(state: BigMoneyState) -> set[int]:
    """Assets a Demerger prompt is waiting on (the host may not discard them meanwhile)."""
    pending = state["pending"]
    if pending is None:
        return set()
    return {int(choice) for prompt in pending["prompts"]
            if prompt["kind"] == "discard_asset" for choice in prompt["choices"]}
