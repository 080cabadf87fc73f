"""A game's record, the file its players download at the end, brought into this database:
on another server or on this one, by `flask import FILE` or the upload on /games.

A record holds a finished game's options, seed, players and log. The rest of the table is
worked out here again: its state, by replaying the log through the game's rules, and each
move's line of the log, as the rules write it. A log the rules refuse, or whose result is
not the one the record states, is refused and nothing changes. The players get tokens no
phone holds: an imported game is there to be looked at and replayed, not played on.

The same game imported again (the same game, seed and start) is not imported twice: the
answer names the table it already is. A record whose room code is taken here by another
table gets a new code; players whose ids are taken get new ones, as in an export.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any, Literal, Optional

from flask_babel import lazy_gettext
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .auth import hash_token, new_token
from .games import GAMES
from .games.clock import CLOCK_SETTING
from .games.engine import MAX_PLAYER_ID, Note
from .games.replay import UndoOutOfOrder, in_effect, replayed_lines, seat_order
from .jsontext import to_json
from . import store
from .store.reads import CODE_LENGTH, CODE_LETTERS
from .table.checks import field_problem
from .table.clock import PAUSED_LINE, RESUMED_LINE
from .table.notes import pick_notes, rejoin_notes
from .transfer import ImportRefused, insert, record_names, refusal_reason, said
from .transfer_records import EventRecord, PlayerRecord, TableRecord

FORMAT = "companion-record"
# Version 2: the log's lines are messages (an id and its parameters), no longer English
# text. A file of version 1 still opens: its lines are made again by replaying its log.
VERSION = 2
FORMAT_TAG = f"{FORMAT}/{VERSION}"  # what a record file says it is
READ_TAGS = frozenset(f"{FORMAT}/{version}" for version in range(1, VERSION + 1))
MOST_LOG_ENTRIES = 20_000

# Why a record file does not open, in the reader's language (on the page that says so) or
# the server's (`flask import`); `said(REASON, name=...)` fills one in.
NOT_A_RECORD = lazy_gettext("%(name)s is not a Companion game record.")
NEWER = lazy_gettext("%(name)s is a game record of format version %(version)s, newer than this "
                     "Companion reads (version %(known)s): upgrade Companion, then open it.")
NO_VERSION = lazy_gettext("%(name)s is a game record without a valid format version.")
UNKNOWN_GAME = lazy_gettext("%(name)s is a record of a game this server does not have "
                            "(%(game)s).")
DAMAGED = lazy_gettext("%(name)s is damaged (%(where)s): it is not the record as it was "
                       "downloaded.")
DOES_NOT_REPLAY = lazy_gettext("%(name)s does not replay: its log is refused by the rules of "
                               "%(title)s (%(reason)s). It was changed or damaged.")
OTHER_RESULT = lazy_gettext("%(name)s does not replay to the result it states: it was changed "
                            "or damaged.")
NOT_OVER = lazy_gettext("%(name)s is the record of a game that is not over: only a finished "
                        "game's record opens.")
# What is damaged in a record (DAMAGED's `where`).
SHARED_SEAT = lazy_gettext("two players share an id or a seat")
OTHER_ORDER = lazy_gettext("its order of play is not its seats'")
LOG_OUT_OF_ORDER = lazy_gettext("its log is out of order")
STRANGER = lazy_gettext("its log names player %(player)s, who is not at the table")
NOT_A_TIME = lazy_gettext("%(value)s is not a time")
UNDO_OUT_OF_ORDER = lazy_gettext("the undo at %(seq)s does not take back the last move")


class Shape(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class RecordPlayer(Shape):
    id: int = Field(ge=1, le=2**31 - 1)
    name: str = Field(min_length=1, max_length=24)
    seat: int = Field(ge=0, le=1000)
    local: bool = False


class RecordEntry(Shape):
    seq: int = Field(ge=1)
    kind: Literal["action", "undo", "rejoin", "pick", "pause", "resume"]
    player: Optional[int] = Field(default=None, ge=0, le=MAX_PLAYER_ID)
    action: Optional[dict[str, Any]] = None
    undoes: Optional[int] = None
    at: str = Field(max_length=40)
    notes: list[dict[str, Any]] = Field(default_factory=list, max_length=20)
    awaiting: Optional[list[int]] = Field(default=None, max_length=100)


class RecordFile(Shape):
    format: str
    game: str
    code: str = Field(max_length=8)
    options: dict[str, Any]
    seed: int = Field(ge=0, le=2**63 - 1)
    players: list[RecordPlayer] = Field(min_length=1, max_length=100)
    order: list[int] = Field(max_length=100)
    log: list[RecordEntry] = Field(max_length=MOST_LOG_ENTRIES)
    result: Optional[dict[str, Any]] = None
    clock: Optional[dict[str, Any]] = None  # the times a tie-break on time counted
    created_at: Optional[str] = Field(default=None, max_length=40)
    started_at: Optional[str] = Field(default=None, max_length=40)
    finished_at: Optional[str] = Field(default=None, max_length=40)


def is_record(document: Any) -> bool:
    """Whether a JSON document says it is a game record (of any version)."""
    return (isinstance(document, dict) and isinstance(document.get("format"), str)
            and document["format"].startswith(FORMAT + "/"))


def checked(document: Any, name: str) -> RecordFile:
    """The record's shape, or a refusal that says what is wrong with it."""
    if not is_record(document):
        raise ImportRefused(said(NOT_A_RECORD, name=name), 400)
    version = document["format"].removeprefix(FORMAT + "/")
    if not version.isdigit() or len(version) > 6 or int(version) < 1:
        raise ImportRefused(said(NO_VERSION, name=name), 400)
    if int(version) > VERSION:
        raise ImportRefused(said(NEWER, name=name, version=int(version), known=VERSION), 400)
    game = document.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise ImportRefused(said(UNKNOWN_GAME, name=name, game=str(game)[:40]))
    try:
        record = RecordFile.model_validate(document)
    except ValidationError as exc:
        raise ImportRefused(said(DAMAGED, name=name,
                                 where=field_problem(exc.errors()[0]))) from None
    ids = [player.id for player in record.players]
    seats = sorted(record.players, key=lambda player: player.seat)
    if len(set(ids)) != len(ids) or len({player.seat for player in seats}) != len(ids):
        raise ImportRefused(said(DAMAGED, name=name, where=SHARED_SEAT))
    if not record.order or record.order != seat_order([p.id for p in seats], record.order[0]):
        raise ImportRefused(said(DAMAGED, name=name, where=OTHER_ORDER))
    seqs = [entry.seq for entry in record.log]
    if seqs != sorted(set(seqs)):
        raise ImportRefused(said(DAMAGED, name=name, where=LOG_OUT_OF_ORDER))
    strangers = ({entry.player for entry in record.log if entry.player is not None}
                 | {p for entry in record.log for p in entry.awaiting or ()}) - set(ids)
    if strangers:
        raise ImportRefused(said(DAMAGED, name=name,
                                 where=said(STRANGER, player=min(strangers))))
    return record


