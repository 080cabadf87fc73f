"""The one place that creates tables, seats players and appends to the log.

A table is its options, its seed and its log; the state is the replay of the log. The
state after the last event is stored with the table (in the same transaction as the
event) and cached in this process, so a request never replays the game. Every change
bumps the table's version with a conditional UPDATE: of two concurrent writers exactly
one succeeds, whatever the database and however many processes share it.
"""
from __future__ import annotations

import copy
import re
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app
from markupsafe import Markup, escape
from pydantic import ValidationError
from sqlalchemy import func, text
from sqlalchemy.exc import IntegrityError

from . import live, snapshots
from .auth import Viewer, hash_token, new_token
from .errors import CompanionError, bad_request, conflict, forbidden, illegal, not_found
from .extensions import db
from .games import GAMES, Game
from .games.engine import IllegalAction, Note
from .games.replay import action_rng, replay, setup_rng
from .models import Event, Player, SavedDefaults, Table, utcnow
from .snapshots import Entry, Snapshot

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: no words, no 0/O or 1/I mix-ups
CODE_LENGTH = 4
NAME_MAX = 24
ACTION_ID_MAX = 64
WRITE_RETRIES = 8
SEED_MAX = 2**63 - 1

_write_lock = threading.Lock()


# -- reading ------------------------------------------------------------------------

def normalise_code(code: str) -> str:
    return (code or "").strip().upper()


def _checked_code(code: str) -> str:
    code = normalise_code(code)
    if not re.fullmatch(f"[A-Z]{{{CODE_LENGTH}}}", code):
        raise not_found()
    return code


def find_table(code: str) -> Table:
    """The table as a database row, for the changes that are not moves."""
    code = _checked_code(code)
    table = db.session.execute(db.select(Table).where(Table.code == code)).scalar_one_or_none()
    if table is None:
        raise not_found()
    return table


def find(code: str) -> Snapshot:
    """The table at its current version, as views, screens and moves read it: one small
    query, the rest from this process's memory when it knows that version."""
    row = db.session.execute(db.select(Table.id, Table.version)
                             .where(Table.code == _checked_code(code))).first()
    if row is None:
        raise not_found()
    return snapshots.at_least(row.id, row.version)


def _version_of(table_id: int) -> int:
    return db.session.execute(db.select(Table.version).where(Table.id == table_id)).scalar_one()


def game_of(table: Table) -> Game:
    return GAMES[table.game]


ROW_FIELDS = ["version", "moves", "status", "seed", "first_player", "options", "finished_at"]


def refresh(table: Table) -> None:
    """Read the table's row again (not its state), as another writer may have changed it."""
    db.session.refresh(table, ROW_FIELDS)


def current_state(table: Table | Snapshot) -> dict | None:
    """The table's state, None in the lobby (never mutate it: copy first)."""
    return snapshots.of(table).state


def names_of(table: Table) -> dict[int, str]:
    return {p.id: p.name for p in table.players}


NAME_PLACEHOLDER = re.compile(r"\{name:(\d+)\}")


def fill_names(text: str, names: dict[int, str], html: bool = False) -> str:
    """Put player names into an engine's `{name:ID}` placeholders (escaped for HTML)."""
    def name(match: re.Match) -> str:
        found = names.get(int(match.group(1)), "someone")
        return str(escape(found)) if html else found
    if html:
        return Markup(NAME_PLACEHOLDER.sub(name, str(escape(text))))
    return NAME_PLACEHOLDER.sub(name, text)


def fill_names_deep(value: Any, names: dict[int, str]) -> Any:
    if isinstance(value, str):
        return fill_names(value, names) if "{name:" in value else value
    if isinstance(value, list):
        return [fill_names_deep(v, names) for v in value]
    if isinstance(value, dict):
        return {k: fill_names_deep(v, names) for k, v in value.items()}
    return value


