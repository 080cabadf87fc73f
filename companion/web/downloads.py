"""CSV downloads: a finished score sheet (/t/CODE/sheet.csv) and the past games of this
server (/games.csv), for people who keep their own spreadsheets."""
from __future__ import annotations

import io
import re

from flask import Blueprint, send_file, url_for
from flask_babel import gettext

from .. import records, spreadsheets
from ..errors import conflict, not_found
from ..games import GAMES
from ..snapshots import Snapshot
from ..table import read

bp = Blueprint("downloads", __name__)

# As many past games as /games counts its players over.
PAST_GAMES = 1000


def csv_file(data: bytes, name: str):
    return send_file(io.BytesIO(data), mimetype="text/csv", as_attachment=True,
                     download_name=name, max_age=0)


def file_name(words: str) -> str:
    """"Wingspan" for a file's name: letters, digits and dashes."""
    return re.sub(r"[^\w]+", "-", words, flags=re.UNICODE).strip("-") or "sheet"


@bp.get("/t/<code>/sheet.csv")
def sheet(code: str):
    table = read.find(code)
    engine = GAMES[table.game]
    if not engine.keeps_totals:
        raise not_found(gettext("This game has no score sheet to download."))
    if table.status != "finished":
        raise conflict(gettext("The sheet can be downloaded when the game is over."))
    name = f"{file_name(engine.played_as(table.options))}-{table.code}.csv"
    return csv_file(spreadsheets.as_csv(spreadsheets.sheet_rows(table)), name)


@bp.get("/games.csv")
def past_games():
    rows = spreadsheets.past_game_rows(records.past_games(limit=PAST_GAMES))
    return csv_file(spreadsheets.as_csv(rows), "past-games.csv")


@bp.app_template_global()
def sheet_download(table: Snapshot) -> str | None:
    """Where a finished table's sheet is downloaded, None if it has none."""
    if table.status != "finished" or not GAMES[table.game].keeps_totals:
        return None
    return url_for("downloads.sheet", code=table.code)