def _time(value: str | None, name: str) -> datetime | None:
    return None if value is None else _moment(value, name)


def _moment(value: str, name: str) -> datetime:
    """A time of the record as this database keeps it (UTC, without a zone)."""
    try:
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is not None:
            moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    except (ValueError, OverflowError):
        raise ImportRefused(said(DAMAGED, name=name,
                                 where=said(NOT_A_TIME, value=repr(value)))) from None
    return moment


def _lines(record: RecordFile, name: str) -> tuple[dict, dict[int, list[Note]]]:
    """The final state and each action's log lines, replaying the log as it was played:
    an action taken back by an undo made its lines after the actions then in effect."""
    engine = GAMES[record.game]
    try:
        state, lines = replayed_lines(engine, record.order, record.options, record.seed,
                                      record.log, lambda entry: entry.player)
        result = engine.result_with_times(state, _times(record))
    except UndoOutOfOrder as exc:
        raise ImportRefused(said(DAMAGED, name=name,
                                 where=said(UNDO_OUT_OF_ORDER, seq=exc.seq))) from None
    except Exception as exc:  # a log the rules refuse, in whatever way
        raise ImportRefused(said(DOES_NOT_REPLAY, name=name, title=engine.title,
                                 reason=refusal_reason(exc, record_names(record)))) from None
    if result is None:
        raise ImportRefused(said(NOT_OVER, name=name))
    if record.result is not None and plain(record.result) != plain(result.to_json()):
        raise ImportRefused(said(OTHER_RESULT, name=name))
    return state, lines


