"""No English left in what a screen shows: read in a pseudo-translation in which every
message is marked, every text of every screen of a game played to its end is inside a
marker, or is a player's name, a number, money, the table's code or a word someone typed.
Anything else is English kept as data (in a state, a view, a summary) that a phone in
another language would still read in English: the test names it and where it was seen.
The new-table form of every game is read whole (what a closed `<details>` holds too), and
so is each lobby; no screen may say a word or phrase twice in a row either (a name built
from a name that already says it)."""
from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.web.languages import COOKIE
from tests.support.api import Api
from tests.support.catalogs import extracted
from tests.support.pseudo import (CLOSE, LANGUAGE, OPEN, in_pseudo_language, list_words,
                                  read_text, unmarked)
from tests.support.wording import doubled

PLAYERS = ("Ann", "Ben", "Cat")
HOST_NOTE = "spilled drink"
PRODUCT = "Companion"  # the app's name reads the same in every language
BUILT_IN = ("go-big", "big-money", "big-top", "nothing-beats-a-large")
EVERY = 8  # moves between two readings of every screen


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    return extracted(tmp_path_factory.mktemp("extracted"))


@pytest.fixture
def pseudo_app(app_with, tmp_path, source):
    return app_with(**in_pseudo_language(source, tmp_path / "catalogs"))


def typed_words(action: dict) -> list[str]:
    """The words a player typed into a move (a card's name, a host's note)."""
    words = []
    for key, value in action.items():
        if isinstance(value, dict):
            words += typed_words(value)
        elif key in ("name", "note", "text") and isinstance(value, str) and value:
            words.append(value)
    return words


class Reading:
    """Every screen of one table read in the pseudo-language, the leftovers gathered with
    where they were seen."""

    def __init__(self, app, table):
        self.app, self.table = app, table
        self.allowed = [*PLAYERS, table.code, " ".join(table.code), PRODUCT, *list_words()]
        self.found: dict[str, str] = {}
        self.screens = {}
        for name in PLAYERS:
            self.screens[f"{name}'s phone"] = self._client(f"companion_{table.code}",
                                                           table.tokens[name])
        self.screens["the host screen"] = self._client(f"companion_host_{table.code}",
                                                       table.host)
        self.screens["the display"] = self._client()

    def _client(self, cookie: str | None = None, value: str | None = None):
        client = self.app.test_client()
        client.set_cookie(COOKIE, LANGUAGE)
        if cookie:
            client.set_cookie(cookie, value)
        return client

    def options(self) -> None:
        """The words the host typed into the options (Biz News cards' printed names and
        texts, a board's category names): they read as typed."""
        view = self.table.view(self.table.host)
        self.allowed += [word for word in _strings(view["options"]) if len(word) > 1]

    def see(self, where: str, lines: list[str]) -> None:
        for line in unmarked(lines, self.allowed):
            self.found.setdefault(line, where)
        for line in lines:
            read = line.replace(OPEN, "").replace(CLOSE, "")
            for twice in doubled(read):
                self.found.setdefault(f"said twice: {twice!r} in {read!r}", where)

    def read_screens(self) -> None:
        code = self.table.code
        for screen, client in self.screens.items():
            urls = [f"/d/{code}", f"/d/{code}/history"] if screen == "the display" else \
                [f"/t/{code}/host", f"/t/{code}/history?screen=host"] \
                if screen == "the host screen" else [f"/t/{code}", f"/t/{code}/history"]
            for url in urls:
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)
                self.see(f"{screen}, {url}", read_text(response.get_data(as_text=True)))

    def read_api(self) -> None:
        headers = {"Accept-Language": LANGUAGE}
        client = self.app.test_client()
        for name in PLAYERS:
            auth = {"Authorization": f"Bearer {self.table.tokens[name]}"} | headers
            log = client.get(f"/api/v1/tables/{self.table.code}/log", headers=auth).get_json()
            self.see(f"the API's log for {name}", [e["summary"] for e in log["events"]])
            view = client.get(f"/api/v1/tables/{self.table.code}", headers=auth).get_json()
            if view["result"]:
                self.see("the API's result", [view["result"]["explanation"]])

    def read_refusal(self, token: str, action: dict, path: str = "actions") -> None:
        """The API's answer to a move (one sent again is refused: no longer awaited, or
        no longer legal), read when it is a refusal."""
        response = self.app.test_client().post(
            f"/api/v1/tables/{self.table.code}/{path}", json=action,
            headers={"Authorization": f"Bearer {token}", "Accept-Language": LANGUAGE})
        if response.status_code != 200:
            self.see(f"the API's refusal of {action}", [response.get_json()["error"]["message"]])

    def host_steps_in(self, game: str) -> None:
        """The host takes the last move back, and in Big Money pays a player with a note
        of their own: the history's undo and the ledger's adjustment are read too."""
        self.read_refusal(self.table.host, {}, "undo")
        if game == "big-money":
            self.allowed.append(HOST_NOTE)
            self.read_refusal(self.table.host, {"type": "adjust", "player": self.table.ids["Ann"],
                                                "amount": 5, "note": HOST_NOTE})


