"""Starting a game, and its moves: act, preview, undo, and the host ending a table.

A move is applied to the table's snapshot at its current version and written as the next
version; the process that made it builds the next snapshot in memory, and the move
answers with it, so whoever asked renders the table after the move without reading it
again.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from flask_babel import lazy_gettext, lazy_ngettext
from pydantic import ValidationError

from .. import store
from ..auth import Viewer
from ..errors import CompanionError, RuleRef, bad_request, conflict, forbidden, illegal
from ..games import GAMES, Game
from ..games.engine import IllegalAction
from ..games.replay import action_rng, first_player_rng, replay, seat_order, setup_rng
from ..models import utcnow
from ..snapshots import UNDO_TAIL, Snapshot
from ..store import Change
from ..i18n import messages
from .checks import read_envelope, validation_message
from .clock import awaiting
from .notes import ended_line
from .read import names_of, seated, summary, view
from .seating import AT_RANDOM, picked_event, require_host, require_lobby

SEED_MAX = 2**63 - 1
ENDED = lazy_gettext("The host ended this table before the game was over.")
UNDO_AT_ONCE = UNDO_TAIL


def rules_refusal(exc: IllegalAction, game: str) -> CompanionError:
    """The rules' refusal of a move, as the error a request is answered with, citing the
    rule that forbids it."""
    return CompanionError(exc.code, messages.render(exc.message, {}),
                          rule=RuleRef(game, exc.rule) if exc.rule else None)


def start(table: Snapshot, viewer: Viewer, first_player: Any = None,
          seed: Any = None) -> Snapshot:
    """Deal the game. The server draws the seed: a host who chose it could work out every
    shuffle, so a seed sent is refused unless the server runs with test seeds (for the
    tests and benchmarks only). `first_player` "random" has the seed pick one seated
    player to start, named in a public line of the log."""
    require_host(viewer)
    engine = GAMES[table.game]
    if seed is not None and not current_app.config.get("TEST_SEEDS"):
        raise bad_request(lazy_gettext("This server chooses the shuffle."))
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed <= SEED_MAX):
        raise bad_request(lazy_gettext("The seed is a whole number from 0 to %(most)s.",
                                       most=SEED_MAX))
    at_random = first_player == AT_RANDOM
    if first_player is not None and not at_random and (not isinstance(first_player, int)
                                                       or isinstance(first_player, bool)):
        raise bad_request(lazy_gettext("first_player is a player id."))
    seed = secrets.randbelow(SEED_MAX) if seed is None else seed

    def begin(before: Snapshot) -> Change:
        require_lobby(before)
        count = len(before.players)
        if not engine.min_players <= count <= engine.max_players:
            raise conflict(lazy_gettext(
                "%(game)s needs %(least)s to %(most)s players; %(count)s joined.",
                game=lazy_gettext(engine.title), least=engine.min_players,
                most=engine.max_players, count=count))
        events: list[dict] = []
        first: int | None
        if at_random:  # from the seed the server drew (or the test's seed)
            first = first_player_rng(seed).choice([p.id for p in before.players])
            events.append(picked_event(first, engine.first_player_role, viewer.actor_key))
        else:
            first = first_player if first_player is not None else before.first_player
        if first is not None:
            seated(before, first)
        try:
            options = engine.options_for(before.options, count)
        except ValidationError as exc:
            raise bad_request(validation_message(exc)) from None
        order = seat_order([p.id for p in before.players], first)
        try:
            state = engine.setup(order, options, setup_rng(seed))
        except IllegalAction as exc:
            raise rules_refusal(exc, table.game) from None
        return Change(row={"status": "playing", "seed": seed, "first_player": order[0],
                           "options": options.model_dump(mode="json"), "state": state,
                           "moves": 0, "started_at": utcnow()}, events=events)

    return store.write(table, begin).table


def replay_table(table: Snapshot, actions: list,
                 after_each: Callable[[dict], None] | None = None) -> dict:
    """The state from setup through `actions` (the log's actions in effect, each with
    its `actor` and `action`); `after_each` sees the state after setup and after each."""
    return replay(GAMES[table.game],
                  seat_order([p.id for p in table.players], table.first_player),
                  table.options, table.dealt_seed,
                  [(event.actor, event.action) for event in actions], after_each)


# -- acting -------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """An action written to the log: its version and log line, and the table after it."""

    version: int
    seq: int
    notes: list[dict]
    table: Snapshot


def answer(move: Move, viewer: Viewer) -> dict:
    """The contract's answer to an action: its log line and the table after it."""
    line = summary(move.notes, viewer, names_of(move.table))
    return {"version": move.version, "events": [{"seq": move.seq, "summary": line}],
            "table": view(move.table, viewer)}


def stale(table: Snapshot, viewer: Viewer) -> CompanionError:
    return CompanionError("stale", lazy_gettext("The table changed before your move arrived: "
                                     "have a look and try again."), table=view(table, viewer))


