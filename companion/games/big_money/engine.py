"""Big Money's rules: the app is the Bank and the Biz News deck; the players keep the
cards and dice.

Our rulings: docs/rulings.md (Big Money). The numbers the rulebook does
not print are box data (box.json), editable by the host as options.

Steps: "setup" (every player takes a Start-Up; the four market cards are revealed), then
each turn "industry" -> ("biz_news" while a card asks someone) -> "number_dice" -> "buy"
-> ("refill" while the bought card's space waits for the next card) -> the next roller's
"industry"; "over" once the Bank has paid its last bill.
"""
from __future__ import annotations

import random
from typing import Any, cast

from ..engine import (HOST, Game, IllegalAction, Note, NotYourTurn, Result, Standing,
                      StrictModel, competition_places)
from ..messages import Message, Player, listed, message, players, semicolons, text_from_json
from . import biz_news
from .teaching import LESSONS
from .action_templates import adjust_template, reveal_template, step_templates
from .assets import (INDUSTRY_NAMES, deck_is_empty, describe, discard, empty_slots,
                     find_owned, label, new_startup, place_known_card, place_new_card,
                     prepare_refill, startup_name, startup_of)
from .bank import collect, is_over, pay, roller_seat, seat_of, seats_from_roller
from .box import load_box, proposed_payout
from .dice import CATEGORIES
from .models import (BIZ_NEWS_FACE, MARKET_SLOTS, Adjust, Buy, Choose, EndTurn, NumberDice,
                     Reveal, RollIndustry, Startup)
from .models import Options as BigMoneyOptions
from .payouts import collect_for_industry, collect_for_number_dice
from .rules import SECTIONS, cannot_buy, rule_for, setup_checklist, why_not_buy, wrong_step
from .state import INDUSTRIES, BigMoneyState, BizNews, Effect, NewsCard, Rules, Seat, Step
from .view import public_view

# The bots' revealed cards: prices a card might print, a name now and then.
BOT_PRICES = (5, 10, 15, 20, 25, 30, 40, 50, 60)
BOT_NAMES = ("", "", "Corner Diner", "Airline", "Book Publisher", "Arena", "App Maker")