def view(table: Table | Snapshot, viewer: Viewer) -> dict:
    """The table as this viewer may see it: the API's view, which the screens render."""
    table = snapshots.of(table)
    engine = game_of(table)
    names = names_of(table)
    you = viewer.player_id
    result = {
        "code": table.code, "game": table.game, "title": engine.title,
        "status": table.status, "version": table.version, "options": table.options,
        "players": [p.public() for p in table.players], "you": you,
        "host": viewer.is_host, "turn": None, "waiting_for": [], "state": None,
        "private": None, "actions": [], "result": None,
    }
    state = current_state(table)
    if state is None:
        return result
    public, private = engine.view(state, you)
    outcome = engine.result(state)
    result.update(
        turn=engine.turn(state),
        waiting_for=engine.waiting_for(state),
        state=fill_names_deep(public, names),
        private=fill_names_deep(private, names) if you is not None else None,
        actions=engine.actions(state, you) if (you is not None or viewer.is_host) else [],
        result=fill_names_deep(outcome.to_json(), names) if outcome else None,
    )
    return result


def effective_events(table: Table, newest: int | None = None) -> list[Event]:
    """The actions in effect, oldest first: every action no undo took back (an undo always
    takes back the newest action in effect). With `newest`, only that many, the newest."""
    query = db.select(Event).where(Event.table_id == table.id, Event.kind == "action",
                                   Event.seq.not_in(snapshots.taken_back(table.id)))
    if newest is None:
        return list(db.session.execute(query.order_by(Event.seq)).scalars())
    found = db.session.execute(query.order_by(Event.seq.desc()).limit(newest)).scalars()
    return list(reversed(found.all()))


def summary(notes: list[dict], viewer: Viewer) -> str:
    return " ".join(Note.from_json(n).for_viewer(viewer.player_id) for n in notes)


def log(table: Table | Snapshot, viewer: Viewer, limit: int | None = None,
        html: bool = False) -> list[dict]:
    """The log as this viewer may read it, oldest first (the last `limit` lines)."""
    if limit and limit <= snapshots.LOG_TAIL:
        found = snapshots.of(table).recent[-limit:]
    else:
        query = db.select(Event).where(Event.table_id == table.id)
        if limit:
            events = list(reversed(db.session.execute(
                query.order_by(Event.seq.desc()).limit(limit)).scalars().all()))
        else:
            events = db.session.execute(query.order_by(Event.seq)).scalars().all()
        found = snapshots.entries(events, table.id)
    names = names_of(table)
    lines = []
    for entry in found:
        if entry.kind == "undo":
            text = f"{{name:{entry.actor}}} undid: " if entry.actor else "The host undid: "
            text += summary(entry.undone_notes, viewer)
        else:
            text = summary(entry.notes, viewer)
        lines.append({"seq": entry.seq, "player": entry.actor,
                      "summary": fill_names(text, names, html),
                      "at": entry.at.isoformat() + "Z", "undone": entry.undone})
    return lines


# -- writing ------------------------------------------------------------------------

@contextmanager
def _writing():
    """SQLite has one writer at a time: queueing our own threads here keeps them out of
    SQLite's busy handler, which is slow to wake. Other databases lock the row."""
    if db.engine.dialect.name == "sqlite":
        with _write_lock:
            yield
    else:
        yield


def _claim(table: Table | Snapshot, expected_version: int, **values: Any) -> int | None:
    """Bump the table's version if it is still `expected_version` and set `values`;
    the new version, or None when another writer got there first."""
    new_version = expected_version + 1
    rows = Table.__table__
    outcome = db.session.execute(
        rows.update().where(rows.c.id == table.id, rows.c.version == expected_version)
        .values(version=new_version, updated_at=time.time(), **values))
    if outcome.rowcount != 1:
        db.session.rollback()
        return None
    statement = live.notify_sql(db.engine.dialect.name)
    if statement:
        db.session.execute(text(statement), {"channel": live.CHANNEL,
                                             "payload": f"{table.code}:{new_version}"})
    return new_version


def _reload(table: Table) -> None:
    db.session.rollback()
    db.session.refresh(table)


