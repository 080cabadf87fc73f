"""Behind PgBouncer in transaction mode (Debian's pgbouncer): requests go through the pool,
each process LISTENs on PostgreSQL itself (COMPANION_LISTEN_URL), and a move made through
one server still reaches a phone streaming from another at once."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from companion.extensions import db
from tests.support.api import Api
from tests.support.app import free_port, make_app, own_database
from tests.support.servers import ServerProcess, wait_for_port
from tests.support.streams import Stream

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"

pytestmark = pytest.mark.skipif(
    not os.environ.get("COMPANION_TEST_DATABASE_URL"),
    reason="runs on PostgreSQL: set COMPANION_TEST_DATABASE_URL (CI's second pass)")


def start_pgbouncer(folder, url: str) -> tuple[subprocess.Popen, str]:
    """PgBouncer in transaction mode in front of the database `url`; its own URL."""
    if not os.access(PGBOUNCER, os.X_OK):
        pytest.fail("pgbouncer is missing: install Debian's pgbouncer package", pytrace=False)
    target = make_url(url)
    port = free_port()
    (folder / "users.txt").write_text(f'"{target.username}" "{target.password}"\n')
    (folder / "pgbouncer.ini").write_text(f"""[databases]
{target.database} = host={target.host} port={target.port or 5432} dbname={target.database}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = plain
auth_file = {folder / 'users.txt'}
pool_mode = transaction
default_pool_size = 4
max_client_conn = 500
logfile = {folder / 'pgbouncer.log'}
""")
    log = folder / "pgbouncer.log"  # its own log, and what it says before it opens that
    log.touch()
    command = [PGBOUNCER, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        command.insert(1, "--user=postgres")
        shutil.chown(folder, "postgres")
        for name in ("users.txt", "pgbouncer.ini", "pgbouncer.log"):
            shutil.chown(folder / name, "postgres")
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    wait_for_port(port, process, "pgbouncer", log)
    return process, target.set(port=port).render_as_string(hide_password=False)


@pytest.fixture
def bouncer_folder():
    """A folder PgBouncer can read: it refuses to run as root, and runs as postgres."""
    folder = Path(tempfile.mkdtemp(prefix="companion-pgbouncer-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_servers_behind_pgbouncer_tell_each_other_of_moves(tmp_path, bouncer_folder):
    with own_database(tmp_path) as url:
        bouncer, pooled = start_pgbouncer(bouncer_folder, url)
        servers = [ServerProcess(pooled, tmp_path), ServerProcess(pooled, tmp_path)]
        referee_app = None
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
            for server in servers:
                server.stop()
            bouncer.terminate()
            bouncer.wait(10)
            if referee_app is not None:
                with referee_app.app_context():
                    db.engine.dispose()