def _times(record: RecordFile) -> dict[int, int] | None:
    """Each player's time used as the record's clock states it (None without a clock)."""
    players = (record.clock or {}).get("players")
    if not isinstance(players, list):
        return None
    return {p["player"]: p["used_ms"] for p in players if isinstance(p, dict)
            and isinstance(p.get("player"), int) and isinstance(p.get("used_ms"), int)}


def _clock_setting(record: RecordFile, name: str) -> dict[str, Any] | None:
    """The table clock's setting the record states (None: no clock), without its times."""
    if record.clock is None:
        return None
    setting = {key: value for key, value in record.clock.items()
               if key not in ("players", "admin_ms")}
    try:
        return CLOCK_SETTING.validate_python(setting).model_dump(mode="json")
    except ValidationError as exc:
        raise ImportRefused(said(DAMAGED, name=name,
                                 where=field_problem(exc.errors()[0]))) from None


CLOCK_LINES = {"pause": PAUSED_LINE, "resume": RESUMED_LINE}


def table_record(document: Any, name: str) -> TableRecord:
    """The record as a table of this database, as an export would give it."""
    record = checked(document, name)
    state, lines = _lines(record, name)
    created = _time(record.created_at or (record.log[0].at if record.log else None), name)
    finished = _time(record.finished_at or (record.log[-1].at if record.log else None), name)
    created = created or finished or datetime.now(timezone.utc).replace(tzinfo=None)
    finished = finished or created
    started = _time(record.started_at, name)
    local_of = {player.id: player.local for player in record.players}
    engine = GAMES[record.game]
    events = []
    for version, entry in enumerate(record.log, start=1):
        notes = ([n.to_json() for n in lines.get(entry.seq, [])] if entry.kind == "action"
                 else rejoin_notes(entry.notes, local_of) if entry.kind == "rejoin"
                 else pick_notes(entry.notes, set(local_of), engine.first_player_role)
                 if entry.kind == "pick"
                 else [CLOCK_LINES[entry.kind].to_json()] if entry.kind in CLOCK_LINES
                 else [])
        events.append(EventRecord(
            seq=entry.seq, kind=entry.kind, actor=entry.player if entry.kind != "rejoin" else None,
            actor_key=f"p{entry.player}" if entry.player is not None else "host",
            action=entry.action if entry.kind == "action" else None, notes=notes,
            reveal=any(n["reveal"] for n in notes), undoes=entry.undoes
            if entry.kind == "undo" else None, action_id=None, version=version,
            at=_moment(entry.at, name).isoformat(), awaiting=entry.awaiting))
    return TableRecord(
        code=record.code, game=record.game, options=record.options, seed=record.seed,
        status="finished", host_token_hash=hash_token(new_token()),
        first_player=record.order[0], version=len(events),
        moves=len(in_effect(record.log)), state=plain(state),
        created_at=created.isoformat(), updated_at=finished.timestamp(),
        started_at=started.isoformat() if started else None,
        finished_at=finished.isoformat(), next_code=None, clock=_clock_setting(record, name),
        players=[PlayerRecord(id=p.id, seat=p.seat, name=p.name, name_key=p.name.casefold(),
                              token_hash=hash_token(new_token()),  # held by no phone
                              local=p.local, joined_at=created.isoformat())
                 for p in record.players],
        events=events)


def plain(value: Any) -> Any:
    """`value` as JSON gives it back (keys are text), to compare or to store."""
    return json.loads(to_json(value))


def already_here(table: TableRecord) -> str | None:
    """The code of the table this game already is in this database, if it is."""
    return store.history.code_of_game(table.game, table.seed,
                                      datetime.fromisoformat(table.created_at))


def import_record(document: Any, name: str) -> tuple[str, bool]:
    """Import the game of a record: (its code here, whether it was imported now; False
    when it was already here)."""
    table = table_record(document, name)
    present = already_here(table)
    if present is not None:
        return present, False
    if (store.history.code_taken(table.code)
            or not re.fullmatch(f"[{CODE_LETTERS}]{{{CODE_LENGTH}}}", table.code)):
        table = table.model_copy(update={"code": store.free_code()})
    insert([table])
    return table.code, True
