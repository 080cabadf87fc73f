"""The pieces of a game's public part: elements a change may replace one by one (a score
sheet's row, its totals, its "entered" line), each marked `id="..." data-piece` in the
game's `_public.html`. Between two versions whose public parts have the same frame (the
same pieces in the same places, the rest alike), a screen is sent the pieces that
changed; otherwise the whole part."""
from __future__ import annotations

import re

PIECE = re.compile(r'<([a-z]+) id="([\w-]+)" data-piece(?=[ >])')
OOB = ' hx-swap-oob="morph"'


def _end_of(html: str, tag: str, start: int) -> int:
    """Where the element whose start tag ends at `start` ends (after its end tag)."""
    tags = re.compile(rf"<(/?){tag}(?=[\s>])")
    depth = 1
    for found in tags.finditer(html, start):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return html.index(">", found.end()) + 1
    return len(html)


def cut(html: str) -> tuple[str, dict[str, str]]:
    """The frame of a public part (each piece left as a place holding its id, a tag no
    escaped text can hold) and its pieces by id, in order."""
    frame, pieces, at = [], {}, 0
    for start in PIECE.finditer(html):
        if start.start() < at:  # inside a piece: part of it
            continue
        end = _end_of(html, start.group(1), start.end())
        frame += [html[at:start.start()], f"<piece {start.group(2)}>"]
        pieces[start.group(2)] = html[start.start():end]
        at = end
    frame.append(html[at:])
    return "".join(frame), pieces


def changed(before: tuple[str, dict[str, str]], after: tuple[str, dict[str, str]]
            ) -> list[str] | None:
    """The pieces that changed from `before` to `after`, each ready to replace its copy on
    a page (out of band); None when the frame changed (the whole part is to be sent)."""
    if before[0] != after[0]:
        return None
    return [_out_of_band(piece) for key, piece in after[1].items()
            if before[1].get(key) != piece]


def _out_of_band(piece: str) -> str:
    """A piece that replaces its copy on the page, in a template of its own: a table's row
    outside a table is dropped where an event's HTML is read, but not in a template."""
    return "<template>" + PIECE.sub(lambda start: start.group(0) + OOB, piece, count=1) + \
        "</template>"
