"""A score sheet's pieces that stay as they are once written (a closed round's row, the
last closed round by category), rendered once per content and language and kept: a
sheet of a hundred rounds renders the rows an entry changed, not a hundred."""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask import current_app, render_template, request
from markupsafe import Markup

from .kept import Kept
from .languages import current

KEPT = 20_000  # pieces kept per process (the least recently used go first)


def rendered_once(key: Hashable, template: str, **context: Any) -> Markup:
    """`template` rendered with `context`, which `key` (with the language and the address
    prefix) names entirely: kept, and rendered again only once forgotten."""
    kept = current_app.extensions.get("companion_pieces")
    if kept is None:
        kept = current_app.extensions.setdefault("companion_pieces", Kept(KEPT))
    key = (key, template, current(), request.script_root)
    found = kept.get(key)
    if found is None:
        found = Markup(render_template(template, **context))
        kept.set(key, found)
    return found


def sheet_round_row(sheet: dict[str, Any], index: int, latest: bool) -> Markup:
    """The row of closed round `index + 1`."""
    cells = tuple((row["total"], row.get("bid"), row.get("tricks"))
                  for row in (seat["rows"][index] for seat in sheet["seats"]))
    return rendered_once(("round-row", index, latest, bool(sheet["bids"]), cells),
                         "table/score_sheet/_round_row.html", sheet=sheet, index=index,
                         latest=latest)


def sheet_detail(sheet: dict[str, Any], names: dict[int, str]) -> Markup:
    """The last closed round by category."""
    last = sheet["closed"] - 1
    cells = tuple((names[seat["player"]],
                   tuple(seat["rows"][last]["scores"][category]
                         for category in sheet["categories"]))
                  for seat in sheet["seats"])
    return rendered_once(("detail", sheet["closed"], tuple(sheet["categories"]), cells),
                         "table/score_sheet/_detail.html", sheet=sheet, names=names)


GLOBALS = {"sheet_round_row": sheet_round_row, "sheet_detail": sheet_detail}
