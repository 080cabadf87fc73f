"""Behind PgBouncer in transaction mode (Debian's pgbouncer): requests go through the pool,
each process LISTENs on PostgreSQL itself (COMPANION_LISTEN_URL), and a move made through
one server still reaches a phone streaming from another at once."""
from __future__ import annotations

import os

import pytest

from tests.support.api import Api
from tests.support.app import close_app, make_app, own_database
from tests.support.servers import ServerProcess, pgbouncer
from tests.support.streams import Stream

pytestmark = pytest.mark.skipif(
    not os.environ.get("COMPANION_TEST_DATABASE_URL"),
    reason="runs on PostgreSQL: set COMPANION_TEST_DATABASE_URL (CI's second pass)")


def test_servers_behind_pgbouncer_tell_each_other_of_moves(tmp_path):
    with own_database(tmp_path) as url, pgbouncer(url) as (_, pooled):
        servers = [ServerProcess(pooled, tmp_path), ServerProcess(pooled, tmp_path)]
        referee_app, events = None, None
        try:
            for server in servers:
                server.env["COMPANION_LISTEN_URL"] = url
                server.start()
            referee_app = make_app(url, tmp_path)  # the bot's reads bypass PgBouncer
            table = Api(servers[0].url, app=referee_app).table()
            events = Stream(f"{servers[1].url}/api/v1/tables/{table.code}/stream",
                            table.tokens["Ben"])
            version = events.next_version(-1)
            for _ in range(12):  # more than psycopg's threshold for preparing a statement
                token, move = table.next_move()
                assert table.act(token, **move)[0] == 200
                version = events.next_version(version, timeout=3)
        finally:
            servers[1].stop(events)
            servers[0].stop()
            if referee_app is not None:
                close_app(referee_app)
