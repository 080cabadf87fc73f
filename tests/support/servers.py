"""Server processes the tests start for real: the production server (gunicorn), and the
services the club tests need (Redis). Each keeps what it writes in a log file in the
test's own folder; one that fails to start says why at once, with the end of its log."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from sqlalchemy.engine import make_url

from tests.support.app import ROOT, free_port

GUNICORN = str(Path(sys.executable).parent / "gunicorn")
REDIS = shutil.which("redis-server")
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
TAIL_LINES = 40


def tail(log: Path, lines: int = TAIL_LINES) -> str:
    """The last `lines` lines of a log, or a word that there is none."""
    if not log.exists():
        return f"({log.name} was never written)"
    kept = log.read_text(errors="replace").splitlines()[-lines:]
    return "\n".join(kept) if kept else f"({log.name} is empty)"


class ServerProcess:
    """`gunicorn -c gunicorn.conf.py wsgi:app`, as in production, on a port of its own;
    what it writes, over all its starts, goes to `log` (in `folder`)."""

    START_SECONDS = 30

    def __init__(self, database_url: str, folder: Path, workers: int = 1,
                 extra_args: tuple[str, ...] = ()):
        self.port = self.reserve_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"gunicorn-{self.port}.log"
        self.extra_args = extra_args
        self.env = dict(os.environ, DATABASE_URL=database_url, PORT=str(self.port),
                        HOST="127.0.0.1", WEB_CONCURRENCY=str(workers),
                        COMPANION_THREADS="16", SECRET_KEY="test-secret",
                        COMPANION_RATELIMIT="on", COMPANION_TEST_SEEDS="on")
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def reserve_port(self) -> int:
        """A free port held for this server's whole life, restarts included. Freed
        between a kill and the restart, the port could be handed to any program asking
        for a free one (other tests' servers do, all the time), and gunicorn would then
        fail to bind it ("Connection in use"). A socket bound with SO_REUSEADDR that never
        listens keeps every other program off the port, yet lets gunicorn (which sets
        SO_REUSEADDR too) listen on it."""
        self.reservation = socket.socket()
        self.reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.reservation.bind(("127.0.0.1", 0))
        weakref.finalize(self, self.reservation.close)
        return self.reservation.getsockname()[1]

    def start(self) -> "ServerProcess":
        self.starts += 1
        with self.log.open("ab") as output:
            output.write(f"-- start {self.starts} at {time.strftime('%H:%M:%S')} --\n".encode())
            output.flush()
            self.process = subprocess.Popen(
                [GUNICORN, "-c", "gunicorn.conf.py", *self.extra_args, "wsgi:app"],
                cwd=ROOT, env=self.env, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + self.START_SECONDS
        while True:
            if self.process.poll() is not None:
                self.failed(f"exited with status {self.process.returncode}")
            try:
                if requests.get(self.url + "/", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                self.kill()
                self.failed(f"did not answer within {self.START_SECONDS} s")
            time.sleep(0.1)

    def failed(self, why: str) -> None:
        raise RuntimeError(f"the server on port {self.port} (start {self.starts}) {why}; "
                           f"the end of {self.log}:\n{tail(self.log)}")

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.wait_for_group(self.process.pid)

    @staticmethod
    def wait_for_group(group: int, seconds: float = 10) -> None:
        """Wait until every process of the server's process group has died (its workers
        are not our children: waiting for the master says nothing of them, and a worker
        still dying holds the listening socket and the database)."""
        deadline = time.monotonic() + seconds
        while living := processes_of_group(group):
            if time.monotonic() > deadline:
                raise RuntimeError(f"processes {living} of the killed server outlived it")
            time.sleep(0.01)

    def stop(self, *streams) -> None:
        """SIGTERM, as a supervisor stops the server. The test's `streams` to it (None for
        one not opened) are closed first: the server, which ends its streams at once,
        would otherwise wait for their connections, kept alive, for the keep-alive
        period."""
        for stream in streams:
            if stream is not None:
                stream.close()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def processes_of_group(group: int) -> list[int]:
    """The processes of a process group that have not died (a zombie has: it holds no
    socket and no file), read from /proc."""
    living = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue  # gone meanwhile
        if int(pgrp) == group and state not in ("Z", "X"):
            living.append(int(stat.parent.name))
    return living


def wait_for_port(port: int, process: subprocess.Popen, name: str, log: Path,
                  seconds: float = 10) -> None:
    """Wait until `process` (a server called `name`) accepts connections on `port`; fail
    at once with the end of its log should it stop, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with status {process.returncode}; the "
                                   f"end of {log}:\n{tail(log)}") from None
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise RuntimeError(f"{name} did not listen on port {port} within {seconds} "
                                   f"s; the end of {log}:\n{tail(log)}") from None
            time.sleep(0.05)


class RedisProcess:
    """A redis-server the test runs: its storage URI, and the process, which the test may
    freeze (SIGSTOP: a host that stops answering without closing a connection, as a
    frozen machine or a network that drops packets does) and thaw again."""

    def __init__(self, process: subprocess.Popen, uri: str):
        self.process, self.uri = process, uri

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@contextmanager
def redis_process(folder: Path):
    """A redis-server on a free port, its files in `folder`."""
    if REDIS is None:
        pytest.skip("REDIS-SERVER IS MISSING: install Debian's redis-server package to test "
                    "the shared rate limits (CI installs it)")
    port = free_port()
    log = folder / "redis.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
             "--save", "", "--appendonly", "no"],
            stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, "redis-server", log)
        yield RedisProcess(process, f"redis://127.0.0.1:{port}")
    finally:
        process.send_signal(signal.SIGCONT)  # a frozen process ends only once thawed
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def redis_server(folder: Path):
    """A redis-server on a free port, its files in `folder`; its storage URI."""
    with redis_process(folder) as redis:
        yield redis.uri


@contextmanager
def pgbouncer(url: str):
    """PgBouncer (Debian's) in transaction mode in front of the PostgreSQL database `url`:
    its process and its own URL. Its files are in a folder of their own, which it can
    read: it refuses to run as root, and runs as postgres."""
    if not os.access(PGBOUNCER, os.X_OK):
        pytest.fail("pgbouncer is missing: install Debian's pgbouncer package", pytrace=False)
    folder = Path(tempfile.mkdtemp(prefix="companion-pgbouncer-"))
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
    try:
        wait_for_port(port, process, "pgbouncer", log)
        yield process, target.set(port=port).render_as_string(hide_password=False)
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
