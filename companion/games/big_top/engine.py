"""Big Top's rules (and its Fan Tan variant): the app keeps the hands, charts, piles, receipts and
money; the players hold the real cards.

Our rulings: docs/rulings.md (Big Top). Each deal runs in three steps:
"hands" (each player enters their dealt cards; together they must be the 52-card deck:
hands.py),
"receipts" (each player secretly places $10, $7, $5, $3, one per suit; not in Fan Tan)
and "play". After the last deal the step is "over".

Decisions where the rulebook is open:
- Hand sizes are not checked one by one (the rulebook: "It does not matter if one player
  has more cards than another"); only the combined check against the deck is. The hand
  template gives the usual count of a deal that starts left of the dealer as a hint.
- Gate receipts and hand entries may be changed until the last player's goes in.
- A called card on the $0 space matches a played card but earns $0.
- Fan Tan: the host sets the number of hands with `hands`; 0 (the default) plays
  players x `deals_per_player` hands. The dealer rotates clockwise as in Big Top, for as
  many hands as set. A player who pays their last peanut is broke: the game ends at once
  and the peanuts in the pot stay there. Big Top proper ignores `hands`.
"""
from __future__ import annotations

import random
from typing import Any

from ..engine import (Game, IllegalAction, Note, NotYourTurn, Result, Standing,
                      StrictModel, competition_places)
from ..messages import Message, Player, listed, message, plural
from ..views import own_seat
from .teaching import LESSONS
from .cards import (DECK, DECK_ORDER, RECEIPT_VALUES, SUIT_TITLES, SUITS, card_label,
                    card_parts, chart_cards, deck_sorted, dollars_from, empty_chart, is_playable,
                    new_piles, next_needed, put_on_pile, shift_down, usual_hand_size)
from .deals import pay_receipts, start_deal, take_pot
from .explain import explain
from .hands import bot_hand, check_deck, not_held, unknown_card, valid_entry
from .models import Call, Hand, Pass, Play, PlayCalled, Receipts
from .models import Options as BigTopOptions
from .rules import SECTIONS, call_refusal, deal_count, deals_for, playable_called
from .rules import rule_for as rule_of_step
from .rules import setup_checklist as checklist
from .rules import why_not as reasons
from .state import BigTopState, EarningSource, ReceiptPlacement, Seat
from .view import private_view, public_view, seat_of

FAN_TAN = "Fan Tan"

# One round of dealing and playing out is, as the rulebooks say, a "deal" in Big Top and a
# "hand" in Fan Tan: each sentence naming it has both versions.


