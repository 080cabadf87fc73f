"""Secrecy: seeded random games of every registered game, played through the HTTP API to
the end by bots that move exactly like phones (each with its own token; a player without a
phone through the host device). After every move, what every other player and the public
host screen can get is fetched and searched for the secrets the game declares in one place,
`engine.secrets(state)`, taken from the stored state the responses show, before they are
fetched: the JSON view of every viewer, every viewer's log, the move's answer, error answers
(a stale move, a move out of turn, an undo by someone else), the undo answer, the events of
every open stream (API and screens), and every few moves each HTML screen and fragment
(phone page, host screen, live panel, history, undo confirmation, preview, error panels,
the privacy cover of a player without a phone, the join and rejoin pages, the table display
and its stream, the record).
Players are named with HTML and script, so every page is also checked to render them as
text and to run nothing inline.

How a secret is matched (so that the search has no false positives and misses nothing the
declaration names):
- A text secret (a card "clowns-L3") betrays itself wherever it appears as a whole token:
  in any string of a JSON answer, in the text of an HTML page (entities decoded), in an
  event's data. One exception: a JSON list, or an HTML form, that names every text secret
  at the table (the viewer's own included) and more, lists the whole domain (Big Top's
  hand-entry form offers the whole deck) and says nothing of who holds what.
- A keyed secret ({"bank_total": 6}, {"goals": ["red", "blue"]}, {"cast": "red-L"}) betrays
  itself in JSON where an object has that key with that value (a list: holding every item
  of it), except at `private.<key>`, which is the viewer's own field of that name, or has
  it under its owner's id ({"5": "red-L"}: player 5's cast) where the viewer's view did not
  show it before (the last cast, revealed, may hold the piece locked in now); in text
  (HTML, log lines, messages) where the key and the value appear as JSON or Python would
  write them. A bank total of 6 next to any other key, or alone, is not a match: a digit
  appears everywhere.
- HTML private sections (`<section class="private ...">`): only a seated player's screen has
  one, and another player's private section (as its owner sees it at the same version)
  never appears on it.
- A log line written for one player (an engine's private note: "You placed $10 on
  Clowns...") is never shown to another, in the JSON log, a move's answer or the screens'
  log; the screens' log shows exactly the viewer's JSON log.
- The table's seed never appears before the end (every seed here has 15 digits); after it,
  the game's record holds it, and the record is checked like everything else.
"""
from __future__ import annotations

import html as html_lib
import json
import random
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.table import read
from companion.games import GAMES
from tests.trust.counts import COUNTS
from tests.trust.support import (ALL_GAMES, Client, Referee, Stream, big_seed,
                                 choose_move, clients_of, form_fields, inert, new_action_id,
                                 new_table, other_options, player_counts, version_of)

# After every move: the move's answer, every stream's events, the public view and one
# player's view. At a turning point (a move that revealed something, or after which the
# declared secrets changed shape: a hand entered, a cast locked in) and every DEEP_EVERY
# moves: every viewer's view and log, and the error answers. The HTML screens every
# HTML_EVERY moves, after every reveal, and at the end. Past FULL_MOVES moves (the long
# games: Big Top deals five or six times) only reveals get the deep check, the rest the
# answer, the streams and the public view; the end gets everything again.
DEEP_EVERY = 6
HTML_EVERY = 20
UNDO_EVERY = 9      # every this many moves, the move is undone and made again
FULL_MOVES = 150
# The first game of each is played with the defaults but for its length: Big Top's rulebook
# has three players deal twice each, and the second round of deals only repeats the
# first's moves and checks (the second game, of four players, deals once each).
FIRST_GAME_OPTIONS = {"big-top": {"deals_per_player": 1}}
MAX_MOVES = 1500    # a game longer than this is stuck


def token_pattern(text: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])")