def parse_action(engine: Game, fields: dict):
    if not isinstance(fields.get("type"), str):
        raise bad_request(lazy_gettext('An action needs a "type".'))
    try:
        return engine.parse_action(fields)
    except ValidationError as exc:
        asked = next(filter(None, (engine.asks(error["loc"]) for error in exc.errors())), None)
        raise bad_request(lazy_gettext(asked) if asked else validation_message(exc)) from None


def _actor(table: Snapshot, viewer: Viewer, engine: Game, action_type: str,
           as_player: int | None) -> int | None:
    """The player the action is made for (None: the host as host)."""
    if action_type in engine.host_actions:
        if not viewer.is_host:
            raise forbidden(lazy_gettext("Only the host can do that."))
        return None
    if viewer.is_host and as_player is None and action_type in engine.host_or_player_actions:
        return None
    if viewer.is_host:
        if as_player is None:
            raise forbidden(lazy_gettext('The host acts for a player by naming them with "as".'))
        player = seated(table, as_player)
        if action_type in engine.secret_actions and not player.local:
            raise forbidden(lazy_gettext("Only that player can make this secret choice, on "
                                         "their own phone."))
        return as_player
    if viewer.player_id is None:
        raise CompanionError("unauthorized", lazy_gettext("Join the table to play."))
    if as_player is not None and as_player != viewer.player_id:
        raise forbidden(lazy_gettext("You can only act for yourself."))
    return viewer.player_id


def tried(table: Snapshot, engine: Game, actor: int | None, action: Any) -> tuple[dict, list]:
    """The state after the action and its log lines, applied to a copy of the table's
    state; or the refusal the move gets."""
    if table.status != "playing":
        raise illegal({"lobby": lazy_gettext("The game has not started yet."),
                       "ended": ENDED}.get(table.status, lazy_gettext("The game is over.")))
    named = getattr(action, "player", None)
    if (actor is None and action.type in engine.host_or_player_actions
            and named is not None and not engine.host_names_anyone(table.state, action)
            and not seated(table, named).local):
        raise forbidden(lazy_gettext("%(name)s makes this move on their own phone.",
                                     name=seated(table, named).name))
    state = engine.move_copy(table.dealt_state, action)
    try:
        notes = engine.apply(state, actor, action, action_rng(table.dealt_seed, table.moves))
    except IllegalAction as exc:
        raise rules_refusal(exc, table.game) from None
    return state, notes


def check(table: Snapshot, viewer: Viewer, data: Any) -> None:
    """Refuse, as `act` would now, an action this viewer could not make; store nothing."""
    engine = GAMES[table.game]
    envelope, fields = read_envelope(data)
    action = parse_action(engine, fields)
    actor = _actor(table, viewer, engine, action.type, envelope.as_)
    if envelope.version is not None and envelope.version != table.version:
        raise stale(table, viewer)
    tried(table, engine, actor, action)


def act(table: Snapshot, viewer: Viewer, data: Any) -> Move:
    """Apply one action for this viewer, to the table as the request found it: should
    another writer have moved it on since, the action is tried again on the table as it
    is then, or refused as stale when it named the version it was made on."""
    engine = GAMES[table.game]
    envelope, fields = read_envelope(data)
    action = parse_action(engine, fields)
    actor = _actor(table, viewer, engine, action.type, envelope.as_)

    def apply(before: Snapshot) -> Change:
        # A version that is not current is stale, whatever the table became since (even
        # over): the caller gets the fresh view of the contract's 409.
        if envelope.version is not None and envelope.version != before.version:
            raise stale(before, viewer)
        state, notes = tried(before, engine, actor, action)
        finished = engine.result(state) is not None
        return Change(
            row={"state": state, "moves": before.moves + 1,
                 "status": "finished" if finished else "playing",
                 "finished_at": utcnow() if finished else None},
            events=[{"kind": "action", "actor": actor, "actor_key": viewer.actor_key,
                     "action": action.model_dump(mode="json"),
                     "notes": [n.to_json() for n in notes],
                     "reveal": any(n.reveal for n in notes),
                     "action_id": envelope.action_id,
                     "awaiting": awaiting(engine, state, finished)}])

    written = store.write(table, apply, envelope.action_id, viewer.actor_key)
    if written.seq is None:
        raise ValueError("an action was written without its event")
    return Move(written.version, written.seq, written.notes, written.table)


def preview(table: Snapshot, viewer: Viewer, data: Any) -> list[str]:
    """The log lines an action would make, without making it (nothing is stored)."""
    engine = GAMES[table.game]
    envelope, fields = read_envelope(data)
    action = parse_action(engine, fields)
    actor = _actor(table, viewer, engine, action.type, envelope.as_)
    if table.status != "playing":
        raise illegal(lazy_gettext("The game is not being played right now."))
    state = engine.move_copy(table.dealt_state, action)
    try:
        notes = engine.apply(state, actor, action, action_rng(table.dealt_seed, table.moves))
    except IllegalAction as exc:
        raise rules_refusal(exc, table.game) from None
    names = names_of(table)
    sentence = engine.preview(table.state, actor, action)
    if sentence is not None:
        return [messages.render(sentence, names, html=True)]
    return messages.render_all([n.for_viewer(viewer.player_id) for n in notes
                                if not n.reveal], names, html=True)


