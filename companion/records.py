"""What a finished game leaves behind: its record (options, seed and log) that can be
replayed, the chart of the scores over the game, and the past games of this server."""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from flask_babel import get_locale, lazy_gettext
from markupsafe import Markup

from . import sheet_teams, store
from .chart import line_chart
from .plot import Plot, plot_of
from .errors import conflict
from .games import GAMES
from .games.engine import Result
from .games.replay import in_effect, seat_order
from .record_import import FORMAT_TAG as RECORD_FORMAT
from .snapshots import Snapshot
from .table import clock
from .table.moves import replay_table


def record(table: Snapshot) -> dict:
    """The game as a file: replaying its actions from its seed gives its result."""
    if table.status != "finished":
        raise conflict(lazy_gettext("The record is available when the game is over (it "
                                    "holds the seed, which would give away the shuffles)."))
    events = store.events(table.id)
    created_at = store.history.created_at(table.id)
    return {
        "format": RECORD_FORMAT, "game": table.game, "code": table.code,
        "options": table.options, "seed": table.seed,
        "players": [p.public() for p in table.players],
        "order": seat_order([p.id for p in table.players], table.first_player),
        "log": [{"seq": e.seq, "kind": e.kind, "player": e.actor, "action": e.action,
                 "undoes": e.undoes, "at": e.at.isoformat() + "Z", "notes": e.notes,
                 # with a clock, who each event left awaited: the clock's times again
                 **({"awaiting": e.awaiting} if table.clock else {})}
                for e in events],
        "result": final_result(table).to_json(),
        "clock": clock.record_of(table),
        "created_at": created_at.isoformat() + "Z",
        "started_at": store.history.started_at(table.id).isoformat() + "Z",
        "finished_at": (table.finished_at or created_at).isoformat() + "Z",
    }


def final_result(table: Snapshot | store.history.Listed) -> Result:
    """The result of a finished table (which has one), with the clock's times when it had
    a clock."""
    result = (clock.outcome(table) if isinstance(table, Snapshot)
              else GAMES[table.game].result(table.state))
    if result is None:
        raise ValueError(f"table {table.code} is finished without a result")
    return result


# The chart is drawn on a phone's width: a longer game is sampled every few actions, not
# at each (a sheet's totals are sums of all its rows, so scoring the sheet after each of
# its entries costs the square of its length; bench/README.md has the figures).
CHART_SAMPLES = 400


