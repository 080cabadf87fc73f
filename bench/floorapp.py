"""The floor of the stack: a bare WSGI app with the shape of a move and nothing else, for
`stackfloor.py`. No Flask, no database, no template: a POST wakes the streams of its
group through Companion's own hub and stream loop (`companion.live`), and each stream
sends a fixed event of the size of a view. What the server spends per move here is what
gunicorn's gevent worker, gevent and the sockets cost around any app.

    POST /move/<group>    body ignored; answers a fixed JSON body, wakes the group
    GET  /stream/<group>  text/event-stream: an event at every move of the group
    GET  /                200, empty: the server is up
"""
from __future__ import annotations

import threading

from companion import live

ANSWER = b'{"ok": true, "pad": "' + b"x" * 1400 + b'"}'
EVENT = "event: version\ndata: {\"pad\": \"" + "x" * 1500 + "\"}\n\n"

_lock = threading.Lock()
_versions: dict[str, int] = {}


def _move(group: str) -> None:
    with _lock:
        version = _versions[group] = _versions.get(group, 0) + 1
    live.publish(group, version)


def _stream(group: str):
    with _lock:
        version = _versions.get(group, 0)
    for text in live.stream(group, version, version, lambda newest: (newest, EVENT)):
        yield text.encode()


def app(environ, start_response):
    method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
    _, kind, group = (path.split("/") + ["", ""])[:3]
    if method == "POST" and kind == "move" and group:
        environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        _move(group)
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(ANSWER)))])
        return [ANSWER]
    if method == "GET" and kind == "stream" and group:
        start_response("200 OK", [("Content-Type", "text/event-stream"),
                                  ("Cache-Control", "no-cache")])
        return _stream(group)
    status = "200 OK" if method == "GET" and path == "/" else "404 Not Found"
    start_response(status, [("Content-Length", "0")])
    return [b""]
