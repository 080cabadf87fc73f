"""What a finished game gives to people who keep their own spreadsheets: a score sheet as
CSV (rounds as rows, players as columns) and this server's past games as CSV (a row per
player of each finished game). Nothing of a table still in play: its secrets are not out.

Numbers stay numbers; a cell of text a person typed (a name, a category) that a
spreadsheet would read as a formula (= + - @, or a tab or return first) is written with a
leading apostrophe, which spreadsheets show as text."""
from __future__ import annotations

import csv
import io
from typing import Any, Iterable

from flask_babel import gettext

from . import sheet_teams
from .games import GAMES
from .snapshots import Snapshot
from .table import clock

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A value as a spreadsheet should read it: a number as a number, text as text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) or value is None:
        return "" if value is None else value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def as_csv(rows: Iterable[list[Any]]) -> bytes:
    """The rows as CSV in UTF-8, with the mark that tells spreadsheets so."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def sheet_rows(table: Snapshot) -> list[list[Any]]:
    """A finished sheet: a row per round and category (and the round's total where there
    are several categories), a column per player; then the totals and the places."""
    engine = GAMES[table.game]
    public, _ = engine.view(table.state, None)
    names = {p.id: p.name for p in table.players}
    seats = public["seats"]
    categories = public["categories"]
    rows: list[list[Any]] = [[gettext("Round"), gettext("Category"),
                              *(names.get(seat["player"], "?") for seat in seats)]]
    rounds = max((len(seat["rows"]) for seat in seats), default=0)
    for number in range(rounds):
        entries = [seat["rows"][number] for seat in seats]
        for category in categories:
            rows.append([number + 1, category,
                         *(entry["scores"].get(category) for entry in entries)])
        if len(categories) > 1:
            rows.append([number + 1, gettext("Round total"),
                         *(entry["total"] for entry in entries)])
        if public.get("bids"):  # a sheet of bids: each round's bids and tricks beside it
            rows.append([number + 1, gettext("Tricks bid"), *(e["bid"] for e in entries)])
            rows.append([number + 1, gettext("Tricks taken"),
                         *(e["tricks"] for e in entries)])
    result = clock.outcome(table)
    standings = result.standings if result is not None else []
    places = {standing.player: standing.place for standing in standings}
    rows.append([gettext("Total"), "", *(seat["total"] for seat in seats)])
    team_of = {player: team for team in sheet_teams.played_teams(table.game, table.state)
               for player in team["players"]}
    if team_of:  # partnerships: each player's team, and the team's total
        rows.append([gettext("Team"), "", *(team_of[seat["player"]]["name"] for seat in seats)])
        rows.append([gettext("Team total"), "",
                     *(team_of[seat["player"]]["total"] for seat in seats)])
    rows.append([gettext("Place"), "", *(places.get(seat["player"]) for seat in seats)])
    used = clock.used_at_the_end(table)
    if used is not None:
        rows.append([gettext("Time used"), "",
                     *(hours_minutes_seconds(used.get(seat["player"], 0)) for seat in seats)])
    return rows


def hours_minutes_seconds(ms: int) -> str:
    """A time as a spreadsheet reads a duration: h:mm:ss."""
    hours, rest = divmod(ms // 1000, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def past_game_rows(games: list[dict]) -> list[list[Any]]:
    """Past games (records.past_games), a row per player of each: place, score, won, the
    time used in a game that had a clock, and the player's team in one of partnerships."""
    rows: list[list[Any]] = [[gettext("Finished"), gettext("Game"), gettext("Table"),
                              gettext("Player"), gettext("Place"), gettext("Score"),
                              gettext("Won"), gettext("Time used"), gettext("Team")]]
    for game in games:
        finished = game["finished_at"].strftime("%Y-%m-%d %H:%M")
        times = game.get("times", {})
        teams = game.get("teams", {})
        for name, place, score in game["standings"]:
            rows.append([finished, game["game"], game["code"], name, place, score,
                         place == 1,
                         hours_minutes_seconds(times[name]) if name in times else "",
                         teams.get(name, "")])
    return rows
