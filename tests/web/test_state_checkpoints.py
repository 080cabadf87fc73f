"""A table's state is a checkpoint of its log (store.writing): every change but an action
writes it, and so does an action that ends the game or comes CHECKPOINT_EVERY events
after the last checkpoint; any other action writes its event only. Whoever loads the
table brings the checkpoint on by the actions logged after it: a process that knows
nothing of the table (after a restart), and one that knew an older version (another
server on the same PostgreSQL), each get the state the writer built, which is the replay
of the log. Checked after every change of seeded games of every game (and of sheets of
bids and of a scorer), with undos, the clock's pauses and the host ending a table among
the moves."""
from __future__ import annotations

import random

import pytest

from companion import store
from companion.auth import Viewer
from companion.extensions import db
from companion.games import GAMES
from companion.models import Table
from companion.store.writing import CHECKPOINT_EVERY
from companion.table import moves
from tests.support.api import Api
from tests.support.bots import choose_move
from tests.support.checkpoints import check_state_is_the_log

CHANGES = 70
LONG = {"score-sheet": {"rounds": 20}}  # the host ends an open-ended sheet at random
PLAYED = [(game, LONG.get(game)) for game in sorted(GAMES)] + [
    ("score-sheet", {"rounds": 15, "bids": "wizard"}),
    ("score-sheet", {"rounds": 40, "entry": "scorer", "categories": ["Birds", "Eggs"]})]


class Checked:
    """A table played through the API, its row and snapshots read after each change."""

    def __init__(self, app, game: str, options: dict | None):
        self.app = app
        engine = GAMES[game]
        players = tuple(f"P{n}" for n in range(min(engine.max_players, engine.min_players + 1)))
        self.table = Api(client=app.test_client()).table(
            game, players=players, options=options, clock={"mode": "count_up"})
        self.engine = engine
        self.known: list = []  # the snapshots this process built, oldest first
        self.skipped = self.written = 0

    def snapshot(self):
        code = self.table.code
        table_id, version = store.find_version(code)  # type: ignore[misc]
        return store.at_least(table_id, version)

    def check(self, kind: str, before) -> None:
        """After a change of this `kind` made on `before`: the row's checkpoint is where
        the policy puts it, and every way of loading the table gives the writer's state."""
        with self.app.app_context():
            row = db.session.execute(db.select(Table).where(
                Table.code == self.table.code)).scalar_one()
            built = self.snapshot()
            assert built.version == row.version and built.state_seq == row.state_seq
            ended = built.status != "playing"
            if kind == "action" and built.status == "playing":
                due = built.last_seq - before.state_seq >= CHECKPOINT_EVERY
                assert (row.state_seq == built.last_seq) == due, (kind, row.state_seq)
                self.written += due
                self.skipped += not due
            elif kind in ("action", "undo"):  # the end of the game, an undo
                assert row.state_seq == built.last_seq, kind
            else:  # a pause, a resume, the host's end: no state of their own
                assert row.state_seq == before.state_seq, kind
            assert 0 <= built.last_seq - row.state_seq <= CHECKPOINT_EVERY or ended
            afresh = check_state_is_the_log(row)
            assert afresh == built.state
            for older in self.known[-3:]:  # another process, which knew an older version
                caught_up = store.load(row.id, older)
                assert (caught_up.state, caught_up.version, caught_up.moves,
                        caught_up.status, caught_up.last_seq, caught_up.state_seq) == (
                    built.state, built.version, built.moves, built.status, built.last_seq,
                    row.state_seq)
                assert [e.seq for e in caught_up.recent] == [e.seq for e in built.recent]
            self.known.append(built)
            db.session.remove()

    def now(self):
        with self.app.app_context():
            found = self.snapshot()
            db.session.remove()
        return found


@pytest.mark.parametrize(("game", "options"), PLAYED,
                         ids=[f"{game}-{n}" for n, (game, _) in enumerate(PLAYED)])
def test_every_way_of_loading_a_table_gives_the_state_its_writer_built(app, game, options):
    checked = Checked(app, game, options)
    table, rng = checked.table, random.Random(f"{game}:{options}")
    paused = False
    for _ in range(CHANGES):
        before = checked.now()
        if before.status != "playing":
            break
        roll = rng.random()
        if roll < 0.03:
            status, _ = table.api.call("POST", f"/tables/{table.code}/undo", table.host)
            kind = "undo"
        elif roll < 0.06:
            paused = not paused
            status, _ = table.api.call("POST", f"/tables/{table.code}/clock", table.host,
                                       {"paused": paused})
            kind = "clock"
        else:
            player, action = choose_move(checked.engine, before.state, rng)
            status, body = table.act(table.token_of(player), **action)
            assert status == 200, body
            kind = "action"
        if status == 200:
            checked.check(kind, before)
        else:  # nothing to undo, or a reveal in the way: nothing changed
            assert checked.now().version == before.version
    before = checked.now()
    if before.status == "playing":
        with app.test_request_context("/"):
            moves.end(before, Viewer(is_host=True))
        checked.check("end", before)
    if checked.skipped + checked.written > CHECKPOINT_EVERY + 5:
        assert checked.skipped >= CHECKPOINT_EVERY // 2, "actions all wrote the state"
        assert checked.written, "no action wrote a checkpoint"
    else:
        assert game == "guess-number", "too short a game to check the checkpoints"
