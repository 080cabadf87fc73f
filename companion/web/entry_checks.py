"""What a screen checks of an entry before it is made, beyond the rules: that the form it
was typed in still stands for the same decision, and a second look at what seems a slip.

A form of the panel that names its decision (`data-entry`) may carry it back as
`drawn_for`: it is taken only while the panel still holds that decision. The page's script
keeps what was typed only for the decision it was typed for (static/app.js); this is the
same rule for a page without script, or a post on its way while the table moved on. A
value typed for one player is never made another player's.

An entry the engine gives a second look (`second_look`: far outside what the sheet has
seen) is not made: the panel comes back asking, with a form that sends the same fields
again with `confirmed`."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext
from markupsafe import escape
from werkzeug.datastructures import MultiDict

from ..auth import Viewer
from ..errors import CompanionError
from ..snapshots import Snapshot
from ..table import moves

SCREEN_ONLY = {"drawn_for", "confirmed"}  # a form's fields that are no part of the action
SECOND_LOOK_STATUS = 409  # swapped in, and the form keeps what was typed (static/app.js)


def check_drawn_for(form: MultiDict, panel_html: Callable[[], str]) -> None:
    """Refuse a form drawn for a decision the panel (`panel_html()`, as it is now) no
    longer holds."""
    drawn_for = form.get("drawn_for")
    if drawn_for is None:
        return
    if f'data-entry="{escape(drawn_for)}"' not in panel_html():
        raise CompanionError("conflict", gettext(
            "The sheet changed while this form was open: look again at whose scores you "
            "are entering, then enter them."))


def second_look(table: Snapshot, viewer: Viewer, form: MultiDict,
                action: dict[str, Any]) -> dict | None:
    """The second look the posted `action` needs before it is made: the lines to show and
    the form's fields to send again, confirmed; None when it needs none or was confirmed."""
    if form.get("confirmed"):
        return None
    lines = moves.second_look(table, viewer, action)
    if not lines:
        return None
    return {"lines": lines,
            "fields": [(k, v) for k, v in form.items(multi=True) if k != "confirmed"]}
