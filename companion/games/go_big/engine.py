"""Go Big's rules: the app tracks hand counts, displays, the deck, the market and secret banks.

Our rulings: docs/rulings.md (Go Big). The players hold the real cards; the
app only counts them, so a play is a (value, count) the player reports.
"""
from __future__ import annotations

import random
from typing import Any

from ..engine import (Game, IllegalAction, Note, NotYourTurn, Result, Standing, StrictModel,
                      competition_places)
from ..messages import Message, Player, listed, message, players, plural
from . import rules
from .teaching import LESSONS
from .models import SOURCES, VALUES, Draw, Play, Source
from .models import Options as GoBigOptions
from .reasons import why_not
from .rules import HAND_SIZE, MARKET_SIZE
from .state import Display, GoBigState, Seat
from .words import EMPTY_SOURCE, owners, set_name


def drew(player: int, taken: int, source: Source) -> Message:
    if source == "deck":
        return plural("%(player)s drew %(count)s card from the deck.",
                      "%(player)s drew %(count)s cards from the deck.", "count",
                      player=Player(player), count=taken)
    return plural("%(player)s drew %(count)s card from the market.",
                  "%(player)s drew %(count)s cards from the market.", "count",
                  player=Player(player), count=taken)


class GoBig(Game[GoBigState]):
    id = "go-big"
    title = "Go Big"
    lessons = LESSONS
    min_players = 2
    max_players = 6
    secrets_called = "bank total"
    Options = GoBigOptions
    rule_sections = rules.SECTIONS

    def rule_for(self, state: GoBigState) -> str:
        return rules.rule_for(state)

    def setup_checklist(self, options: StrictModel, players: int) -> list[Message]:
        if not isinstance(options, GoBigOptions):
            raise TypeError("Go Big sets out its own options")
        return rules.setup_checklist(options, players)

    def why_not(self, state: GoBigState, player: int | None) -> list[IllegalAction]:
        return why_not(self, state, player)

    def start(self, players: list[int], options: StrictModel,
              rng: random.Random) -> GoBigState:
        if not isinstance(options, GoBigOptions):
            raise TypeError("Go Big starts with its own options")
        total = options.copies_per_value * len(VALUES)
        deck = total - HAND_SIZE * len(players) - MARKET_SIZE
        if deck < 0:
            raise IllegalAction(message("There are not enough cards for that many players."),
                                rule="setup")
        return {
            "copies": options.copies_per_value,
            "open_banks": options.open_banks,
            "deck": deck,
            "market": MARKET_SIZE,
            "current": 0,
            "step": "play",
            "finished": False,
            "seen": {str(v): 0 for v in VALUES},  # displayed, banked or discarded
            "beaten": 0,
            "hands_discarded": 0,
            "seats": [{"player": p, "hand": HAND_SIZE, "display": None,
                       "bank": {str(v): 0 for v in VALUES}} for p in players],
        }

    # -- reading the state -------------------------------------------------------
    @staticmethod
    def _seat(state: GoBigState, player: int) -> Seat | None:
        return next((s for s in state["seats"] if s["player"] == player), None)

    @staticmethod
    def seat_of(state: GoBigState, player: int) -> Seat:
        """The seat of a player the caller knows is at the table."""
        return next(s for s in state["seats"] if s["player"] == player)

    @staticmethod
    def bank_total(seat: Seat) -> int:
        return sum(int(v) * n for v, n in seat["bank"].items())

    @staticmethod
    def bank_cards(seat: Seat) -> int:
        return sum(seat["bank"].values())

    def waiting_for(self, state: GoBigState) -> list[int]:
        if state["finished"]:
            return []
        return [state["seats"][state["current"]]["player"]]

    def playable(self, state: GoBigState, player: int) -> list[tuple[int, int]]:
        """Every (value, count) the player could report now."""
        seat = self._seat(state, player)
        if seat is None or self.waiting_for(state) != [player] or state["step"] != "play":
            return []
        most = min(3, seat["hand"])
        return [(v, c) for v in VALUES for c in range(1, most + 1)
                if c <= state["copies"] - state["seen"][str(v)]]

    def actions(self, state: GoBigState, player: int | None) -> list[dict[str, Any]]:
        if player is None or self.waiting_for(state) != [player]:
            return []
        if state["step"] == "play":
            options = self.playable(state, player)
            return [{"type": "play", "value": sorted({v for v, _ in options}),
                     "count": sorted({c for _, c in options}),
                     "sets": [{"value": v, "count": c} for v, c in options]}]
        sources = [s for s in SOURCES if state[s] > 0]
        return [{"type": "draw", "source": sources}]

    # -- changing it -------------------------------------------------------------
    def check_actor(self, state: GoBigState, player: int | None, action: StrictModel) -> None:
        if player is None or self.waiting_for(state) != [player]:
            raise NotYourTurn(message("It is not your turn."), rule="turn")

    def beaten_by(self, state: GoBigState, player: int | None, value: int,
                  count: int) -> list[tuple[Seat, Display]]:
        """The other seats whose displays a set of `count` x `value` would beat, each with
        its display."""
        shown = [(s, s["display"]) for s in state["seats"] if s["player"] != player]
        higher = [(s, d) for s, d in shown
                  if d is not None and d["count"] == count and d["value"] > value]
        if not higher:
            return []
        lowest = min(d["value"] for _, d in higher)
        return [(s, d) for s, d in higher if d["value"] == lowest]

    def preview(self, state: GoBigState, player: int | None,
                action: StrictModel) -> Message | None:
        if not isinstance(action, Play):
            return None
        beaten = self.beaten_by(state, player, action.value, action.count)
        if not beaten:
            return message("beats nothing.")
        value = beaten[0][1]["value"]
        return message("beats %(owners)s %(set)s.", owners=owners([s for s, _ in beaten]),
                       set=set_name(value, action.count, len(beaten) > 1))

    def _play(self, state: GoBigState, player: int, action: Play,
              rng: random.Random) -> list[Note]:
        if state["step"] != "play":
            raise IllegalAction(message("You have played already: now draw."), rule="turn")
        seat = self.seat_of(state, player)
        if action.count > seat["hand"]:
            raise IllegalAction(plural("You hold only %(count)s card.",
                                       "You hold only %(count)s cards.", "count",
                                       count=seat["hand"]), rule="play")
        left = state["copies"] - state["seen"][str(action.value)]
        if action.count > left:
            raise IllegalAction(plural("Only %(count)s card of value %(value)s can still be "
                                       "in a hand.", "Only %(count)s cards of value "
                                       "%(value)s can still be in a hand.", "count",
                                       count=left, value=action.value), rule="play")
        beaten = self.beaten_by(state, player, action.value, action.count)
        seat["hand"] -= action.count
        seat["display"] = {"value": action.value, "count": action.count}
        state["seen"][str(action.value)] += action.count
        for other, display in beaten:
            state["beaten"] += display["count"]
            other["display"] = None
        played = set_name(action.value, action.count)
        if beaten:
            text = message("%(player)s played a %(set)s, beating %(owners)s %(beaten)s.",
                           player=Player(player), set=played,
                           owners=owners([s for s, _ in beaten]),
                           beaten=set_name(beaten[0][1]["value"], action.count,
                                           len(beaten) > 1))
        else:
            text = message("%(player)s played a %(set)s.", player=Player(player), set=played)
        notes = [Note(text)]
        if seat["hand"] == 0 and state["deck"] == 0 and state["market"] == 0:
            notes.append(self._finish(state))
        elif state["deck"] == 0 and state["market"] == 0:
            self._next_turn(state)
        else:
            state["step"] = "draw"
        return notes

    def _draw(self, state: GoBigState, player: int, action: Draw,
              rng: random.Random) -> list[Note]:
        if state["step"] != "draw":
            raise IllegalAction(message("Play a set before you draw."), rule="turn")
        if state[action.source] == 0:
            raise IllegalAction(EMPTY_SOURCE[action.source], rule="draw")
        seat = self.seat_of(state, player)
        taken = min(MARKET_SIZE, state[action.source])
        state[action.source] -= taken
        seat["hand"] += taken
        refill = min(MARKET_SIZE - state["market"], state["deck"])
        state["market"] += refill
        state["deck"] -= refill
        self._next_turn(state)
        return [Note(drew(player, taken, action.source))]

    moves = {Play: _play, Draw: _draw}

    def _next_turn(self, state: GoBigState) -> None:
        state["current"] = (state["current"] + 1) % len(state["seats"])
        state["step"] = "play"
        self._bank(state["seats"][state["current"]])

    @staticmethod
    def _bank(seat: Seat) -> None:
        """The seat's display, if any, goes into its bank."""
        display = seat["display"]
        if display is not None:
            seat["bank"][str(display["value"])] += display["count"]
            seat["display"] = None

    def _finish(self, state: GoBigState) -> Note:
        for seat in state["seats"]:
            state["hands_discarded"] += seat["hand"]
            seat["hand"] = 0
            self._bank(seat)
        state["finished"] = True
        totals = listed((message("%(player)s %(total)s", player=Player(s["player"]),
                                 total=self.bank_total(s)) for s in state["seats"]), tally=True)
        return Note(message("The game is over: every bank is revealed (%(totals)s).",
                            totals=totals), reveal=True)

    # -- what a viewer sees --------------------------------------------------------
    def view(self, state: GoBigState,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        show_all = state["finished"] or state["open_banks"]
        seats = []
        for s in state["seats"]:
            public: dict[str, Any] = {"player": s["player"], "hand": s["hand"],
                                      "display": s["display"], "bank_cards": self.bank_cards(s)}
            if show_all:
                public["bank_total"] = self.bank_total(s)
            seats.append(public)
        public_state = {"deck": state["deck"], "market": state["market"],
                        "step": None if state["finished"] else state["step"],
                        "copies_per_value": state["copies"], "seats": seats}
        seat = self._seat(state, viewer) if viewer is not None else None
        private: dict[str, Any] | None = None
        if seat is not None:
            private = {"bank_total": self.bank_total(seat),
                       "bank": {v: n for v, n in seat["bank"].items() if n}}
        return public_state, private

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        """A bank reads nothing of the table; a move reads the displays and the piles."""
        return public if actions else {}

    def result(self, state: GoBigState) -> Result | None:
        if not state["finished"]:
            return None
        keyed = [(s["player"], (self.bank_total(s), self.bank_cards(s))) for s in state["seats"]]
        places = dict(competition_places(keyed))
        by_player = {s["player"]: s for s in state["seats"]}
        standings = sorted(
            (Standing(p, places[p], self.bank_total(by_player[p]),
                      {"bank_cards": self.bank_cards(by_player[p])}) for p in places),
            key=lambda st: (st.place, st.player))
        return Result(standings, self._explain(standings), message("bank total"))

    @staticmethod
    def _explain(standings: list[Standing]) -> Message:
        first = [s for s in standings if s.place == 1]
        top_score = first[0].score
        rivals = [s for s in standings if s.score == top_score and s.place != 1]
        names = players(s.player for s in first)
        cards = first[0].tiebreak["bank_cards"]
        if len(first) > 1:
            return message("%(players)s share the victory: %(score)s banked each and "
                           "%(cards)s banked cards each. Each of you went big!",
                           players=names, score=top_score, cards=cards)
        if rivals:
            tied = players(s.player for s in first + rivals)
            rival_cards = max(s.tiebreak["bank_cards"] for s in rivals)
            if len(rivals) == 1:
                return message("%(tied)s both banked %(score)s; %(winner)s wins the tie with "
                               "more banked cards (%(cards)s against %(rival_cards)s).",
                               tied=tied, score=top_score, winner=names, cards=cards,
                               rival_cards=rival_cards)
            return message("%(tied)s all banked %(score)s; %(winner)s wins the tie with "
                           "more banked cards (%(cards)s against %(rival_cards)s).",
                           tied=tied, score=top_score, winner=names, cards=cards,
                           rival_cards=rival_cards)
        return message("%(winner)s wins with the highest banked total, %(score)s.",
                       winner=names, score=top_score)

    def scores(self, state: GoBigState) -> dict[int, int]:
        return {s["player"]: self.bank_total(s) for s in state["seats"]}

    def random_action(self, state: GoBigState, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        for template in self.actions(state, player):
            if template["type"] == "play":
                return {"type": "play", **rng.choice(template["sets"])}
            return {"type": "draw", "source": rng.choice(template["source"])}
        return None

    def secrets(self, state: GoBigState) -> dict[int, list[Any]]:
        if state["finished"] or state["open_banks"]:
            return {}
        return {s["player"]: [{"bank_total": self.bank_total(s)}] for s in state["seats"]}
