"""Export and import: every table of a database as one JSON document, to move a club
from one database to another, keep a backup, or add one server's history to another's.

`flask --app wsgi export FILE` writes {"format": "companion-export", "version": 2,
"tables": [...]}, a table at a time, so a long history never sits in memory whole.
`flask --app wsgi import FILE` loads such a document (wsgi brings the schema up to date
first). A table already there, by code and creation time, is skipped, so importing twice
changes nothing; a code taken by a different table refuses the whole file. Every log is
replayed through its game's engine and must give the state stored beside it. A file is
imported whole or not at all.

Player ids are kept where they are free. Two laptops' histories both count their players
from 1, so a table whose ids are taken here gets new ones: its log is renumbered (every
action field that names a player is a `PlayerId`, every player a log line names is a
typed parameter) and replayed for its state.

Version 2 holds the log's lines as messages (an id and its parameters); a file of version
1 holds them as English text, and its lines are made again by replaying its logs.

Beside the tables, a file holds the settings saved on the server: each game's defaults
(its box and house rules, "saved_defaults") and the options saved under a name (a score
sheet's, "saved_options"). They are imported with the tables, each kept unless the one
here was saved later (`store.saved.merge`); a file without them (an older export) brings
none.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

import click
from flask_babel import lazy_gettext
from pydantic import TypeAdapter, ValidationError

from . import store
from .games import GAMES
from .games.engine import IllegalAction, Note
from .games.replay import in_effect, replay, seat_order
from .errors import CompanionError
from .table import notes
from .table.checks import field_problem
from .i18n import messages
from .table.seating import validate_options
from .transfer_records import (EventRecord, SavedDefaultsRecord, SavedOptionsRecord,
                               TableRecord, TeachingRecord)

FORMAT = "companion-export"
VERSION = 2


# Why a file does not import, in the reader's language (on the page that says so) or the
# server's (`flask import`); `said(REASON, ...)` fills one in.
CANNOT_READ = lazy_gettext("Cannot read %(name)s: %(reason)s.")
EMPTY = lazy_gettext("%(name)s is empty: it is not a Companion export or game record.")
NOT_JSON = lazy_gettext("%(name)s is not valid JSON (line %(line)s, column %(column)s): it may "
                        "be cut short or damaged.")
TOO_DEEP = lazy_gettext("%(name)s is nested too deeply to be a Companion file.")
NOT_AN_EXPORT = lazy_gettext("%(name)s is not a Companion export or game record (no "
                             "\"format\": \"%(format)s\").")
NO_EXPORT_VERSION = lazy_gettext("%(name)s has no valid format version.")
NEWER_EXPORT = lazy_gettext("%(name)s is format version %(version)s, newer than this Companion "
                            "reads (version %(known)s): upgrade Companion, then import it.")
NO_TABLES = lazy_gettext("%(name)s has no list of tables.")
TABLE_NUMBER = lazy_gettext("number %(number)s")  # a table of the file without a code
TABLE_DAMAGED = lazy_gettext("Table %(table)s in %(name)s: %(problem)s.")
NOT_A_TIME = lazy_gettext("Table %(table)s: %(value)s is not a date and time.")
NO_SUCH_GAME = lazy_gettext("Table %(table)s: this server has no game %(game)s.")
LOBBY_KINDS = ("pick", "rejoin")
LOBBY_WITH_LOG = lazy_gettext("Table %(table)s: a table in its lobby has no state or log.")
NO_SEED = lazy_gettext("Table %(table)s: a started table needs its seed and state.")
DOES_NOT_REPLAY = lazy_gettext("Table %(table)s: its log does not replay through the rules of "
                               "%(title)s: %(reason)s")
OTHER_STATE = lazy_gettext("Table %(table)s: replaying its log does not give the state stored "
                           "with it; the file was changed or damaged.")
TWICE = lazy_gettext("The file holds table %(table)s twice.")
CODE_TAKEN = lazy_gettext("The code %(table)s is already taken by a different table in this "
                          "database (created %(created)s, the file's %(given)s); nothing was "
                          "imported.")
SETTINGS_DAMAGED = lazy_gettext("The saved settings in %(name)s: %(problem)s.")
SETTINGS_NO_SUCH_GAME = lazy_gettext("%(name)s holds saved settings of %(game)s, a game this "
                                     "server does not have.")
SETTINGS_REFUSED = lazy_gettext("The saved settings of %(title)s in %(name)s: %(problem)s")
SETTINGS_TIME = lazy_gettext("The saved settings in %(name)s: %(value)s is not a date and "
                             "time.")
DATABASE_REFUSED = lazy_gettext("The import was refused by the database, and nothing was "
                                "imported: %(reason)s")


def said(sentence, /, **params) -> str:
    return sentence % params


class ImportRefused(click.ClickException):
    """A file that cannot be imported: the message says why; nothing was changed. `status`
    is the answer's HTTP status when the file was uploaded."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parse_time(value: str | None, code: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ImportRefused(said(NOT_A_TIME, table=code, value=repr(value))) from None