def _done(code: str, new_version: int, known: Snapshot | None = None) -> None:
    """After a commit: remember the new snapshot when it was built here, wake streams."""
    if known is not None:
        snapshots.cache.put(known)
    live.publish(code, new_version)


def _change(table: Table, change, log=None) -> int:
    """Run `change(table)` (which checks, then returns the values to set) as one
    versioned write, retrying when a concurrent writer got there first. `log(table,
    new_version)`, if given, writes its log entry once the version is claimed (as a move
    does: no other writer adds to the log then)."""
    for _ in range(WRITE_RETRIES):
        with _writing():
            db.session.refresh(table, ROW_FIELDS + ["players"])
            try:
                values = change(table)
            except IntegrityError:  # a concurrent join took the name: look again
                _reload(table)
                continue
            code = table.code
            new_version = _claim(table, table.version, **values)
            if new_version is not None:
                if log is not None:
                    log(table, new_version)
                db.session.commit()
                _done(code, new_version)
                return new_version
        _reload(table)
    raise conflict("The table is busy right now; please try again.")


def new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if db.session.execute(db.select(Table.id).where(Table.code == code)).first() is None:
            return code


def validate_options(engine: Game, options: Any) -> dict:
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad_request("Options must be an object.")
    try:
        chosen = engine.Options.model_validate(options)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None
    return chosen.model_dump(mode="json", exclude_unset=True)


def saved_defaults(engine: Game) -> dict:
    """The option values saved as this server's defaults for a game ({} if none)."""
    saved = db.session.get(SavedDefaults, engine.id)
    return dict(saved.options) if saved else {}


def save_defaults(engine: Game, options: Any) -> None:
    chosen = validate_options(engine, options)
    saved = db.session.get(SavedDefaults, engine.id)
    if saved is None:
        db.session.add(SavedDefaults(game=engine.id, options=chosen))
    else:
        saved.options, saved.saved_at = chosen, utcnow()
    db.session.commit()


def create_table(game_id: Any, options: Any) -> tuple[Table, str]:
    """A new table in its lobby; options not given take this server's saved defaults,
    then the game's own."""
    engine = GAMES.get(game_id) if isinstance(game_id, str) else None
    if engine is None:
        raise bad_request("Pick one of the games: " + ", ".join(GAMES) + ".")
    if isinstance(options, dict):
        options = {**saved_defaults(engine), **options}
    chosen = validate_options(engine, options)
    token = new_token()
    for _ in range(WRITE_RETRIES):
        table = Table(code=new_code(), game=engine.id, options=chosen,
                      host_token_hash=hash_token(token), status="lobby", version=0)
        db.session.add(table)
        try:
            db.session.commit()
        except Exception:  # a code taken by a concurrent creation: draw another
            db.session.rollback()
            continue
        return table, token
    raise conflict("Could not find a free room code; please try again.")


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise bad_request("A name is a piece of text.")
    name = " ".join(name.split())
    if not name:
        raise bad_request("Please type a name.")
    if len(name) > NAME_MAX:
        raise bad_request(f"Names are at most {NAME_MAX} characters.")
    if any(not ch.isprintable() for ch in name):
        raise bad_request("That name has characters that cannot be shown.")
    return name


def _require_lobby(table: Table) -> None:
    if table.status != "lobby":
        raise conflict("The game has already started: the lobby is closed.")


def _require_host(viewer: Viewer) -> None:
    if not viewer.is_host:
        raise forbidden("Only the host can do that.")


def join(table: Table, name: Any, local: bool = False) -> tuple[Player, str]:
    """Seat a player in the lobby; a local player has no phone and the host acts for
    them (their token is never handed out)."""
    name = clean_name(name)
    engine = game_of(table)
    token = new_token()
    seated: dict[str, Player] = {}

    def seat(table: Table) -> dict:
        _require_lobby(table)
        if len(table.players) >= engine.max_players:
            raise conflict(f"The table is full: {engine.title} takes at most "
                           f"{engine.max_players} players.")
        if any(p.name_key == name.casefold() for p in table.players):
            raise conflict(f"Someone at this table is already called {name}.")
        player = Player(table_id=table.id, seat=len(table.players), name=name,
                        name_key=name.casefold(), token_hash=hash_token(token), local=local)
        db.session.add(player)
        db.session.flush()
        seated["player"] = player
        return {}

    _change(table, seat)
    return seated["player"], token