def read_before_the_game(app, game: str) -> dict[str, str]:
    """The new-table form of `game` (its options, every part of it: the server's page holds
    what a closed `<details>` or a box table shows once opened) and a table's lobby on the
    host screen, a phone and the display; what is left found, with where."""
    reading = Reading(app, Api(client=app.test_client()).table(game, PLAYERS, start=False))
    client = reading.screens["the display"]
    response = client.get(f"/new/{game}")
    assert response.status_code == 200, response.status_code
    reading.see(f"the new-table form, /new/{game}", read_text(response.get_data(as_text=True)))
    code = reading.table.code
    for screen, url in (("the host screen", f"/t/{code}/host"), ("Ann's phone", f"/t/{code}"),
                        ("the display", f"/d/{code}")):
        response = reading.screens[screen].get(url)
        assert response.status_code == 200, (url, response.status_code)
        reading.see(f"the lobby on {screen}, {url}", read_text(response.get_data(as_text=True)))
    return reading.found


@pytest.mark.parametrize("game", (*BUILT_IN, "score-sheet"))
def test_the_new_table_form_and_the_lobby_read_only_messages(pseudo_app, game):
    found = read_before_the_game(pseudo_app, game)
    assert not found, f"{game}: English left before the game:\n" + "\n".join(
        f"{line!r} on {where}" for line, where in found.items())


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_screen_of_a_game_reads_only_messages(pseudo_app, game):
    assert set(BUILT_IN) <= set(GAMES)
    table = Api(client=pseudo_app.test_client()).table(game, PLAYERS, seed=11)
    reading = Reading(pseudo_app, table)
    reading.options()
    bot = table.bot
    made = 0
    while (move := bot.next_move()) is not None:
        token, action = move
        reading.allowed += typed_words(action)
        status, body = table.act(token, **action)
        assert status == 200, body
        made += 1
        if made == EVERY:
            reading.host_steps_in(game)
        if made % EVERY == 0:
            reading.read_refusal(token, action)
            reading.read_screens()
        assert made < bot.LIMIT
    reading.read_screens()
    reading.read_api()
    assert not reading.found, f"{game}: English left on a screen:\n" + "\n".join(
        f"{line!r} on {where}" for line, where in reading.found.items())


def test_every_screen_of_a_sheet_of_secret_bids_reads_only_messages(pseudo_app):
    """A Wizard sheet with secret bids and the dealer, read after every move: the bid and
    tricks forms, the secret bid, "Bids revealed", tricks that do not add up, the end."""
    options = {"name": "Wizard", "bids": "wizard", "secret": True, "dealer": True,
               "rounds": 2}
    api = Api(client=pseudo_app.test_client())
    table = api.table("score-sheet", PLAYERS, start=False, options=options)
    reading = Reading(pseudo_app, table)
    reading.options()
    reading.read_screens()  # the lobby, its options in words
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 11})
    assert status == 200, body
    ann, ben, cat = (table.tokens[name] for name in PLAYERS)
    moves = [(ann, {"type": "bid", "round": 1, "bid": 1}),
             (ben, {"type": "bid", "round": 1, "bid": 0}),
             (cat, {"type": "bid", "round": 1, "bid": 0}),
             (ann, {"type": "enter", "round": 1, "tricks": 1}),
             (ben, {"type": "enter", "round": 1, "tricks": 1}),
             (cat, {"type": "enter", "round": 1, "tricks": 0}),  # the tricks are off
             (ben, {"type": "enter", "round": 1, "tricks": 0})]
    for token, action in moves:
        status, body = table.act(token, **action)
        assert status == 200, body
        reading.read_screens()
    reading.read_refusal(ann, {"type": "bid", "round": 2, "bid": 5})
    reading.read_refusal(ann, {"type": "enter", "round": 2, "tricks": 1})
    table.finish()
    reading.read_screens()
    reading.read_api()
    assert not reading.found, "English left on a sheet of bids:\n" + "\n".join(
        f"{line!r} on {where}" for line, where in reading.found.items())