# -- export ------------------------------------------------------------------------

def table_record(table: store.history.Whole) -> dict:
    row = table.row
    return {
        "code": row.code, "game": row.game, "options": row.options,
        "seed": row.seed, "status": row.status, "host_token_hash": row.host_token_hash,
        "first_player": row.first_player, "version": row.version, "moves": row.moves,
        "state": table.state(), "created_at": _time(row.created_at),
        "updated_at": row.updated_at, "started_at": _time(row.started_at),
        "finished_at": _time(row.finished_at),
        "next_code": row.next_code, "clock": row.clock, "teaching": row.teaching,
        "players": [{"id": p.id, "seat": p.seat, "name": p.name, "name_key": p.name_key,
                     "token_hash": p.token_hash, "local": p.local,
                     "joined_at": _time(p.joined_at)} for p in table.players],
        "events": [{"seq": e.seq, "kind": e.kind, "actor": e.actor, "actor_key": e.actor_key,
                    "action": e.action, "notes": e.notes, "reveal": e.reveal,
                    "undoes": e.undoes, "action_id": e.action_id, "version": e.version,
                    "at": _time(e.at), "awaiting": e.awaiting} for e in table.events],
    }


def export_to(out: TextIO) -> int:
    """Write every table to `out`, oldest first, one at a time; how many."""
    defaults, named = store.saved.everything()
    out.write(f'{{"format": "{FORMAT}", "version": {VERSION},\n')
    for key, rows in (("saved_defaults", defaults), ("saved_options", named)):
        json.dump(key, out)
        out.write(": ")
        json.dump([{**row, "saved_at": _time(row["saved_at"])} for row in rows], out,
                  sort_keys=True)
        out.write(",\n")
    out.write('"tables": [')
    count = 0
    for count, table in enumerate(store.history.whole_tables(), start=1):
        out.write(",\n" if count > 1 else "\n")
        json.dump(table_record(table), out, sort_keys=True)
    out.write("\n]}\n")
    return count


# -- import ------------------------------------------------------------------------

def read_json(path: Path) -> Any:
    """The JSON document in a file; refused with a clear reason."""
    try:
        content = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ImportRefused(said(CANNOT_READ, name=str(path), reason=str(exc)), 400) from None
    return parse_json(content, str(path))


def parse_json(content: str, name: str) -> Any:
    """The JSON document `content` holds (`name` says where it came from in a refusal)."""
    if not content.strip():
        raise ImportRefused(said(EMPTY, name=name), 400)
    try:
        return json.loads(content)
    except json.JSONDecodeError as exc:
        raise ImportRefused(said(NOT_JSON, name=name, line=exc.lineno, column=exc.colno),
                            400) from None
    except RecursionError:
        raise ImportRefused(said(TOO_DEEP, name=name), 400) from None


