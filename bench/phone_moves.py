"""What a phone of the bench may do: its moves read where its player reads them (the API's
view, or the forms of the page's own part), and the random legal move it then makes."""
from __future__ import annotations

import random
import re

# An HTML phone's moves, as its player sees them: the forms of its own part's head (a
# whole panel's, or the stream's `own` event when that part changed).
OWN_HEAD_RE = re.compile(r'<div id="own-head".*?(?=<div id="own-foot"|\Z)', re.S)
SET_ROW_RE = re.compile(r'<form class="set-row".*?</form>', re.S)
COUNT_RE = re.compile(r'name="count" value="(\d+)"')
VALUE_RE = re.compile(r'name="value" value="(\d+)"')
SOURCE_RE = re.compile(r'name="source" value="([a-z]+)"')


def moves_on_page(html: str) -> list[dict] | None:
    """The moves the forms of a page's own part offer, in the shape of the API's
    `actions` (None when `html` holds no own part: its moves are those it held)."""
    head = OWN_HEAD_RE.search(html)
    if head is None:
        return None
    sets = [{"count": int(COUNT_RE.search(row).group(1)), "value": int(value)}
            for row in SET_ROW_RE.findall(head.group(0)) for value in VALUE_RE.findall(row)]
    if sets:
        return [{"type": "play", "sets": sets}]
    sources = SOURCE_RE.findall(head.group(0))
    return [{"type": "draw", "source": sources}] if sources else []


def choose(actions: list[dict], rng: random.Random) -> dict:
    """A random legal Go Big move from a view's `actions`: a listed set to play, or a
    listed source to draw from."""
    template = actions[0]
    if template["type"] == "play":
        return {"type": "play", **rng.choice(template["sets"])}
    return {"type": "draw", "source": rng.choice(template["source"])}
