"""Nothing Beats a Large's rules: the app deals trios and goals, referees casts and keeps secrets.

Our rulings: docs/rulings.md (Nothing Beats a Large). The
players hold the real pyramids; the app mirrors who holds which piece, so a steal is the
piece the thief reports taking.

What the rulebook and the rulings leave open, decided here:
- Every steal is an action of the thief (they choose the piece). Steals wait in a queue
  and are taken one at a time: first the cast winner's steal, then the steals of any
  player left with no pieces.
- A player left with zero pieces queues one steal from each other player who has pieces
  at that moment, clockwise from the player's left. If a victim has no pieces left when
  their turn in the queue comes, that steal is skipped. Whenever the queue runs dry
  while someone still has no pieces, that player (the first in seat order) queues their
  steals again, so no one starts a challenge with zero pieces. With at least 9 pieces
  among at most 5 players a player at zero always finds someone to steal from.
- Goals are checked after every steal, for every player, clockwise from the thief (only
  the thief gained a piece, so no two players can ever complete a goal at the same
  moment). A goal counts when the player holds the whole trio at a check; when a first
  goal is completed the second is checked at once, so a player who already holds a trio
  of the other colour wins on the spot.
- The game ends the moment someone completes a second goal; pending steals are dropped.
- A tie is decided by the piece counts at the moment of the cast. On equal counts the
  same two players cast again (a new round); nothing moves.
- The loser of a cast challenges next; opponents are the players who did not cast (with
  two players, the other player). The first challenge may go to anyone.
- On the phones a locked cast cannot be changed, and the reveal is a `reveal` note. By
  hand, the pieces were already shown at the table, so the recorded cast is not a reveal
  note and a mistyped record can be undone.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from ..engine import Game, IllegalAction, Note, NotYourTurn, Result, Standing, StrictModel
from ..messages import Message, Param, Player, message, players, text_json
from ..views import own_seat
from .teaching import LESSONS
from .goals import check_player_goals, win_sentence
from .models import COLORS, SIZES, Cast, Challenge, Color, RecordCast, Steal
from .models import Options as NothingBeatsALargeOptions
from . import rules
from .pieces import cast_outcome, deal_trios, piece_label, sorted_pieces
from .state import NothingBeatsALargeState, OpenCast, PendingSteal, Seat


class NothingBeatsALarge(Game[NothingBeatsALargeState, NothingBeatsALargeOptions]):
    id = "nothing-beats-a-large"
    title = "Nothing Beats a Large"
    lessons = LESSONS
    min_players = 2
    max_players = 5
    Options = NothingBeatsALargeOptions
    secret_actions = frozenset({"cast"})
    shared_actions = frozenset({"record_cast"})
    secrets_called = "goal cards"
    first_player_role = "challenges first"
    rule_sections = rules.SECTIONS

    def default_options(self, player_count: int | None = None) -> NothingBeatsALargeOptions:
        if player_count is None:
            return NothingBeatsALargeOptions()
        return NothingBeatsALargeOptions(colors=list(COLORS[:max(3, player_count)]))

    def start(self, players: list[int], options: StrictModel,
              rng: random.Random) -> NothingBeatsALargeState:
        if not isinstance(options, NothingBeatsALargeOptions):
            raise TypeError("Nothing Beats a Large starts with its own options")
        count = len(players)
        needed = max(3, count)
        if len(options.colors) != needed:
            raise IllegalAction(message("With %(count)s players, play with %(needed)s colours "
                                        "(one per player, at least 3), not %(chosen)s.",
                                        count=count, needed=needed,
                                        chosen=len(options.colors)), rule="setup")
        colors = [c for c in COLORS if c in options.colors]
        trios = deal_trios(colors, rng)
        hands = trios[:count]
        if count == 2:
            extra_large, extra_medium_and_small = trios[2][:1], trios[2][1:]
            gets_large = rng.randrange(2)
            hands[gets_large] = hands[gets_large] + extra_large
            hands[1 - gets_large] = hands[1 - gets_large] + extra_medium_and_small
        goal_cards: list[Color] = [color for color in colors for _ in range(2)]
        rng.shuffle(goal_cards)
        return {
            "colors": colors,
            "casting": options.casting,
            "step": "challenge",
            "challenger": players[0],
            "cast": None,
            "last_cast": None,
            "steals": [],
            "winner": None,
            "seats": [{"player": player, "pieces": sorted_pieces(hand),
                       "goals": goal_cards[2 * index:2 * index + 2],
                       "revealed_goals": [], "completed": []}
                      for index, (player, hand) in enumerate(zip(players, hands))],
        }

    # -- reading the state -------------------------------------------------------
    @staticmethod
    def _seat(state: NothingBeatsALargeState, player: int | None) -> Seat | None:
        return next((s for s in state["seats"] if s["player"] == player), None)

    @staticmethod
    def _seat_of(state: NothingBeatsALargeState, player: int) -> Seat:
        """The seat of a player the caller knows is at the table."""
        return next(s for s in state["seats"] if s["player"] == player)

    def _pieces(self, state: NothingBeatsALargeState, player: int) -> list[str]:
        return self._seat_of(state, player)["pieces"]

    @staticmethod
    def _casting(state: NothingBeatsALargeState) -> OpenCast:
        """The cast under way (the step is "cast", or its steals are being taken)."""
        cast = state["cast"]
        if cast is None:
            raise IllegalAction(message("No one is casting now."), rule="cast")
        return cast

    @staticmethod
    def _clockwise(state: NothingBeatsALargeState, start: int) -> list[int]:
        """Every player in seat order, beginning with `start`."""
        players = [s["player"] for s in state["seats"]]
        index = players.index(start)
        return players[index:] + players[:index]

    def opponents(self, state: NothingBeatsALargeState) -> list[int]:
        """Whom the challenger may challenge now: not those who just cast, except that
        with two players the other player is always the opponent."""
        challenger = state["challenger"]
        others = [s["player"] for s in state["seats"] if s["player"] != challenger]
        if state["last_cast"] is None or len(others) == 1:
            return others
        return [p for p in others if p not in state["last_cast"]["between"]]

    def waiting_for(self, state: NothingBeatsALargeState) -> list[int]:
        step = state["step"]
        if step == "challenge":
            return [state["challenger"]]
        if step == "cast":
            cast = self._casting(state)
            if state["casting"] == "by-hand":
                return list(cast["between"])
            return [p for p in cast["between"] if str(p) not in cast["picks"]]
        if step == "steal":
            return [state["steals"][0]["thief"]]
        return []

    def actions(self, state: NothingBeatsALargeState, player: int | None) -> list[dict[str, Any]]:
        if player is None or player not in self.waiting_for(state):
            return []
        step = state["step"]
        if step == "challenge":
            return [{"type": "challenge", "opponent": self.opponents(state)}]
        if step == "steal":
            victim = state["steals"][0]["victim"]
            return [{"type": "steal", "piece": list(self._pieces(state, victim)),
                     "from": victim}]
        if state["casting"] == "phones":
            return [{"type": "cast", "piece": [*self._pieces(state, player), None]}]
        return [{"type": "record_cast",
                 "pieces": {str(p): [*self._pieces(state, p), None]
                            for p in self._casting(state)["between"]}}]

    def rule_for(self, state: NothingBeatsALargeState) -> str:
        return rules.rule_for(state)

    def setup_checklist(self, options: NothingBeatsALargeOptions, players: int) -> list[Message]:
        return rules.setup_checklist(options, players)

    def why_not(self, state: NothingBeatsALargeState, player: int | None) -> list[IllegalAction]:
        return rules.why_not(state, player, self.opponents(state))

    # -- changing it -------------------------------------------------------------
    def check_actor(self, state: NothingBeatsALargeState, player: int | None,
                    action: StrictModel) -> None:
        if state["step"] == "over":
            raise IllegalAction(message("The game is over."), rule="end")

    def _challenge(self, state: NothingBeatsALargeState, player: int | None, action: Challenge,
                   rng: random.Random) -> list[Note]:
        if state["step"] != "challenge":
            raise IllegalAction(message("No challenge can be made now."), rule="turn")
        if player != state["challenger"]:
            raise NotYourTurn(message("It is not your turn to challenge."), rule="challenge")
        opponent = action.opponent
        if opponent == player:
            raise IllegalAction(message("You cannot challenge yourself."), rule="challenge")
        if self._seat(state, opponent) is None:
            raise IllegalAction(message("There is no such player at this table."),
                                rule="challenge")
        if opponent not in self.opponents(state):
            raise IllegalAction(message("You must challenge a player who did not just cast."),
                                rule="challenge")
        state["cast"] = {"between": [player, opponent], "round": 1, "picks": {},
                         "revealed": False}
        state["step"] = "cast"
        return [Note(message("%(player)s challenged %(opponent)s.", player=Player(player),
                             opponent=Player(opponent)))]

    def _cast(self, state: NothingBeatsALargeState, player: int | None, action: Cast,
              rng: random.Random) -> list[Note]:
        if state["step"] != "cast":
            raise IllegalAction(message("No one is casting now."), rule="cast")
        if state["casting"] != "phones":
            raise IllegalAction(message("This table casts by hand: record both revealed pieces."),
                                rule="cast")
        cast = self._casting(state)
        if player not in cast["between"]:
            raise NotYourTurn(message("Only the two players in the challenge cast now."),
                              rule="cast")
        if str(player) in cast["picks"]:
            raise IllegalAction(message("Your cast is locked in and cannot be changed."),
                                rule="cast")
        if action.piece is not None and action.piece not in self._pieces(state, player):
            raise IllegalAction(message("You do not hold %(piece)s.",
                                        piece=piece_label(action.piece)), rule="cast")
        cast["picks"][str(player)] = action.piece
        # A locked cast is final: undo must not let a caster change it after seeing
        # that the other has locked in.
        notes = [Note(message("%(player)s has locked in a cast.", player=Player(player)),
                      private={player: message("You locked in %(piece)s.",
                                               piece=piece_label(action.piece))},
                      reveal=True)]
        if len(cast["picks"]) == 2:
            notes += self._resolve_cast(state, reveal=True)
        return notes

    def _record_cast(self, state: NothingBeatsALargeState, player: int | None, action: RecordCast,
                     rng: random.Random) -> list[Note]:
        if state["step"] != "cast":
            raise IllegalAction(message("No one is casting now."), rule="cast")
        if state["casting"] != "by-hand":
            raise IllegalAction(message("This table casts on the phones: each caster locks "
                                        "in a piece on their own phone."), rule="cast")
        cast = self._casting(state)
        if player not in cast["between"]:
            raise NotYourTurn(
                message("Only the two players in the challenge can record their cast."),
                rule="cast")
        if set(action.pieces) != set(cast["between"]):
            raise IllegalAction(
                message("Record one piece, or nothing, for each of the two casters."),
                rule="cast")
        for caster, piece in action.pieces.items():
            if piece is not None and piece not in self._pieces(state, caster):
                raise IllegalAction(message("A caster can only cast a piece they hold: "
                                            "%(piece)s is not theirs.",
                                            piece=piece_label(piece)), rule="cast")
        cast["picks"] = {str(p): action.pieces[p] for p in cast["between"]}
        return self._resolve_cast(state, reveal=False)

    def _resolve_cast(self, state: NothingBeatsALargeState, reveal: bool) -> list[Note]:
        cast = self._casting(state)
        first, second = cast["between"]
        picks = {p: cast["picks"][str(p)] for p in (first, second)}
        counts = {p: len(self._pieces(state, p)) for p in (first, second)}
        winner, why = cast_outcome(picks, counts)
        cast["revealed"] = True
        loser = second if winner == first else first
        state["last_cast"] = {"between": [first, second],
                              "pieces": {str(p): picks[p] for p in (first, second)},
                              "winner": winner, "loser": None if winner is None else loser,
                              "explanation": text_json(why)}
        cast_by: dict[str, Param] = {
            "first": Player(first), "first_piece": piece_label(picks[first]),
            "second": Player(second), "second_piece": piece_label(picks[second]), "why": why}
        if winner is None:
            state["cast"] = {"between": [first, second], "round": cast["round"] + 1,
                             "picks": {}, "revealed": False}
            return [Note(message("%(first)s cast %(first_piece)s and %(second)s cast "
                                 "%(second_piece)s: %(why)s.", **cast_by), reveal=reveal)]
        text = message("%(first)s cast %(first_piece)s and %(second)s cast %(second_piece)s: "
                       "%(why)s. %(winner)s wins and steals a piece from %(loser)s.",
                       winner=Player(winner), loser=Player(loser), **cast_by)
        state["steals"] = [{"thief": winner, "victim": loser, "reason": "won"}]
        return [Note(text, reveal=reveal)] + self._settle(state)

    def _steal(self, state: NothingBeatsALargeState, player: int | None, action: Steal,
               rng: random.Random) -> list[Note]:
        if state["step"] != "steal":
            raise IllegalAction(message("There is no piece to steal now."), rule="steal")
        thief, victim = state["steals"][0]["thief"], state["steals"][0]["victim"]
        if player != thief:
            raise NotYourTurn(message("It is not your turn to steal."), rule="steal")
        victim_pieces = self._pieces(state, victim)
        if action.piece not in victim_pieces:
            raise IllegalAction(message("The player you steal from does not hold %(piece)s.",
                                        piece=piece_label(action.piece)), rule="steal")
        state["steals"].pop(0)
        victim_pieces.remove(action.piece)
        seat = self._seat_of(state, thief)
        seat["pieces"] = sorted_pieces(seat["pieces"] + [action.piece])
        notes = [Note(message("%(thief)s stole %(piece)s from %(victim)s.",
                              thief=Player(thief), piece=piece_label(action.piece),
                              victim=Player(victim)))]
        notes += self._check_goals(state, thief)
        if state["winner"] is not None:  # the game is over
            return notes
        if not victim_pieces:
            notes.append(self._queue_zero_steals(state, victim))
        return notes + self._settle(state)

    moves = {Challenge: _challenge, Cast: _cast, RecordCast: _record_cast, Steal: _steal}

    def _queue_zero_steals(self, state: NothingBeatsALargeState, player: int) -> Note:
        victims = [p for p in self._clockwise(state, player)[1:] if self._pieces(state, p)]
        state["steals"] += [{"thief": player, "victim": v, "reason": "zero"} for v in victims]
        return Note(message("%(player)s has no pieces left and takes one from each other "
                            "player who has any.", player=Player(player)))

    def _settle(self, state: NothingBeatsALargeState) -> list[Note]:
        """Skip steals from players with nothing left; make sure no one stays at zero;
        when nothing is left to steal, the loser of the cast challenges next."""
        notes = []
        steals = state["steals"]
        while True:
            while steals and not self._pieces(state, steals[0]["victim"]):
                skipped = steals.pop(0)
                notes.append(Note(message("%(victim)s has no piece left for %(thief)s to take.",
                                          victim=Player(skipped["victim"]),
                                          thief=Player(skipped["thief"]))))
            if steals:
                state["step"] = "steal"
                return notes
            empty = next((s["player"] for s in state["seats"] if not s["pieces"]), None)
            if empty is None:
                break
            notes.append(self._queue_zero_steals(state, empty))
        state["step"] = "challenge"
        last_cast = state["last_cast"]
        if last_cast is not None and last_cast["loser"] is not None:  # a steal follows a won cast
            state["challenger"] = last_cast["loser"]
        state["cast"] = None
        return notes

    # -- goals ---------------------------------------------------------------------
    def _check_goals(self, state: NothingBeatsALargeState, thief: int) -> list[Note]:
        notes = []
        for player in self._clockwise(state, thief):
            notes += check_player_goals(state, self._seat_of(state, player))
            if state["step"] == "over":
                break
        return notes

    # -- what a viewer sees --------------------------------------------------------
    def view(self, state: NothingBeatsALargeState,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        over = state["step"] == "over"
        seats = []
        for s in state["seats"]:
            public: dict[str, Any] = {"player": s["player"], "pieces": list(s["pieces"]),
                                      "piece_count": len(s["pieces"]),
                                      "revealed_goals": list(s["revealed_goals"]),
                                      "completed": list(s["completed"])}
            if over:
                public["goals"] = list(s["goals"])
            seats.append(public)
        public_state: dict[str, Any] = {
            "colors": list(state["colors"]),
            "casting": state["casting"],
            "step": state["step"],
            "challenger": state["challenger"],
            "opponents": self.opponents(state) if state["step"] == "challenge" else [],
            "cast": self._public_cast(state),
            "last_cast": copy.deepcopy(state["last_cast"]),
            "steals": [dict(steal, text=self._steal_text(steal)) for steal in state["steals"]],
            "prompt": self._prompt(state),
            "winner": state["winner"],
            "pieces_total": len(SIZES) * len(state["colors"]),
            "seats": seats,
        }
        seat = self._seat(state, viewer) if viewer is not None else None
        if seat is None:
            return public_state, None
        cast = state["cast"]
        hidden = cast["picks"] if cast is not None and not cast["revealed"] else {}
        private = {"goals": list(seat["goals"]), "completed": list(seat["completed"]),
                   "cast": hidden.get(str(viewer)), "locked": str(viewer) in hidden}
        return public_state, private

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Goal cards read the step, the last cast, who casts and their owner's pieces."""
        if actions:
            return public
        cast = public["cast"]
        return {"step": public["step"], "last_cast": public["last_cast"],
                "cast": cast and {"between": cast["between"]},
                "seats": own_seat(public, you, "pieces")}

    @staticmethod
    def _public_cast(state: NothingBeatsALargeState) -> dict[str, Any] | None:
        cast = state["cast"]
        if cast is None:
            return None
        return {"between": list(cast["between"]), "round": cast["round"],
                "locked": [p for p in cast["between"] if str(p) in cast["picks"]],
                "revealed": dict(cast["picks"]) if cast["revealed"] else None}

    @staticmethod
    def _steal_text(steal: PendingSteal) -> Message:
        thief, victim = Player(steal["thief"]), Player(steal["victim"])
        if steal["reason"] == "won":
            return message("%(thief)s takes a piece from %(victim)s (won the cast)",
                           thief=thief, victim=victim)
        return message("%(thief)s takes a piece from %(victim)s (has no pieces left)",
                       thief=thief, victim=victim)

    def _prompt(self, state: NothingBeatsALargeState) -> Message:
        step, winner = state["step"], state["winner"]
        if winner is not None:  # the game is over
            return message("%(player)s has won.", player=Player(winner))
        if step == "steal":
            return message("%(steal)s.", steal=self._steal_text(state["steals"][0]))
        if step == "challenge":
            return message("%(player)s challenges %(opponents)s.",
                           player=Player(state["challenger"]),
                           opponents=_either(self.opponents(state)))
        cast = self._casting(state)
        first, second = (Player(p) for p in cast["between"])
        again = cast["round"] > 1
        if state["casting"] == "by-hand":
            if again:
                return message("%(first)s and %(second)s cast again by hand; either of them "
                               "records both pieces.", first=first, second=second)
            return message("%(first)s and %(second)s cast by hand; either of them records "
                           "both pieces.", first=first, second=second)
        waiting = players(self.waiting_for(state))
        if again:
            return message("%(first)s and %(second)s cast again: waiting for %(waiting)s to "
                           "lock in.", first=first, second=second, waiting=waiting)
        return message("%(first)s and %(second)s cast: waiting for %(waiting)s to lock in.",
                       first=first, second=second, waiting=waiting)

    def result(self, state: NothingBeatsALargeState) -> Result | None:
        winner = state["winner"]
        if winner is None:
            return None
        ordered = sorted(state["seats"], key=lambda s: s["player"] != winner)
        standings = [Standing(s["player"], 1 if s["player"] == winner else 2,
                              len(s["completed"])) for s in ordered]
        return Result(standings, win_sentence(self._seat_of(state, winner)),
                      message("goals completed"), ranked=False)

    def scores(self, state: NothingBeatsALargeState) -> dict[int, int]:
        return {s["player"]: len(s["completed"]) for s in state["seats"]}

    def random_action(self, state: NothingBeatsALargeState, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        """One choice from each list of the player's template, as a phone would post it:
        an opponent, a piece or Nothing to cast, a piece to steal, or both recorded pieces."""
        templates = self.actions(state, player)
        if not templates:
            return None
        template = templates[0]
        kind = template["type"]
        if kind == "challenge":
            return {"type": "challenge", "opponent": rng.choice(template["opponent"])}
        if kind == "record_cast":
            return {"type": "record_cast",
                    "pieces": {caster: rng.choice(choices)
                               for caster, choices in template["pieces"].items()}}
        return {"type": kind, "piece": rng.choice(template["piece"])}

    def secrets(self, state: NothingBeatsALargeState) -> dict[int, list[Any]]:
        found: dict[int, list[Any]] = {}
        cast = state["cast"]
        for seat in state["seats"]:
            player = seat["player"]
            items: list[dict[str, Any]] = []
            hidden_goals = list(seat["goals"])
            for color in seat["revealed_goals"]:
                hidden_goals.remove(color)
            if hidden_goals and state["step"] != "over":
                items.append({"goals": hidden_goals})
            if cast is not None and not cast["revealed"] and str(player) in cast["picks"]:
                items.append({"cast": cast["picks"][str(player)]})
            if items:
                found[player] = items
        return found


def _either(player_ids: list[int]) -> Player | Message:
    """"A", "A or B", "A or B or C": the players one may choose from."""
    if len(player_ids) == 1:
        return Player(player_ids[0])
    return message("%(player)s or %(others)s", player=Player(player_ids[0]),
                   others=_either(player_ids[1:]))
