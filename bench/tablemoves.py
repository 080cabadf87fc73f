"""A Go Big table of six in-process, its phones' streams open, and its moves: what
`inprocess.py` and `paired.py` time. Three phones hold the API's stream and three the
screens' stream, as in the bench; each stream's generator runs in a context of its own,
as under gevent each runs in a greenlet of its own.

It imports nothing of the app: `paired.py` hands it the app and the table maker of
another checkout."""
from __future__ import annotations

import contextvars
import json
import random
from collections.abc import Callable

from werkzeug.test import EnvironBuilder


def wsgi_call(app, context: contextvars.Context, **request):
    """The app's WSGI call for `request`, in `context` (as gunicorn calls it): its status
    and its body."""
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = status
    body = context.run(app, EnvironBuilder(**request).get_environ(), start_response)
    return answer["status"], body


class StreamedTable:
    """A started table of six and its six phones' streams, each read up to date."""

    def __init__(self, app, client, new_go_big_table: Callable) -> None:
        self.app, self.client = app, client
        self.code, self.tokens, started = new_go_big_table(client, 6)
        self.turn = started["turn"]
        self.streams = []
        for n, token in enumerate(self.tokens.values()):
            context = contextvars.Context()
            if n % 2 == 0:
                status, body = wsgi_call(app, context, path=f"/api/v1/tables/{self.code}/stream",
                                         headers={"Authorization": f"Bearer {token}"})
            else:
                status, body = wsgi_call(app, context, path=f"/t/{self.code}/events",
                                         query_string="screen=phone",
                                         headers={"Cookie": f"companion_{self.code}={token}"})
            assert status.startswith("200"), status
            events = iter(body)
            context.run(next, events)  # retry:
            context.run(next, events)  # the table as it is
            self.streams.append((context, events, body))

    def next_move(self, rng: random.Random) -> tuple[str, dict]:
        """The token of the player whose turn it is, and a random legal move of theirs
        (read from their view's `actions`, as the bench's phones read it)."""
        token = self.tokens[self.turn]
        view = self.client.get(f"/api/v1/tables/{self.code}",
                               headers={"Authorization": f"Bearer {token}"}).get_json()
        offered = view["actions"][0]
        action = ({"type": "play", **rng.choice(offered["sets"])} if offered["type"] == "play"
                  else {"type": "draw", "source": rng.choice(offered["source"])})
        return token, {**action, "version": view["version"]}

    def post(self, token: str, action: dict) -> bytes:
        """The move's request: its answer (`took` reads the turn after it from it)."""
        status, body = wsgi_call(self.app, contextvars.Context(), method="POST",
                                 path=f"/api/v1/tables/{self.code}/actions", json=action,
                                 headers={"Authorization": f"Bearer {token}"})
        answer = b"".join(body)
        body.close()
        assert status.startswith("200"), answer
        return answer

    def update(self, n: int) -> None:
        """Phone `n` reads its stream's next event (even: the API's, odd: the screens')."""
        context, events, _ = self.streams[n]
        context.run(next, events)

    def took(self, answer: bytes) -> None:
        self.turn = json.loads(answer)["table"]["turn"]

    @property
    def finished(self) -> bool:
        return self.turn is None

    def close(self) -> None:
        for context, _, body in self.streams:
            context.run(body.close)
