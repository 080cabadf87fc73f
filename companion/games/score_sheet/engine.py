"""Score sheet: any other game's score, entered on every phone (or by the host as
scorer), optionally in secret until everyone has entered, with the host's tie-breaks.

Our rulings: docs/rulings.md (Score sheet). The state keeps the options, the players in
seat order, the closed rounds and the open round's entries (see `sheet`).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from ..engine import HOST, Game, IllegalAction, Note, NotYourTurn, Result, StrictModel
from ..messages import Listed, Message, Param, Player, listed, message
from . import bids, bot, outcome, sheet, standings, teams, zero_sum
from .teaching import LESSONS
from .models import Bid, Correct, End, Enter, EnterRound, Finish
from .models import Options as ScoreSheetOptions
from .reads import SheetReads
from .rules import SheetRules
from .state import ScoreSheetState, Scores, SheetOptions, copy_for_move

FAR_OUTSIDE = 10  # an entry above this many times the largest so far gets a second look


def tally(scores: Scores) -> Listed:
    """"Birds 12, Eggs 5": an entry, each category as the host typed it."""
    return listed((message("%(category)s %(score)s", category=c, score=v)
                   for c, v in scores.items()), tally=True)


class ScoreSheet(SheetRules, SheetReads, Game[ScoreSheetState]):
    id = "score-sheet"
    title = "Score sheet"
    lessons = LESSONS
    min_players = 1
    max_players = 20
    Options = ScoreSheetOptions
    secrets_called = "score entry"
    secret_actions = frozenset({"enter", "bid"})
    host_actions = frozenset({"end", "enter_round"})
    # A player's `finish` reaches the rules, which refuse it in the game's own words.
    host_or_player_actions = frozenset({"enter", "bid", "correct", "finish"})
    saved_by = "name"  # a sheet's settings are kept under its game's name
    keeps_totals = True

    def default_options(self, player_count: int | None = None) -> ScoreSheetOptions:
        # The contract asks for a name; a table made without one is a plain "Score sheet".
        return ScoreSheetOptions(name=self.title)

    def played_as(self, options: dict[str, Any]) -> str:
        return options.get("name") or self.title

    def start(self, players: list[int], options: StrictModel,
              rng: random.Random) -> ScoreSheetState:
        if not isinstance(options, ScoreSheetOptions):
            raise TypeError("A score sheet starts with its own options")
        # The JSON boundary: an Options model dumps to exactly what SheetOptions types.
        teams.check_seats(options.teams, len(players))
        kept = cast(SheetOptions, options.model_dump(mode="json"))
        return {"options": kept, "players": list(players),
                "closed": [], "open": {}, "finished": False}

    # -- reading the state -------------------------------------------------------
    @staticmethod
    def open_round(state: ScoreSheetState) -> int:
        return len(state["closed"]) + 1

    def waiting_for(self, state: ScoreSheetState) -> list[int]:
        if state["finished"] or sheet.options(state)["entry"] == "scorer":
            return []
        if bids.rule(state):
            return bids.waiting(state)
        if outcome.without_points(state):
            return []
        if zero_sum.off_by(state) is not None:
            return list(state["players"])
        return [p for p in state["players"] if str(p) not in state["open"]]

    def host_names_anyone(self, state: ScoreSheetState, action: StrictModel) -> bool:
        return isinstance(action, Correct) or sheet.options(state)["entry"] == "scorer"

    def host_may_act(self, state: ScoreSheetState) -> bool:
        if state["finished"]:
            return False
        return (sheet.options(state)["entry"] == "scorer" or outcome.without_points(state)
                or (sheet.options(state)["rounds"] is None and bool(state["closed"])))

    def bounds(self, state: ScoreSheetState) -> dict[str, int]:
        # A sheet of bids computes scores below 0 itself.
        below = (sheet.options(state)["negative"] or bids.rule(state) is not None
                 or zero_sum.on(state))
        return {"min": -1_000_000 if below else 0, "max": 1_000_000}

    def actions(self, state: ScoreSheetState, player: int | None) -> list[dict[str, Any]]:
        if state["finished"]:
            return []
        if outcome.without_points(state):
            return outcome.offered(state, player)
        options = sheet.options(state)
        closed = list(range(1, len(state["closed"]) + 1))
        shape: dict[str, Any] = {"round": self.open_round(state),
                                 "categories": options["categories"], **self.bounds(state)}
        offered: list[dict[str, Any]] = []
        if player is HOST:
            entered = [int(p) for p in state["open"]]
            rows = teams.row_keepers(state)
            if bids.rule(state):
                offered.append(bids.offered(state, HOST))
            elif options["entry"] == "scorer":
                offered.append({"type": "enter_round", **shape, "players": [
                    p for p in rows if p not in entered]})
            if not bids.rule(state):
                offered.append({"type": "enter", **shape, "players": rows,
                                "entered": entered})
            if closed:
                offered.append({"type": "correct", "rounds": closed,
                                "players": state["players"],
                                "categories": options["categories"], **self.bounds(state)})
            if options["rounds"] is None and closed:
                offered.append({"type": "end", "after": len(closed)})
            return offered
        if player not in state["players"]:
            return []
        if options["entry"] == "players" and bids.rule(state):
            offered.append(bids.offered(state, player))
        elif options["entry"] == "players":
            offered.append({"type": "enter", **shape,
                            "entry": state["open"].get(str(player))})
        if closed:
            offered.append({"type": "correct", "rounds": closed, "players": [player],
                            "categories": options["categories"], **self.bounds(state)})
        return offered

    # -- changing it -------------------------------------------------------------
    def check_actor(self, state: ScoreSheetState, player: int | None,
                    action: StrictModel) -> None:
        if state["finished"]:
            raise IllegalAction(message("The game is over."), rule="end")
        if outcome.without_points(state) and not isinstance(action, Finish):
            raise IllegalAction(outcome.no_rounds(state), rule="without-points")
        if player is HOST:
            if isinstance(action, (Enter, Bid, Correct)) and action.player is None:
                raise IllegalAction(message("Say which player's scores these are."),
                                    rule="entering")
            return
        if player not in state["players"]:
            raise NotYourTurn(message("You are not at this table."), rule="setup")
        if isinstance(action, (End, Finish)):
            raise NotYourTurn(message("Only the host can end the game."), rule="end")
        if isinstance(action, EnterRound):
            raise NotYourTurn(message("Only the host can do that."), rule="entering")
        if isinstance(action, (Enter, Bid)):
            if sheet.options(state)["entry"] == "scorer":
                raise NotYourTurn(message("The host enters the scores at this table."),
                                  rule="entering")
            if action.player is not None and action.player not in teams.partners(state, player):
                raise NotYourTurn(teams.own_rows_only(state), rule="entering")
        if isinstance(action, Correct) and action.player not in teams.partners(state, player):
            raise NotYourTurn(message("Only the host can correct another player's scores."),
                              rule="corrections")

    def _check_value(self, state: ScoreSheetState, value: int) -> None:
        if value < 0 and self.bounds(state)["min"] == 0:
            raise IllegalAction(message("Scores below 0 are not allowed on this sheet."),
                                rule="entering")

    def _at_table(self, state: ScoreSheetState, player: int | None) -> int:
        """The player named, refused unless they sit at this table (None: no one named)."""
        if player is None or player not in state["players"]:
            raise IllegalAction(message("That player is not at this table."), rule="entering")
        return player

    def _enter(self, state: ScoreSheetState, actor: int | None, action: Enter,
               rng: random.Random) -> list[Note]:
        target = self._at_table(state, actor if actor is not HOST else action.player)
        number = self.open_round(state)
        if action.round != number:
            raise IllegalAction(message("Round %(round)s is not open: round %(open)s is.",
                                        round=action.round, open=number), rule="turn")
        if bids.rule(state):
            notes = bids.enter_tricks(state, target, action)
            if bids.ready(state):
                bids.close(state)
                notes += self._close(state)
            return notes
        if action.tricks is not None or action.bonus is not None:
            raise IllegalAction(message("This sheet takes scores, not tricks."), rule="entering")
        if action.scores is None:
            raise IllegalAction(message("Enter the round's scores."), rule="entering")
        categories = sheet.options(state)["categories"]
        for category in action.scores:
            if category not in categories:
                raise IllegalAction(message("This sheet has no category %(category)s.",
                                            category=category), rule="entering")
        for category in categories:
            if category not in action.scores:
                raise IllegalAction(message("Enter a score for %(category)s.",
                                            category=category), rule="entering")
            self._check_value(state, action.scores[category])
        again = str(target) in state["open"]
        scores = {c: action.scores[c] for c in categories}
        for partner in teams.partners(state, target):
            state["open"][str(partner)] = scores
        notes = [Note(self._entered_line(state, actor, target, number, scores, again))]
        if zero_sum.ready(state):
            notes += self._close(state)
        else:
            notes += zero_sum.off_note(state, number)
        return notes

    def _enter_round(self, state: ScoreSheetState, actor: int | None, action: EnterRound,
                     rng: random.Random) -> list[Note]:
        if sheet.options(state)["entry"] != "scorer" or bids.rule(state):
            raise IllegalAction(message("Only a scorer enters a whole round at once: "
                                        "enter each player's row."), rule="entering")
        players = [row.player for row in action.rows]
        if len(set(players)) != len(players):
            raise IllegalAction(message("A round holds each player's row once."), rule="entering")
        trial = copy_for_move(state)  # a refused row leaves the state as it was
        notes: list[Note] = []
        for row in action.rows:
            if trial["finished"] or self.open_round(trial) != action.round:
                raise IllegalAction(message("Round %(round)s is not open: round %(open)s is.",
                                            round=action.round, open=self.open_round(trial)),
                                    rule="turn")
            notes += self._enter(trial, actor, Enter(type="enter", round=action.round,
                                                     scores=row.scores, player=row.player),
                                 rng)
        state.update(trial)
        return notes

    def move_copy(self, state: ScoreSheetState, action: StrictModel) -> ScoreSheetState:
        return copy_for_move(state, action.round if isinstance(action, Correct) else None)

    def _entered_line(self, state: ScoreSheetState, actor: int | None, target: int, number: int,
                      scores: Scores, again: bool) -> Message:
        who = Player(target)
        if sheet.options(state)["secret"]:
            if actor is HOST:
                return (message("The host changed %(player)s's round %(round)s entry.",
                                player=who, round=number) if again else
                        message("The host entered round %(round)s for %(player)s.",
                                player=who, round=number))
            return (message("%(player)s changed their round %(round)s entry.",
                            player=who, round=number) if again else
                    message("%(player)s entered round %(round)s.", player=who, round=number))
        params: dict[str, Param] = dict(player=who, round=number,
                                        total=sheet.row_total(scores),
                      scores=tally(scores))
        if actor is HOST:
            return (message("The host changed %(player)s's round %(round)s entry to "
                            "%(total)s (%(scores)s).", **params) if again else
                    message("The host entered round %(round)s for %(player)s: %(total)s "
                            "(%(scores)s).", **params))
        return (message("%(player)s changed their round %(round)s entry to %(total)s "
                        "(%(scores)s).", **params) if again else
                message("%(player)s entered round %(round)s: %(total)s (%(scores)s).",
                        **params))

    def _close(self, state: ScoreSheetState) -> list[Note]:
        number = self.open_round(state)
        state["closed"].append({str(p): state["open"][str(p)] for p in state["players"]})
        state["open"] = {}
        round_totals = listed((message("%(player)s %(total)s", player=teams.called(state, u),
                                       total=teams.round_total(state, state["closed"][-1], u))
                               for u in teams.units(state)), tally=True)
        if sheet.options(state)["secret"] and not bids.rule(state):
            notes = [Note(message("Round %(round)s revealed: %(totals)s.", round=number,
                                  totals=round_totals), reveal=True)]
        else:
            notes = [Note(message("Round %(round)s closed: %(totals)s.", round=number,
                                  totals=round_totals))]
        options = sheet.options(state)
        target = options["target"]
        reached = teams.reaching(state, target) if target is not None else []
        if reached and target is not None:
            notes.append(self._finish(state, message(
                "%(players)s reached the target of %(target)s: the game is over.",
                players=listed(reached), target=target)))
        elif options["rounds"] is not None and number >= options["rounds"]:
            notes.append(self._finish(state, message(
                "Round %(round)s was the last: the game is over.", round=number)))
        return notes

    @staticmethod
    def _finish(state: ScoreSheetState, line: Message) -> Note:
        state["finished"] = True
        state["open"] = {}
        return Note(line)

    def _correct(self, state: ScoreSheetState, actor: int | None, action: Correct,
                 rng: random.Random) -> list[Note]:
        self._at_table(state, action.player)
        if action.round > len(state["closed"]):
            raise IllegalAction(message("Round %(round)s is not closed yet: only a closed "
                                        "round can be corrected.", round=action.round),
                                rule="corrections")
        categories = sheet.options(state)["categories"]
        if action.category not in categories:
            raise IllegalAction(message("This sheet has no category %(category)s.",
                                        category=action.category), rule="corrections")
        self._check_value(state, action.value)
        closed = state["closed"][action.round - 1]
        old = closed[str(action.player)][action.category]
        if old == action.value:
            raise IllegalAction(message("That is already the score."), rule="corrections")
        for partner in teams.partners(state, action.player):
            closed[str(partner)][action.category] = action.value
        params: dict[str, Param] = dict(player=Player(action.player), round=action.round,
                      category=action.category, old=old, new=action.value)
        if actor is HOST:
            return [Note(message("The host changed %(player)s's round %(round)s "
                                 "%(category)s from %(old)s to %(new)s.", **params))]
        return [Note(message("%(player)s changed their round %(round)s %(category)s from "
                             "%(old)s to %(new)s.", **params))]

    def _end(self, state: ScoreSheetState, actor: int | None, action: End,
             rng: random.Random) -> list[Note]:
        if sheet.options(state)["rounds"] is not None:
            raise IllegalAction(message("This sheet ends after its last round."), rule="end")
        if not state["closed"]:
            raise IllegalAction(message("No round is closed yet: there is nothing to end."),
                                rule="end")
        return [self._finish(state, message("The host ended the game after round "
                                            "%(round)s.", round=len(state["closed"])))]

    def _bid(self, state: ScoreSheetState, actor: int | None, action: Bid,
             rng: random.Random) -> list[Note]:
        if not bids.rule(state):
            raise IllegalAction(message("This sheet takes no bids."), rule="bids")
        target = self._at_table(state, actor if actor is not HOST else action.player)
        return bids.place_bid(state, actor, target, action)

    def _finish_game(self, state: ScoreSheetState, actor: int | None, action: Finish,
                     rng: random.Random) -> list[Note]:
        return [self._finish(state, outcome.finish(state, action))]

    moves = {Enter: _enter, EnterRound: _enter_round, Bid: _bid, Correct: _correct,
             End: _end, Finish: _finish_game}

    def preview(self, state: ScoreSheetState, player: int | None,
                action: StrictModel) -> Message | None:
        # The log lines of the last entry of a secret round would show the others'.
        if isinstance(action, Bid):
            return message("Your bid for round %(round)s: %(bid)s.", round=action.round,
                           bid=action.bid)
        if isinstance(action, Enter) and action.scores is not None:
            return message("Your entry for round %(round)s: %(total)s.",
                           round=action.round, total=sum(action.scores.values()))
        return None

    def second_look(self, state: ScoreSheetState, action: StrictModel) -> list[Message]:
        """Each score of an entry far outside what the sheet has shown so far: more than
        ten times the largest entry of its category (a slip of the keypad, "44" for "4")."""
        rows: list[tuple[int | None, Scores]]
        if isinstance(action, Enter):
            rows = [(action.player, action.scores or {})]
        elif isinstance(action, EnterRound):
            rows = [(row.player, row.scores) for row in action.rows]
        elif isinstance(action, Correct):
            rows = [(action.player, {action.category: action.value})]
        else:
            return []
        found = []
        for player, scores in rows:
            for category, value in scores.items():
                largest = sheet.largest_shown(state, category)
                if largest is not None and abs(value) > FAR_OUTSIDE * max(largest, 1):
                    found.append(message(
                        "%(category)s %(score)s is more than ten times the largest entry "
                        "so far (%(largest)s).", category=category, score=value,
                        largest=largest) if player is None else message(
                        "%(player)s: %(category)s %(score)s is more than ten times the "
                        "largest entry so far (%(largest)s).", player=Player(player),
                        category=category, score=value, largest=largest))
        return found

    # -- what a viewer sees --------------------------------------------------------
    def view(self, state: ScoreSheetState,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        options = sheet.options(state)
        number = self.open_round(state)
        shown_open = not options["secret"] and not state["finished"]
        seats = []
        for player in state["players"]:
            rows: list[dict[str, Any]] = [
                {"round": index + 1, "scores": scores, "total": sheet.row_total(scores)}
                for index, scores in enumerate(sheet.closed_rows(state, player))]
            total = sum(row["total"] for row in rows)  # sheet.total, from the rows at hand
            entry = state["open"].get(str(player))
            if bids.rule(state):
                for row, played in zip(rows, bids.closed_rows(state, player)):
                    row.update(played)
                open_row = bids.open_row(state, player)
                rows += [open_row] if open_row else []
            elif shown_open and entry is not None:
                rows.append({"round": number, "scores": entry,
                             "total": sheet.row_total(entry), "open": True})
            seats.append({"player": player, "rows": rows, "total": total})
        totals = teams.unit_totals(state, {seat["player"]: seat["total"] for seat in seats})
        public: dict[str, Any] = {
            "name": options["name"], "round": None if state["finished"] else number,
            "rounds": options["rounds"], "categories": options["categories"],
            "lowest_wins": options["lowest_wins"], "target": options["target"],
            "negative": options["negative"], "entry": options["entry"],
            "secret": options["secret"], "tiebreaks": options["tiebreaks"],
            "closed": len(state["closed"]),
            "entered": [p for p in state["players"] if str(p) in state["open"]],
            "leaders": teams.leaders(state, totals) if state["closed"] else [],
            "seats": seats, "dealer": bids.dealer(state), **bids.public_part(state),
            "zero_sum": zero_sum.on(state), "off_by": zero_sum.off_by(state),
            **outcome.public_part(state), **teams.public_part(state, totals)}
        return public, self.private_view(state, viewer)

    def private_view(self, state: ScoreSheetState, viewer: int | None) -> dict[str, Any] | None:
        if viewer is None or viewer not in state["players"]:
            return None
        private: dict[str, Any] = {"entry": state["open"].get(str(viewer))}
        if bids.rule(state):
            private["bid"] = bids.own_bid(state, viewer)
        return private

    def result(self, state: ScoreSheetState) -> Result | None:
        return self.result_with_times(state, None)

    def result_with_times(self, state: ScoreSheetState,
                          used_ms: Mapping[int, int] | None) -> Result | None:
        if not state["finished"]:
            return None
        if outcome.without_points(state):
            return outcome.result(state)
        return standings.result(state, used_ms or {})

    def needs_clock(self, options: dict[str, Any]) -> bool:
        return any(tiebreak.get("by") == "time" for tiebreak in options.get("tiebreaks", []))

    def scores(self, state: ScoreSheetState) -> dict[int, int]:
        """Each player's total; in partnerships, each team's, under its first player's id
        (the chart draws a line a team)."""
        return {teams.players_of(state, u)[0]: teams.total(state, u) for u in teams.units(state)}

    def keeps_secrets(self, state: ScoreSheetState) -> bool:
        if bids.rule(state):
            return bool(bids.secrets(state))
        return sheet.options(state)["secret"] and not state["finished"]

    def secrets(self, state: ScoreSheetState) -> dict[int, list[Any]]:
        if bids.rule(state):
            return bids.secrets(state)
        if not sheet.options(state)["secret"] or state["finished"]:
            return {}
        return {int(p): [{"entry": scores}] for p, scores in state["open"].items()}

    def random_action(self, state: ScoreSheetState, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        return bot.random_action(self, state, player, rng)
