"""Only who is awaited is told it is their turn, and every player without a phone who is
awaited at a public step is played on the host screen.
- Big Money's setup: once a phone has its Start-Up, the market cards are the first
  player's to enter: the others' phones are not "your turn" (no buzz) meanwhile.
- Two players without a phone choosing their Start-Ups at once: both are played on the
  host screen, each with their own name on the buttons."""
from __future__ import annotations

import re

from tests.support.api import Api
from tests.support.pages import page
from tests.support.screens import post

YOUR_TURN = re.compile(r'<section id="panel"[^>]*\bdata-your-turn\b')


def phone(app, table, name: str):
    client = app.test_client()
    client.set_cookie(f"companion_{table.code}", table.tokens[name])
    return client


def test_big_money_market_entry_is_the_first_players_turn_only(app):
    table = Api(client=app.test_client()).table("big-money", players=("Ann", "Ben", "Cat"), seed=7)
    phones = {name: phone(app, table, name) for name in ("Ann", "Ben", "Cat")}
    assert all(YOUR_TURN.search(page(p, f"/t/{table.code}")) for p in phones.values())
    assert table.act(table.tokens["Ben"], type="startup", industry="food")[0] == 200
    # Ben has his Start-Up; the market's cards are Ann's to enter (seat one), not his.
    assert not YOUR_TURN.search(page(phones["Ben"], f"/t/{table.code}"))
    assert YOUR_TURN.search(page(phones["Cat"], f"/t/{table.code}"))
    for name in ("Ann", "Cat"):
        assert table.act(table.tokens[name], type="startup", industry="sports")[0] == 200
    assert YOUR_TURN.search(page(phones["Ann"], f"/t/{table.code}"))
    for name in ("Ben", "Cat"):
        assert not YOUR_TURN.search(page(phones[name], f"/t/{table.code}")), name
    # Ben may still enter a card (behind a tap): the form is there, the buzz is not.
    assert 'name="type" value="reveal"' in page(phones["Ben"], f"/t/{table.code}")


def test_two_players_without_a_phone_are_both_played_on_the_host_screen(app):
    api = Api(client=app.test_client())
    table = api.table("big-money", players=("Ann",), start=False)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    for name in ("Dan", "Eve"):
        post(host, f"/t/{table.code}/players/local", {"name": name}, f"/t/{table.code}/host")
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 7})
    assert status == 200, body
    ids = {p["name"]: p["id"] for p in table.view()["players"]}
    html = page(host, f"/t/{table.code}/host")
    for name in ("Dan", "Eve"):
        assert f"{name}&#39;s move" in html or f"{name}'s move" in html, name
        assert f'<input type="hidden" name="as" value="{ids[name]}">' in html, name
    assert html.count('class="actions phoneless-turn"') == 2
    assert len(re.findall(r'\bid="([^"]+)"', html)) == len(set(re.findall(r'\bid="([^"]+)"', html)))