class BigTop(Game[BigTopState, BigTopOptions]):
    id = "big-top"
    title = "Big Top"
    lessons = LESSONS
    min_players = 3
    max_players = 6
    Options = BigTopOptions
    secret_actions = frozenset({"hand", "receipts"})
    secrets_called = "hand and gate receipts"
    first_player_role = "deals first"
    rule_sections = SECTIONS

    def default_options(self, player_count: int | None = None) -> BigTopOptions:
        if player_count is None:  # left to the player count, told in words
            return BigTopOptions()
        return BigTopOptions(deals_per_player=deals_for(player_count))

    def played_as(self, options: dict[str, Any]) -> str:
        return FAN_TAN if options.get("variant") == "fan-tan" else self.title

    def start(self, players: list[int], options: BigTopOptions,
              rng: random.Random) -> BigTopState:
        fan_tan = options.variant == "fan-tan"
        state: BigTopState = {
            "variant": options.variant,
            "deals": deal_count(options, len(players)),
            "deal": 0,
            "dealer_seat": -1,
            "step": "hands",
            "current": None,
            "piles": new_piles(),
            "check": None,
            "earnings": [],
            "deal_results": [],
            "seats": [{"player": p, "hand": None, "chart": empty_chart(), "receipts": None,
                       "track": 0, "total": options.peanuts if fan_tan else 0} for p in players],
        }
        if fan_tan:
            state["pot"] = 0
            state["broke"] = None
        start_deal(state)
        return state

    def rule_for(self, state: BigTopState) -> str:
        return rule_of_step(state)

    def setup_checklist(self, options: BigTopOptions, players: int) -> list[Message]:
        return checklist(options, players)

    def why_not(self, state: BigTopState, player: int | None) -> list[IllegalAction]:
        return reasons(state, player)

    # -- reading the state -----------------------------------------------------------
    def _player_seat(self, state: BigTopState, player: int | None) -> Seat:
        """The seat of a player at the table (`check_actor` refuses anyone else)."""
        seat = seat_of(state, player)
        if seat is None:
            raise NotYourTurn(message("You are not playing at this table."), rule="setup")
        return seat

    @staticmethod
    def _current(state: BigTopState) -> int:
        """The index of the seat on turn: set all through play."""
        current = state["current"]
        assert current is not None, "no seat is on turn outside play"
        return current

    @staticmethod
    def _on_turn(state: BigTopState) -> Seat | None:
        current = state["current"]
        return None if current is None else state["seats"][current]

    @staticmethod
    def _fan_tan(state: BigTopState) -> bool:
        return state["variant"] == "fan-tan"

    @staticmethod
    def _is_out(seat: Seat) -> bool:
        return not seat["hand"] and not chart_cards(seat["chart"])

    def waiting_for(self, state: BigTopState) -> list[int]:
        seats = state["seats"]
        if state["step"] == "hands":
            if state["check"] is not None:
                return [s["player"] for s in seats]
            return [s["player"] for s in seats if s["hand"] is None]
        if state["step"] == "receipts":
            return [s["player"] for s in seats if s["receipts"] is None]
        on_turn = self._on_turn(state)
        if state["step"] == "play" and on_turn is not None:
            return [on_turn["player"]]
        return []

    def choices(self, state: BigTopState, seat: Seat) -> dict[str, list[str]]:
        """The moves open to the seat on turn, in order of obligation: only its playable
        called cards if it has any, else its playable and callable hand cards. Empty:
        the seat must pass."""
        called = playable_called(state, seat)
        if called:
            return {"play_called": called}
        hand = deck_sorted(seat["hand"] or [])
        moves = {"play": [c for c in hand if is_playable(state["piles"], c)]}
        if not self._fan_tan(state):
            moves["call"] = [c for c in hand if call_refusal(state, seat, c) is None]
        return {kind: cards for kind, cards in moves.items() if cards}

    def actions(self, state: BigTopState, player: int | None) -> list[dict[str, Any]]:
        seat = seat_of(state, player)
        if seat is None:
            return []
        # An entry or a placement may be changed until the last one is in.
        if state["step"] == "hands":
            index = state["seats"].index(seat)
            return [{"type": "hand", "cards": list(DECK),
                     "expected_count": usual_hand_size(index, state["dealer_seat"],
                                                       len(state["seats"]))}]
        if state["step"] == "receipts":
            return [{"type": "receipts",
                     "receipts": {suit: list(RECEIPT_VALUES) for suit in SUITS}}]
        if state["step"] != "play" or self._on_turn(state) is not seat:
            return []
        moves = self.choices(state, seat)
        if not moves:
            return [{"type": "pass"}]
        return [{"type": kind, "card": cards} for kind, cards in moves.items()]

    # -- changing it -----------------------------------------------------------------
    def check_actor(self, state: BigTopState, player: int | None, action: StrictModel) -> None:
        self._player_seat(state, player)
        if state["step"] == "over":
            over = message("The game is over.")
            raise (IllegalAction(over, rule="fan-tan") if self._fan_tan(state)
                   else IllegalAction(over, rule="end"))

    # hand entry
    def _enter_hand(self, state: BigTopState, player: int, action: Hand,
                    rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        if state["step"] != "hands":
            raise IllegalAction(message("Hands are entered at the start of a deal; this deal is "
                                        "already under way.") if not self._fan_tan(state) else
                                message("Hands are entered at the start of a hand; this hand is "
                                        "already under way."), rule="hands")
        cards = valid_entry(action.cards)
        seat["hand"] = cards
        notes = [Note(message("%(player)s entered their hand.", player=Player(player)),
                      private={player: plural("You entered your hand (%(count)s card).",
                                              "You entered your hand (%(count)s cards).",
                                              "count", count=len(cards))})]
        if all(s["hand"] is not None for s in state["seats"]):
            notes += self._check_hands(state)
        return notes

    def _check_hands(self, state: BigTopState) -> list[Note]:
        """With every hand in, they must together be exactly the deck (hands.py)."""
        failed = check_deck(state)
        if failed is not None:
            return [failed]
        if self._fan_tan(state):
            notes = [Note(message("Every hand is in and they make up the deck."))]
            return notes + self._start_play(state)
        state["step"] = "receipts"
        return [Note(message("Every hand is in and they make up the deck. "
                             "Place your gate receipts."))]

    # receipts
    def _place_receipts(self, state: BigTopState, player: int, action: Receipts,
                        rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        if self._fan_tan(state):
            raise IllegalAction(message("Fan Tan uses no gate receipts."), rule="fan-tan")
        if state["step"] != "receipts":
            raise IllegalAction(message("Gate receipts are placed once every hand is entered, "
                                        "before play starts."), rule="receipts")
        placed = action.receipts
        placement: ReceiptPlacement = {"clowns": placed.clowns, "sideshow": placed.sideshow,
                                       "animals": placed.animals, "performers": placed.performers}
        if sorted(placement.values()) != sorted(RECEIPT_VALUES):
            raise IllegalAction(message("Place each receipt ($10, $7, $5 and $3) exactly once, "
                                        "one per suit."), rule="receipts")
        seat["receipts"] = placement
        told = listed((message("$%(value)s on %(suit)s", value=placement[suit],
                               suit=SUIT_TITLES[suit]) for suit in SUITS), tally=True)
        notes = [Note(message("%(player)s placed their gate receipts.", player=Player(player)),
                      private={player: message("You placed %(receipts)s.", receipts=told)})]
        if all(s["receipts"] is not None for s in state["seats"]):
            notes.append(Note(message("Every gate receipt is placed.")))
            notes += self._start_play(state)
        return notes

    # play
    def _require_turn(self, state: BigTopState, seat: Seat) -> None:
        if state["step"] != "play":
            raise IllegalAction(message("Play starts once every hand is entered.")
                                if self._fan_tan(state) else
                                message("Play starts once every hand is entered and every "
                                        "gate receipt is placed."), rule="turn")
        if self._on_turn(state) is not seat:
            raise NotYourTurn(message("It is not your turn."), rule="turn")

    def _require_no_called_play(self, state: BigTopState, seat: Seat) -> None:
        called = playable_called(state, seat)
        if called:
            raise IllegalAction(message("You must play your called %(card)s first.",
                                        card=card_label(called[0])), rule="called")

    @staticmethod
    def _known_card(card: str) -> None:
        if card not in DECK_ORDER:
            raise IllegalAction(unknown_card(card), rule="setup")

    def _play_called(self, state: BigTopState, player: int, action: PlayCalled,
                     rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        self._require_turn(state, seat)
        self._known_card(action.card)
        if action.card not in chart_cards(seat["chart"]):
            raise IllegalAction(message("The %(card)s is not on your chart.",
                                        card=card_label(action.card)), rule="called")
        if not is_playable(state["piles"], action.card):
            raise IllegalAction(message("Your called %(card)s cannot be played yet: its pile "
                                        "waits for the %(needed)s.", card=card_label(action.card),
                                        needed=next_needed(state["piles"], action.card)),
                                rule="called")
        space = next(s for s, c in seat["chart"].items() if c == action.card)
        seat["chart"][space] = None
        put_on_pile(state["piles"], action.card)
        note = Note(message("%(player)s played their called %(card)s.",
                            player=Player(seat["player"]), card=card_label(action.card)))
        return [note] + self._after_play(state, seat)

    def _play(self, state: BigTopState, player: int, action: Play,
              rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        self._require_turn(state, seat)
        self._known_card(action.card)
        self._require_no_called_play(state, seat)
        card = action.card
        hand = seat["hand"] or []
        if card not in hand:
            raise IllegalAction(not_held(card), rule="play")
        if not is_playable(state["piles"], card):
            raise IllegalAction(message("The %(card)s cannot be played yet: its pile waits for "
                                        "the %(needed)s.", card=card_label(card),
                                        needed=next_needed(state["piles"], card)), rule="play")
        sources = self._earnings(state, seat, card)
        hand.remove(card)
        put_on_pile(state["piles"], card)
        text = message("%(player)s played the %(card)s.", player=Player(player),
                       card=card_label(card))
        if sources:
            amount = sum(s["value"] for s in sources)
            seat["track"] += amount
            state["earnings"].append({"player": player, "card": card, "amount": amount,
                                      "from": sources})
            text = message("%(player)s played the %(card)s: +$%(amount)s from %(sources)s.",
                           player=Player(player), card=card_label(card), amount=amount,
                           sources=dollars_from(sources))
        return [Note(text)] + self._after_play(state, seat)

    @staticmethod
    def _earnings(state: BigTopState, seat: Seat, card: str) -> list[EarningSource]:
        """The opponents' called cards a play from hand earns from: same suit and shade
        (a Poster: its whole suit), each worth the space it sits on."""
        suit, shade, _ = card_parts(card)
        sources: list[EarningSource] = []
        for other in state["seats"]:
            if other is seat:
                continue
            for space, called in other["chart"].items():
                if called is None or space == "0":
                    continue
                called_suit, called_shade, _ = card_parts(called)
                if called_suit == suit and shade in ("poster", called_shade):
                    sources.append({"player": other["player"], "card": called,
                                    "value": int(space)})
        return sources

    def _call(self, state: BigTopState, player: int, action: Call,
              rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        self._require_turn(state, seat)
        if self._fan_tan(state):
            raise IllegalAction(message("Calling is not allowed in Fan Tan."), rule="fan-tan")
        self._known_card(action.card)
        self._require_no_called_play(state, seat)
        card = action.card
        hand = seat["hand"] or []
        if card not in hand:
            raise IllegalAction(not_held(card), rule="call")
        refusal = call_refusal(state, seat, card)
        if refusal:
            raise IllegalAction(refusal, rule="call")
        hand.remove(card)
        seat["chart"]["3"] = card
        return ([Note(message("%(player)s called the %(card)s (on $3).",
                              player=Player(seat["player"]), card=card_label(card)))]
                + self._next_turn(state))

    def _pass(self, state: BigTopState, player: int, action: Pass,
              rng: random.Random) -> list[Note]:
        seat = self._player_seat(state, player)
        self._require_turn(state, seat)
        if self.choices(state, seat):
            if self._fan_tan(state):
                raise IllegalAction(message("You cannot pass: you can still play a card."),
                                    rule="fan-tan")
            raise IllegalAction(message("You cannot pass: you can still play or call a card."),
                                rule="pass")
        if not self._fan_tan(state):
            return [Note(message("%(player)s passed.", player=Player(player)))] + self._next_turn(
                state)
        seat["total"] -= 1
        state["pot"] += 1
        note = Note(message("%(player)s could not play and put a peanut in the pot (pot: "
                            "%(pot)s).", player=Player(player), pot=state["pot"]))
        if seat["total"] == 0:
            state["broke"] = player
            state["step"] = "over"
            state["current"] = None
            return [note, Note(message("%(player)s is out of peanuts: the game is over.",
                                       player=Player(player)))]
        return [note] + self._next_turn(state)

    moves = {Hand: _enter_hand, Receipts: _place_receipts, PlayCalled: _play_called,
             Play: _play, Call: _call, Pass: _pass}

    # turns and deals
    def _after_play(self, state: BigTopState, seat: Seat) -> list[Note]:
        if self._is_out(seat):
            return self._end_deal(state, seat)
        return self._next_turn(state)

    def _start_play(self, state: BigTopState) -> list[Note]:
        state["step"] = "play"
        state["current"] = (state["dealer_seat"] + 1) % len(state["seats"])
        first = state["seats"][self._current(state)]["player"]
        return [Note(message("%(player)s plays first.", player=Player(first)))] + self._start_turn(
            state)

    def _next_turn(self, state: BigTopState) -> list[Note]:
        state["current"] = (self._current(state) + 1) % len(state["seats"])
        return self._start_turn(state)

    def _start_turn(self, state: BigTopState) -> list[Note]:
        """A turn starts by sliding the player's called cards down."""
        seat = state["seats"][self._current(state)]
        moves = shift_down(seat["chart"])
        if not moves:
            return []
        slid = listed((message("%(card)s to $%(space)s", card=card_label(card), space=space)
                       for card, space in moves), tally=True)
        return [Note(message("%(player)s's called cards slide down: %(moves)s.",
                             player=Player(seat["player"]), moves=slid))]

    def _end_deal(self, state: BigTopState, winner: Seat) -> list[Note]:
        settle = take_pot if self._fan_tan(state) else pay_receipts
        note, deal_result = settle(state, winner)
        state["deal_results"].append(deal_result)
        notes = [note]
        if state["deal"] == state["deals"]:
            state["step"] = "over"
            state["current"] = None
            notes.append(Note(message("That was the last hand: the game is over.")
                              if self._fan_tan(state) else
                              message("That was the last deal: the game is over.")))
            return notes
        start_deal(state)
        dealer = state["seats"][state["dealer_seat"]]["player"]
        next_round = (message("Hand %(deal)s of %(deals)s: %(dealer)s deals. Everyone, enter "
                              "your new hand.", deal=state["deal"], deals=state["deals"],
                              dealer=Player(dealer)) if self._fan_tan(state) else
                      message("Deal %(deal)s of %(deals)s: %(dealer)s deals. Everyone, enter "
                              "your new hand.", deal=state["deal"], deals=state["deals"],
                              dealer=Player(dealer)))
        notes.append(Note(next_round))
        return notes

    # -- what a viewer sees ----------------------------------------------------------
    def view(self, state: BigTopState,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        return public_view(state), private_view(state, viewer)

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        """A hand reads the step, the variant and whether its owner entered it."""
        if actions:
            return public
        return {"step": public["step"], "variant": public["variant"],
                "seats": own_seat(public, you, "entered")}

    def result(self, state: BigTopState) -> Result | None:
        if state["step"] != "over":
            return None
        places = dict(competition_places([(s["player"], (s["total"],)) for s in state["seats"]]))
        standings = sorted((Standing(s["player"], places[s["player"]], s["total"])
                            for s in state["seats"]),
                           key=lambda st: (st.place, st.player))
        label = message("peanuts") if self._fan_tan(state) else message("$")
        return Result(standings, explain(state, standings, self._fan_tan(state)), label)

    def scores(self, state: BigTopState) -> dict[int, int]:
        """Money banked in finished deals plus this deal's track (Fan Tan: peanuts)."""
        running = 0 if state["step"] == "over" else 1
        return {s["player"]: s["total"] + running * s["track"] for s in state["seats"]}

    def random_action(self, state: BigTopState, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        if player is None or player not in self.waiting_for(state):
            return None
        if state["step"] == "hands":
            return {"type": "hand", "cards": bot_hand(state, player)}
        if state["step"] == "receipts":
            values = list(RECEIPT_VALUES)
            rng.shuffle(values)
            return {"type": "receipts", "receipts": dict(zip(SUITS, values))}
        template = rng.choice(self.actions(state, player))
        if template["type"] == "pass":
            return {"type": "pass"}
        return {"type": template["type"], "card": rng.choice(template["card"])}

    def secrets(self, state: BigTopState) -> dict[int, list[Any]]:
        if state["step"] == "over":
            return {}  # the game's record, every entry in it, is open to all at the end
        # The missing cards a failed hand check names are public by design (nobody holds
        # them); a card entered twice stays the secret of each player who entered it.
        flagged = set(state["check"]["missing"]) if state["check"] else set()
        found = {}
        for seat in state["seats"]:
            values: list[Any] = [c for c in seat["hand"] or [] if c not in flagged]
            if seat["receipts"] is not None:
                values.append({"receipts": seat["receipts"]})
            found[seat["player"]] = values
        return found
