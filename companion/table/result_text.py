"""A finished table's result as plain text to paste into a chat or a club's notes: the game
(a score sheet by the name its host gave it), the day it ended as the reader's region
writes dates, each place with its player and score, then the result's own sentence, which
names the winner and says how a tie was broken. Worked out once per version, language and
region; the screens show it in a field to copy."""
from __future__ import annotations

from datetime import datetime, timezone

from babel import Locale
from babel.dates import format_date
from flask_babel import get_timezone

from .. import store
from ..games import GAMES
from ..games.messages import Message, Player, listed, message
from ..i18n import messages
from ..snapshots import Snapshot
from . import clock
from .read import names_of


def result_text(table: Snapshot, dates: Locale) -> str:
    """The text of a finished table's result in this request's language, its date written
    as `dates` (the reader's language in the reader's region) writes one."""
    key = ("result text", messages.language(), str(dates))
    return table.memo(key, lambda: _text(table, dates))


def _text(table: Snapshot, dates: Locale) -> str:
    result = clock.outcome(table, table.dealt_state)
    if result is None:
        raise ValueError(f"table {table.code} has no result to write out")
    standings = listed(((message("%(place)s. %(player)s %(score)s", place=standing.place,
                                 player=Player(standing.player), score=standing.score)
                         if result.scored else
                         message("%(place)s. %(player)s", place=standing.place,
                                 player=Player(standing.player)))
                        for standing in result.standings), tally=True)
    heading = message("%(game)s, %(date)s: %(standings)s.", game=game_called(table),
                      date=finished_on(table, dates), standings=standings)
    names = names_of(table)
    return "\n".join(messages.render_all([heading, result.explanation], names))


def game_called(table: Snapshot) -> Message | str:
    """The game a table played, by name: a box's title is a word of ours, read in the
    reader's language; a name the host typed (a score sheet's game) stays as typed."""
    engine = GAMES[table.game]
    name = engine.played_as(table.options)
    typed = engine.saved_by is not None and name != engine.title
    return name if typed else Message(name)


def finished_on(table: Snapshot, dates: Locale) -> str:
    """The day the table finished, in the server's time zone (where the table was played),
    as `dates` writes a date."""
    moment: datetime = table.finished_at or store.history.created_at(table.id)
    local = moment.replace(tzinfo=timezone.utc).astimezone(get_timezone())
    return format_date(local.date(), "medium", locale=dates)
