"""Responses as small and as cacheable as they can be.

Text is compressed by Flask-Compress, with brotli or gzip as the request's
`Accept-Encoding` asks (its `q=0` refusing one), `Vary: Accept-Encoding` on every answer.
A panel is compressed anew at every request, so the levels are the cheap ones that still
shrink it well (docs/performance.md has the measurements); a static file is compressed
once per version and encoding and kept. Live streams (server-sent events) are never
compressed: a compressor holds bytes back until it has enough, and a phone must get each
event as it is sent.

Static files are served under URLs that change with their content (`?v=<hash>`) and cached
for a year. They are looked for in the app's static/, then in any other folder handed in (a
game kept outside the app brings its CSS that way)."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, Request, abort, request, send_from_directory
from flask_compress import Compress
from werkzeug.security import safe_join

from .kept import Kept

TEXT = ["text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml", "application/manifest+json"]
YEAR = 365 * 24 * 3600

CODINGS = ("br", "gzip")  # in the order preferred when a client takes both alike
# Flask-Compress's settings for what the app renders: compressed anew at every request,
# so at the cheapest levels (docs/performance.md has what they cost and save).
DYNAMIC = {
    "COMPRESS_REGISTER": False,  # our own hook calls it, to keep streams away from it
    "COMPRESS_MIMETYPES": TEXT,
    "COMPRESS_STREAMS": False,  # a streamed answer (every live stream) is sent as it is
    "COMPRESS_MIN_SIZE": 500,  # less fits in a packet anyway
    "COMPRESS_BR_LEVEL": 1,
    "COMPRESS_LEVEL": 1,  # gzip's
    "COMPRESS_EVALUATE_CONDITIONAL_REQUEST": False,  # a rendered answer has no ETag
}
# For static files, compressed once per version and encoding and kept: the best levels.
STATIC = {"COMPRESS_BR_LEVEL": 11, "COMPRESS_LEVEL": 9,
          "COMPRESS_EVALUATE_CONDITIONAL_REQUEST": True}


def chosen_coding(req: Request) -> str | None:
    """The coding to answer `req` in: the one its `Accept-Encoding` rates highest, never
    one it rates `q=0` (Flask-Compress takes a coding refused with `q=0` when nothing else
    is offered, so the choice is made here)."""
    accepted = req.accept_encodings
    best = max(CODINGS, key=accepted.quality)
    return best if accepted.quality(best) > 0 else None


@lru_cache(maxsize=256)
def _fingerprint(path: str, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def static_copies() -> Kept:
    """The static files' compressed copies, as Flask-Compress's cache."""
    return Kept(128)


def register(app: Flask, static_folders: list[Path]) -> None:
    if app.config.get("SEND_FILE_MAX_AGE_DEFAULT") is None:
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = YEAR  # safe: every URL names its version

    def find_static(filename: str) -> tuple[Path, Path] | None:
        """(the folder, the file) of the first static folder that holds `filename`."""
        for folder in static_folders:
            path = safe_join(str(folder), filename)
            if path is not None and Path(path).is_file():
                return folder, Path(path)
        return None

    def version_of(filename: str) -> str | None:
        found = find_static(filename)
        if found is None:
            return None
        return _fingerprint(str(found[1]), found[1].stat().st_mtime)

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = version_of(values["filename"])
            if version:
                values["v"] = version

    def serve_static(filename: str):
        found = find_static(filename)
        if found is None:
            abort(404)
        response = send_from_directory(found[0], filename,
                                       max_age=app.get_send_file_max_age(filename))
        if response.status_code == 200 and response.mimetype in TEXT:
            # Read into memory (a few kilobytes), so that Flask-Compress, which leaves
            # every streamed answer alone, compresses it, or finds its copy.
            response.direct_passthrough = False
            response.set_data(response.get_data())
        return response

    app.view_functions["static"] = serve_static

    def cache_key(req: Request) -> str:
        """A static file's compressed copy is kept under its name and content."""
        filename = (req.view_args or {}).get("filename", "")
        return f"{filename}@{version_of(filename)}"

    for key, value in DYNAMIC.items():
        app.config.setdefault(key, value)

    def compressor(**settings) -> Compress:
        """A Flask-Compress of the app's settings and `settings`. It reads them from the
        app it is given: each is given an app that holds only its own."""
        holder = Flask(f"{app.import_name}.compress", static_folder=None)
        holder.config.update({key: value for key, value in app.config.items()
                              if key.startswith("COMPRESS_")}, **settings)
        return Compress(holder)

    compressors = {}
    for coding in CODINGS:
        compressors["static", coding] = compressor(
            **STATIC, COMPRESS_ALGORITHM=[coding], COMPRESS_CACHE_BACKEND=static_copies,
            COMPRESS_CACHE_KEY=cache_key)
        compressors["dynamic", coding] = compressor(COMPRESS_ALGORITHM=[coding])

    @app.after_request
    def compress(response):
        if response.mimetype == "text/event-stream" or response.is_streamed:
            return response  # a live stream (or a file too large to hold) as it is
        coding = chosen_coding(request)
        if coding is None:
            response.vary.add("Accept-Encoding")
            return response
        kind = "static" if request.endpoint == "static" else "dynamic"
        return compressors[kind, coding].after_request(response)