def tables_of(document: Any, path: Path) -> list[TableRecord]:
    """The tables of an export document, checked for shape."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(said(NOT_AN_EXPORT, name=str(path), format=FORMAT), 400)
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportRefused(said(NO_EXPORT_VERSION, name=str(path)))
    if version > VERSION:
        raise ImportRefused(said(NEWER_EXPORT, name=str(path), version=version, known=VERSION))
    tables = document.get("tables")
    if not isinstance(tables, list):
        raise ImportRefused(said(NO_TABLES, name=str(path)))
    records = []
    for index, data in enumerate(tables):
        name = data.get("code") if isinstance(data, dict) else None
        try:
            records.append(TableRecord.model_validate(data))
        except ValidationError as exc:
            raise ImportRefused(said(
                TABLE_DAMAGED, table=name or said(TABLE_NUMBER, number=index + 1),
                name=str(path), problem=field_problem(exc.errors()[0]))) from None
    if version < 2:
        return [with_lines_made_again(record) for record in records]
    return records


def with_lines_made_again(record: TableRecord) -> TableRecord:
    """A table of a version 1 file with its log's lines made again as messages, from its
    log replayed through its engine."""
    engine = GAMES.get(record.game)
    if engine is None or record.status == "lobby":
        return record  # refused, or taken as it is, by the checks of the import
    events = sorted(record.events, key=lambda e: e.seq)
    try:
        lines = notes.rebuilt(record.game, [p.id for p in sorted(record.players,
                                                                  key=lambda p: p.seat)],
                              record.first_player, record.options, record.seed, events,
                              {p.id: p.local for p in record.players})
    except Exception as exc:  # a log the rules refuse, in whatever way
        raise ImportRefused(said(DOES_NOT_REPLAY, table=record.code, title=engine.title,
                                 reason=refusal_reason(exc, record_names(record)))) from None
    return record.model_copy(update={"events": [
        e.model_copy(update={"notes": lines[e.seq]}) for e in record.events]})


def replayed_state(record: TableRecord) -> dict | None:
    """The state the table's log gives when replayed through its engine (None in the lobby);
    refuses a log that its game's rules do not accept."""
    code = record.code
    engine = GAMES.get(record.game)
    if engine is None:
        raise ImportRefused(said(NO_SUCH_GAME, table=code, game=repr(record.game)))
    if record.status == "lobby":
        # A lobby's log holds lines (a random pick of who starts, a rejoin), no moves.
        if record.state is not None or any(e.kind not in LOBBY_KINDS for e in record.events):
            raise ImportRefused(said(LOBBY_WITH_LOG, table=code))
        return None
    if record.seed is None or record.state is None:
        raise ImportRefused(said(NO_SEED, table=code))
    effective = in_effect(sorted(record.events, key=lambda e: e.seq))
    seats = [p.id for p in sorted(record.players, key=lambda p: p.seat)]
    try:
        state = replay(engine, seat_order(seats, record.first_player), record.options,
                       record.seed, [(e.actor, e.action or {}) for e in effective])
        finished = engine.result(state) is not None
    except Exception as exc:
        raise ImportRefused(said(DOES_NOT_REPLAY, table=code, title=engine.title,
                                 reason=refusal_reason(exc, record_names(record)))) from None
    if record.moves != len(effective) or finished != (record.status == "finished"):
        raise ImportRefused(said(OTHER_STATE, table=code))
    return json.loads(json.dumps(state))


def record_names(record) -> dict[int, str]:
    """The names of a file's players (a table's, a game record's), by id."""
    return {player.id: player.name for player in record.players}


def refusal_reason(exc: Exception, names: dict[int, str]) -> str:
    """Why the rules refused a move of a file's log: the rules' own sentence, in the
    reader's language; the first line of any other error."""
    if isinstance(exc, IllegalAction):
        return messages.render(exc.message, names)
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def check_replay(record: TableRecord) -> None:
    """The table's log, replayed through its engine, gives the state stored with it."""
    if replayed_state(record) != record.state:
        raise ImportRefused(said(OTHER_STATE, table=record.code))


def renumbered(record: TableRecord, renumber: dict[int, int]) -> TableRecord:
    """The table with its players' ids changed as `renumber` says, in its seats, its log
    and its state (replayed from the renumbered log)."""
    engine = GAMES[record.game]

    def player(player_id: int | None) -> int | None:
        return renumber.get(player_id, player_id) if player_id is not None else None

    def event(e: EventRecord) -> EventRecord:
        sender = re.fullmatch(r"p(\d+)", e.actor_key)
        return e.model_copy(update={
            "actor": player(e.actor),
            "actor_key": f"p{player(int(sender.group(1)))}" if sender else e.actor_key,
            "action": engine.renumbered_action(e.action, renumber) if e.action else e.action,
            "notes": [Note.from_json(n).renumbered(renumber).to_json() for n in e.notes],
            "awaiting": None if e.awaiting is None else [player(p) for p in e.awaiting]})

    copy = record.model_copy(update={
        "first_player": player(record.first_player),
        "players": [p.model_copy(update={"id": renumber[p.id]}) for p in record.players],
        "events": [event(e) for e in record.events],
        "teaching": record.teaching and TeachingRecord(got_it={
            str(renumber.get(int(player_id), int(player_id))): steps
            for player_id, steps in record.teaching.got_it.items()})})
    return copy.model_copy(update={"state": replayed_state(copy)})


def _renumber_where_taken(records: list[TableRecord]) -> list[TableRecord]:
    """Each table as it will be inserted: with its own player ids, or new ones where any
    of them is taken, in this database or by a table earlier in the file."""
    ids = [p.id for record in records for p in record.players]
    if not ids:
        return records
    taken = store.history.taken_player_ids(ids)
    largest = store.history.largest_player_id()
    next_id = max(largest, *ids) + 1
    placed = []
    for record in records:
        own = sorted(p.id for p in record.players)
        if taken.intersection(own):
            renumber = {old: next_id + n for n, old in enumerate(own)}
            next_id += len(own)
            record = renumbered(record, renumber)
        taken.update(p.id for p in record.players)
        placed.append(record)
    return placed


