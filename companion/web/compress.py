"""Responses as small and as cacheable as they can be: text gzipped for clients that
accept it, static files under URLs that change with their content and cached for a year."""
from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, request

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


def register(app: Flask) -> None:
    if app.config.get("SEND_FILE_MAX_AGE_DEFAULT") is None:
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = YEAR  # safe: every URL names its version
    static = Path(app.static_folder)

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            path = static / values["filename"]
            if path.is_file():
                values["v"] = _fingerprint(str(path), path.stat().st_mtime)

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
