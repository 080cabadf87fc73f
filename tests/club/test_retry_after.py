"""Retry-After says when to ask again as each answer means it, with the rate limits on
(as a club runs them), on the production server (gunicorn, a gevent worker) and in the
app every test builds: a 503 and a refused stream carry the app's own wait, a 429 of the
rate limits the end of their window, and an answer that succeeded none. Each phone here
mistyped a code a moment before, so a rate window runs for its address: the limits' wait
is not the app's."""
from __future__ import annotations

import os
import time

import pytest
import requests

from companion.web.errors import RETRY_AFTER_SECONDS
from companion.web.stream_limits import RETRY_SECONDS
from tests.support.api import Api
from tests.support.app import own_database
from tests.support.clients import session_from
from tests.support.servers import ServerProcess, pgbouncer

CAP = 2  # streams per address
BUDGET = 20  # the worker's connections: a tenth is kept from the streams
MISSES_ALLOWED = 30  # extensions.LOOKUP_MISSES, per minute
JOIN_FORMS_ALLOWED = 20  # the room code typed on the home page (lobby.find), per minute
TIMEOUT = 10


@pytest.fixture
def reader(app_with):
    """The app on the server's database: what the bot reads the full state through."""
    return app_with()


def limited_server(database_url: str, tmp_path) -> ServerProcess:
    server = ServerProcess(database_url, tmp_path)
    server.env.update(COMPANION_STREAMS_PER_ADDRESS=str(CAP),
                      COMPANION_CONNECTIONS=str(BUDGET))
    return server


def window_left_of(started: float, answer) -> bool:
    """Whether a 429's Retry-After is what is left of a minute's window begun at
    `started`."""
    return abs(int(answer.headers["Retry-After"]) - (60 - (time.time() - started))) <= 2


def phone_that_mistyped(server: ServerProcess, address: str) -> requests.Session:
    phone = session_from(address)
    assert phone.get(f"{server.url}/api/v1/tables/QQQQ", timeout=TIMEOUT).status_code == 404
    return phone


class Streams:
    """Streams asked for and the open ones held."""

    def __init__(self, url: str):
        self.url = url
        self.held: list[requests.Response] = []

    def open(self, session: requests.Session, headers: dict) -> requests.Response:
        response = session.get(self.url, headers=headers, stream=True, timeout=TIMEOUT)
        if response.status_code == 200:
            self.held.append(response)
        else:
            response.close()
        return response

    def close(self) -> None:
        for response in self.held:
            response.close()


def test_each_answer_says_when_to_ask_again_as_it_means_it(database_url, tmp_path, reader):
    server = limited_server(database_url, tmp_path).start()
    streams = None
    try:
        phone = phone_that_mistyped(server, "127.0.0.3")
        table = Api(server.url, app=reader, session=phone).table(players=("Ann", "Ben"))
        bearer = {"Authorization": f"Bearer {table.tokens['Ann']}"}
        api = f"{server.url}/api/v1/tables/{table.code}"
        token, move = table.next_move()
        succeeded = [
            phone.get(server.url + "/", timeout=TIMEOUT),
            phone.get(api, headers=bearer, timeout=TIMEOUT),
            phone.post(api + "/actions", json=move, timeout=TIMEOUT,
                       headers={"Authorization": f"Bearer {token}"}),
            phone.get(f"{server.url}/t/{table.code}", timeout=TIMEOUT),
        ]
        assert [answer.status_code for answer in succeeded] == [200, 200, 200, 200]
        assert [answer.headers.get("Retry-After") for answer in succeeded] == [None] * 4

        # Streams past the address's cap (429), then past the worker's share (503).
        streams = Streams(api + "/stream")
        opened = [streams.open(phone, bearer) for _ in range(CAP)]
        answered = [(s.status_code, s.headers.get("Retry-After")) for s in opened]
        assert answered == [(200, None)] * CAP
        refused = streams.open(phone, bearer)
        assert (refused.status_code, refused.headers.get("Retry-After")) == (
            429, str(RETRY_SECONDS))
        for n in range(BUDGET):
            if streams.open(session_from(f"127.0.2.{n // CAP + 1}"), bearer).status_code == 503:
                break
        full = streams.open(phone, bearer)
        assert (full.status_code, full.headers.get("Retry-After")) == (503, str(RETRY_SECONDS))

        # A guesser is refused until its window ends: that is its Retry-After.
        guesser = session_from("127.0.0.8")
        first = time.time()
        statuses = [guesser.get(f"{server.url}/api/v1/tables/QQ{n:02d}", timeout=TIMEOUT)
                    for n in range(MISSES_ALLOWED + 1)]
        assert [s.status_code for s in statuses] == [404] * MISSES_ALLOWED + [429]
        assert [s.headers.get("Retry-After") for s in statuses[:-1]] == [None] * MISSES_ALLOWED
        assert window_left_of(first, statuses[-1])
    finally:
        if streams is not None:
            streams.close()
        server.stop()