def holds(found: Any, secret: Any) -> bool:
    """Does a JSON value found under a secret's key give that secret away?"""
    if isinstance(secret, list) and isinstance(found, list):
        wanted, there = Counter(map(json.dumps, secret)), Counter(map(json.dumps, found))
        return bool(secret) and all(there[k] >= n for k, n in wanted.items())
    return found == secret and type(found) is type(secret)


def text_forms(key: str, value: Any) -> list[str]:
    """How a keyed secret reads when JSON or Python writes it into a text."""
    compact = json.dumps(value, separators=(",", ":"), sort_keys=True)
    spaced = json.dumps(value, sort_keys=True)
    return [f'"{key}": {spaced}', f'"{key}":{compact}', f"'{key}': {value!r}"]


@dataclass
class Needles:
    """What one viewer must not find: every other player's declared secrets."""

    texts: dict[str, int] = field(default_factory=dict)           # text -> owner
    pairs: list[tuple[int, str, Any]] = field(default_factory=list)  # (owner, key, value)
    universe: set[str] = field(default_factory=set)               # every text secret

    @classmethod
    def of(cls, secrets: dict[int, list], viewer: int | None) -> "Needles":
        needles = cls()

        def add(owner: int, value: Any) -> None:
            if isinstance(value, str):
                needles.universe.add(value)
                if owner != viewer:
                    needles.texts[value] = owner
            elif isinstance(value, dict):
                for key, item in value.items():
                    if owner != viewer:
                        needles.pairs.append((owner, str(key), item))
            elif isinstance(value, (list, tuple)):
                for item in value:
                    add(owner, item)
            else:
                raise AssertionError(f"secrets() gave a bare {value!r}: declare a number under "
                                     f"its key, e.g. {{'bank_total': {value!r}}}")

        for owner, values in secrets.items():
            for value in values:
                add(owner, value)
        return needles

    def any_text(self) -> re.Pattern | None:
        """One pattern that matches a string wherever the token pattern of any text secret
        does (a quick first look: which secret it was is asked of each pattern after)."""
        if not self.texts:
            return None
        return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, self.texts))
                          + r")(?![\w-])")

    def pairs_by_key(self) -> dict[str, list[tuple[int, str, Any]]]:
        """The keyed secrets a JSON key can give away, in their order: those under that
        key, and those of the player whose id the key is."""
        found: dict[str, list[tuple[int, str, Any]]] = {}
        for pair in self.pairs:
            owner, key, _ = pair
            found.setdefault(key, []).append(pair)
            if str(owner) != key:
                found.setdefault(str(owner), []).append(pair)
        return found


class Leak(AssertionError):
    pass


