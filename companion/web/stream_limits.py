"""How many live streams one address may hold, and how many one worker holds in all.

A live stream holds one of its worker's connections (gevent) or threads (gthread) for as
long as it is open, so streams alone could take them all and leave moves, joins and pages
unanswered. Two limits keep them from it:

- an address holds at most STREAMS_PER_ADDRESS streams (`429` past it), counted in this
  process and, when the rate limits count in a shared storage (COMPANION_RATELIMIT_STORAGE),
  in the whole server group; behind trusted proxies the address is the phone's own (the
  one the rate limits use, which ProxyFix gives);
- a worker's streams leave one in RESERVE_SHARE of its budget (WORKER_BUDGET) to every
  other request (`503` past it).

Both answers carry Retry-After: a phone's page asks again then by itself.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app
from flask_babel import lazy_gettext
from flask_limiter.util import get_remote_address
from limits.errors import StorageError
from limits.storage import Storage, storage_from_string

from ..errors import CompanionError

RETRY_SECONDS = 10
RESERVE_SHARE = 10  # one connection (or thread) in ten is never a stream's
# Shared counts are kept per window of this many seconds (see SharedCounts).
WINDOW_SECONDS = 30
# For this long after a window begins, the previous window's count is read too: each
# process adds its streams to a new window's count within a second or so.
GRACE_SECONDS = 5
KEY = "companion-streams/{window}/{address}/{kind}"
# A storage that failed is left alone this long: each process counts alone meanwhile.
OUT_OF_REACH_SECONDS = 5

TOO_MANY_HERE = lazy_gettext("Too many live screens are open from this network, so this screen "
                             "stopped following the table. It tries again by itself in a moment.")
SERVER_FULL = lazy_gettext("The server is following as many live screens as it can, so this "
                           "screen stopped following the table. It tries again by itself in a "
                           "moment.")


def too_many_here() -> CompanionError:
    return CompanionError("too_many_requests", str(TOO_MANY_HERE), retry_after=RETRY_SECONDS)


def server_full() -> CompanionError:
    return CompanionError("unavailable", str(SERVER_FULL), retry_after=RETRY_SECONDS)


class StreamCounts:
    """The streams this process holds, in all and by address, and (with `shared`) what
    the whole group holds of an address."""

    def __init__(self, per_address: int, budget: int,
                 shared: "SharedCounts | None" = None) -> None:
        self.per_address = per_address
        self.most = max(1, budget - max(1, budget // RESERVE_SHARE))
        self.shared = shared
        self._lock = threading.Lock()
        self._held: dict[str, int] = {}
        self._total = 0

    def take(self, address: str) -> Callable[[], None]:
        """Count a new stream of `address`, or refuse it (429, 503); gives what ends its
        count, which may be called more than once."""
        with self._lock:
            if self._total >= self.most:
                raise server_full()
            held = self._held.get(address, 0)
            if self.per_address and held >= self.per_address:
                raise too_many_here()
            self._change(address, +1)
            shared = self.shared
            added = shared.added(address, +1, held + 1) if shared else None
        if shared and added and shared.count(address, *added) > self.per_address:
            self._end(address)
            raise too_many_here()
        ended = threading.Event()

        def end() -> None:
            if not ended.is_set():
                ended.set()
                self._end(address)
        return end

    def _change(self, address: str, amount: int) -> None:
        held = self._held.get(address, 0) + amount
        if held:
            self._held[address] = held
        else:
            del self._held[address]
        self._total += amount

    def _end(self, address: str) -> None:
        with self._lock:
            self._change(address, -1)
            held = self._held.get(address, 0)
            shared = self.shared
            removed = shared.added(address, -1, held) if shared else None
        if shared and removed:
            shared.send(address, *removed)

    def new_window(self) -> None:
        """A window began: add this process's streams of every address to its count."""
        shared = self.shared
        if shared is None:
            return
        with self._lock:
            sums = [(address, shared.added(address, 0, held))
                    for address, held in self._held.items()]
            shared.forget(set(self._held))
        for address, added in sums:
            if added:
                shared.send(address, *added)


