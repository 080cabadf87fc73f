"""The secrecy suite's search: the secrets a game declares (`engine.secrets(state)`) and
where they may not appear, in JSON answers, HTML pages and event streams (how a secret is
matched: tests/trust/test_secrecy.py)."""
from __future__ import annotations

import html as html_lib
import json
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from companion.games.messages import text_from_json
from companion.i18n import messages
from tests.support.counts import COUNTS
from tests.support.pages import inert, text_of


def token_pattern(text: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])")


def holds(found: Any, secret: Any) -> bool:
    """Does a JSON value found under a secret's key give that secret away?"""
    if isinstance(secret, list) and isinstance(found, list):
        wanted, there = Counter(map(json.dumps, secret)), Counter(map(json.dumps, found))
        return bool(secret) and all(there[k] >= n for k, n in wanted.items())
    return found == secret and type(found) is type(secret)


def text_forms(key: str, value: Any) -> list[str]:
    """How a keyed secret reads when JSON or Python writes it into a text."""
    compact = json.dumps(value, separators=(",", ":"), sort_keys=True)
    spaced = json.dumps(value, sort_keys=True)
    return [f'"{key}": {spaced}', f'"{key}":{compact}', f"'{key}': {value!r}"]


@dataclass
class Needles:
    """What one viewer must not find: every other player's declared secrets."""

    texts: dict[str, int] = field(default_factory=dict)           # text -> owner
    pairs: list[tuple[int, str, Any]] = field(default_factory=list)  # (owner, key, value)
    universe: set[str] = field(default_factory=set)               # every text secret

    @classmethod
    def of(cls, secrets: dict[int, list], viewer: int | None) -> "Needles":
        needles = cls()

        # A text secret the viewer declares too is its own as well (Big Top: a card two
        # players entered, each of whom sees it in their own hand): no needle for it.
        own = {value for owner, values in secrets.items() if owner == viewer
               for value in values if isinstance(value, str)}

        def add(owner: int, value: Any) -> None:
            if isinstance(value, str):
                needles.universe.add(value)
                if owner != viewer and value not in own:
                    needles.texts[value] = owner
            elif isinstance(value, dict):
                for key, item in value.items():
                    if owner != viewer:
                        needles.pairs.append((owner, str(key), item))
            elif isinstance(value, (list, tuple)):
                for item in value:
                    add(owner, item)
            else:
                raise AssertionError(f"secrets() gave a bare {value!r}: declare a number under "
                                     f"its key, e.g. {{'bank_total': {value!r}}}")

        for owner, values in secrets.items():
            for value in values:
                add(owner, value)
        return needles

    def any_text(self) -> re.Pattern | None:
        """One pattern that matches a string wherever the token pattern of any text secret
        does (a quick first look: which secret it was is asked of each pattern after)."""
        if not self.texts:
            return None
        return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, self.texts))
                          + r")(?![\w-])")

    def pairs_by_key(self) -> dict[str, list[tuple[int, str, Any]]]:
        """The keyed secrets a JSON key can give away, in their order: those under that
        key, and those of the player whose id the key is."""
        found: dict[str, list[tuple[int, str, Any]]] = {}
        for pair in self.pairs:
            owner, key, _ = pair
            found.setdefault(key, []).append(pair)
            if str(owner) != key:
                found.setdefault(str(owner), []).append(pair)
        return found


class Leak(AssertionError):
    pass


