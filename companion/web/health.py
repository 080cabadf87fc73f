"""GET /healthz: whether this server can reach its database, for a proxy or a process
supervisor. One trivial query, never rate-limited, nothing about the setup."""
from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy import text

from ..extensions import db, limiter
from .errors import DATABASE_UNAVAILABLE

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@limiter.exempt
def healthz():
    try:
        db.session.execute(text("SELECT 1"))
    except DATABASE_UNAVAILABLE:
        return jsonify(ok=False, error="The database does not answer."), 503
    finally:
        db.session.remove()
    return jsonify(ok=True)
