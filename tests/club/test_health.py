"""GET /healthz: whether the server reaches its database."""
from __future__ import annotations

import sqlite3

from companion.extensions import db
from tests.support.app import app_on, free_port


def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"ok": True}


def test_healthz_is_never_rate_limited(app):
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.7.0.1"}
    for n in range(40):  # this address used up its failed look-ups
        client.get(f"/api/v1/tables/ZZ{n:02d}", environ_base=address)
    assert client.get("/api/v1/tables/ZZZZ", environ_base=address).status_code == 429
    for _ in range(100):
        response = client.get("/healthz", environ_base=address)
        assert response.status_code == 200
        assert "Retry-After" not in response.headers


def unreachable_apps(tmp_path):
    """Apps whose database cannot be reached: a PostgreSQL port nobody listens on, and a
    SQLite file in a folder that does not exist."""
    yield make_app_without_upgrade(
        f"postgresql+psycopg://companion:secret@127.0.0.1:{free_port()}/companion", tmp_path)
    yield make_app_without_upgrade(f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}", tmp_path)


def make_app_without_upgrade(url: str, tmp_path, **overrides):
    from companion import create_app

    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url,
                       "SECRET_KEY": "test-secret", **overrides})


def test_healthz_answers_503_when_the_database_does_not(tmp_path):
    for app in unreachable_apps(tmp_path):
        response = app.test_client().get("/healthz")
        assert response.status_code == 503
        body = response.get_json()
        assert body["ok"] is False
        text = response.get_data(as_text=True)
        assert "secret" not in text and "127.0.0.1" not in text and "sqlite" not in text


def test_an_unreachable_database_is_503_with_retry_after_never_500(tmp_path):
    for app in unreachable_apps(tmp_path):
        client = app.test_client()
        response = client.get("/api/v1/tables/ABCD")
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.headers["Retry-After"] == "2"
        assert response.get_json()["error"]["code"] == "unavailable"
        response = client.post("/api/v1/tables", json={"game": "go-big"})
        assert response.status_code == 503
        page = client.get("/t/ABCD")
        assert page.status_code == 503 and page.headers["Retry-After"] == "2"
        assert 'role="alert"' in page.get_data(as_text=True)
        stream = client.get("/api/v1/tables/ABCD/stream")
        assert stream.status_code == 503 and stream.headers["Retry-After"] == "2"


def test_a_database_that_reads_but_refuses_writes_is_503_for_a_new_table(tmp_path):
    """Another process holds SQLite's write lock: a new table is told the database is out
    of reach (503), not that no room code was free, and nothing is written."""
    with app_on(f"sqlite:///{tmp_path / 'busy.sqlite3'}", tmp_path,
                SQLITE_BUSY_SECONDS=0.2) as app:
        busy_sqlite_refuses_a_new_table(app, tmp_path)


def busy_sqlite_refuses_a_new_table(app, tmp_path):
    client = app.test_client()
    assert client.post("/api/v1/tables", json={"game": "go-big"}).status_code == 201
    holder = sqlite3.connect(tmp_path / "busy.sqlite3", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # readers go on (WAL); every other writer waits
        response = client.post("/api/v1/tables", json={"game": "go-big"})
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.get_json()["error"]["code"] == "unavailable"
        assert "room code" not in response.get_data(as_text=True)
        assert client.get("/healthz").status_code == 200  # it still reads
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with app.app_context():
        assert db.session.execute(db.text("SELECT count(*) FROM tables")).scalar() == 1
