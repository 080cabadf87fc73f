"""Go Big's rules: the app tracks hand counts, displays, the deck, the market and secret banks.

Our rulings: docs/rulings.md (Go Big). The players hold the real cards; the
app only counts them, so a play is a (value, count) the player reports.
"""
from __future__ import annotations

import random

from ..engine import (Game, IllegalAction, Note, NotYourTurn, Result, Standing, State,
                      competition_places, join_names)
from .models import VALUES, Draw, Options, Play

HAND_SIZE = 6
MARKET_SIZE = 2
SET_NAMES = {2: ("pair", "pairs"), 3: ("trio", "trios")}


def set_name(value: int, count: int, plural: bool = False) -> str:
    """"single 4", "pair of 5s", "pairs of 5s", "trio of 6s"."""
    if count == 1:
        return f"single {value}s" if plural else f"single {value}"
    return f"{SET_NAMES[count][1 if plural else 0]} of {value}s"


class GoBig(Game):
    id = "go-big"
    title = "Go Big"
    min_players = 2
    max_players = 6
    secrets_called = "bank total"
    Options = Options

    def start(self, players: list[int], options: Options, rng: random.Random) -> State:
        total = options.copies_per_value * len(VALUES)
        deck = total - HAND_SIZE * len(players) - MARKET_SIZE
        if deck < 0:
            raise IllegalAction("There are not enough cards for that many players.")
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
    def _seat(state: State, player: int) -> dict | None:
        return next((s for s in state["seats"] if s["player"] == player), None)

    @staticmethod
    def bank_total(seat: dict) -> int:
        return sum(int(v) * n for v, n in seat["bank"].items())

    @staticmethod
    def bank_cards(seat: dict) -> int:
        return sum(seat["bank"].values())

    def waiting_for(self, state: State) -> list[int]:
        if state["finished"]:
            return []
        return [state["seats"][state["current"]]["player"]]

    def playable(self, state: State, player: int) -> list[tuple[int, int]]:
        """Every (value, count) the player could report now."""
        seat = self._seat(state, player)
        if seat is None or self.waiting_for(state) != [player] or state["step"] != "play":
            return []
        most = min(3, seat["hand"])
        return [(v, c) for v in VALUES for c in range(1, most + 1)
                if c <= state["copies"] - state["seen"][str(v)]]

    def actions(self, state: State, player: int | None) -> list[dict]:
        if player is None or self.waiting_for(state) != [player]:
            return []
        if state["step"] == "play":
            options = self.playable(state, player)
            return [{"type": "play", "value": sorted({v for v, _ in options}),
                     "count": sorted({c for _, c in options}),
                     "sets": [{"value": v, "count": c} for v, c in options]}]
        sources = [s for s in ("deck", "market") if state[s] > 0]
        return [{"type": "draw", "source": sources}]

    # -- changing it -------------------------------------------------------------
    def check_actor(self, state: State, player: int | None, action) -> None:
        if player is None or self.waiting_for(state) != [player]:
            raise NotYourTurn("It is not your turn.")

    def beaten_by(self, state: State, player: int, value: int, count: int) -> list[dict]:
        """The other seats whose displays a set of `count` x `value` would beat."""
        higher = [s for s in state["seats"] if s["player"] != player and s["display"]
                  and s["display"]["count"] == count and s["display"]["value"] > value]
        if not higher:
            return []
        lowest = min(s["display"]["value"] for s in higher)
        return [s for s in higher if s["display"]["value"] == lowest]

    def preview(self, state: State, player: int | None, action) -> str | None:
        if not isinstance(action, Play):
            return None
        beaten = self.beaten_by(state, player, action.value, action.count)
        if not beaten:
            return "beats nothing."
        owners = join_names([f"{{name:{s['player']}}}'s" for s in beaten])
        value = beaten[0]["display"]["value"]
        return f"beats {owners} {set_name(value, action.count, len(beaten) > 1)}."

    def _play(self, state: State, player: int, action: Play, rng: random.Random) -> list[Note]:
        if state["step"] != "play":
            raise IllegalAction("You have played already: now draw.")
        seat = self._seat(state, player)
        if action.count > seat["hand"]:
            raise IllegalAction(f"You hold only {seat['hand']} card"
                                f"{'s' if seat['hand'] != 1 else ''}.")
        left = state["copies"] - state["seen"][str(action.value)]
        if action.count > left:
            raise IllegalAction(f"Only {left} card{'s' if left != 1 else ''} of value "
                                f"{action.value} can still be in a hand.")
        beaten = self.beaten_by(state, player, action.value, action.count)
        beaten_value = beaten[0]["display"]["value"] if beaten else None
        seat["hand"] -= action.count
        seat["display"] = {"value": action.value, "count": action.count}
        state["seen"][str(action.value)] += action.count
        for other in beaten:
            state["beaten"] += other["display"]["count"]
            other["display"] = None
        text = f"{{name:{player}}} played a {set_name(action.value, action.count)}"
        if beaten:
            owners = join_names([f"{{name:{s['player']}}}'s" for s in beaten])
            plural = len(beaten) > 1
            text += f", beating {owners} {set_name(beaten_value, action.count, plural)}"
        notes = [Note(text + ".")]
        if seat["hand"] == 0 and state["deck"] == 0 and state["market"] == 0:
            notes.append(self._finish(state))
        elif state["deck"] == 0 and state["market"] == 0:
            self._next_turn(state)
        else:
            state["step"] = "draw"
        return notes

    def _draw(self, state: State, player: int, action: Draw, rng: random.Random) -> list[Note]:
        if state["step"] != "draw":
            raise IllegalAction("Play a set before you draw.")
        if state[action.source] == 0:
            raise IllegalAction(f"The {action.source} is empty.")
        seat = self._seat(state, player)
        taken = min(MARKET_SIZE, state[action.source])
        state[action.source] -= taken
        seat["hand"] += taken
        refill = min(MARKET_SIZE - state["market"], state["deck"])
        state["market"] += refill
        state["deck"] -= refill
        where = "the deck" if action.source == "deck" else "the market"
        self._next_turn(state)
        return [Note(f"{{name:{player}}} drew {taken} card{'s' if taken != 1 else ''} "
                     f"from {where}.")]

    moves = {Play: _play, Draw: _draw}

    def _next_turn(self, state: State) -> None:
        state["current"] = (state["current"] + 1) % len(state["seats"])
        state["step"] = "play"
        seat = state["seats"][state["current"]]
        if seat["display"]:
            self._bank(seat)

    @staticmethod
    def _bank(seat: dict) -> None:
        display = seat["display"]
        seat["bank"][str(display["value"])] += display["count"]
        seat["display"] = None

    def _finish(self, state: State) -> Note:
        for seat in state["seats"]:
            state["hands_discarded"] += seat["hand"]
            seat["hand"] = 0
            if seat["display"]:
                self._bank(seat)
        state["finished"] = True
        totals = ", ".join(f"{{name:{s['player']}}} {self.bank_total(s)}"
                           for s in state["seats"])
        return Note(f"The game is over: every bank is revealed ({totals}).", reveal=True)

    # -- what a viewer sees --------------------------------------------------------
    def view(self, state: State, viewer: int | None) -> tuple[dict, dict | None]:
        show_all = state["finished"] or state["open_banks"]
        seats = []
        for s in state["seats"]:
            public = {"player": s["player"], "hand": s["hand"], "display": s["display"],
                      "bank_cards": self.bank_cards(s)}
            if show_all:
                public["bank_total"] = self.bank_total(s)
            seats.append(public)
        public_state = {"deck": state["deck"], "market": state["market"],
                        "step": None if state["finished"] else state["step"],
                        "copies_per_value": state["copies"], "seats": seats}
        seat = self._seat(state, viewer) if viewer is not None else None
        private = None
        if seat is not None:
            private = {"bank_total": self.bank_total(seat),
                       "bank": {v: n for v, n in seat["bank"].items() if n}}
        return public_state, private

    def result(self, state: State) -> Result | None:
        if not state["finished"]:
            return None
        keyed = [(s["player"], (self.bank_total(s), self.bank_cards(s))) for s in state["seats"]]
        places = dict(competition_places(keyed))
        by_player = {s["player"]: s for s in state["seats"]}
        standings = sorted(
            (Standing(p, places[p], self.bank_total(by_player[p]),
                      {"bank_cards": self.bank_cards(by_player[p])}) for p in places),
            key=lambda st: (st.place, st.player))
        return Result(standings, self._explain(standings), "bank total")

    @staticmethod
    def _explain(standings: list[Standing]) -> str:
        first = [s for s in standings if s.place == 1]
        top_score = first[0].score
        rivals = [s for s in standings if s.score == top_score and s.place != 1]
        names = join_names([f"{{name:{s.player}}}" for s in first])
        if len(first) > 1:
            return (f"{names} share the victory: {top_score} banked each and "
                    f"{first[0].tiebreak['bank_cards']} banked cards each. Each of you went big!")
        if rivals:
            tied = join_names([f"{{name:{s.player}}}" for s in first + rivals])
            every = "both" if len(rivals) == 1 else "all"
            return (f"{tied} {every} banked {top_score}; {names} wins the tie with "
                    f"more banked cards ({first[0].tiebreak['bank_cards']} against "
                    f"{max(s.tiebreak['bank_cards'] for s in rivals)}).")
        return f"{names} wins with the highest banked total, {top_score}."

    def scores(self, state: State) -> dict[int, int]:
        return {s["player"]: self.bank_total(s) for s in state["seats"]}

    def random_action(self, state: State, player: int, rng: random.Random) -> dict | None:
        for template in self.actions(state, player):
            if template["type"] == "play":
                return {"type": "play", **rng.choice(template["sets"])}
            return {"type": "draw", "source": rng.choice(template["source"])}
        return None

    def secrets(self, state: State) -> dict[int, list]:
        if state["finished"] or state["open_banks"]:
            return {}
        return {s["player"]: [{"bank_total": self.bank_total(s)}] for s in state["seats"]}
