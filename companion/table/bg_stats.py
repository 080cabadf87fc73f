"""A finished table as the play that BG Stats imports (its "createPlay" link: the JSON
below, URL-encoded, after CREATE_PLAY), so that each player logs it in their own BG Stats
with one tap. Nothing here is known before the end: a table in play is refused."""
from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

import orjson
from flask_babel import lazy_gettext

from .. import store
from ..errors import conflict
from ..games import GAMES
from ..i18n import messages
from ..snapshots import Snapshot
from . import clock
from .read import names_of

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Companion"
PLAY_DATE = "%Y-%m-%d %H:%M:%S"

NOT_OVER = lazy_gettext("The play can be logged in BG Stats when the game is over.")


def play(table: Snapshot) -> dict[str, Any]:
    """The play of a finished table, its comments in the reader's language."""
    if table.status != "finished" or table.state is None:
        raise conflict(NOT_OVER)
    engine = GAMES[table.game]
    outcome = clock.outcome(table)
    if outcome is None:
        raise conflict(NOT_OVER)
    created = store.history.created_at(table.id)
    started = store.history.started_at(table.id)
    finished = table.finished_at or started
    name = engine.played_as(table.options)
    # A game that names its winner and ranks nobody else (Nothing Beats a Large) is won
    # without points: what it counts is not a score to BG Stats.
    points = outcome.ranked
    seats = {seat.id: seat for seat in table.players}
    players = []
    for standing in outcome.standings:
        seat = seats[standing.player]
        player: dict[str, Any] = {"name": seat.name, "sourcePlayerId": seat.name_key}
        if points:
            player["score"] = standing.score
        player.update(rank=standing.place, winner=standing.place == 1,
                      startPlayer=standing.player == table.first_player)
        players.append(player)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": source_play_id(table.code, created),
        "playDate": started.strftime(PLAY_DATE),
        "durationMin": whole_minutes(started, finished),
        "game": {"name": name, "sourceGameId": source_game_id(table.game, name, engine.title),
                 "highestWins": not table.options.get("lowest_wins"), "noPoints": not points},
        "players": players,
        "comments": messages.render(outcome.explanation, names_of(table)),
    }


def source_play_id(code: str, created: datetime) -> str:
    """The table's code and when it was created: what tells a table apart on this server
    and keeps it apart when its history is imported into another (transfer.py)."""
    return f"{code}-{created:%Y%m%dT%H%M%S}"


def source_game_id(game: str, name: str, title: str) -> str:
    """The game's id, and the name it is played as when it has one of its own (Fan Tan, a
    score sheet's game): two sheets of different games are two games to BG Stats."""
    return game if name == title else f"{game}:{name.casefold()}"


def whole_minutes(start: datetime, end: datetime) -> int:
    return max(0, round((end - start).total_seconds() / 60))


def create_play_link(data: dict[str, Any]) -> str:
    """The link that opens the play in BG Stats: its JSON, without spaces, every character
    but letters, digits and "_.-~" percent-encoded (UTF-8)."""
    return CREATE_PLAY + quote(orjson.dumps(data).decode(), safe="")