def _player(table: Table, player_id: Any) -> Player:
    player = next((p for p in table.players
                   if isinstance(player_id, int) and p.id == player_id), None)
    if player is None:
        raise not_found("There is no such player at this table.")
    return player


def remove_player(table: Table, viewer: Viewer, player_id: int) -> None:
    _require_host(viewer)

    def remove(table: Table) -> dict:
        _require_lobby(table)
        player = _player(table, player_id)
        db.session.delete(player)
        for seat, other in enumerate(p for p in table.players if p.id != player.id):
            other.seat = seat
        return {"first_player": None if table.first_player == player_id else table.first_player}

    _change(table, remove)


def reorder(table: Table, viewer: Viewer, order: Any) -> None:
    _require_host(viewer)

    def seat_again(table: Table) -> dict:
        _require_lobby(table)
        ids = [p.id for p in table.players]
        if not isinstance(order, list) or sorted(order) != sorted(ids):
            raise bad_request("The new order must list every seated player once.")
        by_id = {p.id: p for p in table.players}
        for seat, player_id in enumerate(order):
            by_id[player_id].seat = seat
        return {}

    _change(table, seat_again)


def move_seat(table: Table, viewer: Viewer, player_id: int, step: int) -> None:
    """Move a player one seat earlier (-1) or later (+1)."""
    order = [p.id for p in table.players]
    index = order.index(_player(table, player_id).id)
    other = index + step
    if 0 <= other < len(order):
        order[index], order[other] = order[other], order[index]
    reorder(table, viewer, order)


def choose_first(table: Table, viewer: Viewer, player_id: int) -> None:
    _require_host(viewer)

    def choose(table: Table) -> dict:
        _require_lobby(table)
        return {"first_player": _player(table, player_id).id}

    _change(table, choose)


def seat_order(table: Table, first_player: int | None) -> list[int]:
    """Player ids clockwise, starting with the player who goes first."""
    ids = [p.id for p in table.players]
    start = ids.index(first_player) if first_player in ids else 0
    return ids[start:] + ids[:start]


def start(table: Table, viewer: Viewer, first_player: Any = None, seed: Any = None) -> None:
    """Deal the game. The server draws the seed: a host who chose it could work out every
    shuffle, so a seed sent is refused unless the server runs with test seeds (for the
    tests and benchmarks only)."""
    _require_host(viewer)
    engine = game_of(table)
    if seed is not None and not current_app.config.get("TEST_SEEDS"):
        raise bad_request("This server chooses the shuffle.")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed <= SEED_MAX):
        raise bad_request(f"The seed is a whole number from 0 to {SEED_MAX}.")
    if first_player is not None and (not isinstance(first_player, int)
                                     or isinstance(first_player, bool)):
        raise bad_request("first_player is a player id.")
    seed = secrets.randbelow(SEED_MAX) if seed is None else seed

    def begin(table: Table) -> dict:
        _require_lobby(table)
        count = len(table.players)
        if not engine.min_players <= count <= engine.max_players:
            raise conflict(f"{engine.title} needs {engine.min_players} to "
                           f"{engine.max_players} players; {count} joined.")
        first = first_player if first_player is not None else table.first_player
        if first is not None:
            _player(table, first)
        try:
            options = engine.options_for(table.options, count)
        except ValidationError as exc:
            raise bad_request(validation_message(exc)) from None
        order = seat_order(table, first)
        try:
            state = engine.setup(order, options, setup_rng(seed))
        except IllegalAction as exc:
            raise CompanionError(exc.code, exc.message) from None
        return {"status": "playing", "seed": seed, "first_player": order[0],
                "options": options.model_dump(mode="json"), "state": state, "moves": 0}

    _change(table, begin)


