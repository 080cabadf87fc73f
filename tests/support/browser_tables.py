"""A live server with a table of every game in every phase (the lobby, mid-game after a
few bot moves, the end after bot moves to the end), for the browser tests that look at
every screen."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.api import Api, Seated
from tests.support.app import LiveServer, close_app, make_app
from tests.support.browser import serve_on_the_lan

# Per game: the options and players of its tables, and how many bot moves make "mid-game"
# (past the setup steps, so the usual turn controls show).
GAME_TABLES = {
    "go-big": ({}, ("Ann", "Ben", "Cat"), 6),
    "big-money": ({}, ("Ann", "Ben", "Cat"), 14),
    "big-top": ({"deals_per_player": 1}, ("Ann", "Ben", "Cat"), 10),
    "nothing-beats-a-large": ({}, ("Ann", "Ben", "Cat"), 6),
    "score-sheet": ({"name": "Wingspan", "rounds": 3, "secret": True,
                     "categories": ["Birds", "Bonus cards", "End-of-round goals", "Eggs",
                                    "Food on cards", "Tucked cards"]},
                    ("Ann", "Ben", "Cat"), 4),
}
# A score sheet the host enters as the scorer: Golf, lowest wins.
SCORER_SHEET = {"name": "Golf", "rounds": 9, "lowest_wins": True, "entry": "scorer"}
PHASES = ("lobby", "mid", "end")


@dataclass
class Site:
    url: str  # what the phones open (a LAN name over plain HTTP)
    local_url: str  # where test code calls the same server
    app: object
    tables: dict = field(default_factory=dict)  # (game, phase) -> Seated

    def awaited_token(self, table: Seated) -> str:
        """The token of a player the table awaits (whose phone shows the moves), else the
        first player's."""
        waiting = table.view()["waiting_for"]
        return table.token_of(waiting[0]) if waiting else next(iter(table.tokens.values()))

    def cookies(self, table: Seated, token: str) -> list[dict]:
        return [{"name": f"companion_{table.code}", "value": token, "url": self.url},
                {"name": f"companion_host_{table.code}", "value": table.host, "url": self.url}]


def build_site(tmp: Path) -> tuple[Site, LiveServer]:
    """A live server with a table of every game in every phase."""
    # The limits are off: these tables (their fifty players joined in a moment) and then
    # every screen of every one of them, opened by phones that all come from this one
    # address, are far more than the limits let an address do; the galleries look at the
    # screens, tests/club and tests/trust at the limits.
    app = make_app(f"sqlite:///{tmp / 'companion.sqlite3'}", tmp, RATELIMIT_ENABLED=False)
    server = serve_on_the_lan(app)
    site = Site(server.url, server.local_url, app)
    api = Api(client=app.test_client())
    for game in GAME_TABLES:
        for phase in PHASES:
            site.tables[game, phase] = game_table(api, game, phase)
    # Big Money's market being turned over: the cards the tables above typed are on offer.
    site.tables["big-money", "market"] = game_table(api, "big-money", "market")
    site.tables["score-sheet", "scorer"] = api.table("score-sheet", players=("Ann", "Ben"),
                                                     options=SCORER_SHEET, seed=11)
    return site, server


def game_table(api: Api, game: str, phase: str) -> Seated:
    """A table of `game` in `phase` (one of PHASES, or "market" for Big Money's market
    being turned over once everyone has a Start-Up)."""
    options, players, mid_moves = GAME_TABLES[game]
    table = api.table(game, players=players, start=phase != "lobby", options=options, seed=11)
    if phase == "mid":
        table.play(mid_moves)
    elif phase == "end":
        table.finish()
        assert table.view()["status"] == "finished"
    elif phase == "market":
        for token in table.tokens.values():
            assert table.act(token, type="startup", industry="food")[0] == 200
    return table


@contextmanager
def running_site(folder):
    """build_site's tables on a live server, stopped and disposed of afterwards."""
    site, server = build_site(folder)
    try:
        yield site
    finally:
        server.stop()
        close_app(site.app)