class Guard:
    """Searches every response for the secrets of players other than its viewer."""

    def __init__(self, engine, seed: int, names: dict[int, str]):
        self.engine, self.seed, self.names = engine, str(seed), names
        self.over = False
        self.secrets: dict[int, list] = {}
        self.secrets_at: dict[int, dict[int, list]] = {}  # by the version they were shown at
        self.events: list[dict] = []
        self.by_seq: dict[int, dict] = {}
        self.private_sections: dict[int, str] = {}
        # Per viewer, the values its views have shown under a player's id (see json()).
        self.owner_keyed: dict[int | None, set] = {}

    def show(self, state: dict | None, events: list[dict], over: bool = False,
             version: int | None = None) -> None:
        """The state (and log) the next responses show."""
        self.over = over
        self.secrets = self.engine.secrets(state) if state is not None else {}
        self.events = events
        self.private_sections = {}
        if version is not None:
            self.secrets_at[version] = self.secrets

    @contextmanager
    def as_of(self, version: int | None):
        """Check what was sent at an earlier version (a stream's event read late)
        against the secrets of that version."""
        now = self.secrets
        self.secrets = self.secrets_at.get(version, now)
        try:
            yield
        finally:
            self.secrets = now

    def _fail(self, where: str, what: str, owner: int) -> None:
        raise Leak(f"{self.engine.id}: {where} shows {what} of player {owner} "
                   f"({self.names.get(owner)!r})")

    # JSON ----------------------------------------------------------------------------
    def json(self, body: Any, viewer: int | None, where: str) -> None:
        COUNTS["responses_checked"] += 1
        assert self.over or self.seed not in json.dumps(body), f"{where} holds the seed"
        needles = Needles.of(self.secrets, viewer)
        patterns = {text: token_pattern(text) for text in needles.texts}
        any_text, pairs_by_key = needles.any_text(), needles.pairs_by_key()

        def walk(node: Any, path: tuple) -> None:
            if isinstance(node, dict):
                where_in_view = path[1:] if path[:1] == ("table",) else path
                mine = path[-1:] == ("private",)  # the viewer's own field
                for key, value in node.items():
                    place = None
                    if key in ids:
                        place = (where_in_view + (key,), json.dumps(value, sort_keys=True))
                        owner_keyed.add(place)
                    for owner, secret_key, secret in pairs_by_key.get(key, ()):
                        under_key = key == secret_key and not mine
                        # Under its owner's id, unless the same value was there already
                        # before (the last cast, revealed, may equal the one locked now).
                        under_owner = False
                        if key == str(owner) and secret is not None:
                            if place is None:
                                place = (where_in_view + (key,),
                                         json.dumps(value, sort_keys=True))
                            under_owner = place not in before
                        if (under_key or under_owner) and holds(value, secret):
                            self._fail(f"{where} at {'.'.join(map(str, path + (key,)))}",
                                       f"{{{secret_key!r}: {secret!r}}}", owner)
                    walk(value, path + (key,))
            elif isinstance(node, list):
                texts = {item for item in node if isinstance(item, str)}
                domain = bool(needles.universe) and needles.universe < texts
                for index, item in enumerate(node):
                    if not (domain and isinstance(item, str)):
                        walk(item, path + (index,))
            elif isinstance(node, str) and any_text is not None and any_text.search(node):
                for text, pattern in patterns.items():
                    if pattern.search(node):
                        self._fail(f"{where} at {'.'.join(map(str, path))}", repr(text),
                                   needles.texts[text])

        ids = {str(player) for player in self.names}
        before, owner_keyed = self.owner_keyed.setdefault(viewer, set()), set()
        walk(body, ())
        before |= owner_keyed
        self._log_lines(body, viewer, where)

    def _forbidden_lines(self, seq: int, viewer: int | None) -> list[tuple[int, str]]:
        """The log lines of event `seq` written for players other than `viewer`."""
        if len(self.by_seq) != len(self.events):
            self.by_seq = {e["seq"]: e for e in self.events}
        by_seq = self.by_seq
        event = by_seq.get(seq)
        if event is None:
            return []
        if event["kind"] == "undo":
            event = by_seq[event["undoes"]]
        found = []
        for note in event["notes"]:
            mine = note["private"].get(str(viewer)) if viewer is not None else None
            for owner, text in note["private"].items():
                if int(owner) != viewer and text not in (note["text"], mine):
                    found.append((int(owner), read.fill_names(text, self.names)))
        return found

    def _log_lines(self, body: Any, viewer: int | None, where: str) -> None:
        lines = body.get("events") if isinstance(body, dict) else None
        if not isinstance(lines, list):
            return
        for line in lines:
            for owner, text in self._forbidden_lines(line["seq"], viewer):
                if text in line["summary"]:
                    self._fail(f"{where}, log line {line['seq']}", f"the private line {text!r}",
                               owner)

    # text and HTML -------------------------------------------------------------------
    def text(self, text: str, viewer: int | None, where: str, count: bool = True) -> None:
        if count:
            COUNTS["responses_checked"] += 1
        assert self.over or self.seed not in text, f"{where} holds the table's seed"
        needles = Needles.of(self.secrets, viewer)
        any_text = needles.any_text()
        if any_text is not None and any_text.search(text):
            for secret, owner in needles.texts.items():
                if token_pattern(secret).search(text):
                    self._fail(where, repr(secret), owner)
        for owner, key, value in needles.pairs:
            for form in text_forms(key, value):
                if form in text:
                    self._fail(where, form, owner)

    def html(self, page: str, viewer: int | None, where: str) -> None:
        COUNTS["responses_checked"] += 1
        inert(page, where)
        needles = Needles.of(self.secrets, viewer)
        searched = page
        if needles.universe:
            for form in re.findall(r"<form\b.*?</form>", page, flags=re.S):
                plain = html_lib.unescape(form)
                offered = set(re.findall(r'value="([^"]*)"', plain))
                if len(offered) > len(needles.universe) and \
                        all(token_pattern(s).search(plain) for s in needles.universe):
                    searched = searched.replace(form, "")
        self.text(html_lib.unescape(searched), viewer, where, count=False)
        mine = private_sections(page)
        if viewer is None:
            assert not mine, f"{where}: a private section on a screen of no player"
        assert len(mine) <= 1, f"{where}: more than one private section"
        own = plain_text(mine[0]) if mine else None
        whole = None
        for owner, section in self.private_sections.items():
            if owner != viewer and section and section != own:
                whole = plain_text(page) if whole is None else whole
                if section in whole:
                    self._fail(where, "the private section", owner)

    def learn_private_section(self, player: int, page: str) -> None:
        found = private_sections(page)
        self.private_sections[player] = plain_text(found[0]) if found else ""


