"""The HTML screens over the test client: the same flows a phone and the host screen make."""
from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from tests.support.pages import csrf_of, page
from tests.support.screens import new_table, post, seat


def test_home_lists_only_built_games_and_takes_a_room_code(client, app):
    html = page(client, "/")
    for engine in GAMES.values():
        assert engine.title in html
    assert 'name="code"' in html
    response = client.get("/join?code=zzzz")
    assert (response.status_code == 404
            and "There is no table with that code." in response.get_data(as_text=True))


def test_the_options_form_shows_every_default(client):
    html = page(client, "/new/go-big")
    assert "Box &amp; house rules" in html
    assert 'name="copies_per_value" value="13"' in html
    assert 'name="open_banks"' in html and "Default: off." in html
    assert page(client, "/new/chess", 404)


def test_a_bad_option_is_explained_in_place(host):
    data = {"copies_per_value": "99", "csrf_token": csrf_of(page(host, "/new/go-big"))}
    response = host.post("/new/go-big", data=data)
    assert response.status_code == 400
    assert "copies_per_value" in response.get_data(as_text=True)


def test_the_host_screen_shows_qr_code_link_and_wifi_hint(host):
    code = new_table(host)
    html = page(host, f"/t/{code}/host")
    assert "<svg" in html and 'aria-label="QR code"' in html
    assert 'class="room-code"' in html and f">{code}<" in html
    assert f"http://table.test:8000/j/{code}" in html
    assert "same Wi-Fi" in html
    assert page(host.application.test_client(), f"/t/{code}/host", 403)


def test_join_by_qr_link_then_the_phone_is_that_player(app, host):
    code = new_table(host)
    form = page(app.test_client(), f"/j/{code}")
    assert f">{code}<" in form and 'name="name"' in form
    phone = seat(app, code, "Ann")
    html = page(phone, f"/t/{code}")
    assert "Waiting for the host to start" in html
    # The cookie keeps the seat: the join link now leads straight to the table.
    assert phone.get(f"/j/{code}").headers["Location"].endswith(f"/t/{code}")
    assert "Ann" in page(host, f"/t/{code}/host")


@pytest.mark.parametrize("name, status, message", [
    ("", 400, "Please type a name."), ("x" * 30, 400, "at most 24"),
    ("ANN", 409, "Ann is already seated at this table"),
])
def test_join_errors_show_on_the_form_and_change_nothing(app, host, name, status, message):
    code = new_table(host)
    seat(app, code, "Ann")
    phone = app.test_client()
    response = post(phone, f"/j/{code}", {"name": name}, f"/j/{code}", status=status)
    assert message in response.get_data(as_text=True)
    assert page(host, f"/t/{code}/host").count('class="player-name"') == 1


def test_host_reorders_picks_first_removes_and_starts(app, host):
    code = new_table(host)
    phones = {name: seat(app, code, name) for name in ("Ann", "Ben", "Cat")}
    api_view = host.get(f"/api/v1/tables/{code}").get_json()
    ids = {p["name"]: p["id"] for p in api_view["players"]}
    hosting = f"/t/{code}/host"
    post(host, f"/t/{code}/seats/move", {"player": ids["Cat"], "direction": "up"}, hosting)
    post(host, f"/t/{code}/players/remove", {"player": ids["Ben"]}, hosting)
    post(host, f"/t/{code}/first", {"player": ids["Cat"]}, hosting)
    view = host.get(f"/api/v1/tables/{code}").get_json()
    assert [p["name"] for p in view["players"]] == ["Ann", "Cat"]
    post(host, f"/t/{code}/start", {}, hosting)
    view = host.get(f"/api/v1/tables/{code}").get_json()
    assert view["status"] == "playing" and view["turn"] == ids["Cat"]
    assert "Your turn" in page(phones["Cat"], f"/t/{code}")
    assert "Waiting for Cat" in page(phones["Ann"], f"/t/{code}")
    assert watches_the_display(phones["Ben"], code)


