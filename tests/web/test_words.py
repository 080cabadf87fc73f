"""Words, not values: option values and defaults read as words on the new-table forms, and
the lobby says what the player the host picks does first, as the engine then has it."""
from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from tests.support.pages import page, text_of
from tests.support.screens import new_table, post, seat


@pytest.mark.parametrize("game", [game for game in GAMES if game != "guess-number"])
def test_the_options_forms_say_values_and_defaults_in_words(client, game):
    text = text_of(page(client, f"/new/{game}"))
    assert not re.search(r"\b(True|False|None)\b", text), text
    for raw in ("by-hand", "fan-tan", "big-top", "copies_per_value", "_"):
        assert raw not in text, raw


def test_the_values_read_as_words(client):
    nbl = page(client, "/new/nothing-beats-a-large")
    assert re.search(r'<option value="by-hand"\s*>By hand</option>', nbl)
    assert "Default: On the phones." in nbl and "> Red</label>" in nbl
    assert "Default: one per player (at least 3), in this order." in nbl
    big_top = page(client, "/new/big-top")
    assert re.search(r'<option value="fan-tan"\s*>Fan Tan</option>', big_top)
    assert ("Default: Big Top." in big_top
            and "Default: by the player count: 1, or 2 with 3 players." in big_top)
    assert "Default: off." in page(client, "/new/go-big")


def test_a_saved_default_is_shown_as_saved(client):
    post(client, "/new/big-top/defaults", {"deals_per_player": "3"}, "/new/big-top", status=200)
    assert "Default: 3." in page(client, "/new/big-top")


@pytest.mark.parametrize("game, role", [("big-top", "deals first"), ("go-big", "goes first"),
                                        ("nothing-beats-a-large", "challenges first")])
def test_the_lobby_says_what_the_chosen_player_does_first_and_the_game_agrees(app, host, game,
                                                                             role):
    colours = ["red", "yellow", "green", "blue", "black"]
    ticked = {"colors": colours} if game == "nothing-beats-a-large" else {}
    code = new_table(host, game, **ticked)
    for name in ("Ann", "Ben", "Cat"):
        seat(app, code, name)
    ids = {p["name"]: p["id"] for p in host.get(f"/api/v1/tables/{code}").get_json()["players"]}
    hosting = f"/t/{code}/host"
    assert re.search(rf'Ann</span>\s*<span class="tag">{role}</span>', page(host, hosting))
    post(host, f"/t/{code}/first", {"player": ids["Ben"]}, hosting)
    html = page(host, hosting)
    assert re.search(rf'Ben</span>\s*<span class="tag">{role}</span>', html)
    assert html.count(f'<span class="tag">{role}</span>') == 1
    assert f'aria-label="Cat {role}"' in html
    post(host, f"/t/{code}/start", {}, hosting)
    view = host.get(f"/api/v1/tables/{code}").get_json()
    if game == "big-top":
        assert view["state"]["dealer"] == ids["Ben"]  # Cat, on Ben's left, plays first
    elif game == "go-big":
        assert view["turn"] == ids["Ben"]
    else:
        assert view["state"]["challenger"] == ids["Ben"]
