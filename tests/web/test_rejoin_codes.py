"""A seat given to a new phone from the host screen: the rejoin code typed on the join page,
and the host's rejoin page once its code is used."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import time_machine

from companion.extensions import db
from companion.models import Player
from companion.table.seating import REJOIN_CODE_MINUTES
from tests.support.pages import csrf_of, page
from tests.support.screens import as_host


def make_rejoin(host, code: str, player_id: int) -> tuple[str, str, str]:
    """The rejoin page the host gets for a seat: its code to type, its link, and the
    address it asks whether the code still waits."""
    csrf = csrf_of(page(host, f"/t/{code}/host"))
    response = host.post(f"/t/{code}/rejoin", data={"csrf_token": csrf, "player": str(player_id)})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    typed = re.search(r'class="room-code rejoin-code"[^>]*>([A-Z]{4}) ([A-Z]{4})<', text)
    link = re.search(r'/r/' + code + r'#([\w-]{43})', text.replace("<wbr>", ""))
    state = re.search(r'hx-get="([^"]+/state[^"]*)"', text)
    assert typed and link and state, text
    return typed.group(1) + typed.group(2), link.group(1), state.group(1).replace("&amp;", "&")


def type_code(client, code: str, typed: str):
    csrf = csrf_of(page(client, f"/j/{code}"))
    return client.post(f"/j/{code}/rejoin", data={"rejoin_code": typed, "csrf_token": csrf})


def test_a_wrong_rejoin_code_is_a_bad_entry_that_changes_nothing(app, api):
    table = api.table()
    host = as_host(app.test_client(), table.code, table.host)
    typed, _, _ = make_rejoin(host, table.code, table.ids["Ben"])
    version = table.view()["version"]
    phone = app.test_client()
    wrong = "".join("B" if letter != "B" else "C" for letter in typed)
    for guess in (wrong, "not a code"):
        response = type_code(phone, table.code, guess)
        text = response.get_data(as_text=True)
        assert response.status_code == 422, text[:300]
        assert "That rejoin code is not right" in text and 'role="alert"' in text
        assert "The rejoin code from the host screen" in text  # the page, to try again
        assert f'value="{guess}"' in text
        assert phone.get_cookie(f"companion_{table.code}") is None
    assert table.view()["version"] == version
    # The right code still takes the seat.
    response = type_code(phone, table.code, typed)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{table.code}")


def test_the_rejoin_page_says_when_its_code_was_used(app, api):
    table = api.table()
    host = as_host(app.test_client(), table.code, table.host)
    typed, _, state_url = make_rejoin(host, table.code, table.ids["Ben"])
    assert host.get(state_url).status_code == 204  # still waiting: the page stays as it is
    assert type_code(app.test_client(), table.code, typed).status_code == 303
    response = host.get(state_url)
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Ben's seat was taken by a new phone" in text
    assert typed[:4] not in text and "<svg" not in text and "hx-trigger" not in text
    # Only the host device asks.
    assert app.test_client().get(state_url).status_code == 403


def test_the_rejoin_page_says_when_its_qr_code_was_used_or_a_newer_code_made(app, api):
    table = api.table()
    host = as_host(app.test_client(), table.code, table.host)
    _, token, by_qr = make_rejoin(host, table.code, table.ids["Ann"])
    phone = app.test_client()
    csrf = csrf_of(page(phone, f"/r/{table.code}"))
    response = phone.post(f"/r/{table.code}", data={"token": token, "csrf_token": csrf})
    assert response.status_code == 303
    assert "Ann's seat was taken by a new phone" in page(host, by_qr)

    _, _, older = make_rejoin(host, table.code, table.ids["Cat"])
    _, _, newer = make_rejoin(host, table.code, table.ids["Cat"])
    assert "A newer rejoin code was made for Cat" in page(host, older)
    assert host.get(newer).status_code == 204


def seat_of(app, player_id: int) -> tuple[str, str | None]:
    """A seat's token hash (which phone holds it) and its rejoin code's hash, as stored."""
    with app.app_context():
        player = db.session.get(Player, player_id)
        return player.token_hash, player.rejoin_code_hash


def test_a_rejoin_code_past_its_time_is_refused_in_the_phones_language(app, api):
    """A rejoin code is good for REJOIN_CODE_MINUTES. Typed later (the clock moved on by
    the test, not waited for), it is refused in the language of the phone that typed it,
    and the seat stays with the phone that holds it; typed in time, it takes the seat."""
    table = api.table()
    host = as_host(app.test_client(), table.code, table.host)
    typed, _, state_url = make_rejoin(host, table.code, table.ids["Ben"])
    made = datetime.now(timezone.utc)
    seat, version = seat_of(app, table.ids["Ben"]), table.view()["version"]
    phone = app.test_client()
    phone.set_cookie("companion_language", "de")

    late = made + timedelta(minutes=REJOIN_CODE_MINUTES, seconds=5)
    with time_machine.travel(late):
        response = type_code(phone, table.code, typed)
    text = response.get_data(as_text=True)
    assert response.status_code == 422, text[:300]
    assert '<html lang="de"' in text
    assert 'role="alert"' in text
    assert "Dieser Rückkehrcode stimmt nicht oder gilt nicht mehr" in text
    assert "That rejoin code is not right" not in text
    assert phone.get_cookie(f"companion_{table.code}") is None
    assert seat_of(app, table.ids["Ben"]) == seat
    assert table.view()["version"] == version
    assert host.get(state_url).status_code == 204  # the host's page still waits for a phone

    in_time = made + timedelta(minutes=REJOIN_CODE_MINUTES, seconds=-5)
    with time_machine.travel(in_time):
        response = type_code(phone, table.code, typed)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    assert phone.get_cookie(f"companion_{table.code}") is not None
    assert seat_of(app, table.ids["Ben"])[0] != seat[0]
