"""Production settings: `gunicorn -c gunicorn.conf.py wsgi:app`.

Every phone holds a live stream (server-sent events) open. gevent workers hold each
stream as a cheap greenlet instead of an OS thread: the benchmark (bench/, README) measured
about half the CPU per move and half the memory of threads at 1,000 phones. One worker
per core, two at most by default: a worker tells the others of a change at once (a Unix
datagram on SQLite, NOTIFY on PostgreSQL), and a second one doubles the moves a second
the server keeps up with on a 2-core machine.
"""
import os

worker_class = os.environ.get("COMPANION_WORKER_CLASS", "gevent")
if worker_class == "gevent":
    # Before anything else is imported: the app's locks must be gevent's, not the OS's.
    from gevent import monkey

    monkey.patch_all()

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", min(2, os.cpu_count() or 1)))
worker_connections = int(os.environ.get("COMPANION_CONNECTIONS", "4000"))  # gevent
threads = int(os.environ.get("COMPANION_THREADS", "100"))  # gthread: one per open stream
# Streams never end by themselves: don't wait long for them when stopping.
graceful_timeout = 3
timeout = 60
keepalive = 5
# No access log: request lines are nobody's business (and must never hold a token).
accesslog = None
errorlog = "-"
loglevel = "warning"


def on_starting(server):
    """Bring the database schema up to date before any worker serves."""
    from flask_migrate import upgrade

    from companion import create_app
    from companion.extensions import db

    app = create_app()
    with app.app_context():
        upgrade()
        db.engine.dispose()  # the workers open their own; the master keeps none


def post_worker_init(worker):
    """What the worker loaded to serve is there for good: keep the garbage collector from
    walking it again and again (a full collection paused a busy worker for 100 ms), and
    collect young objects less often."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)


def when_ready(server):
    from companion.web.links import lan_address, qr_text

    public = os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/")
    port = bind.rsplit(":", 1)[1]
    url = public or f"http://{lan_address()}:{port}"
    print(f"\nCompanion is running. Open this on any phone or laptop on the same Wi-Fi:\n\n"
          f"    {url}\n\n{qr_text(url)}", flush=True)
