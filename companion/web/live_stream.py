"""The SSE response shared by the API stream and the screens' stream."""
from __future__ import annotations

from collections.abc import Callable

from flask import Response, current_app, stream_with_context

from .. import live, snapshots
from ..auth import Viewer, still_valid
from ..extensions import db
from ..models import Table
from ..snapshots import Snapshot


def event_stream(table: Table, viewer: Viewer, render: Callable[[Snapshot], str],
                 since: int = -1, revoked: str = live.REVOKED) -> Response:
    """A stream telling this viewer of every change of the table: `render` gives the
    event for the table at a version (rendered in this request's context); `revoked`
    is the last event, once the host gives the viewer's seat to a new phone."""
    app = current_app._get_current_object()
    live.start_watcher(app.extensions["companion_read_versions"],
                       app.extensions["companion_listen_dsn"])
    table_id, code, version = table.id, table.code, table.version
    db.session.remove()  # a stream must not hold a database connection while it waits

    def message(newest: int) -> tuple[int, str] | None:
        try:
            seen = snapshots.at_least(table_id, newest)
            if not still_valid(seen, viewer):
                return None
            return seen.version, render(seen)
        finally:
            db.session.remove()

    body = live.stream(code, version, since, message, revoked)
    return Response(stream_with_context(body), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