def watches_the_display(phone, code: str) -> bool:
    """A phone without a seat at a started table is sent to the table display."""
    response = phone.get(f"/t/{code}")
    return response.status_code == 302 and response.headers["Location"] == f"/d/{code}"


def test_starting_with_too_few_players_says_why(app, host):
    code = new_table(host)
    seat(app, code, "Ann")
    response = post(host, f"/t/{code}/start", {}, f"/t/{code}/host", status=409, htmx=True)
    assert "needs 2 to 6 players" in response.get_data(as_text=True)


def start_game(app, host, names=("Ann", "Ben", "Cat")):
    code = new_table(host)
    phones = {name: seat(app, code, name) for name in names}
    post(host, f"/t/{code}/start", {}, f"/t/{code}/host")
    return code, phones


def test_a_turn_from_the_phone_preview_confirm_and_draw(app, host):
    code, phones = start_game(app, host)
    ann = phones["Ann"]
    html = page(ann, f"/t/{code}")
    assert 'aria-label="Play 2 × 5"' in html
    preview = page(ann, f"/t/{code}/preview?type=play&value=5&count=2")
    assert "beats nothing." in preview and 'name="value" value="5"' in preview
    version = int(re.search(r'data-version="(\d+)"', html).group(1))
    response = post(ann, f"/t/{code}/act", {"type": "play", "value": "5", "count": "2",
                                             "version": str(version), "action_id": "t1"},
                    f"/t/{code}", status=200, htmx=True)
    panel = response.get_data(as_text=True)
    assert panel.startswith('<section id="panel"') and "Ann played a pair of 5s." in panel
    assert "From the deck" in panel and "From the market" in panel
    # Ben previews a pair of 2s against Ann's pair of 5s.
    post(ann, f"/t/{code}/act", {"type": "draw", "source": "market"}, f"/t/{code}", status=200,
         htmx=True)
    preview = page(phones["Ben"], f"/t/{code}/preview?type=play&value=2&count=2")
    assert "beats Ann&#39;s pair of 5s." in preview


def test_an_illegal_move_is_explained_in_place(app, host):
    code, phones = start_game(app, host)
    response = post(phones["Ben"], f"/t/{code}/act", {"type": "play", "value": "5", "count": "1"},
                    f"/t/{code}", status=403, htmx=True)
    text = response.get_data(as_text=True)
    assert 'id="panel"' in text and "It is not your turn." in text
    response = post(phones["Ann"], f"/t/{code}/act", {"type": "play", "value": "9", "count": "1"},
                    f"/t/{code}", status=400, htmx=True)
    assert "That was not understood" in response.get_data(as_text=True)
    assert host.get(f"/api/v1/tables/{code}").get_json()["version"] == 4


def test_the_panel_answers_204_when_nothing_changed(app, host):
    code, phones = start_game(app, host)
    version = host.get(f"/api/v1/tables/{code}").get_json()["version"]
    assert phones["Ann"].get(f"/t/{code}/panel?since={version}").status_code == 204
    assert phones["Ann"].get(f"/t/{code}/panel?since={version - 1}").status_code == 200


def test_undo_from_the_phone(app, host):
    code, phones = start_game(app, host)
    post(phones["Ann"], f"/t/{code}/act", {"type": "play", "value": "5", "count": "1"},
         f"/t/{code}")
    assert "Undo the last move" in page(phones["Ann"], f"/t/{code}")
    assert "Undo the last move" not in page(phones["Ben"], f"/t/{code}")
    post(phones["Ann"], f"/t/{code}/undo", {}, f"/t/{code}")
    assert host.get(f"/api/v1/tables/{code}").get_json()["state"]["step"] == "play"


def test_cross_site_form_posts_are_refused(app, host):
    code, phones = start_game(app, host)
    response = phones["Ann"].post(f"/t/{code}/act",
                                  data={"type": "play", "value": "5", "count": "1"})
    assert response.status_code == 400
    assert "expired or came from another site" in response.get_data(as_text=True)
    response = host.post(f"/t/{code}/undo", data={})
    assert response.status_code == 400


