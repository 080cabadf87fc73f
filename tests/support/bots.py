"""The bot that plays any registered game. Its brain is the game's own `random_action`:
`choose_move` picks, from a table's full state, a player the game awaits and a legal move
of theirs. How the move is sent is up to the caller: `TableBot` posts it with that
player's token through the JSON API (over HTTP or the test client); the trust suite's
tests post it themselves (with versions and action ids), and the browser tests' tables
are moved on by a `TableBot` while their phones watch."""
from __future__ import annotations

import random
from typing import Callable

from companion.games import GAMES, Game
from companion.games.engine import HOST
from tests.support.referee import Referee


def actors(engine: Game, state: dict) -> list[int | None]:
    """Whoever may move the game on now: the players it awaits, and the host (HOST) when
    the game lets the host act as the host (the score sheet's scorer, its end)."""
    return list(engine.waiting_for(state)) + ([HOST] if engine.host_may_act(state) else [])


def choose_move(engine: Game, state: dict, rng: random.Random) -> tuple[int | None, dict]:
    """A player whose input is awaited (or the host, HOST) and a legal random action."""
    waiting = actors(engine, state)
    assert waiting, f"{engine.id}: the game is not over but no one is awaited"
    rng.shuffle(waiting)
    for player in waiting:
        action = engine.random_action(state, player, rng)
        if action is not None:
            return player, action
    raise AssertionError(f"{engine.id}: players {waiting} are awaited but random_action "
                         f"offers none of them a move")


class TableBot:
    """Plays one table (a `Seated`): reads its state through `app` (the full state, which
    no client can get), and sends each move through the table's API with the awaited
    player's own token."""

    LIMIT = 3000  # moves: more, and the game is taken not to end

    def __init__(self, app, table, seed: int = 1):
        self.referee = Referee(app, table.code)
        self.table = table
        self.rng = random.Random(seed)

    def next_move(self) -> tuple[str, dict] | None:
        """The token and move of an awaited player; None once the game is over."""
        stored = self.referee.read()
        engine = GAMES[stored.game]
        if engine.result(stored.state) is not None:
            return None
        player, action = choose_move(engine, stored.state, self.rng)
        return self.table.token_of(player), action

    def play(self, moves: int | None = None,
             until: Callable[[dict], bool] | None = None) -> None:
        """Make `moves` moves (None: to the end, or until `until(state)` holds)."""
        made = 0
        while moves is None or made < moves:
            if until is not None and until(self.referee.read().state):
                return
            move = self.next_move()
            if move is None:
                assert moves is None and until is None, "the game ended too soon"
                return
            status, body = self.table.act(move[0], **move[1])
            assert status == 200, body
            made += 1
            assert made < self.LIMIT, "the game did not end"
