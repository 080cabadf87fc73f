"""A small client of the JSON API, over real HTTP or the test client, and a table seated
through it."""
from __future__ import annotations

import requests

from tests.support.bots import TableBot


class Api:
    """The JSON API at `base` over HTTP (through `session`, requests' own by default), or
    through a test `client`. `app` (a test client's own, unless given) is what the bot
    reads a table's state through."""

    def __init__(self, base: str = "", client=None, app=None, session=requests):
        self.base = base
        self.session = session
        self.client = client
        self.app = app if app is not None else getattr(client, "application", None)

    def call(self, method: str, path: str, token: str | None = None, json=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if self.client is not None:
            response = self.client.open("/api/v1" + path, method=method, json=json,
                                        headers=headers)
            return response.status_code, response.get_json()
        response = self.session.request(method, self.base + "/api/v1" + path, json=json,
                                        headers=headers, timeout=30)
        return response.status_code, response.json()

    def table(self, game: str = "go-big", players=("Ann", "Ben", "Cat"), start=True,
              seed: int = 7, options=None, clock=None):
        made = {"game": game, "options": options or {}, **({"clock": clock} if clock else {})}
        status, created = self.call("POST", "/tables", json=made)
        assert status == 201, created
        code, host = created["code"], created["host_token"]
        tokens, ids = {}, {}
        for name in players:
            status, joined = self.call("POST", f"/tables/{code}/players", json={"name": name})
            assert status == 201, joined
            tokens[name], ids[name] = joined["token"], joined["player"]["id"]
        if start:
            status, view = self.call("POST", f"/tables/{code}/start", host, {"seed": seed})
            assert status == 200, view
        return Seated(self, code, host, tokens, ids)


class Seated:
    def __init__(self, api: Api, code: str, host: str, tokens: dict, ids: dict):
        self.api, self.code, self.host, self.tokens, self.ids = api, code, host, tokens, ids
        self.names = {v: k for k, v in ids.items()}
        self._bot: TableBot | None = None

    def token_of(self, player_id: int | None) -> str:
        """A player's token; the host's for HOST (None)."""
        if player_id is None:
            return self.host
        return self.tokens[self.names[player_id]]

    def view(self, token=None):
        status, body = self.api.call("GET", f"/tables/{self.code}", token)
        assert status == 200, body
        return body

    def act(self, token, **action):
        return self.api.call("POST", f"/tables/{self.code}/actions", token, action)

    def act_for_turn(self, **action):
        turn = self.view()["turn"]
        return self.act(self.token_of(turn), **action)

    @property
    def bot(self) -> TableBot:
        """The bot that plays this table (one per table, so its moves follow one seed)."""
        app = self.api.app
        assert app is not None, "the bot reads the state through an app: give the Api one"
        if self._bot is None:
            self._bot = TableBot(app, self)
        self._bot.referee.app = app  # the test may have moved the table to another app
        return self._bot

    def next_move(self) -> tuple[str, dict]:
        """The token of a player the table awaits, and the bot's move for them."""
        move = self.bot.next_move()
        assert move is not None, "the game is over"
        return move

    def play(self, moves: int) -> None:
        """Make `moves` bot moves."""
        self.bot.play(moves)

    def finish(self) -> None:
        """Play the table to its end with bot moves."""
        self.bot.play()


def log_in(server, table, token: str | None, language: str) -> list[str]:
    """The table's log as the API gives it to `token` in `language`."""
    headers = {"Accept-Language": language}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    response = requests.get(f"{server.local_url}/api/v1/tables/{table.code}/log",
                            headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    return [line["summary"] for line in response.json()["events"]]
