"""A phoneless player's screen on the host laptop (Chromium at http://table.lan:PORT):
once the player has looked, or made their secret step, and the laptop is back on the host
screen, nothing brings their screen back uncovered: not Back, not Forward, not a reload,
not the back-forward cache, not a tab restored from the history list's address."""
from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from companion.games import GAMES
from tests.support.api import Api
from tests.support.bots import choose_move
from tests.support.browser import SOON
from tests.support.referee import Referee
from tests.support.screens import post

# Per game: its options and what the phoneless player (Dan) is awaited for in secret.
SECRET_STEPS = {
    "nothing-beats-a-large": ({}, "cast"),
    "big-top": ({"deals_per_player": 1}, "hand"),
    "score-sheet": ({"name": "Wingspan", "rounds": 2, "secret": True,
                     "categories": ["Birds", "Eggs"]}, "enter"),
}
# Per game: what the phoneless player keeps secret all game, shown behind the same cover.
PLAYING_FOR_DAN = re.compile("table [A-Z]+: playing for Dan")
SECRETS_TO_LOOK_AT = ("go-big", "nothing-beats-a-large")


def phoneless_table(app, game: str, options: dict):
    """A started table of Ann, Ben and Dan, who has no phone (added on the host screen)."""
    api = Api(client=app.test_client())
    table = api.table(game=game, players=("Ann", "Ben"), start=False, options=options)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    post(host, f"/t/{table.code}/players/local", {"name": "Dan"}, f"/t/{table.code}/host")
    status, body = api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 5})
    assert status == 200, body
    dan = {p["name"]: p["id"] for p in table.view()["players"]}["Dan"]
    return table, dan


def play_until_dan_is_asked(app, table, dan: int, secret_action: str) -> dict:
    """Bot moves (Dan's through the host, "as" him) until Dan is asked for `secret_action`:
    that action as offered to him."""
    referee, rng = Referee(app, table.code), random.Random(3)
    for _ in range(400):
        stored = referee.read()
        state, engine = stored.state, GAMES[stored.game]
        asked = [a for a in engine.actions(state, dan) if a["type"] == secret_action]
        if asked:
            return asked[0]
        player, action = choose_move(engine, state, rng)
        if player == dan:
            action = dict(action, **{"as": dan})
        status, body = table.act(table.token_of(None if player == dan else player), **action)
        assert status == 200, body
    raise AssertionError(f"Dan was never asked to {secret_action}")


def host_laptop(new_phone, live_server, table):
    page = new_phone(1280, 800)
    page.context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/t/{table.code}/host")
    return page


def shows_no_secret(page, where: str) -> None:
    """The laptop shows the host screen or Dan's cover: no screen of Dan's with anything in it."""
    page.wait_for_load_state()
    assert page.locator(".privacy-cover, #panel").count() >= 1, where
    assert page.get_by_role("heading", name=PLAYING_FOR_DAN).count() == 0, where
    assert page.locator("[data-secret-screen] > *").count() == 0, where


def walk_the_history(page, steps_back: int) -> None:
    """Back, step by step, to the first address, reloading at each; then Forward again."""
    shows_no_secret(page, "after the secret step")
    for step in range(steps_back):
        page.go_back()
        shows_no_secret(page, f"Back x{step + 1}")
        page.reload()
        shows_no_secret(page, f"reload after Back x{step + 1}")
    for step in range(steps_back):
        page.go_forward()
        shows_no_secret(page, f"Forward x{step + 1}")
    page.reload()
    shows_no_secret(page, "reload at the end")


def reveal_dans_screen(page, link_name: str) -> str:
    page.get_by_role("link", name=link_name).click()
    expect(page.get_by_role("heading", name="Pass the device to Dan")).to_be_visible()
    page.get_by_role("link", name="I am Dan: show my screen").click()
    expect(page.get_by_role("heading", name=PLAYING_FOR_DAN)).to_have_count(1)
    return page.url


@pytest.mark.parametrize("game", sorted(SECRET_STEPS))
def test_a_secret_step_played_on_the_laptop_never_comes_back(app, live_server, new_phone,
                                                               game):
    options, secret_action = SECRET_STEPS[game]
    table, dan = phoneless_table(app, game, options)
    asked = play_until_dan_is_asked(app, table, dan, secret_action)
    page = host_laptop(new_phone, live_server, table)
    reveal_dans_screen(page, "Play for Dan (no phone)")
    # The address shown is the cover's: a restored tab or a copied address shows the cover.
    assert page.url.endswith(f"/t/{table.code}/as/{dan}")
    make_the_secret_step(page, game, asked)
    expect(page).to_have_url(f"{live_server.url}/t/{table.code}/host", timeout=SOON)
    assert dan not in table.view()["waiting_for"]
    walk_the_history(page, 3)


def make_the_secret_step(page, game: str, asked: dict) -> None:
    """Dan's secret step, tapped on his screen as he would."""
    actions = page.locator(".actions")
    if game == "nothing-beats-a-large":
        actions.get_by_role("button", name="Cast Nothing").click()
    elif game == "score-sheet":
        for field in actions.get_by_role("textbox").all():
            field.fill("7")
        actions.get_by_role("button", name="Enter round 1").click()
    else:  # Big Top: the cards he was dealt, as many as the form asks for
        tiles = actions.locator(".bt-tile")
        for index in range(asked["expected_count"]):
            tiles.nth(index).click()
        actions.locator("button[type=submit]").last.click()


@pytest.mark.parametrize("game", SECRETS_TO_LOOK_AT)
def test_a_secret_looked_at_on_the_laptop_never_comes_back(app, live_server, new_phone, game):
    table, dan = phoneless_table(app, game, {})
    page = host_laptop(new_phone, live_server, table)
    secrets = GAMES[game].secrets_called
    reveal_dans_screen(page, f"Dan's {secrets} (pass the device)")
    page.get_by_role("link", name="Done: hide my screen").click()
    expect(page).to_have_url(f"{live_server.url}/t/{table.code}/host")
    walk_the_history(page, 3)


def test_the_reveal_link_of_a_cover_works_once(app, live_server, new_phone):
    """The address that showed the screen, opened again (a tab restored, a link kept),
    shows the cover; so does the link of another cover or an old one."""
    table, dan = phoneless_table(app, "nothing-beats-a-large", {})
    page = host_laptop(new_phone, live_server, table)
    page.get_by_role("link", name="Dan's goal cards (pass the device)").click()
    link = page.get_by_role("link", name="I am Dan: show my screen").get_attribute("href")
    page.goto(f"{live_server.url}{link}")
    expect(page.get_by_text("Your goal cards")).to_be_visible()
    page.goto(f"{live_server.url}{link}")
    expect(page.get_by_role("heading", name="Pass the device to Dan")).to_be_visible()
    assert page.get_by_text("Your goal cards").count() == 0
    page.goto(f"{live_server.url}/t/{table.code}/as/{dan}?reveal=1")
    expect(page.get_by_role("heading", name="Pass the device to Dan")).to_be_visible()