def private_sections(page: str) -> list[str]:
    """Every <section class="private ..."> element, nested sections included."""
    found = []
    for start in re.finditer(r'<section\b[^>]*\bclass="private\b', page):
        depth, index = 0, start.start()
        for tag in re.finditer(r"<(/?)section\b", page[index:]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                found.append(page[index:index + tag.end()])
                break
    return found


def plain_text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def history_items(page: str) -> list[str]:
    section = re.search(r'<ol class="history".*?</ol>', page, flags=re.S)
    items = re.findall(r'<li class="(?:undone)?">\s*<span>(.*?)</span>', section.group(0),
                       flags=re.S) if section else []
    return [html_lib.unescape(item).strip() for item in items]


def log_items(page: str) -> list[str]:
    section = re.search(r'<section class="log".*?</section>', page, flags=re.S)
    if section is None:
        return []
    items = re.findall(r'<li class="(?:undone)?">(.*?)</li>', section.group(0), flags=re.S)
    return [html_lib.unescape(item).strip() for item in items]


# -- the game --------------------------------------------------------------------------

class Game:
    """One seeded game through the HTTP API, with every response checked. The second game
    of each has one more player, one of them without a phone (played from the host
    device), and the other value of every yes/no option and single choice (the variants
    and house rules)."""

    def __init__(self, base: str, app, game_id: str, index: int, streams: list):
        self.engine = GAMES[game_id]
        self.seed = big_seed(game_id, index)
        count = player_counts(self.engine)[index]
        options = other_options(self.engine) if index else FIRST_GAME_OPTIONS.get(game_id, {})
        self.table = new_table(base, game_id, count, self.seed, options=options, local=index)
        self.names = dict(self.table.names)
        self.rng = random.Random(self.seed)
        self.referee = Referee(app, self.table.code)
        self.clients = clients_of(base, self.table)
        self.players = [c for c in self.clients if c.player is not None]
        self.phones = [c for c in self.players if not c.local]
        self.by_player = {c.player: c for c in self.players}
        self.host = next(c for c in self.clients if c.host and not c.local)
        self.public = next(c for c in self.clients if c.token is None)
        self.guard = Guard(self.engine, self.seed, self.names)
        self.streams: list[tuple[Client, Stream]] = []
        self.open_streams(base, streams)
        self.moves = 0
        self.shape: list = []
        self.turning = self.revealed = False

    def open_streams(self, base: str, opened: list) -> None:
        code = self.table.code
        for client in self.clients:
            if not client.local:
                headers = {"Authorization": f"Bearer {client.token}"} if client.token else {}
                self.streams.append((client, Stream(
                    f"{base}/api/v1/tables/{code}/stream", headers=headers,
                    label=f"{client.label} API stream")))
            if client.token:
                self.streams.append((client, Stream(
                    f"{base}/t/{code}/events?screen={client.screen}",
                    cookies=client.session.cookies, label=f"{client.label} screen stream")))
            elif not client.local:  # the public: the table display's stream
                self.streams.append((client, Stream(
                    f"{base}/d/{code}/events", label="the table display's stream")))
        opened.extend(stream for _, stream in self.streams)

    # moves ---------------------------------------------------------------------------
    def post(self, client: Client, action: dict, version: int | None) -> tuple[int, dict]:
        body = dict(action, action_id=new_action_id())
        if version is not None:
            body["version"] = version
        response = client.api("POST", "/actions", body)
        return response.status_code, response.json()

    def viewer_of(self, client: Client) -> int | None:
        """Whose secrets a client's API answers may hold: a player without a phone has
        none of its own there (the host device's answers are the host's)."""
        return None if client.local else client.player

    def move(self) -> tuple[Client, dict, int] | None:
        """One move by the bot; None once the game is over."""
        before = self.referee.read()
        if before.status == "finished":
            return None
        assert self.moves < MAX_MOVES, f"{self.engine.id}: no end after {MAX_MOVES} moves"
        player, action = choose_move(self.engine, before.state, self.rng)
        client = self.by_player[player]
        status, answer = self.post(client, action, before.version)
        assert status == 200, (self.engine.id, action, answer)
        self.moves += 1
        COUNTS["moves_made"] += 1
        self.now_showing()
        self.guard.json(answer, self.viewer_of(client),
                        f"the answer to {client.label}'s {action['type']}")
        return client, action, before.version

    def now_showing(self):
        snapshot = self.referee.read(events=True)
        self.guard.show(snapshot.state, snapshot.events, snapshot.status == "finished",
                        snapshot.version)
        shape = sorted({(owner, type(value).__name__ if not isinstance(value, dict)
                         else ",".join(sorted(value)))
                        for owner, values in self.guard.secrets.items() for value in values})
        last = snapshot.events[-1] if snapshot.events else None
        self.revealed = bool(last) and any(note.get("reveal") for note in last["notes"])
        self.turning = self.revealed or shape != self.shape
        self.shape = shape
        return snapshot

    # what everyone can get -------------------------------------------------------------
    def check_views(self, everyone: bool = True, logs: bool = True,
                    light: bool = False) -> None:
        """Every viewer's view and log (or, between, the public's view and one player's;
        when `light`, the public's)."""
        clients = [c for c in self.clients if not c.local]
        if not everyone:
            clients = [self.public] if light else [self.public, self.rng.choice(self.phones)]
        for client in clients:
            response = client.api("GET", "")
            assert response.status_code == 200
            self.guard.json(response.json(), client.player, f"{client.label}'s view")
            if not logs:
                continue
            response = client.api("GET", "/log")
            assert response.status_code == 200
            self.guard.json(response.json(), client.player, f"{client.label}'s log")

    def check_streams(self) -> None:
        for client, stream in self.streams:
            for event in stream.drain():
                name, data = event
                assert name in ("version", "panel"), f"{stream.label}: {name} during the game"
                with self.guard.as_of(version_of(event)):
                    if name == "panel":  # a screen's stream pushes its rendered panel
                        self.guard.html(data, client.player, f"{stream.label} panel")
                        continue
                    # The event carries the viewer's view: searched as JSON, where its
                    # own secrets are told apart from another player's.
                    self.guard.json(json.loads(data), client.player, f"{stream.label} event")

    def check_errors(self, mover: Client, action: dict, old_version: int) -> None:
        probe = self.rng.choice([c for c in self.phones if c is not mover] or self.phones)
        # A move with a version that is no longer current: 409 and the fresh view.
        status, body = self.post(probe, action, old_version)
        assert (body["error"]["code"], status) == ("stale", 409), body
        self.guard.json(body, probe.player, f"the stale answer to {probe.label}")
        # An undo by someone who did not make the last move.
        response = probe.api("POST", "/undo")
        if probe is not mover:
            assert response.status_code in (403, 422), response.text
        self.guard.json(response.json(), probe.player, f"the undo answer to {probe.label}")
        if response.status_code == 200:  # a lone phone undid its own move: make it again
            assert self.post(mover, action, None)[0] == 200
            self.now_showing()
        response = self.public.api("POST", "/undo")
        assert response.status_code == 401
        self.guard.json(response.json(), None, "the public's undo answer")
        # A move of someone else's turn, by a player not awaited now (read after a lone
        # phone's undo and redo above, which moved the version on).
        snapshot = self.referee.read()
        if snapshot.status != "playing":
            return
        waiting = self.engine.waiting_for(snapshot.state)
        idle = [c for c in self.phones if c.player not in waiting]
        if not idle:
            return
        intruder = self.rng.choice(idle)
        move = self.engine.random_action(snapshot.state, self.rng.choice(waiting), self.rng)
        if move is None:
            return
        status, body = self.post(intruder, move, snapshot.version)
        if status == 200:
            # Open to players not awaited (a Big Top hand entry may be changed, anyone may
            # fill Big Money's market): check the answer, then take the move back.
            self.now_showing()
            self.guard.json(body, intruder.player, f"the answer to {intruder.label}'s move")
            response = self.host.api("POST", "/undo")
            assert response.status_code == 200, response.text
            assert self.now_showing().state == snapshot.state
            return
        assert 400 <= status < 500 and set(body) == {"error"}, body
        self.guard.json(body, intruder.player, f"the answer to {intruder.label} out of turn")

    def undo_and_redo(self, mover: Client, action: dict) -> None:
        """Undo the move (its maker or the host, in turn), check the answer, make it again:
        seeded randomness gives the same state."""
        expected = self.referee.read()
        undoer = self.host if self.moves % 2 or mover.local else mover
        response = undoer.api("POST", "/undo")
        if response.status_code == 422:  # the move revealed a secret: never undone
            self.guard.json(response.json(), undoer.player, "the refused undo")
            return
        assert response.status_code == 200, response.text
        self.now_showing()
        self.guard.json(response.json(), undoer.player, f"the undo answer to {undoer.label}")
        for client in (self.host, self.rng.choice(self.phones)):
            view = client.api("GET", "").json()
            self.guard.json(view, client.player, f"{client.label}'s view after an undo")
        status, answer = self.post(mover, action, None)
        assert status == 200, answer
        again = self.now_showing()
        assert again.state == expected.state, "a move made again after its undo differs"
        self.guard.json(answer, self.viewer_of(mover), "the answer to a move made again")

    def screens_of(self, client: Client, all_of_them: bool) -> list[tuple[str, int | None]]:
        """(path, whose secrets it may show) of the screens and fragments of a client: its
        live panel, and when `all_of_them` its whole page, history and undo fragment."""
        screen = client.screen
        paths = [(f"/panel?screen={screen}", client.player)]
        if all_of_them:
            paths += [(client.home, client.player), (f"/history?screen={screen}", client.player),
                      (f"/undo?screen={screen}&steps=1", client.player), ("/record.json", None)]
            if client.local:
                paths.append((f"/as/{client.player}", None))  # the privacy cover
        return paths

    def check_screens(self, everything: bool = False) -> None:
        """Every screen's live panel; the other pages of the host and of one player in
        turn (of everyone when `everything`)."""
        snapshot = self.referee.read()
        pages: list[tuple[str, Client, int | None, str]] = []
        screens = self.players + [self.host]
        chosen = {self.host, screens[self.moves // HTML_EVERY % len(screens)]}
        for client in screens:
            for path, viewer in self.screens_of(client, everything or client in chosen):
                response = client.page(path)
                where = f"{client.label}'s {path.split('?')[0] or 'phone page'}"
                if path == "/record.json":
                    finished = snapshot.status == "finished"
                    assert response.status_code == (200 if finished else 409)
                    if finished:  # the game's file: its seed and every move
                        self.guard.json(response.json(), client.player, where)
                        continue
                assert response.status_code in (200, 409, 422), (path, response.text[:300])
                assert "Content-Security-Policy" in response.headers
                pages.append((where, client, viewer if path != "/record.json" else client.player,
                              response.text))
                if path.startswith("/panel") and client.player is not None:
                    self.guard.learn_private_section(client.player, response.text)
        logs = {}
        for where, client, viewer, page in pages:
            self.guard.html(page, viewer, where)
            if client.local or not ("/panel" in where or "/history" in where):
                continue
            if client not in logs:
                logs[client] = [e["summary"] for e in client.api("GET", "/log").json()["events"]]
            if "/history" in where:
                assert history_items(page) == logs[client][::-1], where
            else:
                expected = logs[client][::-1][:6]
                assert log_items(page) == expected, f"{where}: its log is not the viewer's log"
        if snapshot.status != "playing":
            return
        # The preview of a move, by a player awaited and by one who is not.
        waiting = self.engine.waiting_for(snapshot.state)
        player = self.rng.choice(waiting)
        move = self.engine.random_action(snapshot.state, player, self.rng)
        for client in {self.by_player[player], self.rng.choice(self.players)}:
            response = client.page("/preview", params=form_fields(move)
                                   + [("screen", client.screen)])
            assert response.status_code < 500, response.text[:300]
            self.guard.html(response.text, client.player, f"{client.label}'s preview")
        # Error panels: a stale move and a move that is not understood.
        client = self.rng.choice(self.phones)
        csrf = client.csrf()
        for fields, code in ((form_fields(move) + [("version", str(snapshot.version - 1))], 409),
                             ([("type", "no-such-move")], 400)):
            response = client.post_form("/act", fields + [("csrf_token", csrf)])
            assert response.status_code == code, response.text[:300]
            self.guard.html(response.text, client.player, f"{client.label}'s error panel")
        # The join and rejoin pages and the table display, which anyone can open.
        for path in (f"/j/{client.code}", f"/r/{client.code}", f"/d/{client.code}",
                     f"/d/{client.code}/panel"):
            response = self.public.session.get(client.base + path, timeout=30)
            self.guard.html(response.text, None, f"the public {path}")

    def finish(self) -> None:
        final = self.referee.read(events=True)
        assert final.status == "finished"
        seqs = [e["seq"] for e in final.events]
        assert seqs == list(range(1, len(seqs) + 1))
        stored, fresh = self.referee.replayed()
        assert stored == fresh, "the stored state is not a replay of the log"
        self.check_streams()
        for client, stream in self.streams:
            stream.reaches(final.version)
        COUNTS["games_played"] += 1


@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_no_secret_reaches_another_player_or_the_host_screen(game_id, index, app, live_server,
                                                            streams):
    game = Game(live_server.url, app, game_id, index, streams)
    game.now_showing()
    game.check_views()
    game.check_screens(everything=True)
    while True:
        made = game.move()
        if made is None:
            break
        mover, action, old_version = made
        moves, revealed = game.moves, game.revealed
        if moves <= FULL_MOVES:
            deep = game.turning or moves % DEEP_EVERY == 0
            html = moves % HTML_EVERY == 0 or revealed
            if moves % UNDO_EVERY == 0:
                game.undo_and_redo(mover, action)
        else:
            deep = revealed or moves % (5 * DEEP_EVERY) == 0
            html = moves % (3 * HTML_EVERY) == 0
        game.check_views(everyone=deep, logs=deep, light=moves > FULL_MOVES)
        game.check_streams()
        if deep:
            game.check_errors(mover, action, old_version)
        if html:
            game.check_screens()
    game.check_views()
    game.check_screens(everything=True)
    game.finish()