class BigMoney(Game[BigMoneyState, BigMoneyOptions]):
    id = "big-money"
    title = "Big Money"
    lessons = LESSONS
    min_players = 2
    max_players = 5
    Options = BigMoneyOptions
    host_actions = frozenset({"adjust"})
    shared_actions = frozenset({"reveal"})
    remembered = {"reveal": "asset"}
    rule_sections = SECTIONS

    def rule_for(self, state: BigMoneyState) -> str:
        return rule_for(state)

    def setup_checklist(self, options: BigMoneyOptions, players: int) -> list[Message]:
        return setup_checklist(options, players)

    def why_not(self, state: BigMoneyState, player: int | None) -> list[IllegalAction]:
        return why_not_buy(state, player)

    def start(self, players: list[int], options: BigMoneyOptions,
              rng: random.Random) -> BigMoneyState:
        news_deck = [
            index
            for index, card in enumerate(options.biz_news)
            for _ in range(card.count)
        ]
        rng.shuffle(news_deck)
        # An effect's model dumps the fields of its kind: the state.py TypedDict of that kind.
        news_cards: list[NewsCard] = [
            {"name": card.name, "text": card.text,
             "effect": cast(Effect, card.effect.model_dump())}
            for card in options.biz_news
        ]
        seats: list[Seat] = [{"player": player, "money": 0, "assets": []} for player in players]
        news: BizNews = {"cards": news_cards, "deck": news_deck, "discard": [], "last": None}
        payouts = options.number_payouts
        rules: Rules = {
            "number_payouts": {category: getattr(payouts, category) for category in CATEGORIES},
            "industry_bonus": dict(options.industry_bonus),
            "startup_payout": options.startup_payout,
        }
        return {
            "rules": rules,
            "start_total": options.bank_total,
            "bank": options.bank_total,
            "step": "setup",
            "roller": 0,  # seat index
            "seats": seats,
            "market": [None] * MARKET_SLOTS,
            "refill_slot": None,
            "asset_deck": {"unseen": options.asset_cards, "reshuffled": []},
            "asset_discard": [],
            "next_asset_id": 1,
            "biz_news": news,
            "pending": None,  # the Biz News card being resolved and its prompts
            "industry": None,  # the Industry die this turn
            "dice": None,  # the number dice this turn and what they earned
            "ledger": [],  # the money moved since this turn's Industry die
            "last_bill": None,
        }

    # -- reading the state -------------------------------------------------------
    def waiting_for(self, state: BigMoneyState) -> list[int]:
        step = state["step"]
        seats = state["seats"]
        if step == "over":
            return []
        if step == "setup":
            # Awaited: whoever has no Start-Up yet, and while the market has empty spaces
            # the first player, who enters its cards (the others may, but are not awaited:
            # their phones do not call it their turn).
            enterer = seats[0]["player"] if empty_slots(state) else None
            return [seat["player"] for seat in seats
                    if not startup_of(seat) or seat["player"] == enterer]
        if step == "biz_news":
            pending = state["pending"]
            asked = {prompt["player"] for prompt in pending["prompts"]} if pending else set()
            in_order = [seat["player"] for seat in seats_from_roller(state)]
            return [player for player in in_order if player in asked]
        return [roller_seat(state)["player"]]

    def actions(self, state: BigMoneyState, player: int | None) -> list[dict[str, Any]]:
        if is_over(state):
            return []
        if player is HOST:
            return [adjust_template(state)]
        seat = seat_of(state, player)
        if seat is None:
            return []
        templates = step_templates(state, seat)
        if empty_slots(state) and not deck_is_empty(state):
            templates.append(reveal_template(state))
        return templates

    # -- changing it -------------------------------------------------------------
    def apply(self, state: BigMoneyState, player: int | None, action: StrictModel,
              rng: random.Random) -> list[Note]:
        notes = super().apply(state, player, action, rng)
        last_bill = state["last_bill"]
        if is_over(state) and last_bill is not None:
            notes.append(Note(message("The Bank is empty: %(player)s took the last bill and "
                                      "the game is over.", player=Player(last_bill))))
        return notes

    def check_actor(self, state: BigMoneyState, player: int | None,
                    action: StrictModel) -> None:
        if is_over(state):
            raise IllegalAction(message("The game is over: the Bank has paid its last bill."),
                                rule="end")
        if isinstance(action, Adjust):  # (the one of `host_actions`)
            if player is not HOST:
                raise NotYourTurn(message("Only the host can adjust the Bank."), rule="bank")
            return
        if player is HOST:
            raise NotYourTurn(message("The host acts for a player: say which player."), rule="turn")
        self._seat(state, player)

    @staticmethod
    def _seat(state: BigMoneyState, player: int | None) -> Seat:
        """The seat of a player at the table (`check_actor` refuses anyone else)."""
        seat = seat_of(state, player)
        if seat is None:
            raise NotYourTurn(message("You are not playing at this table."), rule="setup")
        return seat

    @staticmethod
    def _require_turn(state: BigMoneyState, player: int, steps: tuple[Step, ...],
                      doing: str) -> None:
        """Refuse a roller's move out of turn, or at another step than `steps`."""
        refused = wrong_step(state, player, steps, doing)
        if refused is not None:
            raise refused

    # setup
    def _startup(self, state: BigMoneyState, player: int, action: Startup,
                 rng: random.Random) -> list[Note]:
        if state["step"] != "setup":
            raise IllegalAction(message("Start-Up Assets are chosen before the first turn."),
                                rule="setup")
        seat = self._seat(state, player)
        industry = INDUSTRY_NAMES[action.industry]
        startup = startup_of(seat)
        if startup:
            startup.update({"industry": action.industry, "name": startup_name(action.industry)})
            text = message("%(player)s switches their Start-Up to %(industry)s.",
                           player=Player(player), industry=industry)
        else:
            payout = state["rules"]["startup_payout"]
            seat["assets"].append(new_startup(state, action.industry, payout))
            text = message("%(player)s takes a %(industry)s Start-Up.", player=Player(player),
                           industry=industry)
        return [Note(text), *self._start_if_ready(state)]

    @staticmethod
    def _start_if_ready(state: BigMoneyState) -> list[Note]:
        everyone_started = all(startup_of(seat) for seat in state["seats"])
        if empty_slots(state) or not everyone_started:
            return []
        state["step"] = "industry"
        first = roller_seat(state)["player"]
        return [Note(message("Every player has a Start-Up and the market is full: %(player)s "
                             "rolls first.", player=Player(first)))]

    # the market
    def _reveal(self, state: BigMoneyState, player: int, action: Reveal,
                rng: random.Random) -> list[Note]:
        space = action.slot + 1
        if state["market"][action.slot] is not None:
            raise IllegalAction(message("Market space %(space)s already holds an Asset.",
                                        space=space), rule="market")
        if deck_is_empty(state):
            raise IllegalAction(message("The Asset deck is empty: Market space %(space)s stays "
                                        "empty until the next Asset is discarded.", space=space),
                                rule="market")
        reshuffled = state["asset_deck"]["reshuffled"]
        if action.asset_id is not None:
            if all(asset["id"] != action.asset_id for asset in reshuffled):
                raise IllegalAction(message("That card is not in the reshuffled Asset deck."),
                                    rule="market")
            asset = place_known_card(state, action.slot, action.asset_id)
        elif reshuffled:
            raise IllegalAction(message("The Asset deck is the reshuffled discard pile: pick "
                                        "the card you revealed from it."), rule="market")
        else:
            assert action.asset is not None, "a Reveal gives the asset or the asset_id"
            asset = place_new_card(state, action.slot, action.asset)
        notes = [Note(message("%(player)s reveals %(asset)s into Market space %(space)s.",
                              player=Player(player), asset=describe(asset), space=space))]
        if state["step"] == "setup":
            notes += self._start_if_ready(state)
        elif state["step"] == "refill" and action.slot == state["refill_slot"]:
            notes.append(self._next_turn(state))
        return notes

    def _buy(self, state: BigMoneyState, player: int, action: Buy,
             rng: random.Random) -> list[Note]:
        refused = cannot_buy(state, player, action.slot)
        if refused is not None:
            raise refused
        asset = state["market"][action.slot]
        assert asset is not None, "cannot_buy refuses an empty space"
        seat = roller_seat(state)
        price = asset["price"]
        pay(state, seat, price, message("bought the %(asset)s", asset=label(asset)))
        seat["assets"].append(asset)
        state["market"][action.slot] = None
        notes = [Note(message("%(player)s buys %(asset)s for %(price)s.", player=Player(player),
                              asset=describe(asset), price=price))]
        awaited, refill_note = prepare_refill(state, action.slot)
        notes.append(refill_note)
        if awaited:
            state["step"] = "refill"
            state["refill_slot"] = action.slot
        else:
            notes.append(self._next_turn(state))
        return notes

    # the turn
    def _industry(self, state: BigMoneyState, player: int, action: RollIndustry,
                  rng: random.Random) -> list[Note]:
        self._require_turn(state, player, ("industry",), "industry")
        state["industry"] = action.face
        state["ledger"] = []
        if action.face == BIZ_NEWS_FACE:
            state["step"] = "biz_news"
            rolled = Note(message("%(player)s rolled Biz News.", player=Player(player)))
            return [rolled, *biz_news.draw(state, rng)]
        rolled = Note(message("%(player)s rolled %(industry)s.", player=Player(player),
                              industry=INDUSTRY_NAMES[action.face]))
        notes = [rolled, *collect_for_industry(state, action.face)]
        if not is_over(state):
            state["step"] = "number_dice"
        return notes

    def _number_dice(self, state: BigMoneyState, player: int, action: NumberDice,
                     rng: random.Random) -> list[Note]:
        self._require_turn(state, player, ("number_dice",), "number_dice")
        note = collect_for_number_dice(state, action.dice)
        if not is_over(state):
            state["step"] = "buy"
        return [note]

    def _end_turn(self, state: BigMoneyState, player: int, action: EndTurn,
                  rng: random.Random) -> list[Note]:
        self._require_turn(state, player, ("buy", "refill"), "end")
        slot = state["refill_slot"]
        if state["step"] == "refill" and slot is not None:
            text = message("%(player)s ends the turn; Market space %(space)s stays empty.",
                           player=Player(player), space=slot + 1)
        else:
            text = message("%(player)s ends the turn without buying.", player=Player(player))
        return [Note(text), self._next_turn(state)]

    @staticmethod
    def _next_turn(state: BigMoneyState) -> Note:
        state["roller"] = (state["roller"] + 1) % len(state["seats"])
        state.update({"step": "industry", "industry": None, "dice": None, "refill_slot": None})
        return Note(message("%(player)s rolls next.", player=Player(roller_seat(state)["player"])))

    # Biz News and the host
    def _choose(self, state: BigMoneyState, player: int, action: Choose,
                rng: random.Random) -> list[Note]:
        if state["step"] != "biz_news":
            raise IllegalAction(message("There is no Biz News question to answer."),
                                rule="biz-news")
        prompt = biz_news.prompt_for(state, player)
        if prompt is None:
            raise NotYourTurn(message("The Biz News card is not asking you anything."),
                              rule="biz-news")
        if action.choice not in prompt["choices"]:
            labels = prompt["labels"]
            offered = listed((text_from_json(labels[choice]) for choice in prompt["choices"]),
                             tally=True)
            raise IllegalAction(message("Choose one of: %(choices)s.", choices=offered),
                                rule="biz-news")
        return biz_news.answer(state, player, action.choice)

    def _adjust(self, state: BigMoneyState, player: int | None, action: Adjust,
                rng: random.Random) -> list[Note]:
        seat = seat_of(state, action.player)
        if seat is None:
            raise IllegalAction(message("That player is not at this table."), rule="bank")
        asset = None
        if action.discard_asset is not None:
            asset = find_owned(seat, action.discard_asset)
            if asset is None:
                raise IllegalAction(message("That player does not own that Asset."), rule="bank")
            if asset["id"] in biz_news.asset_ids_in_prompts(state):
                raise IllegalAction(message("That Asset is waiting on a Biz News choice."),
                                    rule="bank")
        elif not action.amount:
            raise IllegalAction(message("Give an amount to pay, or an Asset to discard."),
                                rule="bank")
        if action.amount > state["bank"]:
            raise IllegalAction(message("The Bank holds only %(bank)s.", bank=state["bank"]),
                                rule="bank")
        if -action.amount > seat["money"]:
            raise IllegalAction(message("That player has only %(money)s.", money=seat["money"]),
                                rule="bank")
        name = Player(seat["player"])
        reason = message("adjustment: %(note)s", note=action.note)
        parts = []
        if asset is not None:
            named = message("the %(asset)s of %(player)s", asset=label(asset), player=name)
            parts.append(discard(state, seat, asset, named))
        if action.amount > 0:
            collect(state, seat, action.amount, reason)
            parts.append(message("the Bank pays %(player)s %(amount)s", player=name,
                                 amount=action.amount))
        elif action.amount < 0:
            pay(state, seat, -action.amount, reason)
            parts.append(message("%(player)s pays the Bank %(amount)s", player=name,
                                 amount=-action.amount))
        # The note is the host's own words: a parameter, never translated.
        return [Note(message("The host adjusts: %(changes)s (%(note)s).",
                             changes=semicolons(parts), note=action.note))]

    moves = {Startup: _startup, Reveal: _reveal, RollIndustry: _industry,
             NumberDice: _number_dice, Buy: _buy, EndTurn: _end_turn, Choose: _choose,
             Adjust: _adjust}

    # -- what a viewer sees --------------------------------------------------------
    def view(self, state: BigMoneyState,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Everything is public except the order of the Biz News deck."""
        return public_view(state), None

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Nothing is secret: only a player's moves read the table."""
        return public if actions else {}

    def result(self, state: BigMoneyState) -> Result | None:
        last_bill = state["last_bill"]
        if not is_over(state) or last_bill is None:
            return None
        money = {seat["player"]: seat["money"] for seat in state["seats"]}
        places = competition_places([(player, (money[player],)) for player in money])
        standings = [Standing(player, place, money[player]) for player, place in places]
        standings.sort(key=lambda standing: (standing.place, standing.player))
        return Result(standings, self._explain(Player(last_bill), standings), message("$"))

    @staticmethod
    def _explain(last_bill: Player, standings: list[Standing]) -> Message:
        first = [standing for standing in standings if standing.place == 1]
        best = first[0].score
        names = players(standing.player for standing in first)
        if len(first) == 1:
            return message("The Bank ran out when %(last)s took the last bill. %(players)s wins "
                           "with the most money, %(money)s.", last=last_bill, players=names,
                           money=best)
        return message("The Bank ran out when %(last)s took the last bill. %(players)s share "
                       "the win with %(money)s each.", last=last_bill, players=names, money=best)

    def box_data(self) -> dict[str, Any]:
        return load_box()

    def scores(self, state: BigMoneyState) -> dict[int, int]:
        return {seat["player"]: seat["money"] for seat in state["seats"]}

    def random_action(self, state: BigMoneyState, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        """A legal action for `player` chosen with `rng`, as posted data, or None when
        nothing is awaited from them (the host included). Revealed cards are plausible
        ones: a price a card might print, a Stock now and then, mostly the proposed
        payout, an optional name; the reshuffled pile's cards are picked by id."""
        if player is None or player not in self.waiting_for(state):  # (None: the host)
            return None
        offered = self.actions(state, player)
        templates = {template["type"]: template for template in offered}
        reveal = templates.get("reveal")
        if reveal is not None and not reveal["awaited"]:
            reveal = None  # no card is being turned over: the space waits for a discard
        step = state["step"]
        if step == "setup":
            moves = []
            if templates["startup"]["current"] is None:
                moves.append("startup")
            if reveal is not None:
                moves.append("reveal")
            if rng.choice(moves) == "startup" or reveal is None:
                return {"type": "startup", "industry": rng.choice(list(INDUSTRIES))}
            return self._random_reveal(reveal, rng.choice(reveal["slot"]), rng)
        if step == "biz_news":
            choices = templates["choose"]["choice"]
            return {"type": "choose", "choice": rng.choice(choices)}
        if step == "industry":
            faces = templates["industry"]["face"]
            return {"type": "industry", "face": rng.choice(faces)}
        if step == "number_dice":
            dice = [rng.randint(1, 6) for _ in range(5)]
            return {"type": "number_dice", "dice": dice}
        if step == "buy":
            if "buy" in templates and rng.random() < 0.7:
                return {"type": "buy", "slot": rng.choice(templates["buy"]["slot"])}
            return {"type": "end_turn"}
        # refill: the next card is turned over, or (rarely) the space is left empty
        slot = state["refill_slot"]
        if reveal is not None and slot is not None and rng.random() < 0.95:
            return self._random_reveal(reveal, slot, rng)
        return {"type": "end_turn"}

    @staticmethod
    def _random_reveal(template: dict[str, Any], slot: int,
                       rng: random.Random) -> dict[str, Any]:
        if "asset_id" in template:
            known = rng.choice(template["asset_id"])
            return {"type": "reveal", "slot": slot, "asset_id": known}
        stock = rng.random() < 0.25
        price = rng.choice(BOT_PRICES)
        industry = rng.choice(template["asset"]["industry"])
        name = rng.choice(BOT_NAMES)
        asset: dict[str, Any] = {"industry": industry, "price": price, "stock": stock, "name": name}
        if rng.random() < 0.15:
            asset["payout"] = proposed_payout(price, stock) + rng.choice((-5, 5, 10))
        return {"type": "reveal", "slot": slot, "asset": asset}

    def secrets(self, state: BigMoneyState) -> dict[int, list[Any]]:
        """Money and assets are public in Big Money. The only hidden thing is the order
        of the Biz News deck, which is no player's secret and never leaves the state."""
        return {}
