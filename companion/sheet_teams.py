"""The teams of a score sheet played in partnerships, as the lobby, the result, the sheet's
CSV and the past games show them: each team's name in the reader's language and its
players in seat order."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext

from .games import GAMES
from .games.replay import seat_order
from .i18n import messages
from .snapshots import Snapshot


def count(options: dict[str, Any]) -> int:
    teams = options.get("teams") or 0
    return teams if isinstance(teams, int) else 0


def seated_teams(table: Snapshot) -> list[dict[str, Any]]:
    """In the lobby: the teams as the seats stand now, the first player in seat 0 (the
    player in seat S plays for team S mod the number of teams)."""
    teams = count(table.options) if GAMES[table.game].saved_by == "name" else 0
    if not teams:
        return []
    order = seat_order([p.id for p in table.players], table.first_player)
    named = table.options.get("team_names") or []
    return [{"name": named[team] if team < len(named) else
             gettext("Team %(number)s", number=team + 1), "players": order[team::teams]}
            for team in range(teams)]


def played_teams(game: str, state: Any) -> list[dict[str, Any]]:
    """A started game's teams as its view states them, named in the reader's language
    (none at a game without teams)."""
    if state is None:
        return []
    teams = GAMES[game].view(state, None)[0].get("teams") or []
    return [dict(team, name=messages.render(team["name"], {})) for team in teams]


def team_of(game: str, state: Any) -> dict[int, str]:
    """Each player's team by name (empty without teams)."""
    return {player: team["name"] for team in played_teams(game, state)
            for player in team["players"]}


def members_line(team: str, players: list[str]) -> str:
    """"Them: Ben, Dan"."""
    return gettext("%(team)s: %(players)s", team=team, players=", ".join(players))


def chart_names(game: str, state: Any, names: dict[int, str]) -> dict[int, str]:
    """The names of a score chart's lines: a team's line is drawn under its first player's
    id (the engine's `scores`), named for the team."""
    return {**names, **{team["players"][0]: team["name"]
                        for team in played_teams(game, state)}}
