"""The picture of a finished game's result, /t/CODE/result.png, for a group chat (chat apps
show a PNG where they would not show an SVG). It shows what the result screens show
everyone, in the reader's language, and only once the game is over: like the table
display's result, anyone with the table's code may fetch it.

It is drawn once per version of the table and way of writing (the reader's language and
region) in this process, and answered with an ETag of the same: a chat that fetches it
again gets a 304 and costs nothing."""
from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from urllib.parse import quote

from babel.dates import format_date
from flask import Blueprint, Response, request, url_for
from flask_babel import get_timezone, gettext, lazy_gettext, ngettext

from .. import records, sheet_teams, store
from ..auth import PUBLIC
from ..errors import conflict
from ..extensions import limiter
from ..i18n import messages
from ..result_picture import ResultSheet, draw
from ..snapshots import Snapshot
from ..table import moves, read
from . import languages
from .box_labels import game_name
from .downloads import file_name
from .templating import numberformat

bp = Blueprint("pictures", __name__)

NOT_OVER = lazy_gettext("The picture of the result can be downloaded when the game is over.")


@dataclass(frozen=True)
class Picture:
    url: str
    name: str  # its file's: the game's name, its date and the table's code


@bp.get("/t/<code>/result.png")
@limiter.limit("60/minute")  # each language and region is drawn anew
def result(code: str):
    table = read.find(code)
    if table.status == "ended":
        raise conflict(moves.ENDED)
    if table.status != "finished":
        raise conflict(NOT_OVER)
    written_in = str(languages.regional())
    tag = hashlib.sha256(f"{table.code}:{table.version}:{written_in}".encode()).hexdigest()[:20]
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        response = Response(_drawn(store.database_name(), table.id, table.version, written_in),
                            mimetype="image/png")
        response.headers["Content-Disposition"] = disposition(picture_name(table))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "public, no-cache"  # kept, and checked by its ETag
    response.headers["Content-Language"] = languages.current()
    response.vary.update(languages.CHOSEN_BY)
    return response


@lru_cache(maxsize=32)
def _drawn(database: str, table_id: int, version: int, written_in: str) -> bytes:
    return draw(result_sheet(store.at_least(table_id, version)))


def result_sheet(table: Snapshot) -> ResultSheet:
    """The words and figures of a finished table's result, as the result screens show
    them to everyone (the public view's result), in this request's language."""
    result = read.view(table, PUBLIC)["result"]
    names = read.names_of(table)
    tiebreaks = list(result["standings"][0]["tiebreak"]) if result["standings"] else []
    scored = result.get("scored", True)
    columns = [gettext("Place"), gettext("Player"),
               *([capitalised(gettext(result["score_label"]))] if scored else [])]
    for key in tiebreaks:
        label = capitalised(gettext(key.replace("_", " ")))
        columns.append(f"{label} {gettext('(tie-break)')}" if result["ranked"] else label)
    plot = records.score_plot(table)
    lines = sheet_teams.chart_names(table.game, table.state, names)  # a team's line, its name
    winners = result["winners"]
    return ResultSheet(
        title=game_name(table), date=finished_on(table),
        winners=ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners),
                         names=messages.names_listed(winners, names)),
        explanation=result["explanation"], columns=columns,
        rows=[[numberformat(s["place"]), names.get(s["player"], "?"),
               *([numberformat(s["score"])] if scored else []),
               *(numberformat(s["tiebreak"][key]) for key in tiebreaks)]
              for s in result["standings"]],
        first=[s["place"] == 1 for s in result["standings"]],
        caption=gettext("Scores over the game (%(score)s), from the first move that scored",
                        score=gettext(result["score_label"])),
        legend={player: f"{lines.get(player, '?')}: {numberformat(plot.final(player))}"
                for player in plot.series},
        scale=(numberformat(plot.top), numberformat(plot.bottom)), plot=plot, scored=scored)


def capitalised(label: str) -> str:
    """The first letter raised, the others as they are (a German noun keeps its capital)."""
    return label[:1].upper() + label[1:]


def finished_at(table: Snapshot) -> datetime:
    """When the game ended, in the server's time zone."""
    moment = table.finished_at or datetime.now(timezone.utc).replace(tzinfo=None)
    return moment.replace(tzinfo=timezone.utc).astimezone(get_timezone())


def finished_on(table: Snapshot) -> str:
    return format_date(finished_at(table), "long", locale=languages.regional())


def disposition(name: str) -> str:
    """Shown in place, under this file name: in ASCII for the clients that read only that,
    and whole (a score sheet's game may be named in any language) for the others."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return f"inline; filename=\"{plain}\"; filename*=UTF-8''{quote(name)}"


def picture_name(table: Snapshot) -> str:
    return f"{file_name(game_name(table))}-{finished_at(table):%Y-%m-%d}-{table.code}.png"


@bp.app_template_global()
def result_picture(table: Snapshot) -> Picture | None:
    """Where a finished table's picture is downloaded, and its file's name; None before
    the end."""
    if table.status != "finished":
        return None
    return Picture(url_for("pictures.result", code=table.code), picture_name(table))