def replay_table(table: Table, events: list[Event]) -> dict:
    """The state from setup through `events` (the log's actions in effect)."""
    return replay(game_of(table), seat_order(table, table.first_player), table.options,
                  table.seed, [(event.actor, event.action) for event in events])


def validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error["loc"])
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    return "That was not understood (" + "; ".join(parts) + ")."


@dataclass
class Request:
    """An action as posted: its fields, and the envelope around them."""

    fields: dict
    version: int | None
    action_id: str | None
    as_player: int | None


def read_request(data: Any) -> Request:
    if not isinstance(data, dict):
        raise bad_request('An action is an object with a "type".')
    fields = dict(data)
    version = fields.pop("version", None)
    action_id = fields.pop("action_id", None)
    as_player = fields.pop("as", None)
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise bad_request("version is a whole number.")
    if action_id is not None and (not isinstance(action_id, str)
                                  or not 1 <= len(action_id) <= ACTION_ID_MAX
                                  or not action_id.isprintable()):
        raise bad_request(f"action_id is a text of 1 to {ACTION_ID_MAX} printable "
                          f"characters.")
    if as_player is not None and (not isinstance(as_player, int) or isinstance(as_player, bool)):
        raise bad_request('"as" is a player id.')
    return Request(fields, version, action_id, as_player)


def _actor(table: Table, viewer: Viewer, engine: Game, action_type: str,
           as_player: int | None) -> int | None:
    """The player the action is made for (None: the host as host)."""
    if action_type in engine.host_actions:
        if not viewer.is_host:
            raise forbidden("Only the host can do that.")
        return None
    if viewer.is_host:
        if as_player is None:
            raise forbidden('The host acts for a player by naming them with "as".')
        _player(table, as_player)
        if action_type in engine.secret_actions and not _player(table, as_player).local:
            raise forbidden("Only that player can make this secret choice, on their own phone.")
        return as_player
    if viewer.player_id is None:
        raise CompanionError("unauthorized", "Join the table to play.")
    if as_player is not None and as_player != viewer.player_id:
        raise forbidden("You can only act for yourself.")
    return viewer.player_id


def _earlier_answer(table_id: int, viewer: Viewer, action_id: str):
    """(version, seq, notes) of the action this viewer already sent with this id."""
    return db.session.execute(db.select(Event.version, Event.seq, Event.notes).where(
        Event.table_id == table_id, Event.actor_key == viewer.actor_key,
        Event.action_id == action_id)).first()


def answer(table: Table | Snapshot, viewer: Viewer, version: int, seq: int,
           notes: list[dict]) -> dict:
    """The contract's answer to an action: its log line and the table after it."""
    return {"version": version,
            "events": [{"seq": seq, "summary": fill_names(summary(notes, viewer),
                                                          names_of(table))}],
            "table": view(table, viewer)}


def stale(table: Table, viewer: Viewer) -> CompanionError:
    return CompanionError("stale", "The table changed before your move arrived: "
                          "have a look and try again.", table=view(table, viewer))


def parse_action(engine: Game, fields: dict):
    kind = fields.get("type")
    if not isinstance(kind, str):
        raise bad_request('An action needs a "type".')
    try:
        return engine.parse_action(fields)
    except ValidationError as exc:
        raise bad_request(validation_message(exc)) from None


def act(table: Table | Snapshot, viewer: Viewer, data: Any) -> dict:
    """Apply one action for this viewer; the answer of the contract."""
    engine = game_of(table)
    request = read_request(data)
    action = parse_action(engine, request.fields)
    actor = _actor(snapshots.of(table), viewer, engine, action.type, request.as_player)
    for _ in range(WRITE_RETRIES):
        with _writing():
            before = snapshots.at_least(table.id, _version_of(table.id))
            # Looked up after the state: an action that made this state is found here.
            if request.action_id:
                earlier = _earlier_answer(table.id, viewer, request.action_id)
                if earlier is not None:
                    return answer(before, viewer, *earlier)
            # A version that is not current is stale, whatever the table became since
            # (even over): the caller gets the fresh view of the contract's 409.
            if request.version is not None and request.version != before.version:
                raise stale(before, viewer)
            if before.status != "playing":
                raise illegal("The game has not started yet."
                              if before.status == "lobby" else "The game is over.")
            answered = _apply(before, viewer, actor, action, request.action_id)
            if answered is not None:
                return answered
        db.session.rollback()
        if request.version is not None and not request.action_id:
            raise stale(snapshots.at_least(table.id, _version_of(table.id)), viewer)
    raise conflict("The table is busy right now; please try again.")


