"""The session cookie holds a form's CSRF token, and only the screens read or set it: the
API and static files leave it alone, so an error page rendered there (which renders a
token of its own) never replaces the token a phone's forms carry."""
from __future__ import annotations

from tests.support.pages import csrf_of, page

ELSEWHERE = ("/api/v1/tables/ZZZZ", "/api/v1/openapi.json", "/static/nothing-here.js",
             "/static/app.js")


def session_cookie(response) -> str:
    return next((c for c in response.headers.getlist("Set-Cookie")
                 if c.startswith("session=")), "")


def test_the_api_and_static_files_never_set_the_session_cookie(client):
    for url in ELSEWHERE:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert session_cookie(response) == "", url
    assert "X-CSRFToken" in client.get("/static/nothing-here.js").get_data(as_text=True)


def test_a_forms_token_still_works_after_errors_outside_the_screens(client):
    form = page(client, "/new/go-big")
    assert session_cookie(client.get("/new/go-big")) == ""  # kept, not set again
    for url in ELSEWHERE:
        client.get(url, headers={"Cookie": "session=forged.value.here"})
    response = client.post("/new/go-big", data={"csrf_token": csrf_of(form)})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]


def test_a_forged_session_cookie_is_refused_by_a_form(client):
    form = page(client, "/new/go-big")
    client.set_cookie("session", "forged.value.here")
    response = client.post("/new/go-big", data={"csrf_token": csrf_of(form)})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
