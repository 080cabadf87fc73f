"""Shared pieces of the trust suite: the counts printed at the end of the run, the bot that
plays seeded games through the HTTP API exactly like the players' phones, and clients for
every kind of viewer (a player's phone, the host screen, the public).

The bot needs the full state to pick a legal move, which no client can get: a test may
read it through the app (`Referee`), then posts the move over HTTP with that player's own
token. Everything generic is driven by the game registry, so a game added to `GAMES` is
played, fuzzed and checked without new test code.
"""
from __future__ import annotations

import copy
import html
import json
import os
import queue
import random
import re
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import requests

from companion import store
from companion.auth import host_cookie, player_cookie
from companion.extensions import db
from companion.games import GAMES, Game
from companion.models import Event
from companion.table import moves, read
from tests.conftest import Api, Seated

# -- players ---------------------------------------------------------------------------

# Names that would run script or break out of an attribute if they were not escaped: every
# game is played by them, so every screen of every game renders them.
HOSTILE_NAMES = ('<script>f()</script>', '<img src=x onerror=f()>', 'Ann "&" \'Bo\'',
                 '"><svg onload=f()>', 'Dan</li><b>', 'Eve')


def names_for(count: int) -> tuple[str, ...]:
    extra = tuple(f"Player {n}" for n in range(len(HOSTILE_NAMES), count))
    return (HOSTILE_NAMES + extra)[:count]


def player_counts(engine: Game) -> list[int]:
    """The player counts the suite plays a game with: the fewest, and one more."""
    return [engine.min_players, min(engine.max_players, engine.min_players + 1)]


def other_options(engine: Game) -> dict:
    """The other value of every yes/no option and single choice of a game (the house
    rules and variants: open banks, Fan Tan, casting by hand), for a second game."""
    defaults = engine.default_options().model_dump(mode="json")
    chosen = {}
    for name, schema in engine.Options.model_json_schema().get("properties", {}).items():
        if schema.get("type") == "boolean":
            chosen[name] = not defaults[name]
        elif "enum" in schema:
            chosen[name] = next(v for v in schema["enum"] if v != defaults[name])
    return chosen


def big_seed(game_id: str, index: int) -> int:
    """A seed with many digits, so the suite can tell it never leaves the server."""
    return random.Random(f"{game_id}:{index}").randrange(10**14, 10**15)


def new_table(base: str, game: str, count: int, seed: int, options=None,
              local: int = 0) -> Seated:
    """A started table of `count` players; the last `local` of them have no phone (the
    host device plays for them), so they are seated from the host screen."""
    names = names_for(count)
    api = Api(base)
    table = api.table(game, players=names[:count - local], start=False, options=options)
    if local:
        host = Client(base, table.code, table.host, host=True)
        csrf = host.csrf()
        for name in names[count - local:]:
            response = host.post_form("/players/local", {"name": name, "csrf_token": csrf})
            assert response.status_code == 200, response.text[:300]
        players = api.call("GET", f"/tables/{table.code}")[1]["players"]
        table.local = {p["id"]: p["name"] for p in players if p["name"] not in table.ids}
        table.names.update(table.local)
    else:
        table.local = {}
    status, view = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": seed})
    assert status == 200, view
    return table


# -- pages that run nothing: names are text, no inline script ---------------------------

class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith(("on", "hx-on")):
                self.problems.append(f"an inline event handler {name}= on <{tag}>")
            if name in ("href", "src", "action", "formaction", "hx-get", "hx-post") and \
                    (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"a javascript: URL in <{tag} {name}>")
        if tag == "script" and not dict(attrs).get("src"):
            self.problems.append("an inline <script>")


def inert(page: str, where: str) -> None:
    """No player name is markup, and nothing on the page runs inline script."""
    for name in HOSTILE_NAMES:
        if name != html.escape(name, quote=False):
            assert name not in page, f"{where}: the name {name!r} is not escaped"
    tags = _Tags()
    tags.feed(page)
    assert not tags.problems, f"{where}: {tags.problems[0]}"


# -- the referee: the stored table, as only a test may read it ----------------------------

@dataclass
class Snapshot:
    status: str
    version: int
    moves: int
    seed: int | None
    state: dict | None
    events: list[dict] = field(default_factory=list)


class Referee:
    def __init__(self, app, code: str):
        self.app, self.code = app, code
        self.events: list[dict] = []  # the log is append-only: read only what is new

    def read(self, events: bool = False) -> Snapshot:
        with self.app.app_context():
            table = read.find(self.code)
            snapshot = Snapshot(table.status, table.version, table.moves, table.seed,
                                copy.deepcopy(table.state))
            if events:
                last = self.events[-1]["seq"] if self.events else 0
                self.events += [
                    {"seq": e.seq, "kind": e.kind, "actor": e.actor, "notes": e.notes,
                     "undoes": e.undoes, "action_id": e.action_id, "version": e.version,
                     "action": e.action}
                    for e in db.session.execute(db.select(Event).where(
                        Event.table_id == table.id, Event.seq > last)
                        .order_by(Event.seq)).scalars()]
                snapshot.events = self.events
            db.session.remove()
            return snapshot

    def replayed(self) -> tuple[dict | None, dict | None]:
        """(stored state, a fresh replay of the log's actions in effect)."""
        with self.app.app_context():
            table = store.load(read.find(self.code).id)  # as stored, not as cached
            if table.status == "lobby":
                return None, None
            stored = copy.deepcopy(table.state)
            fresh = moves.replay_table(table, store.actions_in_effect(table.id))
            db.session.remove()
            return stored, fresh