@pytest.mark.skipif(not os.environ.get("COMPANION_TEST_DATABASE_URL"),
                    reason="runs on PostgreSQL: set COMPANION_TEST_DATABASE_URL (CI's "
                    "second pass)")
def test_a_database_out_of_reach_is_asked_again_after_the_apps_wait(tmp_path):
    """The server reaches PostgreSQL through PgBouncer, which stops (a restart, a
    reload gone wrong): every answer is 503 with the app's Retry-After."""
    with own_database(tmp_path) as url, pgbouncer(url) as (bouncer, pooled):
        server = limited_server(pooled, tmp_path)
        server.env["COMPANION_LISTEN_URL"] = url
        server.start()
        try:
            phone = phone_that_mistyped(server, "127.0.0.3")
            table = Api(server.url, session=phone).table(players=("Ann", "Ben"), start=False)
            bouncer.terminate()
            bouncer.wait(10)
            api = f"{server.url}/api/v1/tables/{table.code}"
            host = {"Authorization": f"Bearer {table.host}"}
            answers = [
                phone.get(api, timeout=TIMEOUT),
                phone.post(api + "/start", json={}, headers=host, timeout=TIMEOUT),
                phone.get(f"{server.url}/t/{table.code}", timeout=TIMEOUT),
                phone.get(api + "/stream", timeout=TIMEOUT),
            ]
            assert [(answer.status_code, answer.headers.get("Retry-After"))
                    for answer in answers] == [(503, str(RETRY_AFTER_SECONDS))] * 4
        finally:
            server.stop()


def test_the_app_every_test_builds_answers_as_the_production_server(app):
    """The tests' own app has the limits on as a club's server: an answer that succeeded
    carries no Retry-After, a guesser and a phone sending the join form too often are
    refused until their window ends."""
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "10.9.0.3"
    assert phone.get("/api/v1/tables/QQQQ").status_code == 404
    table = Api(client=phone).table(players=("Ann", "Ben"))
    api = f"/api/v1/tables/{table.code}"
    token, move = table.next_move()
    succeeded = [
        phone.get("/"),
        phone.get(api, headers={"Authorization": f"Bearer {table.tokens['Ann']}"}),
        phone.post(api + "/actions", json=move, headers={"Authorization": f"Bearer {token}"}),
        phone.get(f"/t/{table.code}", follow_redirects=True),
    ]
    assert [answer.status_code for answer in succeeded] == [200, 200, 200, 200]
    assert [answer.headers.get("Retry-After") for answer in succeeded] == [None] * 4

    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "10.9.0.8"
    first = time.time()
    answers = [guesser.get(f"/api/v1/tables/QQ{n:02d}") for n in range(MISSES_ALLOWED + 1)]
    assert [a.status_code for a in answers] == [404] * MISSES_ALLOWED + [429]
    assert [a.headers.get("Retry-After") for a in answers[:-1]] == [None] * MISSES_ALLOWED
    assert window_left_of(first, answers[-1])

    finder = app.test_client()
    finder.environ_base["REMOTE_ADDR"] = "10.9.0.9"
    first = time.time()
    found = [finder.get(f"/join?code={table.code}") for _ in range(JOIN_FORMS_ALLOWED + 1)]
    assert [a.status_code for a in found] == [302] * JOIN_FORMS_ALLOWED + [429]
    assert [a.headers.get("Retry-After") for a in found[:-1]] == [None] * JOIN_FORMS_ALLOWED
    assert window_left_of(first, found[-1])