def test_a_player_named_with_html_is_inert_everywhere(app, host):
    code = new_table(host)
    evil = '<img src=x onerror=f()>'
    phone = seat(app, code, evil)
    seat(app, code, "Ben")
    post(host, f"/t/{code}/start", {}, f"/t/{code}/host")
    post(phone, f"/t/{code}/act", {"type": "play", "value": "3", "count": "1"}, f"/t/{code}")
    for client, url in ((host, f"/t/{code}/host"), (phone, f"/t/{code}"),
                        (phone, f"/t/{code}/panel")):
        html = page(client, url)
        assert evil not in html
        assert "&lt;img src=x onerror=f()&gt;" in html


def test_security_headers_and_a_csp_without_inline_scripts(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in response.get_data(as_text=True)
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_cookies_are_httponly_and_samesite(app):
    host = app.test_client()
    data = {"csrf_token": csrf_of(page(host, "/new/go-big"))}
    response = host.post("/new/go-big", data=data)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie


# What a page holds besides the game that may read "21": versions, the table's code, file
# versions, form values, and the random CSRF tokens and action ids.
NOT_A_BANK = re.compile(r'data-version="\d+"|since=\d+|/[A-Z]{4}|v=[0-9a-f]{12}|value="\d+"'
                        r'|"X-CSRFToken": "[^"]*"|name="(?:csrf_token|action_id)" value="[^"]*"'
                        r'|data-action-id="[^"]*"')


def test_a_phone_never_sees_another_players_bank(app, host):
    code, phones = start_game(app, host, names=("Ann", "Ben"))
    for name, value, count in (("Ann", "7", "3"), ("Ben", "1", "1")):
        post(phones[name], f"/t/{code}/act", {"type": "play", "value": value, "count": count},
             f"/t/{code}")
        post(phones[name], f"/t/{code}/act", {"type": "draw", "source": "deck"}, f"/t/{code}")
    mine = page(phones["Ann"], f"/t/{code}")
    assert re.search(r'class="big-number">21<', mine)
    for client, url in ((phones["Ben"], f"/t/{code}"), (host, f"/t/{code}/host"),
                        (phones["Ben"], f"/t/{code}/panel")):
        html = page(client, url)
        assert "21" not in re.sub(NOT_A_BANK, "", html)


def test_rejoin_hands_the_seat_to_a_new_phone(app, host):
    code, phones = start_game(app, host)
    ids = {p["name"]: p["id"] for p in host.get(f"/api/v1/tables/{code}").get_json()["players"]}
    response = post(host, f"/t/{code}/rejoin", {"player": ids["Ann"]}, f"/t/{code}/host",
                    status=200)
    html = response.get_data(as_text=True)
    assert "Rejoin code for Ann" in html and "<svg" in html
    assert watches_the_display(phones["Ann"], code)


def test_saved_defaults_become_the_next_tables_defaults(client, api):
    html = page(client, "/new/go-big")
    data = {"copies_per_value": "10", "open_banks": "on", "csrf_token": csrf_of(html)}
    response = client.post("/new/go-big/defaults", data=data)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert "Saved as this server&#39;s defaults" in text
    assert 'name="copies_per_value" value="10"' in text
    table = api.table(start=False)
    assert table.view()["options"] == {"copies_per_value": 10, "open_banks": True}
    # A host who sets a value back to the game's own default gets that value.
    data = {"copies_per_value": "13", "csrf_token": csrf_of(html)}
    response = client.post("/new/go-big", data=data)
    code = re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)
    assert client.get(f"/api/v1/tables/{code}").get_json()["options"] == {
        "copies_per_value": 13, "open_banks": False}


def test_text_is_gzipped_and_static_files_are_cached_under_versioned_urls(client):
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]{12})"', html).group(1)
    response = client.get(css, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "max-age=31536000" in response.headers["Cache-Control"]
    import gzip
    assert b".button" in gzip.decompress(response.data)
    page_response = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page_response.headers["Content-Encoding"] == "gzip"
    assert "no-store" in page_response.headers["Cache-Control"]
    assert client.get("/").headers.get("Content-Encoding") is None
