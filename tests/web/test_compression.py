"""Over real HTTP: what is compressed, how, and what never is (the live streams)."""
from __future__ import annotations

import gzip
import http.client
import re
from pathlib import Path
from urllib.parse import urlsplit

import brotli
import flask_compress.flask_compress as library
import pytest

from tests.support.streams import Stream, version_of

ROOT = Path(__file__).resolve().parents[2]
BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends


def fetch(server, path: str, accept_encoding: str | None = None, **headers):
    """(status, headers, body as sent) of a GET: nothing decoded on the way."""
    if accept_encoding is not None:
        headers["Accept-Encoding"] = accept_encoding
    connection = http.client.HTTPConnection(urlsplit(server.local_url).netloc, timeout=10)
    try:
        # skip_accept_encoding: http.client would otherwise add "identity" of its own
        connection.putrequest("GET", path, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name.replace("_", "-"), value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def decoded(headers, body: bytes) -> bytes:
    coding = headers.get("Content-Encoding")
    if coding == "br":
        return brotli.decompress(body)
    if coding == "gzip":
        return gzip.decompress(body)
    assert coding is None, coding
    return body


def varies_by_encoding(headers) -> bool:
    return "accept-encoding" in headers.get("Vary", "").lower()


PAGE = "/api/v1/openapi.json"  # rendered at each request, the same each time


@pytest.fixture
def plain(live_server):
    """A rendered answer as sent to a client that asks for no compression."""
    status, headers, body = fetch(live_server, PAGE)
    assert status == 200 and headers.get("Content-Encoding") is None
    assert len(body) > 500
    return body


@pytest.mark.parametrize("accept, coding", [
    (BROWSER, "br"),
    ("gzip, deflate, br", "br"),
    ("br;q=0.5, gzip", "gzip"),  # the client's preference wins
    ("gzip", "gzip"),
    ("GZIP", "gzip"),
    ("gzip;q=0, br", "br"),  # q=0 refuses gzip
    ("br;q=0, *", "gzip"),  # anything but brotli
    ("*", "br"),
    ("gzip;q=0", None),  # nothing acceptable is offered: as it is
    ("br;q=0, gzip;q=0", None),
    ("*;q=0", None),
    ("identity", None),
    ("deflate", None),
    ("", None),
])
def test_the_coding_is_the_one_the_client_accepts(live_server, plain, accept, coding):
    status, headers, body = fetch(live_server, PAGE, accept)
    assert status == 200
    assert headers.get("Content-Encoding") == coding
    assert decoded(headers, body) == plain
    if coding:
        assert len(body) < len(plain) / 2
    assert varies_by_encoding(headers)


def test_without_accept_encoding_nothing_is_compressed(live_server, plain):
    status, headers, body = fetch(live_server, PAGE)
    assert headers.get("Content-Encoding") is None and body == plain
    assert varies_by_encoding(headers)


def test_a_small_response_is_sent_as_it_is(live_server):
    status, headers, body = fetch(live_server, "/healthz", BROWSER)
    assert status == 200 and len(body) < 500
    assert headers.get("Content-Encoding") is None
    assert b'"ok"' in body


def test_a_phone_panel_and_an_api_view_are_compressed(live_server, api):
    table = api.table(players=("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    table.play(2)
    cookie = f"companion_{table.code}={table.tokens['Ben']}"
    status, headers, body = fetch(live_server, f"/t/{table.code}/panel?screen=phone",
                                  BROWSER, Cookie=cookie)
    assert status == 200 and headers["Content-Encoding"] == "br"
    assert b'id="panel"' in decoded(headers, body)
    status, headers, body = fetch(live_server, f"/api/v1/tables/{table.code}", "gzip",
                                  Authorization=f"Bearer {table.tokens['Ben']}")
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert b'"version"' in decoded(headers, body)


@pytest.mark.parametrize("screen", [True, False], ids=["screen", "api"])
def test_a_live_stream_is_never_compressed_and_delivers_each_event_at_once(
        live_server, api, screen):
    table = api.table()
    version = table.view()["version"]
    if screen:
        stream = Stream(f"{live_server.local_url}/t/{table.code}/events?screen=phone"
                        f"&since={version}", headers={"Accept-Encoding": BROWSER},
                        cookies={f"companion_{table.code}": table.tokens["Ben"]})
    else:
        stream = Stream(f"{live_server.local_url}/api/v1/tables/{table.code}/stream",
                        token=table.tokens["Ben"], headers={"Accept-Encoding": BROWSER})
    try:
        assert "Content-Encoding" not in stream.response.headers
        assert stream.response.headers["Cache-Control"] == "no-cache"
        if not screen:  # the API's stream starts with the version it is at
            assert version_of(stream.wait_for(lambda event: event[0] == "version")) == version
        # Each move's event arrives while the stream stays open: none is held back.
        for move in range(2):
            token, action = table.next_move()
            status, body = table.act(token, **action)
            assert status == 200, body
            # A screen's stream sends its whole panel first, then the table's parts.
            name = ("public" if move else "panel") if screen else "version"
            event = stream.wait_for(lambda event, name=name: event[0] == name)
            assert version_of(event) == version + move + 1
    finally:
        stream.close()


def static_url(live_server, pattern: str, page: str = "/") -> str:
    status, headers, body = fetch(live_server, page)
    return re.search(pattern, body.decode()).group(1)


def test_a_static_file_is_fingerprinted_cached_for_a_year_and_compressed(live_server):
    url = static_url(live_server, r'src="(/static/vendor/htmx\.min\.js\?v=[0-9a-f]{12})"')
    original = (ROOT / "static/vendor/htmx.min.js").read_bytes()
    for accept, coding in ((BROWSER, "br"), ("gzip", "gzip"), ("gzip;q=0", None)):
        status, headers, body = fetch(live_server, url, accept)
        assert status == 200
        assert headers.get("Content-Encoding") == coding
        assert decoded(headers, body) == original
        assert "max-age=31536000" in headers["Cache-Control"]
        assert varies_by_encoding(headers)
    status, headers, body = fetch(live_server, url, BROWSER)
    assert len(body) < len(original) / 3  # brotli's best, done once
    # The compressed copy answers a revalidation with its own ETag.
    status, again, _ = fetch(live_server, url, BROWSER, If_None_Match=headers["ETag"])
    assert status == 304


def test_a_static_file_is_compressed_once_per_version_and_coding(live_server, monkeypatch):
    calls = []
    compress_data = library._compress_data

    def counting(app, data, algorithm):
        calls.append(algorithm)
        return compress_data(app, data, algorithm)

    monkeypatch.setattr(library, "_compress_data", counting)
    url = static_url(live_server, r'href="(/static/app\.css\?v=[0-9a-f]{12})"')
    bodies = [fetch(live_server, url, accept)[2] for accept in ("br", "gzip", "br", "gzip")]
    assert bodies[0] == bodies[2] and bodies[1] == bodies[3]
    assert calls == ["br", "gzip"]
    # A page is compressed anew each time.
    for _ in range(2):
        fetch(live_server, "/", "br")
    assert calls == ["br", "gzip", "br", "br"]


def test_a_game_kept_outside_the_app_has_its_css_served_compressed(live_server, api):
    table = api.table(game="guess-number", players=("Ann", "Ben"))
    cookie = f"companion_{table.code}={table.tokens['Ann']}"
    status, headers, body = fetch(live_server, f"/t/{table.code}", Cookie=cookie)
    url = re.search(r'href="(/static/games/guess_number\.css\?v=[0-9a-f]{12})"',
                    body.decode()).group(1)
    status, headers, body = fetch(live_server, url, BROWSER)
    assert status == 200 and headers["Content-Encoding"] == "br"
    original = (ROOT / "tests/games/guess_number/static/games/guess_number.css").read_bytes()
    assert decoded(headers, body) == original
    assert "max-age=31536000" in headers["Cache-Control"]
