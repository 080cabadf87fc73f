"""The server under test: `gunicorn -c gunicorn.conf.py wsgi:app` on 127.0.0.1, on a
SQLite file of its own (or several servers on one PostgreSQL database of their own), and
what its processes cost (CPU from /proc/<pid>/stat, memory from /proc/<pid>/statm and
smaps_rollup)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, workdir: Path, overrides: dict[str, str] | None = None,
                 config: str = "gunicorn.conf.py", app: str = "wsgi:app",
                 ready_path: str = "/static/app.js"):
        self.config, self.app, self.ready_path = config, app, ready_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = workdir / "bench.sqlite3"
        self.log_path = workdir / "gunicorn.log"
        self.env = dict(os.environ, DATABASE_URL=f"sqlite:///{self.database}",
                        PORT=str(self.port), HOST="127.0.0.1", SECRET_KEY="bench-secret",
                        COMPANION_RATELIMIT="off", COMPANION_TEST_SEEDS="on",
                        PYTHONUNBUFFERED="1")
        self.env.update(overrides or {})
        self.process: subprocess.Popen | None = None
        self.seen_workers: set[int] = set()

    def settings(self) -> dict[str, str]:
        """What the server runs with (gunicorn.conf.py's defaults where unset)."""
        on_sqlite = self.env["DATABASE_URL"].startswith("sqlite")
        return {
            "worker_class": self.env.get("COMPANION_WORKER_CLASS", "gevent"),
            # on SQLite: one, or refused; on PostgreSQL: min(2, cores) unless set
            "workers": self.env.get("WEB_CONCURRENCY", "1" if on_sqlite else "2"),
            "threads": self.env.get("COMPANION_THREADS", "100"),
            "GUNICORN_CMD_ARGS": self.env.get("GUNICORN_CMD_ARGS", ""),
            "database": "SQLite (own file)" if on_sqlite else "PostgreSQL (own database)",
            "servers": "1",
            "config": self.config,
        }

    def start(self) -> "Server":
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", self.config, self.app],
            cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited; see {self.log_path}")
            try:
                with urllib.request.urlopen(self.url + self.ready_path, timeout=1) as r:
                    if r.status == 200 and len(self.workers()) >= 1:
                        time.sleep(0.5)  # let every worker boot
                        self.seen_workers.update(self.workers())
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not start; see {self.log_path}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    # -- what it costs ------------------------------------------------------------
    def workers(self) -> list[int]:
        master = self.process.pid
        try:
            with open(f"/proc/{master}/task/{master}/children") as handle:
                return [int(p) for p in handle.read().split()]
        except OSError:
            return []

    def pids(self) -> list[int]:
        workers = self.workers()
        self.seen_workers.update(workers)
        return [self.process.pid] + workers

    def cpu_times(self) -> tuple[float, float]:
        """User and system CPU seconds of the master, its live workers and its reaped
        workers (system: the kernel's work for them, such as their sockets' calls)."""
        user = system = 0
        master = self.process.pid
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # fields[0] is field 3 (state): utime is field 14, cstime field 17
            utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
            user += utime + (cutime if pid == master else 0)
            system += stime + (cstime if pid == master else 0)
        return user / TICK, system / TICK

    def cpu_seconds(self) -> float:
        return sum(self.cpu_times())

    def sched_seconds(self) -> tuple[float, float]:
        """Seconds on a CPU and seconds runnable but waiting for one, summed over every
        thread of the live server processes (/proc/<pid>/task/<tid>/schedstat)."""
        run = wait = 0
        for pid in self.pids():
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat") as handle:
                        fields = handle.read().split()
                except OSError:
                    continue
                run += int(fields[0])
                wait += int(fields[1])
        return run / 1e9, wait / 1e9

    def _summed(self, read) -> int:
        """`read(pid)` summed over the server's processes (one that just ended counts 0)."""
        total = 0
        for pid in self.pids():
            try:
                total += read(pid)
            except OSError:
                pass
        return total

    def rss_bytes(self) -> int:
        def rss(pid: int) -> int:
            with open(f"/proc/{pid}/statm") as handle:
                return int(handle.read().split()[1]) * PAGE
        return self._summed(rss)

    def pss_bytes(self) -> int:
        """Proportional set size: the pages the processes share since the fork counted once."""
        def pss(pid: int) -> int:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        return int(line.split()[1]) * 1024
            return 0
        return self._summed(pss)

    def threads(self) -> int:
        return self._summed(lambda pid: len(os.listdir(f"/proc/{pid}/task")))

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


class Servers:
    """Several servers on one database (PostgreSQL): started and stopped together, their
    costs summed, each phone talking to one of them (`port_for`)."""

    def __init__(self, servers: list[Server]):
        self.servers = servers
        self.port, self.url = servers[0].port, servers[0].url
        self.log_path = servers[0].log_path

    def port_for(self, index: int) -> int:
        return self.servers[index % len(self.servers)].port

    def settings(self) -> dict[str, str]:
        return dict(self.servers[0].settings(), servers=str(len(self.servers)))

    def start(self) -> "Servers":
        for server in self.servers:
            server.start()
        return self

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def _sum(self, name: str):
        return sum(getattr(server, name)() for server in self.servers)

    def cpu_seconds(self) -> float:
        return self._sum("cpu_seconds")

    def cpu_times(self) -> tuple[float, float]:
        both = [server.cpu_times() for server in self.servers]
        return sum(user for user, _ in both), sum(system for _, system in both)

    def sched_seconds(self) -> tuple[float, float]:
        both = [server.sched_seconds() for server in self.servers]
        return sum(run for run, _ in both), sum(wait for _, wait in both)

    def rss_bytes(self) -> int:
        return self._sum("rss_bytes")

    def pss_bytes(self) -> int:
        return self._sum("pss_bytes")

    def threads(self) -> int:
        return self._sum("threads")

    def workers(self) -> list[int]:
        return [pid for server in self.servers for pid in server.workers()]

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(server.log_tail(lines) for server in self.servers)
