"""Services the club tests run for real: a Redis server of their own."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import free_port

REDIS = shutil.which("redis-server")


def wait_for_port(port: int, process: subprocess.Popen, name: str, log: Path | None = None) -> None:
    """Wait until `process` (a server called `name`) accepts connections on `port`; fail
    with its log, if it keeps one, should it stop or not open the port within 10 s."""
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                said = log.read_text() if log is not None and log.exists() else ""
                raise RuntimeError(f"{name} did not start. {said}")
            time.sleep(0.05)


@contextmanager
def redis_server(folder: Path):
    """A redis-server on a free port, its files in `folder`; its storage URI."""
    if REDIS is None:
        pytest.skip("REDIS-SERVER IS MISSING: install Debian's redis-server package to test "
                    "the shared rate limits (CI installs it)")
    port = free_port()
    process = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process, "redis-server")
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
