"""Pages: their CSRF token, fetching them with the test client, and checking that nothing
on them runs (player names are text, no inline script)."""
from __future__ import annotations

import hashlib
import html
import re
from html.parser import HTMLParser

# Names that would run script or break out of an attribute if they were not escaped: the
# trust suite plays every game with them, so every screen of every game renders them.
HOSTILE_NAMES = ('<script>f()</script>', '<img src=x onerror=f()>', 'Ann "&" \'Bo\'',
                 '"><svg onload=f()>', 'Dan</li><b>', 'Eve')


def csrf_of(html_text: str) -> str:
    """The CSRF token a page hands its forms and htmx requests."""
    return re.search(r'"X-CSRFToken": "([^"]+)"', html_text).group(1)


VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta source track wbr".split())


class _ShownText(HTMLParser):
    """The text of the elements a person sees: not inside a `hidden` element or a
    template, a script, a style or a textarea."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element: whether it hides its content

    def handle_starttag(self, tag, attrs):
        if tag in VOID_ELEMENTS:
            self.words.append(" ")
            return
        self.open.append((tag, any(name == "hidden" for name, _ in attrs)
                          or tag in ("template", "script", "style", "textarea")))
        self.words.append(" ")

    def handle_startendtag(self, tag, attrs):
        self.words.append(" ")

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self.open):  # (an unclosed <p> ends too)
            while self.open.pop()[0] != tag:
                pass
        self.words.append(" ")

    def handle_data(self, data):
        if not any(hides for _, hides in self.open):
            self.words.append(data)


def text_of(markup: str) -> str:
    """What a person reads of some HTML: its text with entities read, a tag parting words,
    whitespace collapsed; what is hidden (the `hidden` attribute, a template), scripts,
    styles and the values held in fields (a textarea's, as an input's) left out."""
    reader = _ShownText()
    reader.feed(markup)
    reader.close()
    return " ".join("".join(reader.words).split())


def page(client, url: str, status: int = 200) -> str:
    """The text of a page fetched with the test client, checking its status."""
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


REVEAL_LINK = re.compile(r'href="([^"]*/as/\d+\?reveal=[^"]+)"')


def reveal_link(cover_html: str) -> str:
    """The link of a phoneless player's privacy cover that shows their screen (once)."""
    return html.unescape(REVEAL_LINK.search(cover_html).group(1))


def revealed(client, cover_url: str) -> str:
    """A phoneless player's screen on the host device, as the host shows it: the cover
    first, then its link (the test client keeps the cover's cookie)."""
    return page(client, reveal_link(page(client, cover_url)))


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith(("on", "hx-on")):
                self.problems.append(f"an inline event handler {name}= on <{tag}>")
            if name in ("href", "src", "action", "formaction", "hx-get", "hx-post") and \
                    (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"a javascript: URL in <{tag} {name}>")
        if tag == "script" and not dict(attrs).get("src"):
            self.problems.append("an inline <script>")


# The digests of the pages found inert: a screen's stream sends every screen the same
# table parts, which are read once.
_FOUND_INERT: set[bytes] = set()


def inert(page_text: str, where: str) -> None:
    """No player name is markup, and nothing on the page runs inline script."""
    digest = hashlib.blake2b(page_text.encode(), digest_size=16).digest()
    if digest in _FOUND_INERT:
        return
    for name in HOSTILE_NAMES:
        if name != html.escape(name, quote=False):
            assert name not in page_text, f"{where}: the name {name!r} is not escaped"
    tags = _Tags()
    tags.feed(page_text)
    assert not tags.problems, f"{where}: {tags.problems[0]}"
    _FOUND_INERT.add(digest)
