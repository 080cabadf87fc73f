"""GET /healthz: whether this server can reach its database, for a proxy or a process
supervisor. One trivial query, never rate-limited, nothing about the setup.

When the rate limits count in a shared storage (COMPANION_RATELIMIT_STORAGE), the answer
says too whether that storage answers: "rate_limits": "shared" when it does, "degraded"
when it does not (each process then counts alone, in its memory). The server serves
either way, so a silent storage does not make it unhealthy: a proxy keeps sending it
phones."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from .. import store
from ..extensions import limiter, shared_storage
from .errors import DATABASE_UNAVAILABLE

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@limiter.exempt
def healthz():
    try:
        store.database_answers()
    except DATABASE_UNAVAILABLE:
        return jsonify(ok=False, error="The database does not answer."), 503
    if not shared_storage(current_app.config):
        return jsonify(ok=True)
    # Bounded by the storage's timeouts (extensions.storage_options).
    return jsonify(ok=True, rate_limits="shared" if limiter.storage.check() else "degraded")
