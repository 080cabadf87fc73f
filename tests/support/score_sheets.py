"""A started score sheet over the test client, as the screens tests use it."""
from __future__ import annotations

import secrets

from tests.support.api import Api
from tests.support.pages import csrf_of, page

NAMES = ("Ann", "Ben", "Cat")


class Sheet:
    """A started score sheet made through the API, a phone per player and the host's
    screen (test clients holding their cookies)."""

    def __init__(self, app, names=NAMES, **options):
        self.api = Api(client=app.test_client())
        self.seated = self.api.table(game="score-sheet", players=names,
                                     options={"name": "Wingspan", **options})
        self.code = self.seated.code
        self.phones = {}
        for name in names:
            phone = app.test_client()
            phone.set_cookie(f"companion_{self.code}", self.seated.tokens[name])
            self.phones[name] = phone
        self.host = app.test_client()
        self.host.set_cookie(f"companion_host_{self.code}", self.seated.host)
        self.public = app.test_client()

    def url(self, name: str | None = None) -> str:
        return f"/t/{self.code}" if name else f"/t/{self.code}/host"

    def page(self, name: str | None = None) -> str:
        return page(self.phones[name] if name else self.host, self.url(name))

    def post(self, name: str | None, path: str, data: dict, status: int = 200) -> str:
        client = self.phones[name] if name else self.host
        data = dict(data, csrf_token=csrf_of(page(client, self.url(name))),
                    action_id=secrets.token_urlsafe(9),
                    screen="phone" if name else "host")
        response = client.post(f"/t/{self.code}{path}", data=data,
                               headers={"HX-Request": "true"})
        assert response.status_code == status, response.get_data(as_text=True)[:1500]
        return response.get_data(as_text=True)

    def enter(self, name: str | None, round_: int, scores: dict, status: int = 200,
              **more) -> str:
        fields = {"type": "enter", "round": str(round_), **more,
                  **{f"scores.{category}": str(value) for category, value in scores.items()}}
        return self.post(name, "/act", fields, status)

    def view(self, name: str | None = None) -> dict:
        return self.seated.view(self.seated.tokens[name] if name else None)
