"""The public part of a panel: what every screen of a table shows alike, rendered once
per version and shared by every viewer's panel.

A game's `_public.html` is rendered from the public view (the one a caller without a
token gets), so it holds no secret whoever reads it. The few things in it that differ
between viewers are wrapped by the filters below, and `for_viewer` keeps or drops each
of them for one viewer: a mark of the viewer's own seat (`only_for`), a line for
everyone but some players (`except_for`), a part shown only on a screen with no move to
make (`when_idle`). A mark is a tag, and no escaped text contains a tag: nothing typed
at the table can forge one.

Rendered per viewer, the public part of a Go Big panel took half the panel's template
time (bench/README.md); shared, a viewer's copy is a join of its pieces.
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

MARK = re.compile(r'<companion-mark (only|except|idle)="([\d ]*)">(.*?)</companion-mark>',
                  re.S)


def _mark(kind: str, players: Iterable[int] | int | None, part: str) -> Markup:
    if players is None or isinstance(players, int):
        players = [] if players is None else [players]
    ids = " ".join(str(int(player)) for player in players)
    return Markup(f'<companion-mark {kind}="{ids}">{escape(part)}</companion-mark>')


def only_for(part: str, players: Iterable[int] | int | None) -> Markup:
    """`part`, shown only to these players (a mark of their own seat)."""
    return _mark("only", players, part)


def except_for(part: str, players: Iterable[int] | int | None) -> Markup:
    """`part`, shown to every viewer but these players."""
    return _mark("except", players, part)


def when_idle(part: str) -> Markup:
    """`part`, shown only on a screen with no move to make."""
    return _mark("idle", None, part)


FILTERS = {"only_for": only_for, "except_for": except_for, "when_idle": when_idle}


Pieces = tuple  # text, and (kind, players, part) for each mark


def pieces(shared: str) -> Pieces:
    """The shared public part cut at its marks, once per version: a viewer's copy is then
    a join, with no pattern to look for."""
    cut = MARK.split(shared)
    found: list = [cut[0]]
    for at in range(1, len(cut), 4):
        kind, ids, part, after = cut[at:at + 4]
        found += [(kind, frozenset(int(i) for i in ids.split()), part), after]
    return tuple(found)


def for_viewer(shared: Pieces, you: int | None, idle: bool) -> Markup:
    """The public part as viewer `you` (None: the host screen or the display) sees it,
    on a screen that has a move to make unless `idle`."""
    kept = []
    for piece in shared:
        if type(piece) is str:
            kept.append(piece)
            continue
        kind, players, part = piece
        if idle if kind == "idle" else (you in players) == (kind == "only"):
            kept.append(part)
    return Markup("".join(kept))


def public_html(table: Snapshot, folder: str, log_lines: int) -> Pieces:
    """The game's public part of this version, rendered once per language (and per
    address prefix, should a proxy serve the app under several) and cut at its marks."""
    def render() -> Pieces:
        view = read.view(table, PUBLIC)
        log = read.log(table, PUBLIC, limit=log_lines, html=True, newest_first=True)
        return pieces(render_template(folder + "/_public.html", view=view, log=log,
                                      names=read.names_of(table)))
    return table.memo(("public-html", folder, request.script_root, current()), render)
