"""Big Money: the app is the Bank and the Biz News deck; the players keep the cards and dice.

Rulebook: big-money.txt; rulings: RULINGS.md (Big Money). The numbers the rulebook does not
print are box data (box.json), editable by the host as options.

Steps: "setup" (every player takes a Start-Up; the four market cards are revealed), then
each turn "industry" -> ("biz_news" while a card asks someone) -> "number_dice" -> "buy"
-> ("refill" while the bought card's space waits for the next card) -> the next roller's
"industry"; "over" once the Bank has paid its last bill.
"""
from __future__ import annotations

import random

from ..engine import (HOST, Game, IllegalAction, Note, NotYourTurn, Result, Standing, State,
                      competition_places, join_names)
from . import biz_news
from .assets import (INDUSTRY_NAMES, assets_of, deck_is_empty, describe, discard, discard_all,
                     empty_slots, find_owned, label, new_asset, place_known_card, place_new_card,
                     prepare_refill, public_asset)
from .bank import (collect, collected_text, is_over, pay, roller_seat, seat_of,
                   seats_from_roller)
from .box import load_box, proposed_payout
from .dice import best_category
from .models import (BIZ_NEWS_FACE, CATEGORY_NAMES, INDUSTRIES, MARKET_SLOTS, Adjust,
                     Buy, Choose, EndTurn, NumberDice, Options, Reveal, RollIndustry, Startup)

ROLLER_STEPS = ("industry", "number_dice", "buy", "refill")
NEXT_MOVE = {
    "setup": "every player takes a Start-Up and the market is filled first",
    "industry": "enter the Industry die first",
    "biz_news": "answer the Biz News card first",
    "number_dice": "enter the number dice first",
    "buy": "buy an Asset or end the turn",
    "refill": "reveal the new Asset into the market first",
}


def industry_bonus(state: State, count: int) -> int:
    if count < 2:
        return 0
    return state["rules"]["industry_bonus"]["5+" if count >= 5 else str(count)]


