"""Wording faults a reader sees in any language: a word or phrase said twice in a row
("Action Action Voyage", "Reise-Aktie-Aktie", "Akcje: Akcje: Podróże", "Acción de Acción
de Viajes"), the mark of a name put together from a name that already says it."""
from __future__ import annotations

import re

# A phrase of one to three words, then the same phrase again, joined by a hyphen, a space
# or a colon. Some languages double a small word on purpose ("vous vous", "die die"): a
# doubled phrase counts when it starts with a capital (a name, a card's word), is joined by
# a hyphen, or ends in a colon both times ("X: X:"), which no sentence does on purpose
# ("the green Small: Small beats Nothing" is a sentence).
WORD = r"[^\W\d_]{2,}"
PHRASE = rf"{WORD}(?:[ ]{WORD}){{0,2}}"
DOUBLED = re.compile(rf"(?<!\w)({PHRASE})(:?)([ -]|: )\1\2(?![\w])")


def doubled(text: str) -> list[str]:
    """The doubled words or phrases in `text`."""
    found = []
    for match in DOUBLED.finditer(text):
        phrase, colon, joint = match.group(1), match.group(2), match.group(3)
        if joint == "-" or colon or (joint == " " and phrase[0].isupper()):
            found.append(match.group(0))
    return found
