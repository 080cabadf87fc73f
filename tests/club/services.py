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
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
