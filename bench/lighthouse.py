#!/usr/bin/env python3
"""Lighthouse on a phone screen of a game in progress: prints the performance,
accessibility and best-practices scores (and the audits that lost points).

Starts the production server (`gunicorn -c gunicorn.conf.py wsgi:app`) on 127.0.0.1 with a
SQLite file of its own, creates a Go Big table of three players through the JSON API, makes
a few moves, and runs Lighthouse 12 (`npx lighthouse`, pinned in package.json: `npm ci`
installs it; this script installs nothing) on the phone screen of the player whose turn it
is, in Lighthouse's default mobile settings (a mid-range phone, simulated slow 4G and a 4x
slower CPU), in Debian's Chromium (CHROME_PATH, else `chromium`).

The phone screen needs the player's cookie. Lighthouse's --extra-headers "Cookie: ..." is
not enough: it reaches the page itself, but once the page has set its session cookie the
browser sends its own Cookie header instead, so the live stream (/events) is refused with
403 and the page logs errors. So the script starts Chromium itself with a debugging port,
seats it the way a new phone is seated (it opens the seat's rejoin link; the page posts the
token and the server sets the cookie), and runs Lighthouse on that browser (--port).

    .venv/bin/python bench/lighthouse.py [--runs 3] [--json report.json]

Each category's score is the median of the runs. Exits 1 if a score is under 95.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ("performance", "accessibility", "best-practices")
TARGET = 95
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run "
                "--disable-dev-shm-usage")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(base: str, method: str, path: str, token: str | None = None, body=None) -> dict:
    request = urllib.request.Request(
        base + "/api/v1" + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def start_server(workdir: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{workdir / 'lighthouse.sqlite3'}",
               PORT=str(port), HOST="127.0.0.1", SECRET_KEY="lighthouse-secret",
               COMPANION_RATELIMIT="off", COMPANION_TEST_SEEDS="on", WEB_CONCURRENCY="1",
               COMPANION_THREADS="32")
    log = open(workdir / "gunicorn.log", "ab")
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py", "wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited; see {workdir / 'gunicorn.log'}")
        try:
            with urllib.request.urlopen(url + "/", timeout=1) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.2)
    stop_process(process)
    raise SystemExit("the server did not start")


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def game_in_progress(base: str) -> tuple[str, str, str]:
    """A started Go Big table after four moves: (code, the awaited player's name, the
    rejoin link of their seat)."""
    created = call(base, "POST", "/tables", body={"game": "go-big", "options": {}})
    code, host = created["code"], created["host_token"]
    tokens, names = {}, {}
    for name in ("Ann", "Ben", "Cat"):
        joined = call(base, "POST", f"/tables/{code}/players", body={"name": name})
        tokens[name], names[joined["player"]["id"]] = joined["token"], name
    call(base, "POST", f"/tables/{code}/start", host, {"seed": 7})
    for _ in range(4):  # the first move each phone offers: a set, then a draw
        name = names[call(base, "GET", f"/tables/{code}")["turn"]]
        action = call(base, "GET", f"/tables/{code}", tokens[name])["actions"][0]
        move = ({"type": "play", **action["sets"][0]} if action["type"] == "play"
                else {"type": "draw", "source": action["source"][0]})
        call(base, "POST", f"/tables/{code}/actions", tokens[name], move)
    turn = call(base, "GET", f"/tables/{code}")["turn"]
    rejoin = call(base, "POST", f"/tables/{code}/players/{turn}/rejoin", host)["rejoin_url"]
    return code, names[turn], base + "/r/" + rejoin.split("/r/", 1)[1]


def seated_chromium(workdir: Path, rejoin_url: str, phone_url: str) -> tuple[subprocess.Popen, int]:
    """Debian's Chromium with a debugging port, seated at the table by the rejoin link."""
    chrome = os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    port = free_port()
    log = open(workdir / "chromium.log", "ab")
    process = subprocess.Popen(
        [chrome, *CHROME_FLAGS.split(), f"--remote-debugging-port={port}",
         f"--user-data-dir={workdir / 'profile'}", rejoin_url],
        stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"Chromium exited; see {workdir / 'chromium.log'}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=1) as r:
                if any(t.get("url") == phone_url for t in json.load(r)):
                    return process, port  # redirected to the phone screen: seated
        except OSError:
            pass
        time.sleep(0.2)
    stop_process(process)
    raise SystemExit("Chromium did not take the seat")


def lighthouse(url: str, port: int, out: Path) -> dict:
    npx = shutil.which("npx")
    if npx is None:
        raise SystemExit("npx is missing: install Node.js 18.16 or later")
    if not (ROOT / "node_modules" / "lighthouse").exists():
        raise SystemExit("Lighthouse is missing: run `npm ci` (make install does)")
    command = [npx, "--no-install", "lighthouse", url, f"--port={port}", "--output=json",
               f"--output-path={out}", "--only-categories=" + ",".join(CATEGORIES), "--quiet"]
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if finished.returncode != 0 or not out.exists():
        raise SystemExit(f"lighthouse failed ({finished.returncode}):\n{finished.stderr[-3000:]}")
    return json.loads(out.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs (the median counts)")
    parser.add_argument("--json", type=Path, help="keep the last run's full report here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="companion-lighthouse-") as tmp:
        workdir = Path(tmp)
        server, base = start_server(workdir)
        chromium = None
        try:
            code, name, rejoin_url = game_in_progress(base)
            url = f"{base}/t/{code}"
            chromium, port = seated_chromium(workdir, rejoin_url, url)
            scores: dict[str, list[int]] = {category: [] for category in CATEGORIES}
            metrics: dict[str, list[float]] = {metric: [] for metric in METRICS}
            report = {}
            for run in range(args.runs):
                report = lighthouse(url, port, workdir / f"run{run}.json")
                for category in CATEGORIES:
                    scores[category].append(round(report["categories"][category]["score"] * 100))
                for metric in METRICS:
                    metrics[metric].append(report["audits"][metric]["numericValue"])
            if args.json:
                args.json.write_text(json.dumps(report, indent=1))
        finally:
            if chromium is not None:
                stop_process(chromium)
            stop_process(server)

    print(f"Lighthouse {report['lighthouseVersion']}, "
          f"{report['environment']['hostUserAgent'].split(') ')[-1]}"
          f", form factor {report['configSettings']['formFactor']}, throttling "
          f"{report['configSettings']['throttlingMethod']}: {args.runs} run(s) of the phone "
          f"screen of a Go Big game in progress ({name}'s turn)")
    verdict = 0
    for category in CATEGORIES:
        median = statistics.median(scores[category])
        ok = median >= TARGET
        verdict |= not ok
        print(f"  {category:15} {median:5.0f}   runs {scores[category]}   "
              f"{'ok' if ok else f'UNDER {TARGET}'}")
    for metric in METRICS:
        value = statistics.median(metrics[metric])
        shown = f"{value:.3f}" if metric == "cumulative-layout-shift" else f"{value:.0f} ms"
        print(f"  {metric:26} {shown}")
    lost = [(category, audit_ref["id"]) for category in CATEGORIES
            for audit_ref in report["categories"][category]["auditRefs"]
            if audit_ref["weight"] and report["audits"][audit_ref["id"]]["score"] is not None
            and report["audits"][audit_ref["id"]]["score"] < 1]
    if lost:
        print("  audits that lost points (last run):")
        for category, audit in lost:
            found = report["audits"][audit]
            print(f"    {category}: {audit} ({found['score']}) {found.get('displayValue', '')}")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
