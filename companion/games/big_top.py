"""Big Top (and its Fan Tan variant): the app keeps the hands, charts, piles, receipts and
money; the players hold the real cards.

Rulebook: big-top.txt; rulings: RULINGS.md (Big Top). Each deal runs in three steps:
"hands" (each player enters their dealt cards; together they must be the 52-card deck),
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
from collections import Counter
from typing import Annotated, Literal, Union

from pydantic import BeforeValidator, Field

from .engine import (Game, IllegalAction, Note, NotYourTurn, Result, Standing, State,
                     StrictModel, competition_places)
from .go_big import join_names

SUITS = ("clowns", "sideshow", "animals", "performers")
SUIT_TITLES = {"clowns": "Clowns", "sideshow": "Sideshow", "animals": "Animals",
               "performers": "Performers"}
# As the rulebook names single cards: "the dark 1 Animal card", "the Performer poster".
CARD_NOUNS = {"clowns": "Clown", "sideshow": "Sideshow", "animals": "Animal",
              "performers": "Performer"}
RANKS = ("P",) + tuple(f"L{n}" for n in range(1, 7)) + tuple(f"D{n}" for n in range(1, 7))
DECK = tuple(f"{suit}-{rank}" for suit in SUITS for rank in RANKS)
DECK_ORDER = {card: index for index, card in enumerate(DECK)}
RECEIPT_VALUES = (10, 7, 5, 3)
SPACES = ("3", "2", "1", "0")
TRACK_SPACES = 20
EARNINGS_SHOWN = 5  # the view's latest earning plays of the deal

# Shaped like a card but checked against the deck in `apply`, so that an unknown card
# gets a sentence rather than a validation error.
Card = Annotated[str, Field(min_length=3, max_length=16, pattern=r"^[a-z]+-[A-Z0-9]+$")]
def _whole_number(value):
    """A form posts "10" where JSON posts 10; a Literal of ints does not convert it."""
    return int(value) if isinstance(value, str) and value.strip().isdigit() else value


ReceiptValue = Annotated[Literal[10, 7, 5, 3], BeforeValidator(_whole_number)]


class Options(StrictModel):
    variant: Literal["big-top", "fan-tan"] = Field(
        "big-top", title="Game",
        description="Big Top, or Fan Tan from the designer's notes: no calling, no charts "
                    "or receipts; a player who cannot play pays a peanut to the pot.")
    deals_per_player: int = Field(
        1, ge=1, le=4, title="Deals per player",
        description="Each player deals this many times (the rulebook: once, twice with "
                    "3 players). In Fan Tan this sets the number of hands when Hands is 0.")
    peanuts: int = Field(
        25, ge=1, le=100, title="Peanuts each (Fan Tan)",
        description="The peanuts each player starts with in Fan Tan (25 in the designer's "
                    "notes).")
    hands: int = Field(
        0, ge=0, le=50, title="Hands (Fan Tan)",
        description="The number of hands to play in the Fan Tan variant; 0 means one "
                    "round of deals (one per player) times Deals per player. Big Top "
                    "ignores it.")


class Hand(StrictModel):
    type: Literal["hand"]
    cards: list[Card] = Field(max_length=len(DECK))


class ReceiptPlacement(StrictModel):
    clowns: ReceiptValue
    sideshow: ReceiptValue
    animals: ReceiptValue
    performers: ReceiptValue


class Receipts(StrictModel):
    type: Literal["receipts"]
    receipts: ReceiptPlacement


class PlayCalled(StrictModel):
    type: Literal["play_called"]
    card: Card


class Play(StrictModel):
    type: Literal["play"]
    card: Card


class Call(StrictModel):
    type: Literal["call"]
    card: Card


class Pass(StrictModel):
    type: Literal["pass"]


# -- cards, piles and charts -------------------------------------------------------
def card_parts(card: str) -> tuple[str, str, int]:
    """("sideshow", "dark", 4) for "sideshow-D4"; a Poster is ("clowns", "poster", 0)."""
    suit, rank = card.split("-")
    if rank == "P":
        return suit, "poster", 0
    return suit, "light" if rank[0] == "L" else "dark", int(rank[1])


def card_label(card: str) -> str:
    """"dark 4 Sideshow", "light 1 Performer", "Clown Poster"."""
    suit, shade, number = card_parts(card)
    if shade == "poster":
        return f"{CARD_NOUNS[suit]} Poster"
    return f"{shade} {number} {CARD_NOUNS[suit]}"


def deck_sorted(cards) -> list[str]:
    return sorted(cards, key=DECK_ORDER.__getitem__)


def new_piles() -> dict:
    return {suit: {"poster": False, "light": 0, "dark": 0} for suit in SUITS}


def is_playable(piles: dict, card: str) -> bool:
    """The Poster opens its suit; then each shade climbs from 1 to 6 in its own pile."""
    suit, shade, number = card_parts(card)
    pile = piles[suit]
    if shade == "poster":
        return not pile["poster"]
    return pile["poster"] and pile[shade] == number - 1


def next_needed(piles: dict, card: str) -> str:
    """What the card's pile waits for, in words."""
    suit, shade, _ = card_parts(card)
    pile = piles[suit]
    if not pile["poster"]:
        return f"the {CARD_NOUNS[suit]} Poster"
    return f"the {shade} {pile[shade] + 1} {CARD_NOUNS[suit]}"


