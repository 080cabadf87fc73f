"""The HTML screens through the test client, as a phone and the host screen use them."""
from __future__ import annotations

import re

from tests.support.pages import csrf_of, page


def post(client, url: str, data: dict, csrf_from: str = "/", status: int = 303, htmx=False):
    """Post a form as the screens do, with the CSRF token of the page at `csrf_from`, and
    check the answer's status."""
    data = dict(data, csrf_token=csrf_of(page(client, csrf_from)))
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(url, data=data, headers=headers)
    assert response.status_code == status, response.get_data(as_text=True)[:800]
    return response


def new_table(host, game="go-big", **options) -> str:
    """A table made from the host's new-table form; its code."""
    response = post(host, f"/new/{game}", options, f"/new/{game}")
    return re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)


def seat(app, code: str, name: str):
    """A phone (a test client) that joined the table as `name`."""
    phone = app.test_client()
    post(phone, f"/j/{code}", {"name": name}, f"/j/{code}")
    return phone


def as_player(client, code: str, token: str):
    """`client` holding the seat cookie of the player whose token is `token`."""
    client.set_cookie(f"companion_{code}", token)
    return client


def as_host(client, code: str, host_token: str):
    """`client` holding the host cookie of the table."""
    client.set_cookie(f"companion_host_{code}", host_token)
    return client