def _apply(before: Snapshot, viewer: Viewer, actor: int | None, action,
           action_id: str | None) -> dict | None:
    """Apply the action to the state of `before` and write it as the next version; the
    answer, or None when another writer got there first."""
    engine = game_of(before)
    state = copy.deepcopy(before.state)
    try:
        notes = engine.apply(state, actor, action, action_rng(before.seed, before.moves))
    except IllegalAction as exc:
        raise CompanionError(exc.code, exc.message) from None
    finished = engine.result(state) is not None
    status = "finished" if finished else "playing"
    finished_at = utcnow() if finished else None
    new_version = _claim(before, before.version, state=state, moves=before.moves + 1,
                         status=status, finished_at=finished_at)
    if new_version is None:
        return None
    entry = Entry(seq=before.last_seq + 1, kind="action", actor=actor,
                  notes=[n.to_json() for n in notes], at=utcnow())
    reveal = any(n.reveal for n in notes)
    db.session.execute(Event.__table__.insert().values(
        table_id=before.id, seq=entry.seq, kind="action", actor=actor,
        actor_key=viewer.actor_key, action=action.model_dump(mode="json"), notes=entry.notes,
        reveal=reveal, undoes=None, action_id=action_id, version=new_version, at=entry.at))
    db.session.commit()
    after = before.after_action(new_version, state, status, finished_at, entry, reveal)
    _done(before.code, new_version, after)
    return answer(after, viewer, new_version, entry.seq, entry.notes)


def _next_seq(table: Table) -> int:
    last = db.session.execute(
        db.select(func.max(Event.seq)).where(Event.table_id == table.id)).scalar()
    return (last or 0) + 1


UNDO_AT_ONCE = snapshots.UNDO_TAIL


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


def undoable(table: Table, viewer: Viewer) -> list[Event]:
    """The log's actions this viewer could undo, newest first."""
    if table.status != "playing":
        return []
    return _may_undo(table.status, effective_events(
        table, UNDO_AT_ONCE if viewer.is_host else 1), viewer)


def can_undo(table: Table | Snapshot, viewer: Viewer) -> bool:
    table = snapshots.of(table)
    return bool(_may_undo(table.status, list(table.in_effect), viewer))


def undo(table: Table, viewer: Viewer, steps: Any = 1) -> None:
    """Take back the last `steps` actions in effect: the host any number back to the
    last reveal, a player only their own last action."""
    if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 10_000:
        raise bad_request("steps is a whole number from 1.")
    if steps > 1 and not viewer.is_host:
        raise forbidden("Only the host can undo several moves at once.")
    for _ in range(WRITE_RETRIES):
        with _writing():
            refresh(table)
            if table.status == "lobby":
                raise conflict("The game has not started yet.")
            effective = effective_events(table)
            if not effective:
                raise illegal("There is nothing to undo.")
            last = effective[-1]
            if not viewer.is_host and (viewer.player_id is None or viewer.player_id != last.actor):
                raise forbidden("Only the host or the player who made the last move can undo it.")
            if steps > len(effective):
                raise illegal(f"There are only {len(effective)} moves to undo.")
            taken = effective[len(effective) - steps:]
            if any(event.reveal for event in taken):
                raise illegal("That would take back a move that revealed something secret, "
                              "and undo never goes back past a reveal.")
            state = replay_table(table, effective[:-steps])
            new_version = _claim(table, table.version, state=state,
                                 moves=table.moves - steps, status="playing", finished_at=None)
            if new_version is not None:
                seq = _next_seq(table)
                for offset, event in enumerate(reversed(taken)):
                    db.session.add(Event(table_id=table.id, seq=seq + offset, kind="undo",
                                         actor=viewer.player_id, actor_key=viewer.actor_key,
                                         action=None, notes=[], undoes=event.seq,
                                         version=new_version))
                code = table.code
                db.session.commit()
                _done(code, new_version)
                return
        _reload(table)
    raise conflict("The table is busy right now; please try again.")


