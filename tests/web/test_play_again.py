"""The group plays again: a phone that had a seat at the last game is recognised at the new
table by its cookie from there, whether it taps the finished game's button, opens the new
table's join link or types its name; a phone that cannot prove the seat is shown the way
back (the rejoin code), and never given it."""
from __future__ import annotations

import re

from tests.support.api import Api
from tests.support.pages import page
from tests.support.screens import as_player, post

TAKE_SEAT = "Take my seat as Cat"


def played_again(app):
    """A finished table, the new one the host started with the same players, and the host
    device (a test client holding the new table's host cookie)."""
    table = Api(client=app.test_client()).table(options={"copies_per_value": 4})
    table.finish()
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    response = post(host, f"/t/{table.code}/again", {}, f"/t/{table.code}/host")
    new_code = re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)
    return table, new_code, host


def seated_as(app, client, code: str) -> str | None:
    view = client.get(f"/api/v1/tables/{code}",
                      headers={"Authorization": "Bearer " + cookie(client, code)}).get_json()
    return next((p["name"] for p in view["players"] if p["id"] == view["you"]), None)


def cookie(client, code: str) -> str:
    found = client.get_cookie(f"companion_{code}")
    return found.value if found else ""


def test_the_phone_that_had_the_seat_opens_the_new_join_link_and_takes_it(app):
    table, new_code, _ = played_again(app)
    cat = as_player(app.test_client(), table.code, table.tokens["Cat"])
    form = page(cat, f"/j/{new_code}")
    assert TAKE_SEAT in form and f'action="/t/{table.code}/follow"' in form
    response = post(cat, f"/t/{table.code}/follow", {}, f"/j/{new_code}")
    assert response.headers["Location"].endswith(f"/t/{new_code}")
    assert seated_as(app, cat, new_code) == "Cat"
    # Seated, the join link leads to the table.
    assert cat.get(f"/j/{new_code}").headers["Location"].endswith(f"/t/{new_code}")


def test_the_phone_that_had_the_seat_types_its_name_and_is_seated(app):
    table, new_code, _ = played_again(app)
    cat = as_player(app.test_client(), table.code, table.tokens["Cat"])
    response = post(cat, f"/j/{new_code}", {"name": "  cat "}, f"/j/{new_code}")
    assert response.headers["Location"].endswith(f"/t/{new_code}")
    assert seated_as(app, cat, new_code) == "Cat"
    view = app.test_client().get(f"/api/v1/tables/{new_code}").get_json()
    assert [p["name"] for p in view["players"]] == ["Ann", "Ben", "Cat"]  # no second Cat


def test_a_phone_that_cannot_prove_the_seat_is_shown_the_way_back(app):
    table, new_code, host = played_again(app)
    # Another player's phone, a phone of another table, a phone with nothing: none is Cat.
    ann = as_player(app.test_client(), table.code, table.tokens["Ann"])
    other = Api(client=app.test_client()).table()
    elsewhere = as_player(app.test_client(), other.code, other.tokens["Cat"])
    for phone in (ann, elsewhere, app.test_client()):
        form = page(phone, f"/j/{new_code}")
        assert TAKE_SEAT not in form
        response = post(phone, f"/j/{new_code}", {"name": "Cat"}, f"/j/{new_code}", status=409)
        text = response.get_data(as_text=True)
        assert "Cat is already seated at this table" in text
        assert "ask the host for Cat&#39;s rejoin code" in text
        assert 'name="rejoin_code"' in text  # where to type it
        assert cookie(phone, new_code) == ""
        if phone is not ann:  # no seat at the last game to follow from
            post(phone, f"/t/{table.code}/follow", {}, f"/j/{new_code}", status=403)
            assert cookie(phone, new_code) == ""
    assert "Take my seat as Ann" in page(ann, f"/j/{new_code}")  # her own seat, though

    # The host gives Cat's seat a rejoin code from the lobby; the new phone types it.
    lobby = page(host, f"/t/{new_code}/host")
    assert "Lost or swapped phone?" in lobby and "Rejoin code for Cat" in lobby
    ids = {p["name"]: p["id"] for p in
           app.test_client().get(f"/api/v1/tables/{new_code}").get_json()["players"]}
    shown = post(host, f"/t/{new_code}/rejoin", {"player": ids["Cat"]}, f"/t/{new_code}/host",
                 status=200).get_data(as_text=True)
    typed = re.search(r'class="room-code rejoin-code"[^>]*>\s*([A-Z]{4} [A-Z]{4})', shown).group(1)
    phone = app.test_client()
    post(phone, f"/j/{new_code}/rejoin", {"rejoin_code": typed}, f"/j/{new_code}")
    assert seated_as(app, phone, new_code) == "Cat"


def test_a_wrong_rejoin_code_in_the_lobby_is_said_beside_it(app):
    _, new_code, _ = played_again(app)
    phone = app.test_client()
    response = phone.post(f"/j/{new_code}/rejoin", data={
        "rejoin_code": "BCDFBCDF",
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"',
                                page(phone, f"/j/{new_code}")).group(1)})
    assert 400 <= response.status_code < 500
    text = response.get_data(as_text=True)
    assert 'id="rejoin-error"' in text and "That rejoin code is not right" in text
    assert cookie(phone, new_code) == ""