class Guard:
    """Searches every response for the secrets of players other than its viewer."""

    def __init__(self, engine, seed: int, names: dict[int, str]):
        self.engine, self.seed, self.names = engine, str(seed), names
        self.over = False
        self.secrets: dict[int, list] = {}
        self.secrets_at: dict[int, dict[int, list]] = {}  # by the version they were shown at
        self.events: list[dict] = []
        self.by_seq: dict[int, dict] = {}
        self.private_sections: dict[int, str] = {}
        # Per viewer, the values its views have shown under a player's id (see json()).
        self.owner_keyed: dict[int | None, set] = {}

    def show(self, state: dict | None, events: list[dict], over: bool = False,
             version: int | None = None) -> None:
        """The state (and log) the next responses show."""
        self.over = over
        self.secrets = self.engine.secrets(state) if state is not None else {}
        self.events = events
        self.private_sections = {}
        if version is not None:
            self.secrets_at[version] = self.secrets

    @contextmanager
    def as_of(self, version: int | None):
        """Check what was sent at an earlier version (a stream's event read late)
        against the secrets of that version."""
        now = self.secrets
        self.secrets = self.secrets_at.get(version, now)
        try:
            yield
        finally:
            self.secrets = now

    def _fail(self, where: str, what: str, owner: int) -> None:
        raise Leak(f"{self.engine.id}: {where} shows {what} of player {owner} "
                   f"({self.names.get(owner)!r})")

    # JSON ----------------------------------------------------------------------------
    def json(self, body: Any, viewer: int | None, where: str) -> None:
        COUNTS["responses_checked"] += 1
        assert self.over or self.seed not in json.dumps(body), f"{where} holds the seed"
        needles = Needles.of(self.secrets, viewer)
        patterns = {text: token_pattern(text) for text in needles.texts}
        any_text, pairs_by_key = needles.any_text(), needles.pairs_by_key()

        def walk(node: Any, path: tuple) -> None:
            if isinstance(node, dict):
                where_in_view = path[1:] if path[:1] == ("table",) else path
                mine = path[-1:] == ("private",)  # the viewer's own field
                for key, value in node.items():
                    place = None
                    if key in ids:
                        place = (where_in_view + (key,), json.dumps(value, sort_keys=True))
                        owner_keyed.add(place)
                    for owner, secret_key, secret in pairs_by_key.get(key, ()):
                        under_key = key == secret_key and not mine
                        # Under its owner's id, unless the same value was there already
                        # before (the last cast, revealed, may equal the one locked now).
                        under_owner = False
                        if key == str(owner) and secret is not None:
                            if place is None:
                                place = (where_in_view + (key,),
                                         json.dumps(value, sort_keys=True))
                            under_owner = place not in before
                        if (under_key or under_owner) and holds(value, secret):
                            self._fail(f"{where} at {'.'.join(map(str, path + (key,)))}",
                                       f"{{{secret_key!r}: {secret!r}}}", owner)
                    walk(value, path + (key,))
            elif isinstance(node, list):
                texts = {item for item in node if isinstance(item, str)}
                domain = bool(needles.universe) and needles.universe < texts
                for index, item in enumerate(node):
                    if not (domain and isinstance(item, str)):
                        walk(item, path + (index,))
            elif isinstance(node, str) and any_text is not None and any_text.search(node):
                for text, pattern in patterns.items():
                    if pattern.search(node):
                        self._fail(f"{where} at {'.'.join(map(str, path))}", repr(text),
                                   needles.texts[text])

        ids = {str(player) for player in self.names}
        before, owner_keyed = self.owner_keyed.setdefault(viewer, set()), set()
        walk(body, ())
        before |= owner_keyed
        self._log_lines(body, viewer, where)

    def _forbidden_lines(self, seq: int, viewer: int | None) -> list[tuple[int, str]]:
        """The log lines of event `seq` written for players other than `viewer`."""
        if len(self.by_seq) != len(self.events):
            self.by_seq = {e["seq"]: e for e in self.events}
        by_seq = self.by_seq
        event = by_seq.get(seq)
        if event is None:
            return []
        if event["kind"] == "undo":
            event = by_seq[event["undoes"]]
        found = []
        for note in event["notes"]:
            mine = note["private"].get(str(viewer)) if viewer is not None else None
            for owner, text in note["private"].items():
                if int(owner) != viewer and text not in (note["text"], mine):
                    found.append((int(owner), messages.render(text_from_json(text),
                                                              self.names)))
        return found

    def _log_lines(self, body: Any, viewer: int | None, where: str) -> None:
        lines = body.get("events") if isinstance(body, dict) else None
        if not isinstance(lines, list):
            return
        for line in lines:
            for owner, text in self._forbidden_lines(line["seq"], viewer):
                if text in line["summary"]:
                    self._fail(f"{where}, log line {line['seq']}", f"the private line {text!r}",
                               owner)

    # text and HTML -------------------------------------------------------------------
    def text(self, text: str, viewer: int | None, where: str, count: bool = True) -> None:
        if count:
            COUNTS["responses_checked"] += 1
        assert self.over or self.seed not in text, f"{where} holds the table's seed"
        needles = Needles.of(self.secrets, viewer)
        any_text = needles.any_text()
        if any_text is not None and any_text.search(text):
            for secret, owner in needles.texts.items():
                if token_pattern(secret).search(text):
                    self._fail(where, repr(secret), owner)
        for owner, key, value in needles.pairs:
            for form in text_forms(key, value):
                if form in text:
                    self._fail(where, form, owner)

    def html(self, page: str, viewer: int | None, where: str) -> None:
        COUNTS["responses_checked"] += 1
        inert(page, where)
        needles = Needles.of(self.secrets, viewer)
        searched = page
        if needles.universe:
            for form in re.findall(r"<form\b.*?</form>", page, flags=re.S):
                plain = html_lib.unescape(form)
                offered = set(re.findall(r'value="([^"]*)"', plain))
                if len(offered) > len(needles.universe) and \
                        all(token_pattern(s).search(plain) for s in needles.universe):
                    searched = searched.replace(form, "")
        self.text(html_lib.unescape(searched), viewer, where, count=False)
        mine = private_sections(page)
        if viewer is None:
            assert not mine, f"{where}: a private section on a screen of no player"
        assert len(mine) <= 1, f"{where}: more than one private section"
        own = text_of(mine[0]) if mine else None
        whole = None
        for owner, section in self.private_sections.items():
            if owner != viewer and section and section != own:
                whole = text_of(page) if whole is None else whole
                if section in whole:
                    self._fail(where, "the private section", owner)

    def learn_private_section(self, player: int, page: str) -> None:
        found = private_sections(page)
        self.private_sections[player] = text_of(found[0]) if found else ""


def private_sections(page: str) -> list[str]:
    """Every <section class="private ..."> element, nested sections included."""
    found = []
    for start in re.finditer(r'<section\b[^>]*\bclass="private\b', page):
        depth, index = 0, start.start()
        for tag in re.finditer(r"<(/?)section\b", page[index:]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                found.append(page[index:index + tag.end()])
                break
    return found


def history_items(page: str) -> list[str]:
    section = re.search(r'<ol class="history".*?</ol>', page, flags=re.S)
    items = re.findall(r'<li class="(?:undone)?">\s*<span>(.*?)</span>', section.group(0),
                       flags=re.S) if section else []
    return [html_lib.unescape(item).strip() for item in items]


def log_items(page: str) -> list[str]:
    section = re.search(r'<section class="log".*?</section>', page, flags=re.S)
    if section is None:
        return []
    items = re.findall(r'<li data-seq="\d+"(?: class="undone")?>(.*?)</li>', section.group(0),
                       flags=re.S)
    return [html_lib.unescape(item).strip() for item in items]
