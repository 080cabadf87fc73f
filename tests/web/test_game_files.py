"""Each game's screens come from where its id says: its templates under
templates/table/<folder>/ and its CSS in static/games/<folder>.css, linked from its own
pages only, under a URL that changes with its content. Every registered game, the test-only
one included (its files sit in its own package)."""
from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from tests.support.pages import page
from tests.support.screens import new_table, post, seat

GAME_CSS = re.compile(r'href="/static/games/([a-z_]+)\.css\?v=[0-9a-f]{12}"')


def form_of(options) -> dict:
    """The options form's plain fields filled in with these options (a list of choices as
    repeated fields): Nothing Beats a Large's colours depend on the number of players."""
    return {name: ("on" if value is True else value) for name, value in
            options.model_dump(mode="json").items()
            if value is not False and (isinstance(value, (bool, int, str)) or (
                isinstance(value, list) and all(isinstance(v, str) for v in value)))}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_games_pages_link_its_own_css_only(app, game_id):
    engine = GAMES[game_id]
    host = app.test_client()
    assert GAME_CSS.findall(page(host, f"/new/{game_id}")) == [engine.folder]
    code = new_table(host, game_id, **form_of(engine.default_options(engine.min_players)))
    phones = [seat(app, code, f"Player {n}") for n in range(engine.min_players)]
    post(host, f"/t/{code}/start", {}, f"/t/{code}/host")
    for client, url in ((host, f"/t/{code}/host"), (phones[0], f"/t/{code}")):
        html = page(client, url)
        assert GAME_CSS.findall(html) == [engine.folder], url
        css = re.search(r'href="(/static/games/[a-z_]+\.css\?v=[0-9a-f]{12})"', html).group(1)
        response = client.get(css)
        assert response.status_code == 200 and response.mimetype == "text/css"
        assert "max-age=31536000" in response.headers["Cache-Control"]
    assert GAME_CSS.findall(page(host, "/")) == []


def test_a_static_file_outside_the_static_folders_is_not_served(client):
    assert client.get("/static/../companion/config.py").status_code == 404
    assert client.get("/static/games/no-such-game.css").status_code == 404
    assert client.get("/static/app.css").status_code == 200
