"""The interface every game implements.

A game is pure: no Flask, no database. A state is plain JSON-serialisable data; an
action is a pydantic model validated from plain data. The platform replays a table's
log of actions through `apply` to derive its state, so `setup` and `apply` must depend
only on their arguments (randomness only from the `rng` handed in).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Generic, Union, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationInfo
from typing_extensions import TypeVar

from .messages import Message, message, renumbered_text, text_from_json, text_json
from .state_copy import deep_copy
from .views import mentions

State = dict[str, Any]
"""Any game's state as the platform holds it: plain JSON data."""

StateT = TypeVar("StateT", bound=Mapping[str, Any])
"""One game's own state: a TypedDict of its models, the same plain JSON data typed."""

HOST = None
"""The actor id of the host acting as host (not for a player); `apply` gets it for
host-only actions such as a bank adjustment."""


class IllegalAction(Exception):
    """The rules forbid this action. The message (a `message(...)`) is a sentence a
    player understands and never mentions another player's secret."""

    code = "illegal"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        """The section of the game's rules page that forbids the move (`Game.rule_sections`)."""


class NotYourTurn(IllegalAction):
    """The actor may not act now (out of turn, not the host...)."""

    code = "forbidden"


MAX_PLAYER_ID = 2 ** 53


def _renumbered(player_id: int, info: ValidationInfo) -> int:
    """A table imported into a database whose player ids it would collide with gets new
    ids: validated with the context {"renumber": {old: new}}, an action names the new."""
    renumber = (info.context or {}).get("renumber")
    return renumber.get(player_id, player_id) if renumber else player_id


PlayerId = Annotated[int, Field(ge=0, le=MAX_PLAYER_ID), AfterValidator(_renumbered)]
"""The type of every action field that names a player, so that an imported log can be
renumbered without knowing the game."""


