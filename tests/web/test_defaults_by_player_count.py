"""An option whose default depends on the number of players says so truthfully: Big Top's
"Deals per player" is left to the player count on the new-table form (an empty field, the
rule in words, not a "1" that three players would not get); the lobby, where the players
are known, says the value it will take; a host who types 1 for three players gets 1."""
from __future__ import annotations

import re

from tests.support.pages import page, text_of
from tests.support.screens import new_table, post, seat


def field(html: str, name: str) -> str:
    return re.search(rf'<input type="number" id="{name}"[^>]*>', html).group(0)


def lobby_text(client, code: str) -> str:
    return text_of(page(client, f"/t/{code}/host"))


def start(client, code: str) -> None:
    post(client, f"/t/{code}/start", {}, f"/t/{code}/host", status=200, htmx=True)


def test_the_new_table_form_leaves_the_deals_to_the_player_count(client):
    html = page(client, "/new/big-top")
    assert 'value=""' in field(html, "deals_per_player"), field(html, "deals_per_player")
    assert "Default: by the player count: 1, or 2 with 3 players." in text_of(html)


def test_the_lobby_says_what_the_player_count_makes_of_it(app, client):
    code = new_table(client, "big-top", variant="big-top", deals_per_player="")
    for name in ("Ann", "Ben", "Cat"):
        seat(app, code, name)
    assert "Deals per player: 2 (for 3 players)" in lobby_text(client, code)
    seat(app, code, "Dan")
    assert "Deals per player: 1 (for 4 players)" in lobby_text(client, code)
    phone = seat(app, code, "Eve")
    assert "Deals per player: 1 (for 5 players)" in text_of(page(phone, f"/t/{code}"))


def test_a_host_who_types_one_for_three_players_gets_one(app, client):
    code = new_table(client, "big-top", variant="big-top", deals_per_player="1")
    for name in ("Ann", "Ben", "Cat"):
        seat(app, code, name)
    assert "Deals per player" not in lobby_text(client, code)  # the host's own choice
    start(client, code)
    assert "Deal 1 of 3" in lobby_text(client, code)


def test_left_to_the_count_three_players_deal_twice(app, client):
    code = new_table(client, "big-top", variant="big-top", deals_per_player="")
    for name in ("Ann", "Ben", "Cat"):
        seat(app, code, name)
    start(client, code)
    assert "Deal 1 of 6" in lobby_text(client, code)
