"""Fair play towards the host, who usually plays too: the server alone chooses the shuffle."""
from __future__ import annotations

import pytest

from companion import config
from companion.extensions import db
from companion.models import Table
from companion.records import replay_record
from companion.tables import SEED_MAX
from tests.conftest import Api, csrf_of, make_app, page


@pytest.fixture
def club_app(database_url, tmp_path):
    """The app as a club runs it: without COMPANION_TEST_SEEDS."""
    app = make_app(database_url, tmp_path, TEST_SEEDS=False)
    yield app
    with app.app_context():
        db.engine.dispose()


def stored_seed(app, code: str) -> int | None:
    with app.app_context():
        return db.session.execute(db.select(Table.seed).where(Table.code == code)).scalar_one()


def host_client(app, code: str, host_token: str):
    client = app.test_client()
    client.set_cookie(f"companion_host_{code}", host_token)
    return client


@pytest.mark.parametrize("seed", [12345, 0])
def test_a_seed_sent_by_the_host_is_refused(club_app, seed):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": seed})
    assert status == 400
    assert body["error"] == {"code": "bad_request", "message": "This server chooses the shuffle."}
    assert table.view()["status"] == "lobby" and stored_seed(club_app, table.code) is None
    status, view = api.call("POST", f"/tables/{table.code}/start", table.host, {})
    assert status == 200 and view["status"] == "playing"
    assert stored_seed(club_app, table.code) not in (None, seed)


def test_a_player_sending_a_seed_is_refused_as_not_the_host(club_app):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    status, body = api.call("POST", f"/tables/{table.code}/start", table.tokens["Ann"],
                            {"seed": 1})
    assert status == 403 and body["error"]["code"] == "forbidden"
    assert table.view()["status"] == "lobby"


def test_the_host_screen_start_takes_no_seed(club_app):
    api = Api(client=club_app.test_client())
    table = api.table(start=False)
    host = host_client(club_app, table.code, table.host)
    csrf = csrf_of(page(host, f"/t/{table.code}/host"))
    response = host.post(f"/t/{table.code}/start", data={"csrf_token": csrf, "seed": "5"})
    assert response.status_code == 303
    assert table.view()["status"] == "playing"
    assert stored_seed(club_app, table.code) != 5


def test_every_table_draws_its_own_seed_and_the_record_keeps_it(club_app):
    api = Api(client=club_app.test_client())
    first, second = api.table(seed=None), api.table(seed=None)
    seeds = [stored_seed(club_app, t.code) for t in (first, second)]
    assert all(isinstance(s, int) and 0 <= s <= SEED_MAX for s in seeds)
    assert seeds[0] != seeds[1]
    first.finish_go_big()
    response = host_client(club_app, first.code, first.host).get(f"/t/{first.code}/record.json")
    assert response.status_code == 200
    record = response.get_json()
    assert record["seed"] == seeds[0]
    with club_app.app_context():
        _, result = replay_record(record)
    assert result.to_json()["winners"] == first.view()["result"]["winners"]


@pytest.mark.parametrize("value, allowed", [(None, False), ("off", False), ("yes", False),
                                            ("on", True)])
def test_only_companion_test_seeds_on_lets_a_client_choose(monkeypatch, tmp_path, value,
                                                           allowed):
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    if value is None:
        monkeypatch.delenv("COMPANION_TEST_SEEDS", raising=False)
    else:
        monkeypatch.setenv("COMPANION_TEST_SEEDS", value)
    assert config.from_environment(str(tmp_path))["TEST_SEEDS"] is allowed