def put_on_pile(piles: dict, card: str) -> None:
    suit, shade, number = card_parts(card)
    if shade == "poster":
        piles[suit]["poster"] = True
    else:
        piles[suit][shade] = number


def pile_cards(piles: dict) -> list[str]:
    """The cards lying on the piles."""
    cards = []
    for suit, pile in piles.items():
        if pile["poster"]:
            cards.append(f"{suit}-P")
        cards += [f"{suit}-L{n}" for n in range(1, pile["light"] + 1)]
        cards += [f"{suit}-D{n}" for n in range(1, pile["dark"] + 1)]
    return cards


def empty_chart() -> dict:
    return {space: None for space in SPACES}


def shift_down(chart: dict) -> list[tuple[str, str]]:
    """Slide each called card one space lower, lowest space first, each only into an
    empty space (a card on $0 stays). Returns the (card, new space) moves."""
    moves = []
    for lower, upper in (("0", "1"), ("1", "2"), ("2", "3")):
        if chart[lower] is None and chart[upper] is not None:
            chart[lower], chart[upper] = chart[upper], None
            moves.append((chart[lower], lower))
    return moves


def chart_cards(chart: dict) -> list[str]:
    return [card for card in chart.values() if card is not None]


def token_position(track: int) -> dict:
    """Where the physical scoring token goes: 23 is the +$20 side up on space 3."""
    if track == 0:
        return {"space": None, "plus_20": False, "text": "beside the chart ($0)"}
    if track <= TRACK_SPACES:
        return {"space": track, "plus_20": False, "text": f"face down on {track}"}
    space = min(track - TRACK_SPACES, TRACK_SPACES)
    text = f"+$20 side up on {space}"
    if track > 2 * TRACK_SPACES:
        text += f" (and ${track - 2 * TRACK_SPACES} more to remember)"
    return {"space": space, "plus_20": True, "text": text}


def usual_hand_size(seat_index: int, dealer_index: int, players: int) -> int:
    """Dealing one card at a time from the dealer's left, the first 52 % n players
    dealt to get one card more."""
    order = (seat_index - dealer_index - 1) % players
    return len(DECK) // players + (1 if order < len(DECK) % players else 0)


def dollars_from(sources: list[dict]) -> str:
    """"{name:4}'s called dark 4 Sideshow" or, for several, each with its value."""
    if len(sources) == 1:
        return f"{{name:{sources[0]['player']}}}'s called {card_label(sources[0]['card'])}"
    return join_names([f"{{name:{s['player']}}}'s called {card_label(s['card'])} "
                       f"(${s['value']})" for s in sources])


