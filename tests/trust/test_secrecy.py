"""Secrecy: seeded random games of every registered game, played through the HTTP API to
the end by bots that move exactly like phones (each with its own token; a player without a
phone through the host device). After every move, what every other player and the public
host screen can get is fetched and searched for the secrets the game declares in one place,
`engine.secrets(state)`, taken from the stored state the responses show, before they are
fetched: the JSON view of every viewer, every viewer's log, the move's answer, error answers
(a stale move, a move out of turn, an undo by someone else), the undo answer, the events of
every open stream (API and screens), and every few moves each HTML screen and fragment
(phone page, host screen, live panel, history, undo confirmation, preview, error panels,
the privacy cover of a player without a phone, the join and rejoin pages, the table display
and its stream, the record).
Players are named with HTML and script, so every page is also checked to render them as
text and to run nothing inline.

How a secret is matched (so that the search has no false positives and misses nothing the
declaration names):
- A text secret (a card "clowns-L3") betrays itself wherever it appears as a whole token:
  in any string of a JSON answer, in the text of an HTML page (entities decoded), in an
  event's data. One exception: a JSON list, or an HTML form, that names every text secret
  at the table (the viewer's own included) and more, lists the whole domain (Big Top's
  hand-entry form offers the whole deck) and says nothing of who holds what.
- A keyed secret ({"bank_total": 6}, {"goals": ["red", "blue"]}, {"cast": "red-L"}) betrays
  itself in JSON where an object has that key with that value (a list: holding every item
  of it), except at `private.<key>`, which is the viewer's own field of that name, or has
  it under its owner's id ({"5": "red-L"}: player 5's cast) where the viewer's view did not
  show it before (the last cast, revealed, may hold the piece locked in now); in text
  (HTML, log lines, messages) where the key and the value appear as JSON or Python would
  write them. A bank total of 6 next to any other key, or alone, is not a match: a digit
  appears everywhere.
- HTML private sections (`<section class="private ...">`): only a seated player's screen has
  one, and another player's private section (as its owner sees it at the same version)
  never appears on it.
- A log line written for one player (an engine's private note: "You placed $10 on
  Clowns...") is never shown to another, in the JSON log, a move's answer or the screens'
  log; the screens' log shows exactly the viewer's JSON log.
- The table's seed never appears before the end (every seed here has 15 digits); after it,
  the game's record holds it, and the record is checked like everything else.
"""
from __future__ import annotations

import pytest

from tests.support.players import ALL_GAMES, VARIANTS
from tests.support.secrecy_game import HTML_EVERY, Game

# After every move: the move's answer, every stream's events, the public view and one
# player's view. At a turning point (a move that revealed something, or after which the
# declared secrets changed shape: a hand entered, a cast locked in) and every DEEP_EVERY
# moves: every viewer's view and log, and the error answers. The HTML screens every
# HTML_EVERY moves, after every reveal, and at the end. Past FULL_MOVES moves (the long
# games: Big Top deals five or six times) only reveals get the deep check, the rest the
# answer, the streams and the public view; the end gets everything again.
DEEP_EVERY = 6
UNDO_EVERY = 9      # every this many moves, the move is undone and made again
FULL_MOVES = 150


@pytest.mark.counts(games_played=1, moves_made=1, responses_checked=1)
@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_no_secret_reaches_another_player_or_the_host_screen(game_id, index, unlimited_server,
                                                            streams):
    """Limits lifted: a whole game played in seconds from one address, every viewer's
    screens and views asked for after every move."""
    play_checked(Game(unlimited_server.url, unlimited_server.app, game_id, index, streams))


@pytest.mark.counts(games_played=1, moves_made=1, responses_checked=1)
@pytest.mark.parametrize("game_id, variant", [(game_id, number)
                                              for game_id, variants in VARIANTS.items()
                                              for number in range(len(variants))])
def test_no_secret_of_a_variant_reaches_another_player_or_the_host_screen(
        game_id, variant, unlimited_server, streams):
    """A game's variants the yes/no options and single choices do not reach (a score
    sheet's secret bids), checked as above. Limits lifted, as above."""
    play_checked(Game(unlimited_server.url, unlimited_server.app, game_id, 2 + variant,
                      streams, variant=variant))


def play_checked(game: Game) -> None:
    """The game played to its end, every response checked as the module says."""
    game.now_showing()
    game.check_views()
    game.check_screens(everything=True)
    while True:
        made = game.move()
        if made is None:
            break
        mover, action, old_version = made
        moves, revealed = game.moves, game.revealed
        if moves <= FULL_MOVES:
            deep = game.turning or moves % DEEP_EVERY == 0
            html = moves % HTML_EVERY == 0 or revealed
            if moves % UNDO_EVERY == 0:
                game.undo_and_redo(mover, action)
        else:
            deep = revealed or moves % (5 * DEEP_EVERY) == 0
            html = moves % (3 * HTML_EVERY) == 0
        game.check_views(everyone=deep, logs=deep, light=moves > FULL_MOVES)
        game.check_streams()
        if deep:
            game.check_errors(mover, action, old_version)
        if html:
            game.check_screens()
    game.check_views()
    game.check_screens(everything=True)
    game.finish()