def score_series(table: Snapshot) -> dict[int, list[int]]:
    """Each player's score after setup and after every action in effect; of a game of more
    than CHART_SAMPLES actions, after every few actions, evenly spread, and at the end."""
    engine = GAMES[table.game]
    actions = store.actions_in_effect(table.id)
    every = -(-(len(actions) + 1) // CHART_SAMPLES)  # states per sample, rounded up
    series: dict[int, list[int]] = defaultdict(list)
    states = 0

    def sample(state: dict) -> None:
        nonlocal states
        if states % every == 0 or states == len(actions):
            for player, score in engine.scores(state).items():
                series[player].append(score)
        states += 1

    replay_table(table, actions, sample)
    return dict(series)


def score_chart(table: Snapshot) -> Markup:
    """The score chart of a finished table, drawn once per version in this process (every
    screen shows it at the end, and drawing it replays the game), in each language it is
    read in."""
    return _chart(store.database_name(), table.id, table.version, str(get_locale()))


@lru_cache(maxsize=64)
def _chart(database: str, table_id: int, version: int, language: str) -> Markup:
    seen = store.at_least(table_id, version)
    label = final_result(seen).score_label
    names = sheet_teams.chart_names(seen.game, seen.state,
                                    {p.id: p.name for p in seen.players})
    return line_chart(_series(database, table_id, version), names, label)


def score_plot(table: Snapshot) -> Plot:
    """The score chart's data of a finished table (its picture draws it), worked out once
    per version in this process, as the chart is."""
    return plot_of(_series(store.database_name(), table.id, table.version))


@lru_cache(maxsize=64)
def _series(database: str, table_id: int, version: int) -> dict[int, list[int]]:
    return score_series(store.at_least(table_id, version))


def past_games(limit: int = 50) -> list[dict]:
    """The finished tables of this server, newest first."""
    games = []
    for table in store.history.finished_tables(limit):
        engine = GAMES[table.game]
        timed = _timed(table)
        result = final_result(timed or table)
        names = dict(table.players)
        teams = sheet_teams.played_teams(table.game, table.state)
        # A score sheet won without points (named winners, or together) keeps no totals.
        on_points = table.options.get("outcome", "points") == "points"
        games.append({"code": table.code, "game": engine.played_as(table.options),
                      "kind": engine.id, "totals": engine.keeps_totals and on_points,
                      "cooperative": result.cooperative,
                      "lowest_wins": bool(table.options.get("lowest_wins")),
                      "finished_at": table.finished_at,
                      "players": list(names.values()),
                      "winners": [names.get(w, "?") for w in result.winners],
                      # partnerships: each player's team, and the winning teams' lines
                      "teams": {names.get(p, "?"): team["name"] for team in teams
                                for p in team["players"]},
                      "winning": [sheet_teams.members_line(
                          team["name"], [names.get(p, "?") for p in team["players"]])
                          for team in teams if set(team["players"]) <= set(result.winners)],
                      "standings": [(names.get(s.player, "?"), s.place, s.score)
                                    for s in result.standings],
                      "times": {names[player]: ms for player, ms
                                in ((timed and clock.used_at_the_end(timed)) or {}).items()
                                if player in names}})
    return games


def _timed(table: store.history.Listed) -> Snapshot | None:
    """The whole table of a finished game that had a clock (its times are read from its
    log), None for one without."""
    found = store.find_version(table.code) if table.clock else None
    return store.at_least(*found) if found else None


# A table whose last change is older than this is listed apart from those being played:
# nobody plays it any more, and its host may end it.
IDLE_AFTER = timedelta(days=1)


def games_in_play(limit: int = 50, status: str = "playing") -> list[dict]:
    """The tables of this server whose game is being played (or, with `status="ended"`,
    was ended by its host before its end), the most recently played first; each says
    when it was last played (`played_at`, UTC) and whether that was over a day ago."""
    idle_since = datetime.now(timezone.utc) - IDLE_AFTER
    games = []
    for table in store.history.tables_in_status(status, limit):
        played_at = datetime.fromtimestamp(table.updated_at, timezone.utc)
        games.append({"code": table.code, "game": GAMES[table.game].played_as(table.options),
                      "opened_at": table.created_at, "players": [name for _, name in table.players],
                      "played_at": played_at.replace(tzinfo=None),
                      "idle": played_at < idle_since})
    return games


def player_stats(games: list[dict], totals: bool = False,
                 cooperative: bool = False) -> list[dict]:
    """Per player name (as typed, case-insensitive) and game: played and won; with
    `totals`, of the games that keep totals (score sheets, by the game's name): also the
    best total (the lowest where the lowest wins) and the average. Games won or lost
    together are counted apart (`cooperative`), each with its win rate, so that they
    do not mix with the games won against the others."""
    stats: dict[tuple[str, str], dict] = {}
    for game in games:
        if game["totals"] != totals or game.get("cooperative", False) != cooperative:
            continue
        scores = {name: score for name, _, score in game["standings"]}
        for name in game["players"]:
            entry = stats.setdefault((name.casefold(), game["game"]),
                                     {"name": name, "game": game["game"], "played": 0, "won": 0,
                                      "totals": [], "times": [],
                                      "lowest_wins": game["lowest_wins"]})
            entry["played"] += 1
            entry["won"] += name in game["winners"]
            if name in scores:
                entry["totals"].append(scores[name])
            if name in game.get("times", {}):
                entry["times"].append(game["times"][name])
    for entry in stats.values():
        times = entry.pop("times")
        # Only over the games that had a clock: the others say nothing of the time.
        entry["average_time_ms"] = round(sum(times) / len(times)) if times else None
        found = entry.pop("totals")
        entry["best"] = ((min if entry["lowest_wins"] else max)(found) if found else None)
        entry["average"] = round(sum(found) / len(found), 1) if found else None
        entry["rate"] = entry["won"] / entry["played"]
    return sorted(stats.values(), key=lambda e: (e["name"].casefold(), e["game"]))


CATALOGUE_SIZE = 40
CATALOGUE_SCAN = 2000


def catalogue(game: str, action_type: str, field: str,
              here: Snapshot | None = None) -> list[dict]:
    """What players entered before in `field` of `action_type` at this server's tables of
    the game (only ever public entries; an entry an undo took back is not remembered),
    newest first, each once.

    Less what the table `here` already holds: an entry is offered while `here` has fewer
    of it than some one table had, so a card the box holds twice stays on offer until
    both copies are on the table."""
    entries, counts = _entries(store.history.latest_log_entries(game, CATALOGUE_SCAN),
                               action_type, field)
    copies: Counter[str] = Counter()
    for table_id, counted in counts.items():
        if here is None or table_id != here.id:
            copies |= counted  # the most copies any one table had
    held: Counter[str] = Counter()
    if here is not None:
        _, counts = _entries(store.history.log_entries_of(here.id, here.version),
                             action_type, field)
        held = counts.get(here.id, Counter())
    return [entries[key] for key in copies if held[key] < copies[key]][:CATALOGUE_SIZE]


def _entries(rows: Sequence[Any], action_type: str,
             field: str) -> tuple[dict[str, dict], dict[int, Counter[str]]]:
    """The entries of `field` in the actions of `action_type` among these log rows that
    are in effect (in their order), and per table how many times each was made."""
    by_table: dict[int, list] = defaultdict(list)
    for row in rows:
        by_table[row.table_id].append(row)
    kept = {(row.table_id, row.seq) for logged in by_table.values() for row in in_effect(logged)}
    entries: dict[str, dict] = {}
    counts: dict[int, Counter[str]] = defaultdict(Counter)
    for row in rows:
        action = row.action
        entry = action.get(field) if isinstance(action, dict) else None
        if ((row.table_id, row.seq) not in kept
                or not isinstance(entry, dict) or action.get("type") != action_type):
            continue
        key = json.dumps(entry, sort_keys=True)
        entries.setdefault(key, entry)
        counts[row.table_id][key] += 1
    return entries, counts