class BigMoney(Game):
    id = "big-money"
    title = "Big Money"
    min_players = 2
    max_players = 5
    Options = Options
    host_actions = frozenset({"adjust"})
    remembered = {"reveal": "asset"}

    def start(self, players: list[int], options: Options, rng: random.Random) -> State:
        deck = [index for index, card in enumerate(options.biz_news) for _ in range(card.count)]
        rng.shuffle(deck)
        return {
            "rules": {"number_payouts": options.number_payouts.model_dump(),
                      "industry_bonus": dict(options.industry_bonus),
                      "startup_payout": options.startup_payout},
            "start_total": options.bank_total,
            "bank": options.bank_total,
            "step": "setup",
            "roller": 0,  # seat index
            "seats": [{"player": player, "money": 0, "assets": []} for player in players],
            "market": [None] * MARKET_SLOTS,
            "refill_slot": None,
            "asset_deck": {"unseen": options.asset_cards, "reshuffled": []},
            "asset_discard": [],
            "next_asset_id": 1,
            "biz_news": {"cards": [{"name": card.name, "text": card.text,
                                    "effect": card.effect.model_dump()}
                                   for card in options.biz_news],
                         "deck": deck, "discard": [], "last": None},
            "pending": None,  # the Biz News card being resolved and its prompts
            "industry": None,  # the Industry die this turn
            "dice": None,  # the number dice this turn and what they earned
            "ledger": [],  # the money moved since this turn's Industry die
            "last_bill": None,
        }

    # -- reading the state -------------------------------------------------------------
    def waiting_for(self, state: State) -> list[int]:
        step = state["step"]
        if step == "over":
            return []
        if step == "setup":
            if empty_slots(state):
                return [seat["player"] for seat in state["seats"]]
            return [seat["player"] for seat in state["seats"] if not self._startup_of(seat)]
        if step == "biz_news":
            asked = {prompt["player"] for prompt in state["pending"]["prompts"]}
            return [seat["player"] for seat in seats_from_roller(state)
                    if seat["player"] in asked]
        return [roller_seat(state)["player"]]

    @staticmethod
    def _startup_of(seat: dict) -> dict | None:
        return next((asset for asset in seat["assets"] if asset["startup"]), None)

    def actions(self, state: State, player: int | None) -> list[dict]:
        if is_over(state):
            return []
        if player is HOST:
            return [self._adjust_template(state)]
        seat = seat_of(state, player)
        if seat is None:
            return []
        templates = self._step_templates(state, seat)
        if empty_slots(state) and not deck_is_empty(state):
            templates.append(self._reveal_template(state))
        return templates

    def _step_templates(self, state: State, seat: dict) -> list[dict]:
        step = state["step"]
        if step == "setup":
            startup = self._startup_of(seat)
            return [{"type": "startup", "industry": list(INDUSTRIES),
                     "current": startup["industry"] if startup else None}]
        if step == "biz_news":
            prompt = biz_news.prompt_for(state, seat["player"])
            if prompt is None:
                return []
            return [{"type": "choose", "prompt": prompt["prompt"],
                     "choice": list(prompt["choices"]), "labels": dict(prompt["labels"])}]
        if seat is not roller_seat(state):
            return []
        if step == "industry":
            return [{"type": "industry", "face": [*INDUSTRIES, BIZ_NEWS_FACE]}]
        if step == "number_dice":
            return [{"type": "number_dice", "dice": {"count": 5, "min": 1, "max": 6}}]
        if step == "buy":
            affordable = [slot for slot, asset in enumerate(state["market"])
                          if asset is not None and asset["price"] <= seat["money"]]
            buy = [{"type": "buy", "slot": affordable}] if affordable else []
            return [*buy, {"type": "end_turn"}]
        return [{"type": "end_turn", "leaves_empty": state["refill_slot"]}]  # refill

    @staticmethod
    def _reveal_template(state: State) -> dict:
        template = {"type": "reveal", "slot": empty_slots(state),
                    "awaited": state["step"] == "setup" or state["step"] == "refill"}
        reshuffled = state["asset_deck"]["reshuffled"]
        if reshuffled:
            template["asset_id"] = [asset["id"] for asset in reshuffled]
            template["known"] = [public_asset(asset) for asset in reshuffled]
        else:
            template["asset"] = {"industry": list(INDUSTRIES), "price": {"min": 1, "max": 500},
                                 "payout": {"min": 0, "max": 1000, "optional": True,
                                            "proposed_per_price": {
                                                "regular": proposed_payout(1, False),
                                                "stock": proposed_payout(1, True)}},
                                 "stock": [False, True], "name": {"max_length": 40}}
        return template

    @staticmethod
    def _adjust_template(state: State) -> dict:
        locked = biz_news.asset_ids_in_prompts(state)
        return {"type": "adjust", "player": [seat["player"] for seat in state["seats"]],
                "amount": {"min": -100_000, "max": state["bank"]}, "note": {"max_length": 200},
                "discard_asset": [{"player": seat["player"], "asset": asset["id"],
                                   "label": label(asset)}
                                  for seat in state["seats"] for asset in seat["assets"]
                                  if asset["id"] not in locked]}

    # -- changing it -----------------------------------------------------------------------
    def apply(self, state: State, player: int | None, action, rng: random.Random) -> list[Note]:
        notes = super().apply(state, player, action, rng)
        if is_over(state):
            notes.append(Note(f"The Bank is empty: {{name:{state['last_bill']}}} took the last "
                              "bill and the game is over."))
        return notes

    def check_actor(self, state: State, player: int | None, action) -> None:
        if is_over(state):
            raise IllegalAction("The game is over: the Bank has paid its last bill.")
        if action.type in self.host_actions:
            if player is not HOST:
                raise NotYourTurn("Only the host can adjust the Bank.")
            return
        if player is HOST:
            raise NotYourTurn("The host acts for a player: say which player.")
        if seat_of(state, player) is None:
            raise NotYourTurn("You are not playing at this table.")

    @staticmethod
    def _require_roller_step(state: State, player: int, steps: tuple[str, ...],
                             doing: str) -> None:
        if state["step"] not in ("setup", "biz_news") and roller_seat(state)["player"] != player:
            raise NotYourTurn("It is not your turn.")
        if state["step"] not in steps:
            raise IllegalAction(f"You cannot {doing} now: {NEXT_MOVE[state['step']]}.")

    def _startup(self, state, player, action: Startup, rng) -> list[Note]:
        if state["step"] != "setup":
            raise IllegalAction("Start-Up Assets are chosen before the first turn.")
        seat = seat_of(state, player)
        industry = INDUSTRY_NAMES[action.industry]
        startup = self._startup_of(seat)
        if startup:
            startup.update(industry=action.industry, name=f"{industry} Start-Up")
            text = f"{{name:{player}}} switches their Start-Up to {industry}."
        else:
            seat["assets"].append(new_asset(state, action.industry, 0,
                                            state["rules"]["startup_payout"], False, "",
                                            startup=True))
            text = f"{{name:{player}}} takes a {industry} Start-Up."
        return [Note(text), *self._start_if_ready(state)]

    def _start_if_ready(self, state: State) -> list[Note]:
        if empty_slots(state) or not all(self._startup_of(seat) for seat in state["seats"]):
            return []
        state["step"] = "industry"
        return [Note("Every player has a Start-Up and the market is full: "
                     f"{{name:{roller_seat(state)['player']}}} rolls first.")]

    def _reveal(self, state, player, action: Reveal, rng) -> list[Note]:
        if state["market"][action.slot] is not None:
            raise IllegalAction(f"Market space {action.slot + 1} already holds an Asset.")
        if deck_is_empty(state):
            raise IllegalAction(f"The Asset deck is empty: Market space {action.slot + 1} "
                                "stays empty until the next Asset is discarded.")
        reshuffled = state["asset_deck"]["reshuffled"]
        if action.asset_id is not None:
            if all(asset["id"] != action.asset_id for asset in reshuffled):
                raise IllegalAction("That card is not in the reshuffled Asset deck.")
            asset = place_known_card(state, action.slot, action.asset_id)
        elif reshuffled:
            raise IllegalAction("The Asset deck is the reshuffled discard pile: pick the card "
                                "you revealed from it.")
        else:
            asset = place_new_card(state, action.slot, action.asset)
        notes = [Note(f"{{name:{player}}} reveals {describe(asset)} into Market space "
                      f"{action.slot + 1}.")]
        if state["step"] == "setup":
            notes += self._start_if_ready(state)
        elif state["step"] == "refill" and action.slot == state["refill_slot"]:
            notes.append(self._next_turn(state))
        return notes

    def _industry(self, state, player, action: RollIndustry, rng) -> list[Note]:
        self._require_roller_step(state, player, ("industry",), "roll the Industry die")
        state["industry"] = action.face
        state["ledger"] = []
        if action.face == BIZ_NEWS_FACE:
            state["step"] = "biz_news"
            return [Note(f"{{name:{player}}} rolled Biz News."), *biz_news.draw(state, rng)]
        notes = self._collect_industry(state, action.face)
        if not is_over(state):
            state["step"] = "number_dice"
        return notes

    def _collect_industry(self, state: State, industry: str) -> list[Note]:
        """Every owner collects, the roller first, then clockwise; stocks that paid are
        discarded. Once the Bank is empty, later collections are ignored."""
        name = INDUSTRY_NAMES[industry]
        notes = [Note(f"{{name:{roller_seat(state)['player']}}} rolled {name}.")]
        for seat in seats_from_roller(state):
            owned = assets_of(seat, industry)
            owed = sum(asset["payout"] for asset in owned) + industry_bonus(state, len(owned))
            if not owed:
                continue
            notes.append(self._collect_assets(state, seat, industry, owned, owed))
            if is_over(state):
                break
        if len(notes) == 1:
            notes.append(Note(f"Nobody collects for {name}."))
        return notes

    @staticmethod
    def _collect_assets(state: State, seat: dict, industry: str, owned: list[dict],
                        owed: int) -> Note:
        name = INDUSTRY_NAMES[industry]
        paid = collect(state, seat, owed, f"{name} Assets")
        payouts = " + ".join(str(asset["payout"]) for asset in owned)
        text = (f"{{name:{seat['player']}}} collects {collected_text(owed, paid)}: {name} "
                f"asset{'s' if len(owned) > 1 else ''} {payouts}")
        bonus = industry_bonus(state, len(owned))
        if bonus:
            text += f", bonus {bonus}"
        stocks = [asset for asset in owned if asset["stock"]]
        if stocks:
            text += f"; {discard_all(state, seat, stocks)}"
        return Note(text + ".")

    def _number_dice(self, state, player, action: NumberDice, rng) -> list[Note]:
        self._require_roller_step(state, player, ("number_dice",), "enter the number dice")
        category, payout = best_category(action.dice, state["rules"]["number_payouts"])
        state["dice"] = {"dice": list(action.dice), "category": category,
                         "name": CATEGORY_NAMES.get(category), "payout": payout}
        rolled = " ".join(str(die) for die in action.dice)
        if category is None:
            text = f"{{name:{player}}} rolled {rolled}: no payout."
        elif not payout:
            text = (f"{{name:{player}}} rolled {rolled}: {CATEGORY_NAMES[category]}, which pays "
                    "nothing.")
        else:
            paid = collect(state, roller_seat(state), payout, CATEGORY_NAMES[category])
            text = (f"{{name:{player}}} rolled {rolled}: {CATEGORY_NAMES[category]}, collects "
                    f"{collected_text(payout, paid)}.")
        if not is_over(state):
            state["step"] = "buy"
        return [Note(text)]

    def _buy(self, state, player, action: Buy, rng) -> list[Note]:
        self._require_roller_step(state, player, ("buy",), "buy")
        asset = state["market"][action.slot]
        seat = roller_seat(state)
        if asset is None:
            raise IllegalAction(f"Market space {action.slot + 1} is empty.")
        if asset["price"] > seat["money"]:
            raise IllegalAction(f"The {label(asset)} costs {asset['price']}; you have "
                                f"{seat['money']}.")
        pay(state, seat, asset["price"], f"bought the {label(asset)}")
        seat["assets"].append(asset)
        state["market"][action.slot] = None
        notes = [Note(f"{{name:{player}}} buys {describe(asset)} for {asset['price']}.")]
        awaited, refill_note = prepare_refill(state, action.slot)
        notes.append(refill_note)
        if awaited:
            state["step"] = "refill"
            state["refill_slot"] = action.slot
        else:
            notes.append(self._next_turn(state))
        return notes

    def _end_turn(self, state, player, action: EndTurn, rng) -> list[Note]:
        self._require_roller_step(state, player, ("buy", "refill"), "end the turn")
        if state["step"] == "refill":
            text = (f"{{name:{player}}} ends the turn; Market space {state['refill_slot'] + 1} "
                    "stays empty.")
        else:
            text = f"{{name:{player}}} ends the turn without buying."
        return [Note(text), self._next_turn(state)]

    @staticmethod
    def _next_turn(state: State) -> Note:
        state["roller"] = (state["roller"] + 1) % len(state["seats"])
        state.update(step="industry", industry=None, dice=None, refill_slot=None)
        return Note(f"{{name:{roller_seat(state)['player']}}} rolls next.")

    def _choose(self, state, player, action: Choose, rng) -> list[Note]:
        if state["step"] != "biz_news":
            raise IllegalAction("There is no Biz News question to answer.")
        prompt = biz_news.prompt_for(state, player)
        if prompt is None:
            raise NotYourTurn("The Biz News card is not asking you anything.")
        if action.choice not in prompt["choices"]:
            offered = ", ".join(prompt["labels"][choice] for choice in prompt["choices"])
            raise IllegalAction(f"Choose one of: {offered}.")
        return biz_news.answer(state, player, action.choice)

    def _adjust(self, state, player, action: Adjust, rng) -> list[Note]:
        seat = seat_of(state, action.player)
        if seat is None:
            raise IllegalAction("That player is not at this table.")
        asset = None
        if action.discard_asset is not None:
            asset = find_owned(seat, action.discard_asset)
            if asset is None:
                raise IllegalAction("That player does not own that Asset.")
            if asset["id"] in biz_news.asset_ids_in_prompts(state):
                raise IllegalAction("That Asset is waiting on a Biz News choice.")
        elif not action.amount:
            raise IllegalAction("Give an amount to pay, or an Asset to discard.")
        if action.amount > state["bank"]:
            raise IllegalAction(f"The Bank holds only {state['bank']}.")
        if -action.amount > seat["money"]:
            raise IllegalAction(f"That player has only {seat['money']}.")
        parts = []
        if asset is not None:
            parts.append(f"the {label(asset)} of {{name:{seat['player']}}} "
                         f"{discard(state, seat, asset)}")
        if action.amount > 0:
            collect(state, seat, action.amount, f"adjustment: {action.note}")
            parts.append(f"the Bank pays {{name:{seat['player']}}} {action.amount}")
        elif action.amount < 0:
            pay(state, seat, -action.amount, f"adjustment: {action.note}")
            parts.append(f"{{name:{seat['player']}}} pays the Bank {-action.amount}")
        return [Note(f"The host adjusts: {'; '.join(parts)} ({action.note}).")]

    moves = {Startup: _startup, Reveal: _reveal, RollIndustry: _industry,
             NumberDice: _number_dice, Buy: _buy, EndTurn: _end_turn, Choose: _choose,
             Adjust: _adjust}

    # -- what a viewer sees ----------------------------------------------------------------
    def view(self, state: State, viewer: int | None) -> tuple[dict, dict | None]:
        """Everything is public except the order of the Biz News deck."""
        news = state["biz_news"]
        last = news["cards"][news["last"]] if news["last"] is not None else None
        pending = state["pending"]
        public_state = {
            "bank": state["bank"],
            "step": state["step"],
            "roller": None if state["step"] == "setup" else roller_seat(state)["player"],
            "market": [public_asset(asset) for asset in state["market"]],
            "refill_slot": state["refill_slot"],
            "asset_deck": {"unseen": state["asset_deck"]["unseen"],
                           "reshuffled": [public_asset(a)
                                          for a in state["asset_deck"]["reshuffled"]]},
            "asset_discard": [public_asset(asset) for asset in state["asset_discard"]],
            "biz_news": {"deck": len(news["deck"]), "discard": len(news["discard"]),
                         "last": {"name": last["name"], "text": last["text"]} if last else None,
                         "resolving": pending is not None,
                         "industry": pending["industry"] if pending else None},
            "prompts": [{key: prompt[key] for key in ("player", "prompt", "choices", "labels")}
                        for prompt in (pending["prompts"] if pending else [])],
            "industry": state["industry"],
            "dice": dict(state["dice"]) if state["dice"] else None,
            "ledger": [dict(entry) for entry in state["ledger"]],
            "seats": [{"player": seat["player"], "money": seat["money"],
                       "assets": [public_asset(asset) for asset in seat["assets"]]}
                      for seat in state["seats"]],
            "start_total": state["start_total"],
            "last_bill": state["last_bill"],
        }
        return public_state, None

    def result(self, state: State) -> Result | None:
        if not is_over(state):
            return None
        money = {seat["player"]: seat["money"] for seat in state["seats"]}
        places = competition_places([(player, (amount,)) for player, amount in money.items()])
        standings = sorted((Standing(player, place, money[player]) for player, place in places),
                           key=lambda standing: (standing.place, standing.player))
        return Result(standings, self._explain(state, standings), "$")

    @staticmethod
    def _explain(state: State, standings: list[Standing]) -> str:
        first = [standing for standing in standings if standing.place == 1]
        ending = f"The Bank ran out when {{name:{state['last_bill']}}} took the last bill."
        if len(first) == 1:
            return (f"{ending} {{name:{first[0].player}}} wins with the most money, "
                    f"{first[0].score}.")
        names = [f"{{name:{standing.player}}}" for standing in first]
        together = join_names(names)
        return f"{ending} {together} share the win with {first[0].score} each."

    def box_data(self) -> dict:
        return load_box()

    def scores(self, state: State) -> dict[int, int]:
        return {s["player"]: s["money"] for s in state["seats"]}

    def random_action(self, state: State, player: int, rng: random.Random) -> dict | None:
        """A legal action for `player` chosen with `rng`, as posted data, or None when
        nothing is awaited from them (the host included). Revealed cards are plausible ones:
        a price a card might print, a Stock now and then, mostly the proposed payout, an
        optional name; the reshuffled pile's cards are picked by id."""
        if player is HOST or player not in self.waiting_for(state):
            return None
        templates = {template["type"]: template for template in self.actions(state, player)}
        reveal = templates.get("reveal")
        if reveal is not None and not reveal["awaited"]:
            reveal = None  # no card is being turned over: the space waits for a discard
        step = state["step"]
        if step == "setup":
            moves = (["startup"] if templates["startup"]["current"] is None else [])
            moves += ["reveal"] if reveal is not None else []
            if rng.choice(moves) == "startup":
                return {"type": "startup", "industry": rng.choice(list(INDUSTRIES))}
            return self._random_reveal(reveal, rng.choice(reveal["slot"]), rng)
        if step == "biz_news":
            return {"type": "choose", "choice": rng.choice(templates["choose"]["choice"])}
        if step == "industry":
            return {"type": "industry", "face": rng.choice(templates["industry"]["face"])}
        if step == "number_dice":
            return {"type": "number_dice", "dice": [rng.randint(1, 6) for _ in range(5)]}
        if step == "buy":
            if "buy" in templates and rng.random() < 0.7:
                return {"type": "buy", "slot": rng.choice(templates["buy"]["slot"])}
            return {"type": "end_turn"}
        # refill: the next card is turned over, or (rarely) the space is left empty
        if reveal is not None and rng.random() < 0.95:
            return self._random_reveal(reveal, state["refill_slot"], rng)
        return {"type": "end_turn"}

    @staticmethod
    def _random_reveal(template: dict, slot: int, rng: random.Random) -> dict:
        if "asset_id" in template:
            return {"type": "reveal", "slot": slot, "asset_id": rng.choice(template["asset_id"])}
        stock = rng.random() < 0.25
        price = rng.choice((5, 10, 15, 20, 25, 30, 40, 50, 60))
        asset = {"industry": rng.choice(template["asset"]["industry"]), "price": price,
                 "stock": stock, "name": rng.choice(("", "", "Corner Diner", "Airline",
                                                     "Book Publisher", "Arena", "App Maker"))}
        if rng.random() < 0.15:
            asset["payout"] = proposed_payout(price, stock) + rng.choice((-5, 5, 10))
        return {"type": "reveal", "slot": slot, "asset": asset}

    def secrets(self, state: State) -> dict[int, list]:
        """Money and assets are public in Big Money. The only hidden thing is the order of
        the Biz News deck, which is no player's secret and never leaves the state."""
        return {}
