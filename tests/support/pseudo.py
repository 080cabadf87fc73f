"""A pseudo-translation: a catalog in which every message reads marked, "⟪...⟫" around its
English (its placeholders kept), so a page read in it shows at once what no message
said: every text left outside a marker is English the translations cannot reach.
And the reading of a page: its visible text and the words of its buttons' attributes."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from tests.support.catalogs import NAMED, translated_in_full, write_catalog

OPEN, CLOSE = "\u27ea", "\u27eb"
LANGUAGE = "de"  # a language Babel knows (its plural rule, its lists); the words are ours
INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
LETTERS = re.compile(r"[^\W\d_]")
LETTER_RUNS = re.compile(r"[^\W\d_]+")
ADDRESS = re.compile(r"https?://\S+")  # a link to type: an address, not words


def marked(english: str) -> str:
    """The message's own words marked, each run between its placeholders: what fills a
    placeholder (a name, a number, another message) shows as it is, so English handed to
    a message as a parameter is found too."""
    done, at = [], 0
    for placeholder in NAMED.finditer(english):
        done += [english[at:placeholder.start()], placeholder.group(0)]
        at = placeholder.end()
    done.append(english[at:])
    return "".join(part if index % 2 else f"{OPEN}{part}{CLOSE}"
                   for index, part in enumerate(done) if part)


def list_words() -> list[str]:
    """The words the language's own lists are joined with ("und"): Babel's, for the
    language, not English left over."""
    patterns = Locale.parse(LANGUAGE).list_patterns
    return sorted({word for style in patterns.values() for pattern in style.values()
                   for word in LETTER_RUNS.findall(pattern)})


def in_pseudo_language(source: Catalog, folder: Path) -> dict:
    """The app's settings offering English and the pseudo-translation of every message of
    `source` (written and compiled into `folder`)."""
    write_catalog(folder, LANGUAGE, translated_in_full(source, LANGUAGE, marked))
    return {"LANGUAGES": ("en", LANGUAGE), "BABEL_TRANSLATION_DIRECTORIES": str(folder)}


# Elements whose content no one reads as text (a textarea's is the value being edited).
UNREAD = {"script", "style", "template", "textarea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
BUTTON_INPUTS = {"submit", "button", "reset"}


class _Reader(HTMLParser):
    """The text a person reads on a page, each text node and read attribute on a line of
    its own; what an element in its own declared language (`lang`, the language picker's
    names) holds is left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.open: list[tuple[str, bool]] = []  # (tag, unread)
        self.joined = False

    def _unread(self) -> bool:
        return bool(self.open) and self.open[-1][1]

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        unread = self._unread() or tag in UNREAD or ("lang" in found and tag != "html")
        if not unread:
            for name in READ_ATTRIBUTES:
                if found.get(name):
                    self.lines.append(found[name])
            if tag == "input" and found.get("type") in BUTTON_INPUTS and found.get("value"):
                self.lines.append(found["value"])
        self.joined = tag == "wbr"  # a break in a word: the text goes on
        if tag not in VOID:
            self.open.append((tag, unread))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                return

    def handle_data(self, data):
        if not self._unread() and data.strip():
            if self.joined and self.lines:
                self.lines[-1] += data.strip()
            else:
                self.lines.append(data.strip())
            self.joined = False


def read_text(page: str) -> list[str]:
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.lines


def unmarked(lines: list[str], allowed: list[str]) -> list[str]:
    """The lines (of a page, or texts of an answer) that still hold a word outside every
    marker once the `allowed` words (players' names, a table's code, typed words) are
    taken out: English no message said."""
    text = "\n".join(lines)
    while True:
        shorter = INNERMOST.sub(" ", text)
        if shorter == text:
            break
        text = shorter
    text = ADDRESS.sub(" ", text)
    for word in sorted(allowed, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", text)
    return [line.strip() for line in text.split("\n") if LETTERS.search(line)]
