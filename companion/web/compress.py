"""Responses as small and as cacheable as they can be: text gzipped for clients that
accept it, static files under URLs that change with their content and cached for a year.
Static files are looked for in the app's static/, then in any other folder handed in (a
game kept outside the app brings its CSS that way)."""
from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, abort, request, send_from_directory
from werkzeug.security import safe_join

COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript",
                "application/json", "image/svg+xml", "application/manifest+json"}
MIN_SIZE = 512
YEAR = 365 * 24 * 3600


@lru_cache(maxsize=256)
def _fingerprint(path: str, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


@lru_cache(maxsize=64)
def _gzip_static(etag: str, data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9)


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

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            found = find_static(values["filename"])
            if found:
                path = found[1]
                values["v"] = _fingerprint(str(path), path.stat().st_mtime)

    def serve_static(filename: str):
        found = find_static(filename)
        if found is None:
            abort(404)
        return send_from_directory(found[0], filename,
                                   max_age=app.get_send_file_max_age(filename))

    app.view_functions["static"] = serve_static

    @app.after_request
    def compress(response):
        if ("gzip" not in request.headers.get("Accept-Encoding", "")
                or response.status_code != 200 or response.mimetype not in COMPRESSIBLE
                or "Content-Encoding" in response.headers
                or (response.is_streamed and not response.direct_passthrough)):
            return response
        is_static = response.direct_passthrough
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < MIN_SIZE:
            return response
        if is_static and response.get_etag()[0]:
            packed = _gzip_static(response.get_etag()[0], data)
        else:
            packed = gzip.compress(data, compresslevel=6)
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response