# The saved settings an export holds, by key: their shape.
SAVED_SETTINGS: dict[str, TypeAdapter[list[SavedDefaultsRecord]]
                     | TypeAdapter[list[SavedOptionsRecord]]] = {
    "saved_defaults": TypeAdapter(list[SavedDefaultsRecord]),
    "saved_options": TypeAdapter(list[SavedOptionsRecord])}


def settings_of(document: dict, path: Path) -> tuple[list[dict], list[dict]]:
    """The saved settings of an export document, checked for shape and by their games'
    rules, as `store.saved.merge` takes them (none in a file without them)."""
    found: tuple[list[dict], list[dict]] = ([], [])
    for kind, (key, shape) in enumerate(SAVED_SETTINGS.items()):
        try:
            records = shape.validate_python(document.get(key, []))
        except ValidationError as exc:
            error = exc.errors()[0]
            raise ImportRefused(said(SETTINGS_DAMAGED, name=str(path), problem=field_problem(
                {**error, "loc": (key, *error["loc"])}))) from None
        for record in records:
            engine = GAMES.get(record.game)
            if engine is None:
                raise ImportRefused(said(SETTINGS_NO_SUCH_GAME, name=str(path),
                                         game=repr(record.game)))
            try:
                options = validate_options(engine, record.options)
            except CompanionError as exc:
                raise ImportRefused(said(SETTINGS_REFUSED, title=engine.title, name=str(path),
                                         problem=exc.message)) from None
            found[kind].append({**record.model_dump(), "options": options,
                                "saved_at": _saved_time(record.saved_at, path)})
    return found


def _saved_time(value: str, path: Path) -> datetime:
    """A saved setting's time, as the database keeps it (UTC, without a zone)."""
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ImportRefused(said(SETTINGS_TIME, name=str(path), value=repr(value))) from None
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc).replace(tzinfo=None)
    return when


def import_document(document: Any, path: Path) -> tuple[int, int]:
    """Import the tables of an export document read from `path`, and its saved settings:
    (tables imported, tables already there)."""
    records = tables_of(document, path)
    defaults, named = settings_of(document, path)
    codes = [record.code for record in records]
    twice = {code for code in codes if codes.count(code) > 1}
    if twice:
        raise ImportRefused(said(TWICE, table=sorted(twice)[0]))
    present = store.history.creation_times(codes)
    new = []
    for record in records:
        if record.code not in present:
            new.append(record)
        elif _time(present[record.code]) != record.created_at:
            raise ImportRefused(said(CODE_TAKEN, table=record.code,
                                     created=_time(present[record.code]),
                                     given=record.created_at))
    for record in new:
        check_replay(record)
    insert(new, defaults, named)
    return len(new), len(records) - len(new)


def insert(records: list[TableRecord], defaults: list[dict] | None = None,
           named: list[dict] | None = None) -> None:
    """Write these checked tables, renumbering the players whose ids are taken, and the
    saved settings (`settings_of`): all of them, or none."""
    placed = _renumber_where_taken(records)
    try:
        store.import_tables([_new_table(record) for record in placed], defaults, named)
    except ImportRefused:
        raise
    except Exception as exc:
        raise ImportRefused(said(DATABASE_REFUSED, reason=str(exc).splitlines()[0])) from None


def _new_table(record: TableRecord) -> store.NewTable:
    code = record.code
    return store.NewTable(
        values={"code": code, "game": record.game, "options": record.options,
                "seed": record.seed, "status": record.status,
                "host_token_hash": record.host_token_hash,
                "first_player": record.first_player, "version": record.version,
                "moves": record.moves, "state": record.state,
                "state_seq": record.events[-1].seq if record.events else 0,
                "created_at": _parse_time(record.created_at, code),
                "updated_at": record.updated_at,
                "started_at": _parse_time(record.started_at, code),
                "finished_at": _parse_time(record.finished_at, code),
                "next_code": record.next_code, "clock": record.clock,
                "teaching": (record.teaching.model_dump(mode="json")
                             if record.teaching else None)},
        seats=[{"id": p.id, "seat": p.seat, "name": p.name, "name_key": p.name_key,
                "token_hash": p.token_hash, "local": p.local,
                "joined_at": _parse_time(p.joined_at, code)} for p in record.players],
        events=[{"seq": e.seq, "kind": e.kind, "actor": e.actor, "actor_key": e.actor_key,
                 "action": e.action, "notes": e.notes, "reveal": e.reveal,
                 "undoes": e.undoes, "action_id": e.action_id, "version": e.version,
                 "at": _parse_time(e.at, code), "awaiting": e.awaiting}
                for e in record.events])