class BigTop(Game):
    id = "big-top"
    title = "Big Top"
    min_players = 3
    max_players = 6
    Options = Options
    Action = Annotated[Union[Hand, Receipts, PlayCalled, Play, Call, Pass],
                       Field(discriminator="type")]
    secret_actions = frozenset({"hand", "receipts"})

    def default_options(self, player_count: int | None = None) -> Options:
        return Options(deals_per_player=2 if player_count == 3 else 1)

    def setup(self, players: list[int], options: Options, rng: random.Random) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction("Big Top is played by 3 to 6 players.")
        fan_tan = options.variant == "fan-tan"
        state = {
            "variant": options.variant,
            "deals": self._deal_count(options, len(players)),
            "deal": 0,
            "dealer_seat": -1,
            "step": "hands",
            "current": None,
            "piles": new_piles(),
            "check": None,
            "earnings": [],
            "deal_results": [],
            "seats": [{"player": p, "hand": None, "chart": empty_chart(), "receipts": None,
                       "track": 0, "total": options.peanuts if fan_tan else 0}
                      for p in players],
        }
        if fan_tan:
            state["pot"] = 0
            state["broke"] = None
        self._start_deal(state)
        return state

    @staticmethod
    def _deal_count(options: Options, players: int) -> int:
        """Fan Tan plays the host's `hands` if set; otherwise (and always in Big Top)
        each player deals `deals_per_player` times."""
        if options.variant == "fan-tan" and options.hands:
            return options.hands
        return players * options.deals_per_player

    # -- reading the state -----------------------------------------------------------
    @staticmethod
    def _seat(state: State, player: int | None) -> dict | None:
        return next((s for s in state["seats"] if s["player"] == player), None)

    @staticmethod
    def _fan_tan(state: State) -> bool:
        return state["variant"] == "fan-tan"

    @staticmethod
    def _is_out(seat: dict) -> bool:
        return not seat["hand"] and not chart_cards(seat["chart"])

    def waiting_for(self, state: State) -> list[int]:
        seats = state["seats"]
        if state["step"] == "hands":
            if state["check"] is not None:
                return [s["player"] for s in seats]
            return [s["player"] for s in seats if s["hand"] is None]
        if state["step"] == "receipts":
            return [s["player"] for s in seats if s["receipts"] is None]
        if state["step"] == "play":
            return [seats[state["current"]]["player"]]
        return []

    def choices(self, state: State, seat: dict) -> dict[str, list[str]]:
        """The moves open to the seat on turn, in order of obligation: only its playable
        called cards if it has any, else its playable and callable hand cards. Empty:
        the seat must pass."""
        called = self._playable_called(state, seat)
        if called:
            return {"play_called": called}
        hand = deck_sorted(seat["hand"])
        moves = {"play": [c for c in hand if is_playable(state["piles"], c)]}
        if not self._fan_tan(state):
            moves["call"] = [c for c in hand if self._call_refusal(state, seat, c) is None]
        return {kind: cards for kind, cards in moves.items() if cards}

    @staticmethod
    def _playable_called(state: State, seat: dict) -> list[str]:
        return deck_sorted(c for c in chart_cards(seat["chart"])
                           if is_playable(state["piles"], c))

    @staticmethod
    def _call_refusal(state: State, seat: dict, card: str) -> str | None:
        """Why the seat may not call this hand card now, or None if it may."""
        suit, shade, _ = card_parts(card)
        if shade == "poster":
            return "A Poster can never be called."
        if is_playable(state["piles"], card):
            return f"You can play the {card_label(card)}, so you cannot call it."
        if seat["chart"]["3"] is not None:
            return "Your $3 space is taken, so you cannot call."
        if any(card_parts(c)[0] == suit for c in chart_cards(seat["chart"])):
            return f"You already have a {CARD_NOUNS[suit]} card on your chart."
        return None

    def actions(self, state: State, player: int | None) -> list[dict]:
        seat = self._seat(state, player)
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
        if state["step"] != "play" or state["seats"][state["current"]] is not seat:
            return []
        moves = self.choices(state, seat)
        if not moves:
            return [{"type": "pass"}]
        return [{"type": kind, "card": cards} for kind, cards in moves.items()]

    # -- changing it -----------------------------------------------------------------
    def apply(self, state: State, player: int | None, action, rng: random.Random) -> list[Note]:
        seat = self._seat(state, player)
        if seat is None:
            raise NotYourTurn("You are not playing at this table.")
        if state["step"] == "over":
            raise IllegalAction("The game is over.")
        handlers = {Hand: self._enter_hand, Receipts: self._place_receipts,
                    PlayCalled: self._play_called, Play: self._play, Call: self._call,
                    Pass: self._pass}
        return handlers[type(action)](state, seat, action)

    # hand entry
    def _enter_hand(self, state: State, seat: dict, action: Hand) -> list[Note]:
        if state["step"] != "hands":
            raise IllegalAction("Hands are entered at the start of a deal; this deal is "
                                "already under way.")
        cards = self._valid_entry(action.cards)
        seat["hand"] = cards
        player = seat["player"]
        notes = [Note(f"{{name:{player}}} entered their hand.",
                      private={player: f"You entered your hand ({len(cards)} cards)."})]
        if all(s["hand"] is not None for s in state["seats"]):
            notes += self._check_hands(state)
        return notes

    @staticmethod
    def _valid_entry(cards: list[str]) -> list[str]:
        if not cards:
            raise IllegalAction("Enter the cards you were dealt: a hand cannot be empty.")
        unknown = [c for c in cards if c not in DECK_ORDER]
        if unknown:
            raise IllegalAction(f"There is no card \"{unknown[0]}\" in a Big Top deck.")
        twice = [c for c, n in Counter(cards).items() if n > 1]
        if twice:
            raise IllegalAction(f"You listed the {card_label(twice[0])} more than once.")
        return deck_sorted(cards)

    def _check_hands(self, state: State) -> list[Note]:
        """With every hand in, they must together be exactly the deck. The check names
        the cards that are off, never who entered them."""
        counts = Counter(c for s in state["seats"] for c in s["hand"])
        missing = [c for c in DECK if counts[c] == 0]
        doubled = [c for c in DECK if counts[c] > 1]
        if missing or doubled:
            state["check"] = {"missing": missing, "doubled": doubled}
            problems = []
            if missing:
                problems.append("missing: " + ", ".join(map(card_label, missing)))
            if doubled:
                problems.append("entered twice: " + ", ".join(map(card_label, doubled)))
            return [Note("The hands do not make up the deck (" + "; ".join(problems)
                         + "). Everyone, check your entry.")]
        state["check"] = None
        if self._fan_tan(state):
            notes = [Note("Every hand is in and they make up the deck.")]
            return notes + self._start_play(state)
        state["step"] = "receipts"
        return [Note("Every hand is in and they make up the deck. "
                     "Place your gate receipts.")]

    # receipts
    def _place_receipts(self, state: State, seat: dict, action: Receipts) -> list[Note]:
        if self._fan_tan(state):
            raise IllegalAction("Fan Tan uses no gate receipts.")
        if state["step"] != "receipts":
            raise IllegalAction("Gate receipts are placed once every hand is entered, "
                                "before play starts.")
        placement = action.receipts.model_dump()
        if sorted(placement.values()) != sorted(RECEIPT_VALUES):
            raise IllegalAction("Place each receipt ($10, $7, $5 and $3) exactly once, "
                                "one per suit.")
        seat["receipts"] = placement
        player = seat["player"]
        told = ", ".join(f"${placement[suit]} on {SUIT_TITLES[suit]}" for suit in SUITS)
        notes = [Note(f"{{name:{player}}} placed their gate receipts.",
                      private={player: f"You placed {told}."})]
        if all(s["receipts"] is not None for s in state["seats"]):
            notes.append(Note("Every gate receipt is placed."))
            notes += self._start_play(state)
        return notes

    # play
    def _require_turn(self, state: State, seat: dict) -> None:
        if state["step"] != "play":
            raise IllegalAction("Play starts once every hand is entered"
                                + ("." if self._fan_tan(state)
                                   else " and every gate receipt is placed."))
        if state["seats"][state["current"]] is not seat:
            raise NotYourTurn("It is not your turn.")

    def _require_no_called_play(self, state: State, seat: dict) -> None:
        called = self._playable_called(state, seat)
        if called:
            raise IllegalAction(f"You must play your called {card_label(called[0])} first.")

    @staticmethod
    def _known_card(card: str) -> None:
        if card not in DECK_ORDER:
            raise IllegalAction(f"There is no card \"{card}\" in a Big Top deck.")

    def _play_called(self, state: State, seat: dict, action: PlayCalled) -> list[Note]:
        self._require_turn(state, seat)
        self._known_card(action.card)
        if action.card not in chart_cards(seat["chart"]):
            raise IllegalAction(f"The {card_label(action.card)} is not on your chart.")
        if not is_playable(state["piles"], action.card):
            raise IllegalAction(f"Your called {card_label(action.card)} cannot be played "
                                f"yet: its pile waits for "
                                f"{next_needed(state['piles'], action.card)}.")
        space = next(s for s, c in seat["chart"].items() if c == action.card)
        seat["chart"][space] = None
        put_on_pile(state["piles"], action.card)
        note = Note(f"{{name:{seat['player']}}} played their called "
                    f"{card_label(action.card)}.")
        return [note] + self._after_play(state, seat)

    def _play(self, state: State, seat: dict, action: Play) -> list[Note]:
        self._require_turn(state, seat)
        self._known_card(action.card)
        self._require_no_called_play(state, seat)
        card = action.card
        if card not in seat["hand"]:
            raise IllegalAction(f"You do not hold the {card_label(card)}.")
        if not is_playable(state["piles"], card):
            raise IllegalAction(f"The {card_label(card)} cannot be played yet: its pile "
                                f"waits for {next_needed(state['piles'], card)}.")
        sources = self._earnings(state, seat, card)
        seat["hand"].remove(card)
        put_on_pile(state["piles"], card)
        player = seat["player"]
        text = f"{{name:{player}}} played the {card_label(card)}"
        if sources:
            amount = sum(s["value"] for s in sources)
            seat["track"] += amount
            state["earnings"].append({"player": player, "card": card, "amount": amount,
                                      "from": sources})
            text += f": +${amount} from {dollars_from(sources)}"
        return [Note(text + ".")] + self._after_play(state, seat)

    @staticmethod
    def _earnings(state: State, seat: dict, card: str) -> list[dict]:
        """The opponents' called cards a play from hand earns from: same suit and shade
        (a Poster: its whole suit), each worth the space it sits on."""
        suit, shade, _ = card_parts(card)
        sources = []
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

    def _call(self, state: State, seat: dict, action: Call) -> list[Note]:
        self._require_turn(state, seat)
        if self._fan_tan(state):
            raise IllegalAction("Calling is not allowed in Fan Tan.")
        self._known_card(action.card)
        self._require_no_called_play(state, seat)
        card = action.card
        if card not in seat["hand"]:
            raise IllegalAction(f"You do not hold the {card_label(card)}.")
        refusal = self._call_refusal(state, seat, card)
        if refusal:
            raise IllegalAction(refusal)
        seat["hand"].remove(card)
        seat["chart"]["3"] = card
        return ([Note(f"{{name:{seat['player']}}} called the {card_label(card)} "
                      f"(on $3).")] + self._next_turn(state))

    def _pass(self, state: State, seat: dict, action: Pass) -> list[Note]:
        self._require_turn(state, seat)
        if self.choices(state, seat):
            raise IllegalAction("You cannot pass: you can still play"
                                + ("" if self._fan_tan(state) else " or call") + " a card.")
        player = seat["player"]
        if not self._fan_tan(state):
            return [Note(f"{{name:{player}}} passed.")] + self._next_turn(state)
        seat["total"] -= 1
        state["pot"] += 1
        note = Note(f"{{name:{player}}} could not play and put a peanut in the pot "
                    f"(pot: {state['pot']}).")
        if seat["total"] == 0:
            state["broke"] = player
            state["step"] = "over"
            state["current"] = None
            return [note, Note(f"{{name:{player}}} is out of peanuts: the game is over.")]
        return [note] + self._next_turn(state)

    # turns and deals
    def _after_play(self, state: State, seat: dict) -> list[Note]:
        if self._is_out(seat):
            return self._end_deal(state, seat)
        return self._next_turn(state)

    def _start_play(self, state: State) -> list[Note]:
        state["step"] = "play"
        state["current"] = (state["dealer_seat"] + 1) % len(state["seats"])
        first = state["seats"][state["current"]]["player"]
        return [Note(f"{{name:{first}}} plays first.")] + self._start_turn(state)

    def _next_turn(self, state: State) -> list[Note]:
        state["current"] = (state["current"] + 1) % len(state["seats"])
        return self._start_turn(state)

    @staticmethod
    def _start_turn(state: State) -> list[Note]:
        """A turn starts by sliding the player's called cards down."""
        seat = state["seats"][state["current"]]
        moves = shift_down(seat["chart"])
        if not moves:
            return []
        slid = ", ".join(f"{card_label(card)} to ${space}" for card, space in moves)
        return [Note(f"{{name:{seat['player']}}}'s called cards slide down: {slid}.")]

    def _start_deal(self, state: State) -> None:
        state["deal"] += 1
        state["dealer_seat"] = (state["dealer_seat"] + 1) % len(state["seats"])
        state["step"] = "hands"
        state["current"] = None
        state["piles"] = new_piles()
        state["check"] = None
        state["earnings"] = []
        for seat in state["seats"]:
            seat.update(hand=None, chart=empty_chart(), receipts=None, track=0)

    def _end_deal(self, state: State, winner: dict) -> list[Note]:
        settle = self._take_pot if self._fan_tan(state) else self._pay_receipts
        note, details = settle(state, winner)
        state["deal_results"].append({
            "deal": state["deal"], "dealer": state["seats"][state["dealer_seat"]]["player"],
            "out": winner["player"], **details})
        notes = [note]
        if state["deal"] == state["deals"]:
            state["step"] = "over"
            state["current"] = None
            notes.append(Note("That was the last deal: the game is over."))
            return notes
        self._start_deal(state)
        dealer = state["seats"][state["dealer_seat"]]["player"]
        notes.append(Note(f"Deal {state['deal']} of {state['deals']}: {{name:{dealer}}} "
                          f"deals. Everyone, enter your new hand."))
        return notes

    @staticmethod
    def _take_pot(state: State, winner: dict) -> tuple[Note, dict]:
        pot = state["pot"]
        winner["total"] += pot
        state["pot"] = 0
        return (Note(f"{{name:{winner['player']}}} played their last card and takes the "
                     f"pot: {pot} peanut{'s' if pot != 1 else ''}."), {"pot": pot})

    @staticmethod
    def _pay_receipts(state: State, winner: dict) -> tuple[Note, dict]:
        """Everyone earns the receipts of the suits they hold no card of (all $25 for
        the player who went out) plus their track. This reveals those receipts."""
        lines = []
        scores = []
        for seat in state["seats"]:
            held = {card_parts(c)[0] for c in seat["hand"] + chart_cards(seat["chart"])}
            completed = {suit: value for suit, value in seat["receipts"].items()
                         if suit not in held}
            receipts = sum(completed.values())
            score = receipts + seat["track"]
            seat["total"] += score
            scores.append({"player": seat["player"], "went_out": seat is winner,
                           "completed": completed, "receipts": receipts,
                           "track": seat["track"], "score": score})
            lines.append(f"{{name:{seat['player']}}} ${score} (${receipts} receipts + "
                         f"${seat['track']} track)")
        note = Note(f"{{name:{winner['player']}}} went out and ends deal {state['deal']}. "
                    f"Scores: " + "; ".join(lines) + ".", reveal=True)
        return note, {"seats": scores}

    # -- what a viewer sees ----------------------------------------------------------
    def view(self, state: State, viewer: int | None) -> tuple[dict, dict | None]:
        fan_tan = self._fan_tan(state)
        seats = []
        for seat in state["seats"]:
            public = {"player": seat["player"], "hand": len(seat["hand"] or []),
                      "chart": dict(seat["chart"]), "track": seat["track"],
                      "total": seat["total"], "entered": seat["hand"] is not None,
                      "receipts_placed": seat["receipts"] is not None,
                      "token": token_position(seat["track"])}
            if fan_tan:
                public["peanuts"] = seat["total"]
            seats.append(public)
        public_state = {
            "variant": state["variant"], "deal": state["deal"], "deals": state["deals"],
            "dealer": state["seats"][state["dealer_seat"]]["player"],
            "step": state["step"],
            "piles": {suit: dict(pile) for suit, pile in state["piles"].items()},
            "check": state["check"], "seats": seats,
            "earnings": state["earnings"][-EARNINGS_SHOWN:],
            "deal_results": state["deal_results"],
        }
        if fan_tan:
            public_state.update(pot=state["pot"], broke=state["broke"])
        seat = self._seat(state, viewer)
        if seat is None:
            return public_state, None
        return public_state, {"hand": list(seat["hand"] or []), "receipts": seat["receipts"]}

    def result(self, state: State) -> Result | None:
        if state["step"] != "over":
            return None
        places = dict(competition_places([(s["player"], (s["total"],))
                                          for s in state["seats"]]))
        standings = sorted((Standing(s["player"], places[s["player"]], s["total"])
                            for s in state["seats"]),
                           key=lambda st: (st.place, st.player))
        return Result(standings, self._explain(state, standings))

    def _explain(self, state: State, standings: list[Standing]) -> str:
        first = [s for s in standings if s.place == 1]
        names = join_names([f"{{name:{s.player}}}" for s in first])
        best = first[0].score
        if self._fan_tan(state):
            hands = len(state["deal_results"])
            amount = f"{best} peanut{'s' if best != 1 else ''}"
            span = f"after {hands} hand{'s' if hands != 1 else ''}"
            if state["broke"] is not None:  # in a hand still being played
                in_play = "the first hand" if hands == 0 else f"hand {hands + 1}"
                span = f"when {{name:{state['broke']}}} went broke in {in_play}"
        else:
            amount = f"${best}"
            span = f"after {state['deals']} deals"
        if len(first) > 1:
            return (f"{names} share first place with {amount} each {span} "
                    f"(the rulebook has no tie-break).")
        return f"{names} wins with {amount}, the most {span}."

    def scores(self, state: State) -> dict[int, int]:
        """Money banked in finished deals plus this deal's track (Fan Tan: peanuts)."""
        running = 0 if state["step"] == "over" else 1
        return {s["player"]: s["total"] + running * s["track"] for s in state["seats"]}

    def random_action(self, state: State, player: int, rng: random.Random) -> dict | None:
        if player not in self.waiting_for(state):
            return None
        if state["step"] == "hands":
            return {"type": "hand", "cards": self._bot_hand(state, player)}
        if state["step"] == "receipts":
            values = list(RECEIPT_VALUES)
            rng.shuffle(values)
            return {"type": "receipts", "receipts": dict(zip(SUITS, values))}
        template = rng.choice(self.actions(state, player))
        if template["type"] == "pass":
            return {"type": "pass"}
        return {"type": template["type"], "card": rng.choice(template["card"])}

    @staticmethod
    def _bot_hand(state: State, player: int) -> list[str]:
        """The bots' deal: one shuffle per deal, dealt one card at a time from the left of
        the dealer, so every bot enters its share of the same 52 cards."""
        deck = list(DECK)
        random.Random(f"bot-deal:{state['deal']}").shuffle(deck)
        seats = len(state["seats"])
        index = [s["player"] for s in state["seats"]].index(player)
        offset = (index - state["dealer_seat"] - 1) % seats
        return deck[offset::seats]

    def secrets(self, state: State) -> dict[int, list]:
        if state["step"] == "over":
            return {}  # the game's record, every entry in it, is open to all at the end
        # Cards named by a failed hand check are public by design (never their holder).
        flagged = set()
        if state["check"]:
            flagged = set(state["check"]["missing"]) | set(state["check"]["doubled"])
        found = {}
        for seat in state["seats"]:
            values: list = [c for c in seat["hand"] or [] if c not in flagged]
            if seat["receipts"] is not None:
                values.append({"receipts": seat["receipts"]})
            found[seat["player"]] = values
        return found
