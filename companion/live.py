"""Live updates: who is told when a table changes.

A change made in this process wakes the streams of that table at once. On SQLite the
server is this one process (gunicorn.conf.py refuses more), so that is all it takes. On
PostgreSQL, changes made by other processes (several workers, several servers) reach this
one through LISTEN/NOTIFY. On either, a slow poll of the versions of the tables streamed
here is the safety net for anything else that writes to the database (a command-line
import, say).

When the process is told to stop, `hub.close()` ends every stream at once, so that the
server stops within its graceful timeout.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from flask_babel import lazy_gettext

from .jsontext import to_json

POLL_SECONDS = 2.0
CHANNEL = "companion_tables"
KEEPALIVE_SECONDS = 15


class _Listened:
    """A table streamed in this process: its newest version known here, how many streams
    listen, and the event its streams wait on (set, and replaced, at each change)."""

    __slots__ = ("version", "listeners", "changed")

    def __init__(self) -> None:
        self.version = -1
        self.listeners = 0
        self.changed = threading.Event()


class Hub:
    """The newest version of each table this process has streams for, and an event its
    streams wait on. A table nobody streams here is not kept.

    One event per change, set once and then replaced, wakes every stream of the table at
    once: under gevent (gunicorn.conf.py patches threading) an event is gevent's own, and
    waking six streams with it took half the CPU a condition did."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, _Listened] = {}
        self.closed = False

    def publish(self, code: str, version: int) -> None:
        with self._lock:
            table = self._tables.get(code)
            if table is None or version <= table.version:
                return
            table.version = version
            changed, table.changed = table.changed, threading.Event()
        changed.set()

    def wait(self, code: str, known: int, timeout: float) -> int:
        """The table's version once it is newer than `known`, or after `timeout`, or at
        once when the hub is closed (only while listening to the table)."""
        with self._lock:
            table = self._tables[code]
            changed = table.changed
        if not self.closed and table.version <= known:
            changed.wait(timeout)
        return table.version

    def close(self) -> None:
        """The process is stopping: end every wait, now and from now on."""
        with self._lock:
            self.closed = True
            events = [table.changed for table in self._tables.values()]
        for changed in events:
            changed.set()

    def listen(self, code: str) -> None:
        with self._lock:
            self._tables.setdefault(code, _Listened()).listeners += 1

    def unlisten(self, code: str) -> None:
        with self._lock:
            table = self._tables[code]
            table.listeners -= 1
            if not table.listeners:
                del self._tables[code]

    def listened(self) -> list[str]:
        with self._lock:
            return list(self._tables)


hub = Hub()
_watchers: list[threading.Thread] = []
_watcher_lock = threading.Lock()
_read_versions: Callable[[list[str]], dict[str, int]] | None = None


def publish(code: str, version: int) -> None:
    """A change committed in this process: wake its streams of the table."""
    hub.publish(code, version)


def start_watcher(read_versions: Callable[[list[str]], dict[str, int]],
                  listen_dsn: str | None = None) -> None:
    """Start (once per process) what hears of changes made elsewhere: the slow poll, and
    a PostgreSQL listener when `listen_dsn` is given."""
    global _read_versions
    with _watcher_lock:
        _read_versions = read_versions
        if _watchers and all(thread.is_alive() for thread in _watchers):
            return
        _watchers.clear()
        _watchers.append(threading.Thread(target=_poll, name="companion-poll", daemon=True))
        if listen_dsn:
            _watchers.append(threading.Thread(target=_listen, args=(listen_dsn,),
                                              name="companion-listen", daemon=True))
        for thread in _watchers:
            thread.start()


def _catch_up() -> None:
    codes = hub.listened()
    read_versions = _read_versions  # set before any watcher starts
    if codes and read_versions is not None:
        for code, version in read_versions(codes).items():
            hub.publish(code, version)


def _poll() -> None:
    while True:
        time.sleep(POLL_SECONDS)
        _catch_up_or_wait()


def _catch_up_or_wait() -> None:
    """Catch up, unless the database cannot answer now (restarting, or no connection of
    the pool free in time): the poll tries again in a moment."""
    try:
        _catch_up()
    except Exception:
        time.sleep(1)


def _listen(dsn: str) -> None:
    import psycopg

    while True:
        try:
            with psycopg.connect(dsn, autocommit=True) as connection:
                connection.execute(f"LISTEN {CHANNEL}")
                # Whatever changed while we were not listening. Should that fail, the poll
                # catches up: the LISTEN connection is kept, never one more opened beside it.
                _catch_up_or_wait()
                for notice in connection.notifies():
                    code, _, version = notice.payload.partition(":")
                    if version.isdigit():
                        hub.publish(code, int(version))
        except Exception:  # the database restarting: listen again in a moment
            time.sleep(1)


def notice(dialect: str, code: str, version: int) -> tuple[str, str] | None:
    """The channel and payload that tell other processes of a change, sent in its
    writing transaction (PostgreSQL delivers a NOTIFY on commit); None on SQLite, whose
    one server process wakes its own streams."""
    return (CHANNEL, f"{code}:{version}") if dialect == "postgresql" else None


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {to_json(data)}\n\n"


def sse_lines(event: str, text: str) -> str:
    """An event whose data is text of several lines (a rendered fragment), every line
    kept: the client joins them again with newlines. Only CR and LF end a line of an
    event stream, so only they start a new data line (replaced in place, rather than
    split into lines and joined again)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.removesuffix("\n").replace("\n", "\ndata: ")
    return f"event: {event}\ndata: {text}\n\n"


REVOKED_MESSAGE = lazy_gettext("The host gave this seat to a new phone; this phone is signed out.")
# The API's event: its JSON is made once, in English (a screen renders its own, translated).
REVOKED = sse("revoked", {"message": str(REVOKED_MESSAGE)})


def stream(code: str, version: int, since: int,
           message: Callable[[int], tuple[int, str] | None],
           revoked: str = REVOKED) -> Iterator[str]:
    """The server-sent events of one viewer of a table: `message(version)` renders what
    the viewer is told of the table at that version or newer (and which version that
    was), or None once the viewer's seat was given to another phone: the stream then
    sends `revoked` and ends.
    Sent at once when the table is newer than `since` (-1: on connect), then at every
    change; a comment line keeps the connection open. Ends when the process is
    stopping (the client reconnects, to this server once it is back or to another)."""
    hub.listen(code)
    hub.publish(code, version)
    try:
        yield "retry: 2000\n\n"
        known = since
        while True:
            newest = hub.wait(code, known, KEEPALIVE_SECONDS)
            if hub.closed:
                return
            if newest <= known:
                yield ": keep-alive\n\n"
                continue
            told = message(newest)
            if told is None:
                yield revoked
                return
            known, text = told
            yield text
    finally:
        hub.unlisten(code)
