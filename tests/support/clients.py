"""Every kind of viewer of a table over real HTTP: a player's phone, a player without a
phone on the host device, the host screen, the public."""
from __future__ import annotations

from typing import Any

import requests
from requests.adapters import HTTPAdapter

from companion.auth import host_cookie, player_cookie
from companion.web.languages import DEFAULT
from tests.support.pages import csrf_of, reveal_link


class FromAddress(HTTPAdapter):
    """Connections made from a source address of one's own: loopback has many
    (127.0.0.2, 127.0.0.3, ...), so one machine can play several phones on several
    addresses, as a server counting by address sees them."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(address: str) -> requests.Session:
    """A requests session whose connections come from `address` (on loopback)."""
    session = requests.Session()
    session.mount("http://", FromAddress(address))
    return session


class Client:
    """One viewer over real HTTP: the JSON API with its bearer token, and the screens with
    its cookie (a requests session, so the CSRF session cookie is kept as a browser would).
    A player without a phone is played from the host device: the host's token and cookie,
    the screen "as-<id>", and "as" in the moves it posts. A viewer reads in its own
    `language` (its browser's Accept-Language), as a table of mixed phones does."""

    def __init__(self, base: str, code: str, token: str | None = None,
                 player: int | None = None, host: bool = False, local: bool = False,
                 language: str = DEFAULT):
        self.base, self.code, self.token = base, code, token
        self.player, self.host, self.local = player, host, local
        self.label = ("host" if host and not local else "public" if player is None
                      else f"p{player}" + (" (no phone)" if local else "")) + f" [{language}]"
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = self.language = language
        if token:
            name = host_cookie(code) if host else player_cookie(code)
            self.session.cookies.set(name, token)

    @property
    def screen(self) -> str:
        return f"as-{self.player}" if self.local else "host" if self.host else "phone"

    @property
    def home(self) -> str:
        """The path of this viewer's own screen."""
        return f"/as/{self.player}" if self.local else "/host" if self.host else ""

    def api(self, method: str, path: str, body: Any = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if self.local and isinstance(body, dict) and path == "/actions":
            body = dict(body, **{"as": self.player})
        return self.session.request(method, f"{self.base}/api/v1/tables/{self.code}{path}",
                                    json=body, headers=headers, timeout=30)

    def page(self, path: str, **kwargs) -> requests.Response:
        if self.local and path == self.home:  # the screen behind the cover, shown once
            cover = self.session.get(f"{self.base}/t/{self.code}{path}", timeout=30, **kwargs)
            return self.session.get(f"{self.base}{reveal_link(cover.text)}", timeout=30,
                                    **kwargs)
        return self.session.get(f"{self.base}/t/{self.code}{path}", timeout=30, **kwargs)

    def csrf(self) -> str:
        return csrf_of(self.page("/host" if self.host else "").text)

    def post_form(self, path: str, data: dict | list, htmx: bool = True) -> requests.Response:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.session.post(f"{self.base}/t/{self.code}{path}", data=data,
                                 headers=headers, timeout=30, allow_redirects=False)


def clients_of(base: str, table, languages: tuple[str, ...] = (DEFAULT,)) -> list[Client]:
    """Every viewer of a table (a `Seated`): each player (those without a phone on the
    host device), the host, and the public, each reading in the next of `languages`."""
    viewers = [dict(token=table.tokens[name], player=table.ids[name]) for name in table.tokens]
    viewers += [dict(token=table.host, player=player, host=True, local=True)
                for player in getattr(table, "local", {})]
    viewers += [dict(token=table.host, host=True), {}]
    return [Client(base, table.code, language=languages[index % len(languages)], **viewer)
            for index, viewer in enumerate(viewers)]


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
