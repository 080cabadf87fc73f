"""What Big Money's screens tests share: a reader of a page's forms (each form's
attributes, inputs and submit buttons, what a browser would post), and a Biz News deck of
Antitrust Fines alone, for a table whose every Biz News draw is known."""
from __future__ import annotations

from html.parser import HTMLParser

ANTITRUST_ONLY = [{"name": "Antitrust Fine", "text": "Pay 5 per Asset of your largest industry.",
                   "count": 2, "effect": {"kind": "fine_largest_industry", "amount": 5}}]


class Forms(HTMLParser):
    """The forms of a page: each with its attributes, inputs and submit buttons."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._textarea: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"attrs": attrs, "inputs": [], "buttons": []}
            self.forms.append(self._form)
        elif self._form is not None and tag == "input":
            self._form["inputs"].append(attrs)
        elif self._form is not None and tag == "textarea":
            self._textarea = {**attrs, "type": "textarea", "value": ""}
            self._form["inputs"].append(self._textarea)
        elif self._form is not None and tag == "button":
            self._form["buttons"].append(attrs)

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea["value"] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "textarea":
            self._textarea = None
