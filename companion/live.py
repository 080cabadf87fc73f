"""Live updates: who is told when a table changes.

A change made in this process wakes the streams of that table at once. Changes made by
other processes (several gunicorn workers, several servers on one database) reach this
one through PostgreSQL's LISTEN/NOTIFY on PostgreSQL, and on SQLite (one machine) through
a watcher thread that polls the versions of the tables this process has streams for.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator

POLL_SECONDS = 0.05
CHANNEL = "companion_tables"
KEEPALIVE_SECONDS = 15


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._conditions: dict[str, threading.Condition] = {}
        self._listeners: dict[str, int] = {}

    def _condition(self, code: str) -> threading.Condition:
        with self._lock:
            if code not in self._conditions:
                self._conditions[code] = threading.Condition()
            return self._conditions[code]

    def publish(self, code: str, version: int) -> None:
        condition = self._condition(code)
        with condition:
            if version > self._versions.get(code, -1):
                self._versions[code] = version
                condition.notify_all()

    def wait(self, code: str, known: int, timeout: float) -> int:
        """The table's version once it is newer than `known`, or after `timeout`."""
        condition = self._condition(code)
        with condition:
            condition.wait_for(lambda: self._versions.get(code, -1) > known, timeout)
            return self._versions.get(code, -1)

    def listen(self, code: str) -> None:
        with self._lock:
            self._listeners[code] = self._listeners.get(code, 0) + 1

    def unlisten(self, code: str) -> None:
        with self._lock:
            self._listeners[code] -= 1
            if not self._listeners[code]:
                del self._listeners[code]

    def listened(self) -> list[str]:
        with self._lock:
            return list(self._listeners)


hub = Hub()
_watcher: threading.Thread | None = None
_watcher_lock = threading.Lock()
_read_versions: Callable[[list[str]], dict[str, int]] | None = None


def publish(code: str, version: int) -> None:
    hub.publish(code, version)


def start_watcher(read_versions: Callable[[list[str]], dict[str, int]],
                  listen_dsn: str | None = None) -> None:
    """Start (once per process) the thread that hears of other processes' changes: a
    PostgreSQL listener when `listen_dsn` is given, else a poller."""
    global _watcher, _read_versions
    with _watcher_lock:
        _read_versions = read_versions
        if _watcher is not None and _watcher.is_alive():
            return
        target = (lambda: _listen(listen_dsn)) if listen_dsn else _poll
        _watcher = threading.Thread(target=target, name="companion-watcher", daemon=True)
        _watcher.start()


def _catch_up() -> None:
    codes = hub.listened()
    if codes:
        for code, version in _read_versions(codes).items():
            hub.publish(code, version)


def _poll() -> None:
    while True:
        time.sleep(POLL_SECONDS)
        try:
            _catch_up()
        except Exception:  # the database restarting: try again in a moment
            time.sleep(1)


def _listen(dsn: str) -> None:
    import psycopg

    while True:
        try:
            with psycopg.connect(dsn, autocommit=True) as connection:
                connection.execute(f"LISTEN {CHANNEL}")
                _catch_up()  # whatever changed while we were not listening
                for notice in connection.notifies():
                    code, _, version = notice.payload.partition(":")
                    if version.isdigit():
                        hub.publish(code, int(version))
        except Exception:  # the database restarting: listen again in a moment
            time.sleep(1)


def notify_sql(dialect: str) -> str | None:
    """The statement that tells other processes of a change, sent in the writing
    transaction (PostgreSQL delivers it on commit); None where polling does the job."""
    return "SELECT pg_notify(:channel, :payload)" if dialect == "postgresql" else None


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def sse_lines(event: str, text: str) -> str:
    """An event whose data is text of several lines (a rendered fragment)."""
    data = "\n".join("data: " + line for line in text.splitlines() if line.strip())
    return f"event: {event}\n{data}\n\n"


REVOKED = sse("revoked", {"message": "This phone's seat was given to another phone."})


def stream(code: str, version: int, since: int,
           message: Callable[[int], tuple[int, str] | None]) -> Iterator[str]:
    """The server-sent events of one viewer of a table: `message(version)` renders what
    the viewer is told of the table at that version or newer (and which version that
    was), or None once the viewer's seat was given to another phone (the stream ends).
    Sent at once when the table is newer than `since` (-1: on connect), then at every
    change; a comment line keeps the connection open."""
    hub.listen(code)
    hub.publish(code, version)
    try:
        yield "retry: 2000\n\n"
        known = since
        while True:
            newest = hub.wait(code, known, KEEPALIVE_SECONDS)
            if newest <= known:
                yield ": keep-alive\n\n"
                continue
            told = message(newest)
            if told is None:
                yield REVOKED
                return
            known, text = told
            yield text
    finally:
        hub.unlisten(code)
