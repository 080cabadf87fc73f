"""The host usually plays too. The secrecy suite (test_secrecy.py) already searches what the
host's token and host screen get in a seeded game of every registered game: the views, the
log, the answers, the API and screen streams, the host's page, live panel and history, the
undo confirmation of one move, the record before the end (refused). This adds what the
host device can ask for beyond that, searched the same way after every move of the first
HOST_MOVES of each game:

- the preview of a move the host would make for the player awaited (with "as"; a game
  whose moves need no confirmation answers 404);
- the undo confirmation of several moves at once, which only the host gets;
- a phone player's screens opened with the host's cookie (refused: "as-<id>" is only for a
  player without a phone, and the host's cookie is not a player's).

The only way to a seat's secrets left to the host is a rejoin, which the log tells the
whole table (tests/web/test_fair_play.py).
"""
from __future__ import annotations

import pytest

from tests.support.bots import choose_move
from tests.support.clients import form_fields
from tests.support.players import ALL_GAMES
from tests.support.secrecy_game import NO_PREVIEW, Game

HOST_MOVES = 60
UNDO_STEPS = 5


def check_preview(game: Game) -> None:
    snapshot = game.referee.read()
    if snapshot.status != "playing":
        return
    player, move = choose_move(game.engine, snapshot.state, game.rng)
    acting_as = [] if player is None else [("as", str(player))]
    response = game.host.page("/preview", params=form_fields(move)
                              + acting_as + [("screen", "host")])
    if not game.previews:
        expected = NO_PREVIEW
    elif player is not None and move["type"] in game.engine.secret_actions:
        expected = 403  # the host may not make a phone player's secret choice
    else:
        expected = 200
    assert response.status_code == expected, (move, response.text[:300])
    game.guard.html(response.text, None, f"the host's preview of a {move['type']}")


def check_undo_confirmations(game: Game) -> None:
    for steps in range(1, UNDO_STEPS + 1):
        response = game.host.page("/undo", params={"screen": "host", "steps": str(steps)})
        if response.status_code == 422:  # no more moves the host may undo
            return
        assert response.status_code == 200, response.text[:300]
        game.guard.html(response.text, None, f"the host's undo confirmation of {steps}")


def check_phone_screens_refused(game: Game) -> None:
    """The host's cookie opens no phone's screen; the phone page sends it, as any device
    without a seat, to the table display (which shows the public table)."""
    for phone in game.phones:
        for path in (f"/as/{phone.player}", f"/panel?screen=as-{phone.player}",
                     "/panel?screen=phone"):
            response = game.host.page(path)
            assert response.status_code == 403, (path, response.status_code)
            game.guard.html(response.text, None, f"the host's {path}")
    response = game.host.page("", allow_redirects=False)
    assert response.status_code in (302, 303), response.status_code
    assert response.headers["Location"].endswith(f"/d/{game.table.code}"), response.headers


@pytest.mark.counts(moves_made=1, responses_checked=1)
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_the_host_device_reaches_no_players_secret(game_id, unlimited_server, streams):
    """Limits lifted: after every move the host device asks for a preview and every undo
    confirmation, many more requests a minute than a person's taps, and each must be
    answered to be searched for secrets (the limits have tests of their own)."""
    game = Game(unlimited_server.url, unlimited_server.app, game_id, 0, streams)
    game.now_showing()
    check_phone_screens_refused(game)
    while game.moves < HOST_MOVES and game.move() is not None:
        check_preview(game)
        check_undo_confirmations(game)
        game.check_streams()
    check_phone_screens_refused(game)
