"""Rate limits count phones, not the proxy in front of them, and are shared by every
process of every server when they count in Redis."""
from __future__ import annotations

import pytest
import requests

from tests.support.api import Api
from tests.support.servers import ServerProcess, redis_server

PROXY = {"REMOTE_ADDR": "10.9.0.1"}  # every request reaches the app from the proxy
LETTERS = "BCDFGHJKLMNPQRSTVWXZ"


def guess(attempt: int) -> str:
    return f"/api/v1/tables/{LETTERS[attempt % 20]}{LETTERS[attempt // 20 % 20]}QZ"


@pytest.fixture
def limited_app(app_with, request):
    return app_with(**request.param)


@pytest.mark.parametrize("limited_app", [{"PROXIES": 1}], indirect=True)
def test_behind_a_proxy_one_guesser_is_refused_and_others_are_served(limited_app):
    table = Api(client=limited_app.test_client()).table("go-big", players=("Ann", "Ben"))
    client = limited_app.test_client()
    guesser = {"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https"}
    statuses = [client.get(guess(n), environ_base=PROXY, headers=guesser).status_code
                for n in range(45)]
    assert statuses[:30] == [404] * 30
    assert statuses[-1] == 429
    # Another phone behind the same proxy is served, its own misses counted on its own.
    neighbour = {"X-Forwarded-For": "203.0.113.6"}
    response = client.get(f"/api/v1/tables/{table.code}", environ_base=PROXY,
                          headers=neighbour)
    assert response.status_code == 200
    assert client.get(guess(0), environ_base=PROXY, headers=neighbour).status_code == 404
    # The guesser stays refused, even for a real code.
    response = client.get(f"/api/v1/tables/{table.code}", environ_base=PROXY, headers=guesser)
    assert response.status_code == 429


@pytest.mark.parametrize("limited_app", [{"PROXIES": 1}], indirect=True)
def test_the_proxy_tells_the_scheme_and_host_of_links(limited_app):
    client = limited_app.test_client()
    limited_app.config["PUBLIC_URL"] = ""
    response = client.post("/api/v1/tables", json={"game": "go-big"}, environ_base=PROXY,
                           headers={"X-Forwarded-For": "203.0.113.5",
                                    "X-Forwarded-Proto": "https",
                                    "X-Forwarded-Host": "games.example.org"})
    assert response.status_code == 201
    assert response.get_json()["join_url"].startswith("https://games.example.org/j/")


@pytest.mark.parametrize("limited_app", [{}], indirect=True)
def test_without_proxies_forged_forwarded_headers_dodge_nothing(limited_app):
    client = limited_app.test_client()
    statuses = [client.get(guess(n), environ_base=PROXY,
                           headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                for n in range(45)]
    assert statuses[:30] == [404] * 30
    assert set(statuses[30:]) == {429}


def test_two_servers_share_one_budget_in_redis(database_url, tmp_path):
    with redis_server(tmp_path) as storage:
        one, two = ServerProcess(database_url, tmp_path), ServerProcess(database_url, tmp_path)
        for server in (one, two):
            server.env.update(COMPANION_RATELIMIT_STORAGE=storage)
        try:
            one.start()
            two.start()

            def miss(server: ServerProcess, attempt: int) -> int:
                return requests.get(server.url + guess(attempt), timeout=10).status_code

            # 20 misses on the first server, then the second has only 10 left of the 30.
            assert [miss(one, n) for n in range(20)] == [404] * 20
            second = [miss(two, n) for n in range(20, 35)]
            assert second[:10] == [404] * 10
            assert set(second[10:]) == {429}
            assert miss(one, 99) == 429
        finally:
            one.stop()
            two.stop()

