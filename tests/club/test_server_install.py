"""`make run` in a fresh clone installs what the server needs and no more, and serves,
printing only where to find it."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time

import requests

from companion.web.links import qr_text
from tests.support.app import ROOT, free_port
from tests.support.servers import tail

TEST_ONLY_PYTHON = ("pytest", "playwright", "hypothesis", "schemathesis")
TEST_ONLY_NPM = ("axe-core", "lighthouse")
# The line make prints as it starts the server: what the server prints comes after it.
SERVER_COMMAND = "gunicorn -c gunicorn.conf.py wsgi:app\n"


def test_make_run_in_a_fresh_clone_installs_the_server_only(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = free_port()
    env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", WEB_CONCURRENCY="1",
               DATABASE_URL=f"sqlite:///{tmp_path / 'club.sqlite3'}",
               COMPANION_PUBLIC_URL=f"http://127.0.0.1:{port}")
    env.pop("VIRTUAL_ENV", None)
    log = open(tmp_path / "make-run.log", "w")
    server = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 280
        while True:
            assert server.poll() is None, tail(tmp_path / "make-run.log")
            assert time.monotonic() < deadline, ("make run did not serve in time:\n"
                                                 + tail(tmp_path / "make-run.log"))
            try:
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.5)
        home = requests.get(f"http://127.0.0.1:{port}/", timeout=5).text
        htmx = re.search(r'src="([^"]*vendor/htmx[^"]*)"', home).group(1)
        assert requests.get(f"http://127.0.0.1:{port}{htmx}", timeout=5).status_code == 200
    finally:
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C, as whoever ran it stops it
        server.wait(timeout=30)
        log.close()
    python = clone / ".venv" / "bin" / "python"
    for module in TEST_ONLY_PYTHON:
        found = subprocess.run([str(python), "-c", f"import {module}"],
                               capture_output=True).returncode == 0
        assert not found, f"make run installed {module}"
    assert (clone / "node_modules" / "htmx.org").is_dir()
    for package in TEST_ONLY_NPM:
        assert not (clone / "node_modules" / package).exists(), f"make run installed {package}"
    assert (clone / "static" / "vendor" / "htmx.min.js").is_file()
    assert installed(clone) == locked(clone / "requirements" / "server.txt")
    output = (tmp_path / "make-run.log").read_text()
    assert "db upgrade" not in output  # gunicorn.conf.py upgrades, once
    assert_a_clean_start(output.split(SERVER_COMMAND, 1)[1], f"http://127.0.0.1:{port}")


def package_key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def installed(clone) -> dict[str, str]:
    """The packages in the clone's virtualenv (Companion itself aside), by version."""
    frozen = subprocess.run([str(clone / ".venv" / "bin" / "pip"), "freeze",
                             "--exclude-editable"], capture_output=True, text=True, check=True)
    pins = (line.split("==") for line in frozen.stdout.splitlines() if "==" in line)
    return {package_key(name): version for name, version in pins}


def locked(lock) -> dict[str, str]:
    """The packages a lock pins, by version (pip, setuptools and wheel are the
    virtualenv's own unless pinned)."""
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^ \\]+)", lock.read_text(), re.M)
    return {package_key(name): version for name, version in pins}


def assert_a_clean_start(served: str, url: str) -> None:
    """From its start (the schema upgraded on a new database) to its stop by Ctrl-C, the
    server printed the address and its QR code, and nothing a newcomer could take for a
    crash."""
    for alarming in ("Traceback", "Error", "Warning", "WARNING", "INFO"):
        assert alarming not in served, served
    lines = [line.strip() for line in served.splitlines() if line.strip()]
    assert lines[0].startswith("Companion is running."), served
    assert lines[1:] == [url, *(line.strip() for line in qr_text(url).splitlines())], served