def rejoin(table: Table, viewer: Viewer, player_id: int) -> str:
    """A new token for a player whose phone was lost or swapped; the old one stops
    working at once, open streams included. The token lets whoever holds it read the
    seat's secrets, so the table is told in a log line that no undo takes back."""
    _require_host(viewer)
    token = new_token()

    def replace(table: Table) -> dict:
        _player(table, player_id).token_hash = hash_token(token)
        return {}

    def tell_the_table(table: Table, new_version: int) -> None:
        had_a_phone = not _player(table, player_id).local
        line = Note(f"The host gave {{name:{player_id}}}'s seat to a new phone"
                    + ("; the old phone is signed out." if had_a_phone else "."))
        db.session.add(Event(table_id=table.id, seq=_next_seq(table), kind="rejoin",
                             actor=None, actor_key=viewer.actor_key, action=None,
                             notes=[line.to_json()], version=new_version))

    _change(table, replace, tell_the_table)
    return token


def preview(table: Table, viewer: Viewer, data: Any) -> list[str]:
    """The log lines an action would make, without making it (nothing is stored)."""
    engine = game_of(table)
    request = read_request(data)
    action = parse_action(engine, request.fields)
    actor = _actor(table, viewer, engine, action.type, request.as_player)
    if table.status != "playing":
        raise illegal("The game is not being played right now.")
    before = current_state(table)
    state = copy.deepcopy(before)
    try:
        notes = engine.apply(state, actor, action, action_rng(table.seed, table.moves))
    except IllegalAction as exc:
        raise CompanionError(exc.code, exc.message) from None
    names = names_of(table)
    sentence = engine.preview(before, actor, action)
    if sentence is not None:
        return [fill_names(sentence, names, html=True)]
    return [fill_names(n.for_viewer(viewer.player_id), names, html=True) for n in notes
            if not n.reveal]


def play_again(table: Table, viewer: Viewer) -> tuple[Table, str]:
    """A new table of the same game, options and players (in the same seats), and its
    host token; each player's phone moves over with `follow`. The new table has tokens
    of its own: no token works at two tables."""
    _require_host(viewer)
    if table.status != "finished":
        raise conflict("The game is not over yet.")
    token = new_token()
    if table.next_code:  # asked again: the host device gets a fresh key to the new table
        again = find_table(table.next_code)
        _change(again, lambda again: {"host_token_hash": hash_token(token)})
        return again, token
    engine = game_of(table)
    again = Table(code=new_code(), game=table.game,
                  options=validate_options(engine, table.options),
                  host_token_hash=hash_token(token), status="lobby", version=0)
    db.session.add(again)
    db.session.flush()
    for player in table.players:
        db.session.add(Player(table_id=again.id, seat=player.seat, name=player.name,
                              name_key=player.name_key, local=player.local,
                              token_hash=hash_token(new_token())))
    _change(table, lambda table: {"next_code": again.code})
    return again, token


def follow(table: Table, viewer: Viewer) -> tuple[Table, str]:
    """Seat this player's phone at the table the group moved on to (a fresh token)."""
    if not table.next_code or viewer.player_id is None:
        raise not_found("There is no new game to follow yet.")
    again = find_table(table.next_code)
    name_key = next(p.name_key for p in table.players if p.id == viewer.player_id)
    seat = next((p for p in again.players if p.name_key == name_key), None)
    if seat is None:
        raise not_found("Your seat is not at the new table: join it with its code.")
    token = new_token()

    def give_seat(again: Table) -> dict:
        _player(again, seat.id).token_hash = hash_token(token)
        return {}

    _change(again, give_seat)
    return again, token
