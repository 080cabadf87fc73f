"""The floor of the stack: a bare WSGI app with the shape of a move and nothing else, for
`floor.py`. No Flask, no database, no template: a POST wakes the streams of its group, and
each stream sends a fixed event of the size of a view. What the server spends per move
here is what gunicorn's gevent worker, gevent and the sockets cost around any app.

    POST /move/<group>    body ignored; answers a fixed JSON body, wakes the group
    GET  /stream/<group>  text/event-stream: an event at every move of the group
    GET  /                200, empty: the server is up
"""
from __future__ import annotations

import os
import threading

ANSWER = b'{"ok": true, "pad": "' + b"x" * int(os.environ.get("FLOOR_ANSWER_BYTES", "1400")) + b'"}'
EVENT = ("event: version\ndata: {\"pad\": \""
         + "x" * int(os.environ.get("FLOOR_EVENT_BYTES", "1500")) + "\"}\n\n").encode()

_lock = threading.Lock()
_moves: dict[str, threading.Event] = {}


def _changed(group: str) -> threading.Event:
    with _lock:
        return _moves.setdefault(group, threading.Event())


def _move(group: str) -> None:
    with _lock:
        changed = _moves.pop(group, None)
    if changed is not None:
        changed.set()


def _stream(group: str):
    yield b"retry: 2000\n\n"
    while True:
        changed = _changed(group)
        if not changed.wait(15):
            yield b": keep-alive\n\n"
            continue
        yield EVENT


def app(environ, start_response):
    method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
    _, kind, group = (path.split("/") + ["", ""])[:3]
    if method == "POST" and kind == "move" and group:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        environ["wsgi.input"].read(length)
        _move(group)
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(ANSWER)))])
        return [ANSWER]
    if method == "GET" and kind == "stream" and group:
        start_response("200 OK", [("Content-Type", "text/event-stream"),
                                  ("Cache-Control", "no-cache")])
        return _stream(group)
    if method == "GET" and path == "/":
        start_response("200 OK", [("Content-Length", "0")])
        return [b""]
    start_response("404 Not Found", [("Content-Length", "0")])
    return [b""]
