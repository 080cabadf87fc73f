"""Guess the Number's rules. Two players each choose a secret number from 1 to the highest;
then they take turns guessing the other's number and hear "higher" or "lower". The first to
guess right wins, and both numbers are revealed."""
from __future__ import annotations

import random
from pathlib import Path

from companion.games.engine import (Game, IllegalAction, Note, NotYourTurn, Result, Standing,
                                    State)
from .models import Choose, Guess, Options


class GuessNumber(Game):
    id = "guess-number"
    title = "Guess the Number"
    min_players = 2
    max_players = 2
    Options = Options
    secret_actions = frozenset({"choose"})
    files = Path(__file__).resolve().parent

    def start(self, players: list[int], options: Options, rng: random.Random) -> State:
        return {"highest": options.highest, "step": "choose", "current": 0, "winner": None,
                "seats": [{"player": p, "number": None, "guesses": []} for p in players]}

    # -- reading the state -------------------------------------------------------------
    @staticmethod
    def _seat(state: State, player: int | None) -> dict | None:
        return next((s for s in state["seats"] if s["player"] == player), None)

    @staticmethod
    def _other(state: State, seat: dict) -> dict:
        return next(s for s in state["seats"] if s is not seat)

    def waiting_for(self, state: State) -> list[int]:
        if state["step"] == "choose":
            return [s["player"] for s in state["seats"] if s["number"] is None]
        if state["step"] == "guess":
            return [state["seats"][state["current"]]["player"]]
        return []

    def actions(self, state: State, player: int | None) -> list[dict]:
        if player is None or player not in self.waiting_for(state):
            return []
        numbers = list(range(1, state["highest"] + 1))
        if state["step"] == "choose":
            return [{"type": "choose", "number": numbers}]
        return [{"type": "guess", "guess": numbers}]

    # -- changing it -------------------------------------------------------------------
    def check_actor(self, state: State, player: int | None, action) -> None:
        if self._seat(state, player) is None:
            raise NotYourTurn("You are not playing at this table.")
        if state["step"] == "over":
            raise IllegalAction("The game is over.")

    def _in_range(self, state: State, number: int) -> None:
        if number > state["highest"]:
            raise IllegalAction(f"The numbers go from 1 to {state['highest']}.")

    def _choose(self, state: State, player: int, action: Choose,
                rng: random.Random) -> list[Note]:
        seat = self._seat(state, player)
        if state["step"] != "choose" or seat["number"] is not None:
            raise IllegalAction("You have chosen your number already.")
        self._in_range(state, action.number)
        seat["number"] = action.number
        notes = [Note(f"{{name:{player}}} chose a number.",
                      private={player: f"You chose {action.number}."})]
        if all(s["number"] is not None for s in state["seats"]):
            state["step"] = "guess"
            notes.append(Note(f"{{name:{state['seats'][0]['player']}}} guesses first."))
        return notes

    def _guess(self, state: State, player: int, action: Guess,
               rng: random.Random) -> list[Note]:
        if state["step"] != "guess":
            raise IllegalAction("Guess once both numbers are chosen.")
        seat = self._seat(state, player)
        if state["seats"][state["current"]] is not seat:
            raise NotYourTurn("It is not your turn.")
        self._in_range(state, action.guess)
        other = self._other(state, seat)
        answer = ("right" if action.guess == other["number"]
                  else "higher" if other["number"] > action.guess else "lower")
        seat["guesses"].append({"guess": action.guess, "answer": answer})
        if answer != "right":
            state["current"] = 1 - state["current"]
            return [Note(f"{{name:{player}}} guessed {action.guess}: {answer}.")]
        state["step"] = "over"
        state["winner"] = player
        return [Note(f"{{name:{player}}} guessed {action.guess}: right! {{name:{player}}} "
                     f"had chosen {seat['number']}.", reveal=True)]

    moves = {Choose: _choose, Guess: _guess}

    # -- what a viewer sees ----------------------------------------------------------------
    def view(self, state: State, viewer: int | None) -> tuple[dict, dict | None]:
        over = state["step"] == "over"
        seats = [{"player": s["player"], "chosen": s["number"] is not None,
                  "guesses": list(s["guesses"]), **({"number": s["number"]} if over else {})}
                 for s in state["seats"]]
        public = {"highest": state["highest"], "step": state["step"], "seats": seats,
                  "winner": state["winner"]}
        seat = self._seat(state, viewer)
        return public, ({"number": seat["number"]} if seat is not None else None)

    def result(self, state: State) -> Result | None:
        if state["step"] != "over":
            return None
        winner = state["winner"]
        standings = sorted((Standing(s["player"], 1 if s["player"] == winner else 2,
                                     1 if s["player"] == winner else 0)
                            for s in state["seats"]), key=lambda s: s.place)
        return Result(standings, f"{{name:{winner}}} guessed the other number first.")

    def scores(self, state: State) -> dict[int, int]:
        return {s["player"]: int(s["player"] == state["winner"]) for s in state["seats"]}

    def random_action(self, state: State, player: int, rng: random.Random) -> dict | None:
        if player not in self.waiting_for(state):
            return None
        if state["step"] == "choose":
            return {"type": "choose", "number": rng.randint(1, state["highest"])}
        low, high = 1, state["highest"]
        for told in self._seat(state, player)["guesses"]:
            if told["answer"] == "higher":
                low = max(low, told["guess"] + 1)
            else:
                high = min(high, told["guess"] - 1)
        return {"type": "guess", "guess": rng.randint(low, high)}

    def secrets(self, state: State) -> dict[int, list]:
        if state["step"] == "over":
            return {}
        return {s["player"]: [{"number": s["number"]}] for s in state["seats"]
                if s["number"] is not None}