class SharedCounts:
    """The streams of each address in the whole server group, in the limits storage.

    Each process adds its streams of an address to the count of the current window (a
    key that expires), and takes them off as they end; once a window begins, each adds
    what it holds then to the new window's count (`StreamCounts.new_window`, from a
    thread of its own). So a process that dies without a word leaves its streams counted
    until the end of the window at most. Should the storage be out of reach, each process
    counts alone until it is back."""

    def __init__(self, storage: Storage, app: Flask) -> None:
        self.storage = storage
        self.app = app
        raw = storage.base_exceptions
        self.failures: tuple[type[BaseException], ...] = (
            StorageError, OSError, *(raw if isinstance(raw, tuple) else (raw,)))
        self._warned = 0.0
        self._out_of_reach_until = 0.0
        self._windows: dict[str, int] = {}  # the window each address's streams are in
        self._follower: threading.Thread | None = None
        self._follower_lock = threading.Lock()

    def follow_windows(self, counts: StreamCounts) -> None:
        """Start (once per process, as it first serves a stream) the thread that adds
        the process's streams to each new window's counts."""
        with self._follower_lock:
            if self._follower and self._follower.is_alive():
                return

            def follow() -> None:
                while True:
                    time.sleep(WINDOW_SECONDS - time.time() % WINDOW_SECONDS + 0.1)
                    with self.app.app_context():
                        counts.new_window()
            self._follower = threading.Thread(target=follow, daemon=True,
                                              name="companion-stream-windows")
            self._follower.start()

    @staticmethod
    def window(now: float | None = None) -> int:
        return int((time.time() if now is None else now) // WINDOW_SECONDS)

    def added(self, address: str, amount: int, held: int) -> tuple[int, int] | None:
        """(window, amount) to add to the shared count once this process's count of the
        address changed by `amount` to `held` (its whole count when the window's count
        does not have it yet); None when nothing is to be added. Called under the lock
        of the process's count, so that no stream is added twice."""
        window = self.window()
        if self._windows.get(address) != window:
            self._windows[address] = window
            return (window, held) if held else None
        return (window, amount) if amount else None

    def forget(self, addresses: set[str]) -> None:
        for address in set(self._windows) - addresses:
            del self._windows[address]

    def send(self, address: str, window: int, amount: int) -> int | None:
        """Add `amount` to the window's count of the address (a negative amount: streams
        that ended): the streams it opened in the window after it, or None when the
        storage is out of reach. Opened and ended streams are counted apart, as memcached
        counts up only."""
        kind, amount = ("opened", amount) if amount >= 0 else ("ended", -amount)
        return self._reached(self.storage.incr, KEY.format(window=window, address=address,
                                                           kind=kind),
                             2 * WINDOW_SECONDS, amount)

    def held(self, address: str, window: int, opened: int | None = None) -> int | None:
        """The group's streams of the address in the window (given the streams it opened,
        when they are known); None when the storage is out of reach."""
        if opened is None:
            opened = self._reached(self.storage.get, KEY.format(window=window, address=address,
                                                                kind="opened"))
        if opened is None:
            return None
        ended = self._reached(self.storage.get, KEY.format(window=window, address=address,
                                                           kind="ended"))
        return opened - ended if ended is not None else None

    def count(self, address: str, window: int, amount: int) -> int:
        """The group's streams of the address with a new one, which `amount` adds to the
        window's count (with the process's others, when the count did not have them)."""
        opened = self.send(address, window, amount)
        count = self.held(address, window, opened) if opened is not None else None
        if count is None:
            return 0
        if time.time() - window * WINDOW_SECONDS < GRACE_SECONDS:
            earlier = self.held(address, window - 1) or 0
            count = max(count, earlier + 1)  # the new stream is not in the earlier count
        return count

    def _reached(self, call: Callable[..., int], *args) -> int | None:
        """What the storage answered, or None: when it fails, or failed a moment ago (a
        storage that stops answering then costs one wait, not one per stream)."""
        if time.monotonic() < self._out_of_reach_until:
            return None
        try:
            return call(*args)
        except self.failures as error:
            self._out_of_reach_until = time.monotonic() + OUT_OF_REACH_SECONDS
            if time.monotonic() - self._warned > WINDOW_SECONDS:  # not once per stream
                self._warned = time.monotonic()
                current_app.logger.warning("The shared stream counts are out of reach "
                                           "(each process counts alone): %s", error)
            return None


def register(app: Flask) -> None:
    """The app's stream counts: per process, and shared when the rate limits are."""
    uri = app.config["RATELIMIT_STORAGE_URI"]
    per_address = app.config["STREAMS_PER_ADDRESS"] if app.config["RATELIMIT_ENABLED"] else 0
    shared = (SharedCounts(_storage(uri, app.config["RATELIMIT_STORAGE_OPTIONS"]), app)
              if per_address and not uri.startswith("memory://") else None)
    app.extensions["companion_streams"] = StreamCounts(per_address, app.config["WORKER_BUDGET"],
                                                       shared)


def _storage(uri: str, options: dict[str, Any]) -> Storage:
    storage = storage_from_string(uri, **options)
    if not isinstance(storage, Storage):  # an async one, which the rate limits refuse too
        raise ValueError(f"{uri.split('://', 1)[0]}:// is not a storage the limits can use")
    return storage


def take_stream() -> Callable[[], None]:
    """Count a new stream of this request's address, or refuse it (429 or 503)."""
    counts: StreamCounts = current_app.extensions["companion_streams"]
    if counts.shared:
        counts.shared.follow_windows(counts)
    return counts.take(get_remote_address())