class StrictModel(BaseModel):
    """Base for options and actions: unknown fields are refused, strings are trimmed."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


OptionsT = TypeVar("OptionsT", bound=StrictModel, default=StrictModel)
"""One game's own options model (`Game.Options`); a game that names only its state's type
takes any options model."""


@dataclass
class Note:
    """One line of the log produced by an action.

    Each line is a message (`message(...)`) naming players by id: the platform renders
    it for each screen, in its language, with the names filled in (escaped), so an engine
    never needs to know names. `text` is what everyone may read. `private` gives, per
    player id, the line that player reads instead (a secret action reads "Ann placed
    her receipts" for others and "You placed $10 on clowns..." for Ann). `reveal` marks
    a line that shows players something that was secret until now, or that commits a
    secret choice for good (a locked cast): undo never goes back past it.
    """

    text: str
    private: dict[int, str] = field(default_factory=dict)
    reveal: bool = False

    def for_viewer(self, viewer: int | None) -> str:
        if viewer is not None and viewer in self.private:
            return self.private[viewer]
        return self.text

    def to_json(self) -> dict[str, Any]:
        return {"text": text_json(self.text),
                "private": {str(k): text_json(v) for k, v in self.private.items()},
                "reveal": self.reveal}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Note":
        return cls(text_from_json(data["text"]),
                   {int(k): text_from_json(v) for k, v in data.get("private", {}).items()},
                   data.get("reveal", False))

    @staticmethod
    def line_from_json(data: dict[str, Any], viewer: int | None) -> str:
        """The line `viewer` reads of a note kept as JSON, as `for_viewer` picks it, without
        reading the other players' lines."""
        private = data.get("private") or {}
        if viewer is not None and str(viewer) in private:
            return text_from_json(private[str(viewer)])
        return text_from_json(data["text"])

    def renumbered(self, renumber: dict[int, int]) -> "Note":
        return Note(renumbered_text(self.text, renumber),
                    {renumber.get(k, k): renumbered_text(v, renumber)
                     for k, v in self.private.items()}, self.reveal)


@dataclass
class Standing:
    player: int
    place: int
    score: int
    tiebreak: dict[str, Any] = field(default_factory=dict)


@dataclass
class Result:
    """The end of a game. `score_label` says what a score counts ("$", "bank total",
    "goals completed"), the tiebreak's keys what theirs do. `ranked` is False for a game
    that names a winner and ranks nobody else (everyone else shares place 2 whatever
    their scores). `named_winners`, when given, are the winners whatever the places (a
    cooperative game lost: everyone shares place 1 and no one wins); `cooperative` says the
    players won or lost together."""

    standings: list[Standing]
    explanation: str
    score_label: str = "score"
    ranked: bool = True
    named_winners: list[int] | None = None
    cooperative: bool = False
    scored: bool = True
    """False for a game that ended without a score to show (its winners named, or a
    cooperative game without a score): the screens then show no score and no chart."""

    @property
    def winners(self) -> list[int]:
        if self.named_winners is not None:
            return list(self.named_winners)
        return [s.player for s in self.standings if s.place == 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "standings": [{"player": s.player, "place": s.place, "score": s.score,
                           "tiebreak": s.tiebreak} for s in self.standings],
            "winners": self.winners,
            "explanation": self.explanation,
            "score_label": self.score_label,
            "ranked": self.ranked,
            "scored": self.scored,
        }


def competition_places(scored: Sequence[tuple[int, tuple[Any, ...]]]) -> list[tuple[int, int]]:
    """Competition ranking ("1224"): `scored` is (player, sort key), higher keys first.
    Players with equal keys share a place; the next place skips as many as shared."""
    ordered = sorted(scored, key=lambda item: item[1], reverse=True)
    places: list[tuple[int, int]] = []
    for index, (player, key) in enumerate(ordered):
        if index and key == ordered[index - 1][1]:
            places.append((player, places[-1][1]))
        else:
            places.append((player, index + 1))
    return places


Move = Callable[..., list[Note]]


class Game(Generic[StateT, OptionsT]):
    """Base class of a game engine. Subclasses set the class attributes and implement
    the methods that raise NotImplementedError."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: type[OptionsT]  # a class attribute (a type variable cannot be a ClassVar's)
    # The one table from an action model (each with a distinct literal "type") to the
    # method that applies it: move(self, state, player, action, rng) -> log lines. A
    # posted action is validated against exactly these models, then dispatched here.
    moves: ClassVar[dict[type[StrictModel], Move]]
    # Action types that carry a player's secret: only that player's own token may post
    # them (never the host acting "as" the player).
    secret_actions: ClassVar[frozenset[str]] = frozenset()
    # What a player's own view keeps from the others, as the host screen names it to a
    # player without a phone ("pass the device to Dan to see their goal cards").
    secrets_called: ClassVar[str] = "secrets"
    # Action types only the host may post (the actor is HOST).
    host_actions: ClassVar[frozenset[str]] = frozenset()
    # Action types any one of the players may post for the whole table, the same move
    # whoever makes it (Big Money's market card entered, a cast recorded): the host screen
    # shows their form once, not once per player without a phone.
    shared_actions: ClassVar[frozenset[str]] = frozenset()
    # Action types a player posts for themselves and the host may post as the host (the
    # actor is HOST), naming in the action the player it concerns: the score sheet's
    # entries, made by each player or by the host as the table's scorer.
    host_or_player_actions: ClassVar[frozenset[str]] = frozenset()
    # Public entries this server remembers across tables and offers again, as
    # {action type: field}: Big Money's asset cards, typed once per box.
    remembered: ClassVar[dict[str, str]] = {}
    # What the lobby says of the player the host picks to start (the first of the seat
    # order handed to `setup`): Big Top's "deals first", the player left of them plays.
    first_player_role: ClassVar[str] = "goes first"
    # Where a game kept outside the app (the test suite's own) keeps its screens: a folder
    # with templates/table/<folder>/ and static/games/<folder>.css, searched after the
    # app's own templates/ and static/. None for the games built in, whose files sit there.
    files: ClassVar[Path | None] = None

    # The option whose value names the options a table is created with, kept under that
    # name on this server for the next table (the score sheet's game name); None: no names.
    saved_by: ClassVar[str | None] = None
    # Whether a table's scores are what the game was about (a score sheet's totals): /games
    # shows each player's best and average per game name, and the sheet is a download.
    keeps_totals: ClassVar[bool] = False
    # The sections of the game's rules page, in page order: stable id -> title (a message
    # id). Every refusal names one (`IllegalAction.rule`); "setup" is the physical setup.
    rule_sections: ClassVar[Mapping[str, str]] = {}
    # A first game taught at the table: what each kind of step asks and why (a message),
    # keyed by the type of the move the step offers.
    lessons: ClassVar[Mapping[str, str]] = {}

    _adapter: ClassVar[TypeAdapter[StrictModel] | None] = None

    @property
    def folder(self) -> str:
        """Where the game's templates (templates/table/<folder>/) and its CSS
        (static/games/<folder>.css) sit: the id with "_" for "-"."""
        return self.id.replace("-", "_")

    @classmethod
    def action_adapter(cls) -> TypeAdapter[StrictModel]:
        adapter: TypeAdapter[StrictModel] | None = cls.__dict__.get("_adapter")
        if adapter is None:
            models = tuple(cls.moves)
            action: Any = (models[0] if len(models) == 1
                           else Annotated[Union[models], Field(discriminator="type")])
            adapter = cls._adapter = TypeAdapter(action)
        return adapter

    def asks(self, location: tuple[int | str, ...]) -> str | None:
        """What a person does to fill in the action's field at `location` (a validation
        error's), in the words its model gives it (`json_schema_extra={"asks": ...}`, the
        nearest on the path): a screen's form left short is refused in those words rather
        than with the field's name. English source text, translated by the caller."""
        parts = list(location)
        model: type[BaseModel] | None
        if len(self.moves) > 1:
            tags = {get_args(model.model_fields["type"].annotation)[0]: model
                    for model in self.moves}
            model = tags.get(parts.pop(0)) if parts else None
        else:
            model = next(iter(self.moves))
        asked = None
        while model is not None and parts:
            found = model.model_fields.get(str(parts.pop(0)))
            if found is None:
                break
            extra = found.json_schema_extra
            words = extra.get("asks") if isinstance(extra, dict) else None
            asked = words if isinstance(words, str) else asked
            model = next((kind for kind in (found.annotation, *get_args(found.annotation))
                          if isinstance(kind, type) and issubclass(kind, BaseModel)), None)
        return asked

    def parse_action(self, data: dict[str, Any]) -> StrictModel:
        """Validate plain data into an action model (raises pydantic.ValidationError)."""
        return self.action_adapter().validate_python(data)

    def renumbered_action(self, data: dict[str, Any],
                          renumber: dict[int, int]) -> dict[str, Any]:
        """A logged action with its players' ids changed as `renumber` says."""
        return self.action_adapter().validate_python(
            data, context={"renumber": renumber}).model_dump(mode="json")

    def default_options(self, player_count: int | None = None) -> OptionsT:
        """The defaults; a game whose defaults depend on the number of players
        (Big Top's deals, the colours of Nothing Beats a Large) overrides this."""
        return self.Options()

    def played_as(self, options: dict[str, Any]) -> str:
        """The game a table with these options plays, by name (Big Top's Fan Tan variant is
        a game of its own to the players)."""
        return self.title

    def box_data(self) -> dict[str, Any] | None:
        """Where the option defaults come from, for the options form (Big Money's box
        data, with a source for every value); None for a game without such notes."""
        return None

    def options_for(self, chosen: dict[str, Any], player_count: int | None = None) -> OptionsT:
        """The options a table plays with: what the host chose over the defaults for
        this many players (raises pydantic.ValidationError)."""
        merged = self.default_options(player_count).model_dump()
        merged.update(chosen)
        return self.Options.model_validate(merged)

    def setup(self, players: list[int], options: OptionsT, rng: random.Random) -> StateT:
        """The starting state; `players` are ids in seat order, the first to act first.
        Refuses a number of players the game is not for."""
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(message("%(game)s is for %(fewest)s to %(most)s players.",
                                        game=self.title, fewest=self.min_players,
                                        most=self.max_players), rule="setup")
        return self.start(players, options, rng)

    def rule_for(self, state: StateT) -> str | None:
        """The section of the rules page about the step `state` is at (a screen's "Rules"
        link opens it); None: the page's top."""
        return None

    def why_not(self, state: StateT, player: int | None) -> list[IllegalAction]:
        """Why moves `player` might look for are not offered now, each as the refusal the
        move would get (message and rule), for that player's own screen only (it may speak
        of their own secrets); None is the host. None by default."""
        return []

    def setup_checklist(self, options: OptionsT, players: int) -> list[Message]:
        """What to deal and lay out at the table for these options and this many players,
        a line each (the rules page's setup, the lobby's checklist)."""
        return []

    def start(self, players: list[int], options: OptionsT, rng: random.Random) -> StateT:
        """The starting state for a number of players the game is for."""
        raise NotImplementedError

    def waiting_for(self, state: StateT) -> list[int]:
        """Every player whose input is awaited now (empty when the game is over)."""
        raise NotImplementedError

    def host_names_anyone(self, state: StateT, action: StrictModel) -> bool:
        """Whether the host, as the host, may name any player in one of
        `host_or_player_actions` (the score sheet's scorer, a correction), rather than only
        a player without a phone (who has no screen of their own to make it on)."""
        return False

    def host_may_act(self, state: StateT) -> bool:
        """Whether the game awaits, or lets the game go on through, a move of the host as
        the host (`random_action(state, HOST, rng)`): the score sheet's scorer, the end of
        an open-ended sheet. The bots then play the host too. False by default: a host's
        bank adjustment is not part of playing the game."""
        return False

    def turn(self, state: StateT) -> int | None:
        """The player whose action is awaited, if exactly one."""
        waiting = self.waiting_for(state)
        return waiting[0] if len(waiting) == 1 else None

    def actions(self, state: StateT, player: int | None) -> list[dict[str, Any]]:
        """What `player` (or the host, for None) may do now, as templates: each a dict
        with "type" and the fields or choices it takes. [] when nothing."""
        raise NotImplementedError

    def apply(self, state: StateT, player: int | None, action: StrictModel,
              rng: random.Random) -> list[Note]:
        """Apply `action` by `player` to `state` IN PLACE (the platform hands in a
        private copy) and return the log lines; or raise IllegalAction and leave the
        state as it was. `check_actor` runs first, then the action's move."""
        self.check_actor(state, player, action)
        return self.moves[type(action)](self, state, player, action, rng)

    def move_copy(self, state: StateT, action: StrictModel) -> StateT:
        """A copy of `state` for `apply` to change, `state` staying as it was: a deep copy,
        unless the game copies only what `action` may change (the rest shared)."""
        return deep_copy(state)

    def check_actor(self, state: StateT, player: int | None, action: StrictModel) -> None:
        """Refuse (IllegalAction, NotYourTurn) what `player` may not post now whatever the
        action, before its move checks the rest. Nothing by default."""

    def second_look(self, state: StateT, action: StrictModel) -> list[Message]:
        """What in a legal action looks like a slip, worth a second look before a screen
        sends it (messages; none by default). The rules take it as it is: only the
        screens ask."""
        return []

    def public_since(self, public: dict[str, Any],
                     actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The public state `public` cut down to what `actions` (made since a version the
        caller holds, oldest first) may have changed, for a caller that keeps the rest; None
        when the game cannot tell (the whole state is given)."""
        return None

    def keeps_secrets(self, state: StateT) -> bool:
        """Whether the players' own views may hold something the others may not see now
        (what the host screen covers for a player without a phone)."""
        return True

    def preview(self, state: StateT, player: int | None, action: StrictModel) -> str | None:
        """A sentence saying what a legal action would do, shown before it is confirmed;
        None to show the log lines the action would make."""
        return None

    def view(self, state: StateT,
             viewer: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """(public state, the viewer's own secrets or None for the public view).
        Nothing in either may hold another player's secret before the rules reveal it.
        The public state is the same whoever the viewer is."""
        raise NotImplementedError

    def own_reads(self, public: dict[str, Any], you: int | None,
                  actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Of a public state (`view`'s first part), what the own part of viewer `you`
        (None: the host or the display) reads when offered `actions`: their moves and
        secrets. The screens render a viewer's own part again only when this, or the rest
        of what it reads, changed. Each value may be cut down to what the screens read of
        it; in place of the state, it must render the same
        (tests/web/test_own_part_inputs.py). The whole state by default."""
        return public

    def own_actions(self, public: dict[str, Any], you: int | None,
                    actions: list[dict[str, Any]], phoneless: list[int]
                    ) -> list[dict[str, Any]]:
        """Of the `actions` offered to viewer `you`, what their own part reads, the players
        without a phone given (whom only the host moves): cut down as `own_reads` cuts the
        state, it must render the same. The actions themselves by default."""
        return actions

    def private_view(self, state: StateT, viewer: int | None) -> dict[str, Any] | None:
        """The viewer's own secrets alone (`view`'s second part): a game whose public
        state is long to build gives them without building it."""
        return self.view(state, viewer)[1]

    def result(self, state: StateT) -> Result | None:
        """The final standings once the game is over, else None."""
        raise NotImplementedError

    def result_with_times(self, state: StateT,
                          used_ms: Mapping[int, int] | None) -> Result | None:
        """The final standings when the table had a clock: each player's time used over
        the game, handed in by the table (the engine never reads a clock), for a game
        whose tie-breaks may count it. None: no clock."""
        return self.result(state)

    def needs_clock(self, options: dict[str, Any]) -> bool:
        """Whether these options count the table clock's times (a tie-break on time)."""
        return False

    def scores(self, state: StateT) -> dict[int, int]:
        """Each player's score as the game stands (for the chart of the game at the end;
        it may count secrets, as it is only drawn once the game is over)."""
        raise NotImplementedError

    def random_action(self, state: StateT, player: int | None,
                      rng: random.Random) -> dict[str, Any] | None:
        """A legal action for `player` chosen with `rng`, as posted data, or None when
        nothing is awaited from them: the bot that plays seeded games in the trust suite
        and the benchmark, through the same API as a phone. For HOST, the host's move
        when `host_may_act`, else None."""
        raise NotImplementedError

    def public_step(self, state: StateT, player: int) -> bool:
        """Whether what `player` is asked now may be done in front of everyone (a player
        without a phone, from the host screen): True when no action offered asks for a
        secret (`secret_actions`) and none shows one of theirs (`secrets`), as Big Top's
        cards to call from a hand would."""
        offered = self.actions(state, player)
        if not offered or any(action["type"] in self.secret_actions for action in offered):
            return False
        return not any(mentions(offered, secret)
                       for secret in self.secrets(state).get(player, []))

    def secrets(self, state: StateT) -> dict[int, list[Any]]:
        """Per player, the values no one else may see yet (for the secrecy tests): every
        view, fragment, log line and error for another viewer must not contain them."""
        return {}
