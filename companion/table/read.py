"""Finding a table and reading it as one viewer may: its view (the API's, which the
screens render) and its log. Every read takes the table's Snapshot."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal, overload

import orjson
from flask_babel import lazy_gettext
from markupsafe import Markup

from .. import snapshots, store
from ..auth import Viewer
from ..errors import not_found
from ..games import GAMES
from ..games.engine import Note
from ..games.messages import Player, message
from ..jsontext import OPTIONS
from ..snapshots import Seat, Snapshot
from ..store.loading import log_entries
from ..i18n import messages
from . import clock


def normalise_code(code: str) -> str:
    return (code or "").strip().upper()


def find(code: str) -> Snapshot:
    """The table at its current version: one small query, the rest from this process's
    memory when it knows that version."""
    found = store.find_version(normalise_code(code))
    if found is None:
        raise not_found()
    return store.at_least(*found)


NO_SUCH_PLAYER = lazy_gettext("There is no such player at this table.")


def seated(table: Snapshot, player_id: Any) -> Seat:
    """The player of this id at the table (404 when there is none)."""
    seat = table.seat(player_id) if isinstance(player_id, int) else None
    if seat is None:
        raise not_found(NO_SUCH_PLAYER)
    return seat


def names_of(table: Snapshot) -> dict[int, str]:
    return table.memo("names", lambda: {p.id: p.name for p in table.players})


def fill_names_deep(value: Any, names: dict[int, str]) -> Any:
    """`value` with its messages rendered (a message, or one a state keeps in its JSON
    form) and names in every placeholder of its strings. A value with none (most of a
    game's state) is given back as it is, not copied: a view is read, never changed.
    Whether it has one is looked for in its JSON text, cheaper than walking it
    (bench/README.md)."""
    if not _has_placeholder(value):
        return value
    return messages.render_deep(value, names)


def _has_placeholder(value: Any) -> bool:
    try:  # a message is a str of its own kind: it is not passed through as text
        text = orjson.dumps(value, option=OPTIONS | orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:  # a message, or not JSON: walk it
        return True
    return b"{name:" in text or b'"msg":' in text


def view(table: Snapshot, viewer: Viewer) -> dict:
    """The table as this viewer may see it: the API's view, which the screens render.
    What every viewer sees alike is worked out once per version."""
    shared = table.memo(("view", messages.language()), lambda: _shared_view(table))
    you = viewer.player_id
    result = {
        "code": table.code, "game": table.game, "title": shared["title"],
        "status": table.status, "version": table.version, "options": table.options,
        "players": shared["players"], "you": you, "host": viewer.is_host,
        "turn": shared["turn"], "waiting_for": shared["waiting_for"], "state": None,
        "private": None, "actions": [], "clock": clock.view_of(table),
        "result": shared["result"],
    }
    state = table.state
    if state is None:
        return result
    engine = GAMES[table.game]
    private = engine.private_view(state, you) if you is not None else None
    ended = table.status == "ended"  # an ended table awaits no one: it takes no move
    actions = ([] if ended or (you is None and not viewer.is_host)
               else engine.actions(state, you))
    if ended:
        result["waiting_for"] = []
    parts = (private, actions)
    if _has_placeholder(parts):  # (looked for in both at once: most views have none)
        names = names_of(table)
        parts = tuple(fill_names_deep(part, names) for part in parts)
    result.update(zip(("private", "actions"), parts))
    # The public state is the same for every viewer (the engines' contract): built once.
    result["state"] = table.memo(("public-state", messages.language()),
                                 lambda: _with_names(table, engine.view(state, None)[0]))
    return result


def _with_names(table: Snapshot, part: Any) -> Any:
    return fill_names_deep(part, names_of(table)) if _has_placeholder(part) else part


def view_since(table: Snapshot, viewer: Viewer, since: int) -> dict:
    """The view, its state cut down to what changed after version `since` (which the
    caller holds) where the game can tell (`public_since`: a score sheet's rows), marked
    with `rows_since`; else the whole view. An undo since, or a version the table has not
    reached, gives the whole view."""
    whole = view(table, viewer)
    if whole["state"] is None or not 0 <= since <= table.version:
        return whole
    later = store.actions_since(table.id, since, table.version)
    if later is None or any(event.kind != "action" or not isinstance(event.action, dict)
                            for event in later):
        return whole
    cut = GAMES[table.game].public_since(whole["state"], [event.action for event in later])
    if cut is None:
        return whole
    return dict(whole, state=dict(cut, rows_since=since))


def _shared_view(table: Snapshot) -> dict:
    engine = GAMES[table.game]
    shared: dict[str, Any] = {
        "title": engine.title, "players": [p.public() for p in table.players],
        "turn": None, "waiting_for": [], "result": None}
    state = table.state
    if state is not None:
        outcome = clock.outcome(table)
        shared.update(
            turn=engine.turn(state), waiting_for=engine.waiting_for(state),
            result=messages.render_deep(outcome.to_json(), names_of(table)) if outcome else None)
        used = clock.used_at_the_end(table) if outcome else None
        if used is not None:
            for standing in shared["result"]["standings"]:
                standing["time_ms"] = used.get(standing["player"], 0)
    return shared


@overload
def summary(notes: list[dict], viewer: Viewer, names: dict[int, str],
            html: Literal[True]) -> Markup: ...
@overload
def summary(notes: list[dict], viewer: Viewer, names: dict[int, str],
            html: bool = False) -> str: ...
def summary(notes: list[dict], viewer: Viewer, names: dict[int, str],
            html: bool = False) -> str:
    """A log entry's lines as this viewer reads them, in this screen's language."""
    lines = messages.render_all([Note.line_from_json(n, viewer.player_id) for n in notes],
                                names, html)
    return Markup(" ").join(lines) if html else " ".join(lines)


def log(table: Snapshot, viewer: Viewer, limit: int | None = None,
        html: bool = False, newest_first: bool = False) -> list[dict]:
    """The log as this viewer may read it, oldest first unless `newest_first` (the last
    `limit` lines). The last few lines are worked out once per version for every viewer
    who reads them alike (all but those with a line of their own among them)."""
    if limit and limit <= snapshots.LOG_TAIL:
        found = table.recent[-limit:]
        reader = viewer.player_id if _reads_own_line(found, viewer.player_id) else None
        lines = table.memo(("log", limit, html, reader, messages.language()),
                           lambda: _lines(table, found, Viewer(player_id=reader), html))
    else:
        entries = _whole_log(store.database_name(), table.id, table.version)
        lines = _lines(table, entries[-limit:] if limit else entries, viewer, html)
    return lines[::-1] if newest_first else list(lines)


@lru_cache(maxsize=32)
def _whole_log(database: str, table_id: int, version: int) -> tuple[snapshots.Entry, ...]:
    """Every entry of a table's log at this version, each keeping the lines it was read
    as: read once per version (a log is only added to), for the few tables whose whole log
    is being read (a long game's log is large: not kept with every table's snapshot)."""
    events = [event for event in store.events(table_id) if event.version <= version]
    undone = {event.undoes for event in events if event.kind == "undo"}
    return tuple(log_entries(events, undone, {e.seq: e.notes for e in events}))


def _reads_own_line(entries, player_id: int | None) -> bool:
    """Whether any of these entries has a line of this player's own (a private note)."""
    if player_id is None:
        return False
    keys = (player_id, str(player_id))
    return any(key in note.get("private", ())
               for entry in entries
               for note in (entry.undone_notes or []) + list(entry.notes) for key in keys)


def _lines(table: Snapshot, found, viewer: Viewer, html: bool) -> list[dict]:
    names = names_of(table)
    read_as = (viewer.player_id, html, messages.language(), tuple(names.items()))
    return [{"seq": entry.seq, "player": entry.actor,
             "summary": entry.line(read_as,
                                   lambda entry=entry: _line(entry, viewer, names, html)),
             "at": entry.at.isoformat() + "Z", "undone": entry.undone} for entry in found]


def _line(entry, viewer: Viewer, names: dict[int, str], html: bool) -> str:
    if entry.kind != "undo":
        return summary(entry.notes, viewer, names, html)
    undone = summary(entry.undone_notes, viewer, names, html)
    return messages.render(
        message("%(player)s undid: %(moves)s", player=Player(entry.actor), moves=undone)
        if entry.actor else message("The host undid: %(moves)s", moves=undone), names, html)
