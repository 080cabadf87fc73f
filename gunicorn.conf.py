"""Production settings: `gunicorn -c gunicorn.conf.py wsgi:app`.

Every phone holds a live stream (server-sent events) open. gevent workers hold each
stream as a cheap greenlet instead of an OS thread: the benchmark (bench/,
docs/performance.md) measured less CPU per move and less memory than threads at 1,000
phones.

On SQLite the server is one gevent worker, and more are refused: one keeps up with a
club's tables (docs/performance.md has the rate it holds), and one process needs no
messages between processes to wake its streams. More workers, or more servers, need
PostgreSQL, whose LISTEN/NOTIFY tells every process of a change: there, one worker per
core, two at most by default.
"""
import os
from pathlib import Path

worker_class = os.environ.get("COMPANION_WORKER_CLASS", "gevent")
if worker_class == "gevent":
    # Before anything else is imported: the app's locks must be gevent's, not the OS's.
    from gevent import monkey

    monkey.patch_all()

from sqlalchemy.engine import make_url  # noqa: E402  (after patching)

from companion.config import CONNECTIONS, THREADS, database_url, whole_number  # noqa: E402

ON_SQLITE = make_url(database_url(str(Path(__file__).resolve().parent / "instance"))
                     ).get_backend_name() == "sqlite"

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", 1 if ON_SQLITE else min(2, os.cpu_count() or 1)))
# The live streams may take all of a worker's connections (gevent) or threads (gthread)
# but a reserve kept for moves, joins and pages (companion/web/stream_limits.py).
worker_connections = whole_number("COMPANION_CONNECTIONS", CONNECTIONS)  # gevent
threads = whole_number("COMPANION_THREADS", THREADS)  # gthread: one per open stream
timeout = 60
keepalive = 5
# A stopping worker ends its streams at once (post_worker_init), then waits for its
# connections: a kept-alive one closes within `keepalive` seconds.
graceful_timeout = keepalive + 5
# No access log: request lines are nobody's business (and must never hold a token).
# gunicorn's control socket (for its `gunicornc` command) is one path per user by default,
# shared by every server that user starts: each new one takes it over from the others. The
# app is run with signals, as any gunicorn, and needs none.
control_socket_disable = True
accesslog = None
errorlog = "-"
loglevel = "warning"


master_app = None  # the app on_starting builds: when_ready speaks through its catalogs


def on_starting(server):
    """Refuse several workers on SQLite; bring the database schema up to date before any
    worker serves."""
    if ON_SQLITE and server.cfg.workers > 1:
        raise RuntimeError(
            f"{server.cfg.workers} workers were asked for (WEB_CONCURRENCY or --workers), but "
            "on SQLite "
            "Companion runs one worker process: it holds every phone's stream and keeps up "
            "with about 200 moves a second. For more processes or more servers, use "
            "PostgreSQL: set DATABASE_URL=postgresql+psycopg://USER:PASSWORD@HOST/DATABASE "
            "(see docs/running-a-club.md). Or leave WEB_CONCURRENCY unset.")
    from companion import create_app, store, upgrade_database

    # The master builds the app only to upgrade the schema, so without the rate limits:
    # their counters in memory start timer threads, which the workers forked next would
    # inherit half alive (gevent then prints a KeyError for each). Each worker builds its
    # own app, rate limits included.
    global master_app
    app = master_app = create_app({"RATELIMIT_ENABLED": False})
    upgrade_database(app)
    with app.app_context():
        store.close_pooled_connections()  # the workers open their own


def post_worker_init(worker):
    """What the worker loaded to serve is there for good: keep the garbage collector from
    walking it again and again (a full collection pauses a busy worker), and
    collect young objects less often. And end the streams when told to stop."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)
    end_streams_when_stopping(worker)


def end_streams_when_stopping(worker):
    """SIGTERM tells a worker to stop once its requests are done; a stream is never done
    by itself, so end every one at once (clients reconnect, to another server or to this
    one once it is back). Closing the streams may block, which a signal handler must not:
    it runs in a greenlet (gevent) or a thread of its own.
    Ctrl-C (SIGINT, then the SIGQUIT the master sends) stops the worker the same way:
    gunicorn's own quick stop exits from inside a greenlet under gevent, which prints a
    traceback a newcomer takes for a crash."""
    import signal
    import threading

    from companion import live

    stop = worker.handle_exit

    def handle_exit(sig, frame):
        if worker_class == "gevent":
            from gevent import spawn

            spawn(live.hub.close)
        else:
            threading.Thread(target=live.hub.close, daemon=True).start()
        stop(sig, frame)

    for stopping in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(stopping, handle_exit)
        signal.siginterrupt(stopping, False)  # as gunicorn sets it: no interrupted calls


def when_ready(server):
    from companion.web.links import lan_address, welcome

    public = os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/")
    port = bind.rsplit(":", 1)[1]
    url = public or f"http://{lan_address()}:{port}"
    print(welcome(master_app, url), flush=True)
