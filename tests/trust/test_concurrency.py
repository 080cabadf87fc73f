"""Concurrency: several clients post conflicting moves to one table at the same moment,
from threads, against a real server (in this process, then two gunicorn processes sharing
the database). For every version exactly one move applies; every other poster gets 409
`stale` with its own fresh view; a move posted several times with one action_id (a
double tap) applies once and every copy gets the same answer; the log has no gap and no
duplicate; the stored state is a replay of the log."""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import pytest
import requests

from companion.games import GAMES
from tests.support.bots import choose_move
from tests.support.counts import COUNTS
from tests.support.players import ALL_GAMES, big_seed, new_action_id, new_table, player_counts
from tests.support.referee import Referee
from tests.support.servers import ServerProcess

ROUNDS = 12         # races per table
POSTERS = 6         # distinct moves raced for one version
DOUBLE_TAPS = 3     # copies of one of them, with the same action_id


@dataclass
class Post:
    url: str
    player: int
    token: str
    body: dict
    status: int = 0
    answer: dict | None = None

    def send(self) -> None:
        response = requests.post(self.url, json=self.body, timeout=60,
                                 headers={"Authorization": f"Bearer {self.token}"})
        self.status, self.answer = response.status_code, response.json()


class Race:
    def __init__(self, bases: list[str], app, game_id: str, index: int):
        self.bases, self.engine = bases, GAMES[game_id]
        self.seed = big_seed(game_id, 100 + index)
        self.table = new_table(bases[0], game_id, player_counts(self.engine)[index], self.seed)
        self.referee = Referee(app, self.table.code)
        self.rng = random.Random(self.seed)
        self.applied: list[str] = []

    def log(self) -> list[dict]:
        response = requests.get(f"{self.bases[-1]}/api/v1/tables/{self.table.code}/log",
                                timeout=30)
        return response.json()["events"]

    def round(self) -> bool:
        """One race; False once the game is over."""
        before = self.referee.read()
        if before.status == "finished":
            return False
        version, posts = before.version, []
        for n in range(POSTERS):
            player, action = choose_move(self.engine, before.state, self.rng)
            body = dict(action, version=version, action_id=new_action_id())
            copies = DOUBLE_TAPS if n == 0 else 1
            for _ in range(copies):
                base = self.bases[len(posts) % len(self.bases)]
                posts.append(Post(f"{base}/api/v1/tables/{self.table.code}/actions", player,
                                  self.table.token_of(player), dict(body)))
        self.rng.shuffle(posts)
        barrier = threading.Barrier(len(posts))

        def send(post: Post) -> None:
            barrier.wait()
            post.send()

        threads = [threading.Thread(target=send, args=(post,)) for post in posts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        COUNTS["conflicting_posts"] += len(posts)

        won = [p for p in posts if p.status == 200]
        assert won, [(p.status, p.answer) for p in posts]
        winner = won[0].body["action_id"]
        assert {p.body["action_id"] for p in won} == {winner}, "two moves applied at once"
        assert len(won) == sum(p.body["action_id"] == winner for p in posts)
        for post in won:
            assert post.answer["version"] == version + 1
            assert post.answer["events"] == won[0].answer["events"]
        for post in posts:
            if post.status == 200:
                continue
            assert post.status == 409, (post.status, post.answer)
            assert set(post.answer) == {"error", "table"}
            assert post.answer["error"]["code"] == "stale"
            fresh = post.answer["table"]
            assert fresh["version"] == version + 1 and fresh["you"] == post.player
        self.applied.append(winner)
        # The winner tapped again later: the first answer, nothing applied.
        again = won[0]
        again.send()
        assert again.status == 200 and again.answer["version"] == version + 1
        assert again.answer["events"] == won[0].answer["events"]
        return True

    def advance(self, moves: int) -> None:
        """A few ordinary moves between races, so they happen at different stages."""
        for _ in range(moves):
            before = self.referee.read()
            if before.status == "finished":
                return
            player, action = choose_move(self.engine, before.state, self.rng)
            response = requests.post(
                f"{self.bases[0]}/api/v1/tables/{self.table.code}/actions",
                json=dict(action, version=before.version, action_id=new_action_id()),
                headers={"Authorization": f"Bearer {self.table.token_of(player)}"}, timeout=30)
            assert response.status_code == 200, response.text
            self.applied.append(None)

    def check_log(self) -> None:
        events = self.log()
        seqs = [e["seq"] for e in events]
        assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap or a duplicate"
        assert len(events) == len(self.applied)
        stored, fresh = self.referee.replayed()
        assert stored == fresh, "the stored state is not a replay of the log"


def race_table(bases: list[str], app, game_id: str, index: int) -> None:
    race = Race(bases, app, game_id, index)
    for _round in range(ROUNDS):
        if not race.round():
            break
        race.advance(race.rng.randrange(0, 6))
    race.check_log()


@pytest.mark.counts(conflicting_posts=1)
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_conflicting_moves_at_once_apply_once_per_version(game_id, app, live_server):
    race_table([live_server.url], app, game_id, 0)


@pytest.mark.counts(conflicting_posts=len(ALL_GAMES))
def test_two_server_processes_sharing_the_database_apply_once_per_version(database_url, app,
                                                                           tmp_path):
    one, two = ServerProcess(database_url, tmp_path), ServerProcess(database_url, tmp_path)
    one.start()
    two.start()
    try:
        for game_id in ALL_GAMES:
            race_table([one.url, two.url], app, game_id, 1)
    finally:
        one.stop()
        two.stop()