def second_look(table: Snapshot, viewer: Viewer, data: Any) -> list[str]:
    """What in an action looks like a slip (the engine's `second_look`), as lines for
    this viewer, for a screen to ask about before sending it; none for an action that
    `act` refuses anyway, which then says why."""
    engine = GAMES[table.game]
    if table.status != "playing":
        return []
    try:
        envelope, fields = read_envelope(data)
        action = parse_action(engine, fields)
        actor = _actor(table, viewer, engine, action.type, envelope.as_)
        looks = engine.second_look(table.state, action)
        if looks:  # only what the rules would take is worth a second look
            engine.apply(engine.move_copy(table.dealt_state, action), actor, action,
                         action_rng(table.dealt_seed, table.moves))
    except (CompanionError, IllegalAction):
        return []
    return [messages.render(line, names_of(table), html=True) for line in looks]


# -- undoing ------------------------------------------------------------------------

def _may_undo(status: str, in_effect: list, viewer: Viewer) -> list:
    """Of the actions in effect (oldest first), those this viewer could undo, newest
    first: the host up to UNDO_AT_ONCE back to the last reveal, a player only their own
    last action."""
    if status != "playing" or not (viewer.is_host or viewer.player_id):
        return []
    found = []
    for event in reversed(in_effect[-(UNDO_AT_ONCE if viewer.is_host else 1):]):
        if event.reveal:
            break
        found.append(event)
    if not viewer.is_host and found and found[0].actor != viewer.player_id:
        return []
    return found


def undoable(table: Snapshot, viewer: Viewer) -> list:
    """The log's actions this viewer could undo, newest first."""
    if not can_undo(table, viewer):
        return []
    return _may_undo(table.status, store.actions_in_effect(table.id), viewer)


def can_undo(table: Snapshot, viewer: Viewer) -> bool:
    return bool(_may_undo(table.status, list(table.in_effect), viewer))


def undo(table: Snapshot, viewer: Viewer, steps: Any = 1, version: Any = None) -> Snapshot:
    """Take back the last `steps` actions in effect: the host any number back to the
    last reveal, a player only their own last action; the table after it. With the
    `version` the moves to take back were seen at, refused as stale should the table
    have moved on since (a second tap of the same undo takes nothing more back)."""
    if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 10_000:
        raise bad_request(lazy_gettext("steps is a whole number from 1."))
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise bad_request(lazy_gettext("version is a whole number."))
    if steps > 1 and not viewer.is_host:
        raise forbidden(lazy_gettext("Only the host can undo several moves at once."))

    def take_back(before: Snapshot) -> Change:
        if version is not None and version != before.version:
            raise stale(before, viewer)
        if before.status == "lobby":
            raise conflict(lazy_gettext("The game has not started yet."))
        if before.status == "ended":
            raise conflict(ENDED)
        effective = store.actions_in_effect(before.id)
        if not effective:
            raise illegal(lazy_gettext("There is nothing to undo."))
        last = effective[-1]
        if not viewer.is_host and (viewer.player_id is None or viewer.player_id != last.actor):
            raise forbidden(lazy_gettext("Only the host or the player who made the last move "
                                         "can undo it."))
        if steps > len(effective):
            raise illegal(lazy_ngettext("There is only %(num)s move to undo.",
                                        "There are only %(num)s moves to undo.",
                                        len(effective)))
        taken = effective[len(effective) - steps:]
        if any(event.reveal for event in taken):
            raise illegal(lazy_gettext("That would take back a move that revealed something "
                                       "secret, and undo never goes back past a reveal."))
        state = replay_table(before, effective[:-steps])
        awaited = awaiting(GAMES[before.game], state, False)
        return Change(
            row={"state": state,
                 "moves": before.moves - steps, "status": "playing", "finished_at": None},
            events=[{"kind": "undo", "actor": viewer.player_id, "actor_key": viewer.actor_key,
                     "undoes": event.seq, "awaiting": awaited} for event in reversed(taken)])

    return store.write(table, take_back).table


def end(table: Snapshot, viewer: Viewer, version: Any = None) -> Snapshot:
    """The host ends a table whose game will not be played to its end: a line in its log,
    and its status "ended", after which no move is made or taken back. With the `version`
    the host saw, refused as stale should the table have moved on since."""
    require_host(viewer)
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise bad_request(lazy_gettext("version is a whole number."))

    def stop(before: Snapshot) -> Change:
        if version is not None and version != before.version:
            raise stale(before, viewer)
        if before.status == "lobby":
            raise conflict(lazy_gettext("The game has not started yet."))
        if before.status == "finished":
            raise conflict(lazy_gettext("The game is over."))
        if before.status == "ended":
            raise conflict(ENDED)
        return Change(row={"status": "ended"},
                      events=[{"kind": "end", "actor": None, "actor_key": viewer.actor_key,
                               "notes": [ended_line().to_json()], "awaiting": []}])

    return store.write(table, stop).table