def choose_move(engine: Game, state: dict, rng: random.Random) -> tuple[int, dict]:
    """A player whose input is awaited and a legal random action of theirs."""
    waiting = list(engine.waiting_for(state))
    assert waiting, f"{engine.id}: the game is not over but no one is awaited"
    rng.shuffle(waiting)
    for player in waiting:
        action = engine.random_action(state, player, rng)
        if action is not None:
            return player, action
    raise AssertionError(f"{engine.id}: players {waiting} are awaited but random_action "
                         f"offers none of them a move")


def new_action_id() -> str:
    return uuid.uuid4().hex


# -- clients -----------------------------------------------------------------------------

class Client:
    """One viewer over real HTTP: the JSON API with its bearer token, and the screens with
    its cookie (a requests session, so the CSRF session cookie is kept as a browser would).
    A player without a phone is played from the host device: the host's token and cookie,
    the screen "as-<id>", and "as" in the moves it posts."""

    def __init__(self, base: str, code: str, token: str | None = None,
                 player: int | None = None, host: bool = False, local: bool = False):
        self.base, self.code, self.token = base, code, token
        self.player, self.host, self.local = player, host, local
        self.label = ("host" if host and not local else "public" if player is None
                      else f"p{player}" + (" (no phone)" if local else ""))
        self.session = requests.Session()
        if token:
            name = host_cookie(code) if host else player_cookie(code)
            self.session.cookies.set(name, token)

    @property
    def screen(self) -> str:
        return f"as-{self.player}" if self.local else "host" if self.host else "phone"

    @property
    def home(self) -> str:
        """The path of this viewer's own screen."""
        return f"/as/{self.player}?reveal=1" if self.local else "/host" if self.host else ""

    def api(self, method: str, path: str, body: Any = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if self.local and isinstance(body, dict) and path == "/actions":
            body = dict(body, **{"as": self.player})
        return self.session.request(method, f"{self.base}/api/v1/tables/{self.code}{path}",
                                    json=body, headers=headers, timeout=30)

    def page(self, path: str, **kwargs) -> requests.Response:
        return self.session.get(f"{self.base}/t/{self.code}{path}", timeout=30, **kwargs)

    def csrf(self) -> str:
        html = self.page("/host" if self.host else "").text
        return re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)

    def post_form(self, path: str, data: dict | list, htmx: bool = True) -> requests.Response:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.session.post(f"{self.base}/t/{self.code}{path}", data=data,
                                 headers=headers, timeout=30, allow_redirects=False)


def clients_of(base: str, table: Seated) -> list[Client]:
    """Every viewer of a table: each player (those without a phone on the host device),
    the host, and the public."""
    found = [Client(base, table.code, table.tokens[name], table.ids[name])
             for name in table.tokens]
    found += [Client(base, table.code, table.host, player, host=True, local=True)
              for player in getattr(table, "local", {})]
    found.append(Client(base, table.code, table.host, host=True))
    found.append(Client(base, table.code))
    return found


def form_fields(action: dict) -> list[tuple[str, str]]:
    """An action as a screen's form posts it: dotted names for objects, `name[]` for
    lists, "null" for None (the reverse of screens.form_action)."""
    fields: list[tuple[str, str]] = []

    def add(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                add(f"{prefix}.{key}" if prefix else str(key), item)
        elif isinstance(value, list):
            fields.extend((f"{prefix}[]", "null" if v is None else str(v)) for v in value)
        elif value is None:
            fields.append((prefix, "null"))
        elif isinstance(value, bool):
            fields.append((prefix, "true" if value else "false"))
        else:
            fields.append((prefix, str(value)))

    add("", action)
    return fields


# -- server-sent events ----------------------------------------------------------------

class Stream:
    """An open text/event-stream whose events (name, raw data) arrive on a queue."""

    def __init__(self, url: str, headers: dict | None = None, cookies=None,
                 label: str = ""):
        self.label = label
        self.response = requests.get(url, headers=headers or {}, cookies=cookies,
                                     stream=True, timeout=30)
        assert self.response.status_code == 200, (url, self.response.status_code)
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.events: queue.Queue = queue.Queue()
        self.latest = -1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name, lines = None, []
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith("event:"):
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("data:"):
                    lines.append(line.split(":", 1)[1].removeprefix(" "))
                elif line == "" and name:
                    self.events.put((name, "\n".join(lines) if lines else None))
                    name, lines = None, []
        except (requests.RequestException, AttributeError, ValueError):
            pass
        self.events.put(("closed", None))

    def drain(self) -> list[tuple[str, str | None]]:
        found = []
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return found
            self.latest = max(self.latest, version_of(event) or -1)
            found.append(event)

    def reaches(self, version: int, timeout: float = 5.0) -> None:
        """Wait until the stream has announced `version` (or a newer one)."""
        if self.latest < version:
            event = self.wait_for(lambda event: (version_of(event) or -1) >= version, timeout)
            self.latest = version_of(event)

    def wait_for(self, predicate, timeout: float = 5.0) -> tuple[str, str | None]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.label}: the awaited event did not arrive")
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(event):
                return event

    def close(self) -> None:
        """Cut the connection under the reading thread (closing the response would wait
        for its next line, up to a keep-alive period)."""
        try:
            fd = os.dup(self.response.raw._fp.fp.fileno())
        except (AttributeError, OSError, ValueError):
            fd = None
        if fd is not None:
            with socket.socket(fileno=fd) as sock:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.response.close()


def version_of(event: tuple[str, str | None]) -> int | None:
    """The version an event tells of: the API's version event, or a screen's panel."""
    name, data = event
    if name == "version" and data:
        return json.loads(data)["version"]
    found = re.search(r'data-version="(\d+)"', data or "") if name == "panel" else None
    return int(found.group(1)) if found else None


ALL_GAMES = sorted(GAMES)
