"""One seeded game of the secrecy suite, played through the HTTP API by the bot with every
response, stream event and screen searched for secrets (tests/trust/test_secrecy.py)."""
from __future__ import annotations

import json
import random
import re

from companion.games import GAMES
from companion.web.languages import SHIPPED
from tests.support.bots import actors, choose_move
from tests.support.clients import Client, clients_of, form_fields
from tests.support.counts import COUNTS
from tests.support.players import (VARIANTS, big_seed, new_action_id, new_table,
                                   other_options, player_counts)
from tests.support.referee import Referee
from tests.support.secrecy_guard import Guard, history_items, log_items
from tests.support.streams import HTML_EVENTS, Stream, version_of

BASE = re.compile(r'data-base="(\d+)"')

# The first game of each is played with the defaults but for its length: Big Top's rulebook
# has three players deal twice each, and the second round of deals only repeats the
# first's moves and checks (the second game, of four players, deals once each). A score
# sheet's first game is one of secret bids (its defaults keep no secret).
FIRST_GAME_OPTIONS = {"big-top": {"deals_per_player": 1},
                      "score-sheet": VARIANTS["score-sheet"][0]}
MAX_MOVES = 1500    # a game longer than this is stuck
HTML_EVERY = 20     # moves between looks at the screens (one phone's, and the host's)
PREVIEWED = {"go-big", "big-money"}  # the games whose moves are confirmed on a preview
NO_PREVIEW = 404    # the preview of a game whose moves need no confirmation
REFUSED = (403, 422)  # a preview of a move that is not the viewer's to make


def previews_moves(app, engine) -> bool:
    """Whether the game's screens preview a move before it is confirmed (Go Big's, say):
    the games named so, each with its own confirmation template."""
    confirms = f"table/{engine.folder}/_confirm.html" in app.jinja_env.list_templates()
    assert confirms == (engine.id in PREVIEWED), f"{engine.id}: previews its moves?"
    return confirms


class Game:
    """One seeded game through the HTTP API, with every response checked. The second game
    of each has one more player, one of them without a phone (played from the host
    device), and the other value of every yes/no option and single choice (the variants
    and house rules). A game of one of a game's `VARIANTS` (`variant`, its index) has three
    players, one of them without a phone."""

    def __init__(self, base: str, app, game_id: str, index: int, streams: list,
                 variant: int | None = None):
        self.engine = GAMES[game_id]
        self.seed = big_seed(game_id, index)
        if variant is None:
            count, local = player_counts(self.engine)[index], index
            options = (other_options(self.engine) if index
                       else FIRST_GAME_OPTIONS.get(game_id, {}))
        else:
            count, local, options = 3, 1, VARIANTS[game_id][variant]
        self.table = new_table(base, game_id, count, self.seed, options=options, local=local)
        self.names = dict(self.table.names)
        self.rng = random.Random(self.seed)
        self.referee = Referee(app, self.table.code)
        self.previews = previews_moves(app, self.engine)
        self.clients = clients_of(base, self.table, SHIPPED)
        self.players = [c for c in self.clients if c.player is not None]
        self.phones = [c for c in self.players if not c.local]
        self.by_player = {c.player: c for c in self.players}
        self.host = next(c for c in self.clients if c.host and not c.local)
        self.public = next(c for c in self.clients if c.token is None)
        self.guard = Guard(self.engine, self.seed, self.names)
        self.streams: list[tuple[Client, Stream]] = []
        # The table's parts each version sent, per language and per the version they build
        # on (a stream that wakes after two moves builds on an older one): the same for
        # every screen.
        self.public_events: dict[tuple[int | None, str | None, str], str] = {}
        self.open_streams(base, streams)
        self.moves = 0
        self.shape: list = []
        self.turning = self.revealed = False

    def open_streams(self, base: str, opened: list) -> None:
        code = self.table.code
        for client in self.clients:
            if not client.local:
                headers = {"Authorization": f"Bearer {client.token}"} if client.token else {}
                headers["Accept-Language"] = client.language
                self.streams.append((client, Stream(
                    f"{base}/api/v1/tables/{code}/stream", headers=headers,
                    label=f"{client.label} API stream")))
            if client.token:
                self.streams.append((client, Stream(
                    f"{base}/t/{code}/events?screen={client.screen}",
                    cookies=client.session.cookies, headers={"Accept-Language": client.language},
                    label=f"{client.label} screen stream")))
            elif not client.local:  # the public: the table display's stream
                self.streams.append((client, Stream(
                    f"{base}/d/{code}/events", headers={"Accept-Language": client.language},
                    label=f"{client.label}: the table display's stream")))
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
        client = self.host if player is None else self.by_player[player]
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
                assert name in ("version",) + HTML_EVENTS, f"{stream.label}: {name} during the game"
                with self.guard.as_of(version_of(event)):
                    if name in HTML_EVENTS:  # a screen's stream: its panel, or its parts
                        self.guard.html(data, client.player, f"{stream.label} {name}")
                        if name == "public":  # the same bytes for every screen
                            base = BASE.search(data)
                            key = (version_of(event), base and base.group(1), client.language)
                            seen = self.public_events.setdefault(key, data)
                            assert seen == data, f"{stream.label}: its table parts differ"
                        continue
                    # The event carries the viewer's view: searched as JSON, where its
                    # own secrets are told apart from another player's.
                    self.guard.json(json.loads(data), client.player, f"{stream.label} event")

    def check_errors(self, mover: Client, action: dict, old_version: int) -> None:
        probe = self.rng.choice([c for c in self.phones if c is not mover] or self.phones)
        # A move with a version that is no longer current: 409 and the fresh view.
        status, body = self.post(probe, action, old_version)
        if action["type"] in self.engine.host_actions:  # refused before its version is read
            assert (body["error"]["code"], status) == ("forbidden", 403), body
        else:
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
        waiting = actors(self.engine, snapshot.state)
        idle = [c for c in self.phones if c.player not in waiting]
        if not idle or not waiting:
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
                # The privacy cover, and what an old reveal link (Back, a reload) shows.
                paths += [(f"/as/{client.player}?cover", None),
                          (f"/as/{client.player}?reveal=used", None)]
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
        waiting = actors(self.engine, snapshot.state)
        player = self.rng.choice(waiting)
        move = self.engine.random_action(snapshot.state, player, self.rng)
        mover = self.host if player is None else self.by_player[player]
        for client in {mover, self.rng.choice(self.players)}:
            response = client.page("/preview", params=form_fields(move)
                                   + [("screen", client.screen)])
            if not self.previews:
                expected = (NO_PREVIEW,)
            elif client is mover:
                expected = (200,)
            else:  # another player's move: theirs too at a simultaneous step, or refused
                expected = (200, *REFUSED)
            assert response.status_code in expected, (client.label, move, response.text[:300])
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
        for _client, stream in self.streams:
            stream.reaches(final.version)
        COUNTS["games_played"] += 1
