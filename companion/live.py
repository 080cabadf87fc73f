"""Live updates: who is told when a table changes.

A change made in this process wakes the streams of that table at once. Changes made by
other processes (several gunicorn workers, several servers on one database) reach this
one through PostgreSQL's LISTEN/NOTIFY on PostgreSQL. On SQLite (one machine), the
process that made a change sends the table's code to the other processes serving the
same database file (a Unix datagram socket each, in a folder named after the database),
which read its version; a watcher thread also polls the versions of the tables this
process has streams for, in case a notice was lost.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator

POLL_SECONDS = 0.05  # with no notices from neighbours
POLL_SECONDS_WITH_NEIGHBOURS = 0.5  # when a notice can be lost only under overload
CHANNEL = "companion_tables"
KEEPALIVE_SECONDS = 15


class Hub:
    """The newest version of each table this process has streams for, and a condition
    its streams wait on. A table nobody streams here is not kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._conditions: dict[str, threading.Condition] = {}
        self._listeners: dict[str, int] = {}

    def publish(self, code: str, version: int) -> None:
        with self._lock:
            condition = self._conditions.get(code)
        if condition is None:
            return
        with condition:
            if version > self._versions.get(code, -1):
                self._versions[code] = version
                condition.notify_all()

    def wait(self, code: str, known: int, timeout: float) -> int:
        """The table's version once it is newer than `known`, or after `timeout` (only
        while listening to the table)."""
        condition = self._conditions[code]
        with condition:
            condition.wait_for(lambda: self._versions.get(code, -1) > known, timeout)
            return self._versions.get(code, -1)

    def listen(self, code: str) -> None:
        with self._lock:
            self._listeners[code] = self._listeners.get(code, 0) + 1
            self._conditions.setdefault(code, threading.Condition())

    def unlisten(self, code: str) -> None:
        with self._lock:
            self._listeners[code] -= 1
            if not self._listeners[code]:
                del self._listeners[code], self._conditions[code]
                self._versions.pop(code, None)

    def listened(self) -> list[str]:
        with self._lock:
            return list(self._listeners)


class Neighbours:
    """The other processes on this machine serving the same SQLite file. Each one that
    holds streams binds a datagram socket in the database's folder; a change is told to
    every socket there as the table's code. A notice says only "look again": the version
    is always read from the database."""

    def __init__(self, database: str):
        self.database = database
        digest = hashlib.sha256(database.encode()).hexdigest()[:16]
        self.folder = os.path.join(tempfile.gettempdir(), f"companion-{digest}")
        self.address = os.path.join(self.folder, f"{os.getpid()}.sock")
        self.outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.outbox.setblocking(False)
        self.pid = os.getpid()
        self._peers: list[str] = []
        self._listed = None  # the folder's modification time when last listed

    def open_inbox(self) -> socket.socket:
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        if os.path.exists(self.address):  # left by an earlier process with this pid
            os.unlink(self.address)
        inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        inbox.bind(self.address)
        atexit.register(self.close_inbox)
        return inbox

    def close_inbox(self) -> None:
        _forget(self.address)
        try:
            os.rmdir(self.folder)  # only when no other process is there
        except OSError:
            pass

    def peers(self) -> list[str]:
        """The sockets in the folder, listed again whenever a process came or went."""
        try:
            changed = os.stat(self.folder).st_mtime_ns
        except OSError:
            return []
        if changed != self._listed:
            self._peers = [os.path.join(self.folder, name) for name in os.listdir(self.folder)
                           if name.endswith(".sock")]
            self._listed = changed
        return self._peers

    def tell(self, code: str) -> None:
        for peer in self.peers():
            if peer == self.address:
                continue
            try:
                self.outbox.sendto(code.encode(), peer)
            except ConnectionRefusedError:  # nobody bound there: a process that ended
                _forget(peer)
            except OSError:  # its inbox is full or it just ended: its poll catches up
                pass


def _forget(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


hub = Hub()
_watcher: threading.Thread | None = None
_watcher_lock = threading.Lock()
_read_versions: Callable[[list[str]], dict[str, int]] | None = None
_neighbours: Neighbours | None = None


def share_sqlite_file(database: str | None) -> None:
    """Tell other processes on this machine serving this SQLite file of changes made here
    (None: a server database, whose own notifications do that)."""
    global _neighbours
    if database is None:
        _neighbours = None
    elif (_neighbours is None or _neighbours.database != database
          or _neighbours.pid != os.getpid()):
        _neighbours = Neighbours(database)


def publish(code: str, version: int) -> None:
    """A change committed here: wake this process's streams, tell its neighbours."""
    hub.publish(code, version)
    if _neighbours is not None:
        _neighbours.tell(code)


def start_watcher(read_versions: Callable[[list[str]], dict[str, int]],
                  listen_dsn: str | None = None) -> None:
    """Start (once per process) what hears of other processes' changes: a PostgreSQL
    listener when `listen_dsn` is given, else a poller and the neighbours' inbox."""
    global _watcher, _read_versions
    with _watcher_lock:
        _read_versions = read_versions
        if _watcher is not None and _watcher.is_alive():
            return
        if listen_dsn:
            target = lambda: _listen(listen_dsn)  # noqa: E731
        else:
            inbox = _open_inbox()
            if inbox is not None:
                threading.Thread(target=_hear, args=(inbox,), name="companion-inbox",
                                 daemon=True).start()
            seconds = POLL_SECONDS_WITH_NEIGHBOURS if inbox is not None else POLL_SECONDS
            target = lambda: _poll(seconds)  # noqa: E731
        _watcher = threading.Thread(target=target, name="companion-watcher", daemon=True)
        _watcher.start()


def _open_inbox() -> socket.socket | None:
    if _neighbours is None:
        return None
    try:
        return _neighbours.open_inbox()
    except OSError:  # no room for a socket here: the poll alone does the job
        return None


def _catch_up(codes: list[str] | None = None) -> None:
    listened = hub.listened()
    codes = listened if codes is None else sorted(set(codes).intersection(listened))
    if codes:
        for code, version in _read_versions(codes).items():
            hub.publish(code, version)


def _poll(seconds: float) -> None:
    while True:
        time.sleep(seconds)
        try:
            _catch_up()
        except Exception:  # the database restarting: try again in a moment
            time.sleep(1)


def _hear(inbox: socket.socket) -> None:
    """Read the neighbours' notices; those that arrived together are read in one query."""
    while True:
        try:
            codes = {inbox.recv(64).decode(errors="replace")}
            inbox.setblocking(False)
            try:
                while True:
                    codes.add(inbox.recv(64).decode(errors="replace"))
            except BlockingIOError:
                pass
            finally:
                inbox.setblocking(True)
            _catch_up(list(codes))
        except Exception:  # the database restarting: the poll catches up meanwhile
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
    """An event whose data is text of several lines (a rendered fragment), every line
    kept: the client joins them again with newlines."""
    data = "\n".join("data: " + line for line in text.splitlines())
    return f"event: {event}\n{data}\n\n"


REVOKED_MESSAGE = "The host gave this seat to a new phone; this phone is signed out."
REVOKED = sse("revoked", {"message": REVOKED_MESSAGE})


def stream(code: str, version: int, since: int,
           message: Callable[[int], tuple[int, str] | None],
           revoked: str = REVOKED) -> Iterator[str]:
    """The server-sent events of one viewer of a table: `message(version)` renders what
    the viewer is told of the table at that version or newer (and which version that
    was), or None once the viewer's seat was given to another phone: the stream then
    sends `revoked` and ends.
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
                yield revoked
                return
            known, text = told
            yield text
    finally:
        hub.unlisten(code)
