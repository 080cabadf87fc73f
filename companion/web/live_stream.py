"""The SSE response shared by the API stream and the screens' stream."""
from __future__ import annotations

from flask import Response, current_app

from .. import live
from ..auth import Viewer, still_valid
from ..models import Table


def event_stream(table: Table, viewer: Viewer) -> Response:
    app = current_app._get_current_object()
    live.start_watcher(app.extensions["companion_read_versions"],
                       app.extensions["companion_listen_dsn"])

    def still_allowed() -> bool:
        with app.app_context():
            return still_valid(viewer)

    body = live.stream(table.code, table.version, still_allowed)
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
