"""The public part of a panel: what every screen of a table shows alike, rendered once
per version and language, the same bytes for every screen that is sent it.

A game's `_public.html` is rendered from the public view (the one a caller without a
token gets), so it holds no secret whoever reads it. The few things in it that differ
between viewers are attributes, which the page's script reads against its own viewer
(`data-you` on the page, `data-acting` on its own part): a mark of the viewer's own seat
(`mine`), a part shown only to some players (`only_for`, hidden otherwise), a part
shown to everyone but some players (`except_for`), a part shown only on a screen with
no move to make (`when_idle`). As sent on a stream the part is as the table display
sees it; a panel rendered for one viewer (a page, a move's answer) has the marks set for
that viewer here (`for_viewer`), so it reads right without the script too. A mark is
an attribute with a quoted value, and no escaped text holds a quote: nothing typed at
the table can forge one.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from flask import render_template, request
from markupsafe import Markup, escape

from ..auth import PUBLIC
from ..snapshots import Snapshot
from ..table import read
from .languages import current

MARK = re.compile(r' data-(only|except)="([\d ]*)"(?: hidden)?| data-(mine)="(\d+)"'
                  r'| data-(idle)=""(?: hidden)?')


def _ids(players: Iterable[int] | int | None) -> str:
    if players is None or isinstance(players, int):
        players = [] if players is None else [players]
    return " ".join(str(int(player)) for player in players)


def only_for(part: str, players: Iterable[int] | int | None, tag: str = "span") -> Markup:
    """`part`, shown only to these players (a mark of their own seat)."""
    return Markup(f'<{tag} data-only="{_ids(players)}" hidden>{escape(part)}</{tag}>')


def except_for(part: str, players: Iterable[int] | int | None, tag: str = "span") -> Markup:
    """`part`, shown to every viewer but these players."""
    return Markup(f'<{tag} data-except="{_ids(players)}">{escape(part)}</{tag}>')


def when_idle(part: str, tag: str = "div") -> Markup:
    """`part`, shown only on a screen with no move to make."""
    return Markup(f'<{tag} data-idle="">{escape(part)}</{tag}>')


def mine(player: int) -> Markup:
    """The attribute that marks an element as the viewer's own seat when it is
    `player`'s (the page then sets `data-yours` on it, which the stylesheets read)."""
    return Markup(f' data-mine="{int(player)}"')


FILTERS = {"only_for": only_for, "except_for": except_for, "when_idle": when_idle}
GLOBALS = {"mine": mine}

Pieces = tuple  # text, and (kind, players) for each mark


def pieces(shared: str) -> Pieces:
    """The shared public part cut at its marks, once per version: a viewer's copy is then
    a join, with no pattern to look for."""
    cut = MARK.split(shared)
    found: list = [cut[0]]
    for at in range(1, len(cut), 6):
        only_or_except, ids, mine_kind, mine_id, idle, after = cut[at:at + 6]
        if only_or_except:
            found.append((only_or_except, frozenset(int(i) for i in ids.split())))
        elif mine_kind:
            found.append(("mine", frozenset([int(mine_id)])))
        else:
            found.append((idle, frozenset()))
        found.append(after)
    return tuple(found)


def for_viewer(shared: Pieces, you: int | None, idle: bool) -> Markup:
    """The public part as viewer `you` (None: the host screen or the display) sees it,
    on a screen that has a move to make unless `idle`: the same attributes, each mark
    set for this viewer."""
    kept = []
    for piece in shared:
        if type(piece) is str:
            kept.append(piece)
            continue
        kind, players = piece
        ids = " ".join(str(player) for player in sorted(players))
        if kind == "only":
            kept.append(f' data-only="{ids}"' + ("" if you in players else " hidden"))
        elif kind == "except":
            kept.append(f' data-except="{ids}"' + (" hidden" if you in players else ""))
        elif kind == "mine":
            kept.append(f' data-mine="{ids}"' + (" data-yours" if you in players else ""))
        else:
            kept.append(' data-idle=""' + ("" if idle else " hidden"))
    return Markup("".join(kept))


def public_html(table: Snapshot, folder: str, log_lines: int) -> Pieces:
    """The game's public part of this version, rendered once per language (and per
    address prefix, should a proxy serve the app under several) and cut at its marks."""
    return table.memo(("public-pieces", folder, request.script_root, current()),
                      lambda: pieces(shared_html(table, folder, log_lines)))


def shared_html(table: Snapshot, folder: str, log_lines: int) -> str:
    """The game's public part of this version as every stream sends it, rendered once per
    language (and per address prefix, should a proxy serve the app under several)."""
    def render() -> str:
        view = read.view(table, PUBLIC)
        log = read.log(table, PUBLIC, limit=log_lines, html=True, newest_first=True)
        return render_template(folder + "/_public.html", view=view, log=log,
                               names=read.names_of(table))
    return table.memo(("public-html", folder, request.script_root, current()), render)
