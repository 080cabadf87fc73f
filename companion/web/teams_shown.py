"""A score sheet's teams on the screens: in the lobby as the host orders the seats, and
each player's team in the result's standings."""
from __future__ import annotations

from typing import Any

from flask import Blueprint

from .. import sheet_teams
from ..snapshots import Snapshot

bp = Blueprint("teams_shown", __name__)


@bp.app_template_global()
def lobby_teams(table: Snapshot) -> list[dict[str, Any]]:
    """The teams as the seats stand (none at a table without teams)."""
    return sheet_teams.seated_teams(table)


@bp.app_template_global()
def players_teams(view: dict[str, Any]) -> dict[int, str]:
    """Each player's team by name, from a started table's view (empty without teams)."""
    state = view.get("state") or {}
    teams = state.get("teams") if isinstance(state, dict) else None
    return {player: team["name"] for team in teams or [] for player in team["players"]}
