"""The SSE response shared by the API stream and the screens' stream."""
from __future__ import annotations

from collections.abc import Callable, Iterator

from flask import Response, current_app, request, stream_with_context

from .. import live, store
from ..auth import Viewer, still_valid
from ..snapshots import Snapshot
from .errors import DATABASE_UNAVAILABLE
from .stream_limits import take_stream


def event_stream(table: Snapshot, viewer: Viewer, render: Callable[[Snapshot], str],
                 since: int = -1, revoked: str = live.REVOKED) -> Response:
    """A stream telling this viewer of every change of the table: `render` gives the
    event for the table at a version (rendered in this request's context); `revoked`
    is the last event, once the host gives the viewer's seat to a new phone.

    Refused (429 or 503, with Retry-After) when this address or this worker holds as
    many streams as it may (stream_limits). With `check=1` nothing is streamed: the
    answer is 204 when a stream would be served now, else the refusal it would get (a
    page's EventSource cannot read why its stream was refused; it asks this way)."""
    end_count = take_stream()
    if request.args.get("check"):
        end_count()
        return Response(status=204)
    try:
        response = stream_response(table, viewer, render, since, revoked)
    except BaseException:
        end_count()
        raise
    response.call_on_close(end_count)  # however the stream ends, even before it began
    return response


def stream_response(table: Snapshot, viewer: Viewer, render: Callable[[Snapshot], str],
                    since: int, revoked: str) -> Response:
    live.start_watcher(current_app.extensions["companion_read_versions"],
                       current_app.extensions["companion_listen_dsn"])
    table_id, code, version = table.id, table.code, table.version
    store.release_session_connection()  # held by no stream while it waits

    def message(newest: int) -> tuple[int, str] | None:
        try:
            seen = store.at_least(table_id, newest)
            store.release_session_connection()  # before rendering, which needs only the snapshot
            if not still_valid(seen, viewer):
                return None
            return seen.version, render(seen)
        finally:
            store.release_session_connection()

    body = until_the_database_fails(live.stream(code, version, since, message, revoked))
    return Response(stream_with_context(body), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def until_the_database_fails(body: Iterator[str]) -> Iterator[str]:
    """The stream, ended (not broken off with an error) should the database refuse it a
    connection: the client opens it again by itself (the stream's `retry:`), and catches
    up on connect."""
    try:
        yield from body
    except DATABASE_UNAVAILABLE:
        current_app.logger.warning("A stream ended: its database is unavailable.")
