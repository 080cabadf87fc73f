"""The suite's one reader of server-sent events (text/event-stream), for the API's
streams and the screens' alike."""
from __future__ import annotations

import json
import os
import queue
import re
import socket
import threading
import time

import requests


# A screen's events: its whole panel, the table's parts of a change (the same bytes for
# every screen), and the viewer's own part when it changed. Each names its version.
HTML_EVENTS = ("panel", "public", "own")


def version_of(event: tuple[str, str | None]) -> int | None:
    """The version an event tells of: the API's version event, or a screen's event."""
    name, data = event
    if name == "version" and data:
        return json.loads(data)["version"]
    found = re.search(r'data-version="(\d+)"', data or "") if name in HTML_EVENTS else None
    return int(found.group(1)) if found else None


def parsed(event: tuple[str, str | None]) -> tuple[str, object]:
    """An event with its data read: JSON for the API's events, a screen's HTML as text."""
    name, data = event
    if name in HTML_EVENTS or data is None:
        return name, data
    return name, json.loads(data)


class Stream:
    """An open text/event-stream whose events (name, raw data) arrive on a queue, the
    last one ("closed", None) once the stream ends. A bearer `token` is sent as the API
    expects it; `session` (requests' own by default) opens the connection."""

    def __init__(self, url: str, token: str | None = None, headers: dict | None = None,
                 cookies=None, label: str = "", session=requests):
        self.label = label or url
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.response = session.get(url, headers=headers, cookies=cookies, stream=True,
                                    timeout=30)
        assert self.response.status_code == 200, (url, self.response.status_code)
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.events: queue.Queue = queue.Queue()
        self.latest = -1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name, lines = None, []
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith("event:"):
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("data:"):
                    lines.append(line.split(":", 1)[1].removeprefix(" "))
                elif line == "" and name:
                    self.events.put((name, "\n".join(lines) if lines else None))
                    name, lines = None, []
        # close() cuts the socket under this loop, which urllib3 may report as any of these.
        except (requests.RequestException, AttributeError, ValueError):
            pass
        self.events.put(("closed", None))

    def get(self, timeout: float = 5.0) -> tuple[str, object]:
        """The next event, its data read (see `parsed`); queue.Empty after `timeout`."""
        return parsed(self.events.get(timeout=timeout))

    def empty(self) -> bool:
        return self.events.empty()

    def drain(self) -> list[tuple[str, str | None]]:
        found = []
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return found
            self.latest = max(self.latest, version_of(event) or -1)
            found.append(event)

    def next_version(self, above: int, timeout: float = 5.0) -> int:
        """The version of the next version event newer than `above`."""
        event = self.wait_for(lambda event: event[0] == "version"
                              and version_of(event) > above, timeout,
                              f"no version newer than {above} arrived")
        return version_of(event)

    def reaches(self, version: int, timeout: float = 5.0) -> None:
        """Wait until the stream has announced `version` (or a newer one)."""
        if self.latest < version:
            event = self.wait_for(lambda event: (version_of(event) or -1) >= version, timeout)
            self.latest = version_of(event)

    def wait_for(self, predicate, timeout: float = 5.0,
                 failure: str = "the awaited event did not arrive") -> tuple[str, str | None]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.label}: {failure}")
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(event):
                return event

    def close(self) -> None:
        """Cut the connection under the reading thread (closing the response would wait
        for its next line, up to a keep-alive period)."""
        try:
            fd = os.dup(self.response.raw._fp.fp.fileno())
        except (AttributeError, OSError, ValueError):
            fd = None
        if fd is not None:
            with socket.socket(fileno=fd) as sock:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.response.close()
