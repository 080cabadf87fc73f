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
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from tests.support.app import ROOT, free_port

GUNICORN = str(Path(sys.executable).parent / "gunicorn")
REDIS = shutil.which("redis-server")
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
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"gunicorn-{self.port}.log"
        self.extra_args = extra_args
        self.env = dict(os.environ, DATABASE_URL=database_url, PORT=str(self.port),
                        HOST="127.0.0.1", WEB_CONCURRENCY=str(workers),
                        COMPANION_THREADS="16", SECRET_KEY="test-secret",
                        COMPANION_RATELIMIT="off", COMPANION_TEST_SEEDS="on")
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> "ServerProcess":
        self.starts += 1
        with self.log.open("ab") as output:
            output.write(f"-- start {self.starts} --\n".encode())
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

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


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


@contextmanager
def redis_server(folder: Path):
    """A redis-server on a free port, its files in `folder`; its storage URI."""
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
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
