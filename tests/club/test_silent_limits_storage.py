"""A shared limits storage that stops answering without closing its connections (a frozen
host, a network that drops packets without a reset): on the production configuration
(gunicorn, a gevent worker) every kind of request is answered within a few seconds, the
limits count in the process's memory meanwhile (guessers are still refused), /healthz says
that the limits run degraded, and once the storage answers again the limits are shared
again."""
from __future__ import annotations

import time

import pytest
import requests

from tests.support.api import Api
from tests.support.clients import Client, session_from
from tests.support.servers import ServerProcess, redis_process

BOUND = 4.0  # seconds any request may take while the storage is silent
# The client gives up a little after the bound, so a request held longer fails the test
# rather than hanging it.
TIMEOUTS = (2.0, BOUND + 2.0)
MISSES_ALLOWED = 30  # extensions.LOOKUP_MISSES, per minute
# Flask-Limiter looks at a storage it gave up on again after 1, 2, 4, ... 32 s.
RECOVERY_SECONDS = 45


def timed(send, url: str, **kwargs) -> requests.Response:
    """The answer to a request, which must come within BOUND."""
    start = time.monotonic()
    try:
        response = send(url, timeout=TIMEOUTS, **kwargs)
    except requests.Timeout:
        pytest.fail(f"{url} was not answered within {TIMEOUTS[1]} s")
    took = time.monotonic() - start
    assert took < BOUND, f"{url} took {took:.1f} s"
    return response


def first_event(session: requests.Session, url: str, **kwargs) -> str:
    """The name of a stream's first event, which must come within BOUND."""
    start = time.monotonic()
    try:
        with session.get(url, timeout=TIMEOUTS, stream=True, **kwargs) as response:
            assert response.status_code == 200, (url, response.status_code)
            line = next(line for line in response.iter_lines(decode_unicode=True)
                        if line.startswith("event:"))
    except requests.Timeout:
        pytest.fail(f"{url} sent nothing within {TIMEOUTS[1]} s")
    took = time.monotonic() - start
    assert took < BOUND, f"{url} took {took:.1f} s to send its first event"
    return line.split(":", 1)[1].strip()


def miss(server: ServerProcess, session, attempt: int) -> int:
    return timed(session.get, f"{server.url}/api/v1/tables/QQ{attempt:02d}").status_code


@pytest.fixture
def reader(app_with):
    """The app on the servers' database: what the bot reads the full state through."""
    return app_with()


def test_a_silent_limits_storage_holds_no_request(database_url, tmp_path, reader):
    with redis_process(tmp_path) as redis:
        one, two = ServerProcess(database_url, tmp_path), ServerProcess(database_url, tmp_path)
        for server in (one, two):
            server.env.update(COMPANION_RATELIMIT_STORAGE=redis.uri)
        try:
            one.start()
            two.start()
            table = Api(one.url, app=reader).table(players=("Ann", "Ben"))
            assert requests.get(one.url + "/healthz", timeout=TIMEOUTS).json() == {
                "ok": True, "rate_limits": "shared"}

            redis.freeze()
            every_kind_of_request_is_answered(one, table)
            guessers_are_still_refused(one)
            health = timed(requests.get, one.url + "/healthz")
            assert health.status_code == 200  # the server serves: only its limits are local
            assert health.json() == {"ok": True, "rate_limits": "degraded"}

            redis.thaw()
            limits_are_shared_again(one, two)
            assert requests.get(one.url + "/healthz", timeout=TIMEOUTS).json() == {
                "ok": True, "rate_limits": "shared"}
        finally:
            one.stop()
            two.stop()
    assert "Traceback" not in one.output()


def every_kind_of_request_is_answered(server: ServerProcess, table) -> None:
    ann = Client(server.url, table.code, table.tokens["Ann"], player=table.ids["Ann"])
    phone = ann.session
    assert timed(phone.get, server.url + "/").status_code == 200
    assert timed(phone.get, f"{server.url}/t/{table.code}").status_code == 200
    api = f"{server.url}/api/v1/tables"
    bearer = {"Authorization": f"Bearer {table.tokens['Ann']}"}
    assert timed(phone.get, f"{api}/{table.code}", headers=bearer).status_code == 200
    token, move = table.next_move()
    answer = timed(phone.post, f"{api}/{table.code}/actions", json=move,
                   headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    assert first_event(phone, f"{api}/{table.code}/stream", headers=bearer) == "version"
    screen = f"{server.url}/t/{table.code}/events?screen=phone"
    assert first_event(phone, screen) == "panel"
    created = timed(phone.post, api, json={"game": "go-big"})
    assert created.status_code == 201, created.text
    assert timed(phone.get, f"{api}/QQQQ").status_code == 404


def guessers_are_still_refused(server: ServerProcess) -> None:
    guesser = session_from("127.0.0.8")
    statuses = [miss(server, guesser, n) for n in range(MISSES_ALLOWED + 1)]
    assert statuses == [404] * MISSES_ALLOWED + [429]


def limits_are_shared_again(one: ServerProcess, two: ServerProcess) -> None:
    """An address that used up its misses on the second server (which kept counting in
    the storage) is refused on the first once the first counts there again. Each try is
    a fresh address, so a minute's window ending meanwhile costs only another try."""
    deadline = time.monotonic() + RECOVERY_SECONDS
    for attempt in range(100):
        guesser = session_from(f"127.0.1.{attempt + 1}")
        assert [miss(two, guesser, n) for n in range(MISSES_ALLOWED)] == [404] * MISSES_ALLOWED
        if miss(one, guesser, MISSES_ALLOWED) == 429:
            return
        assert time.monotonic() < deadline, "the first server never counted in the storage again"
        time.sleep(1)
