"""What a process keeps for the requests and streams it serves at once. Under threaded
workers (gthread, `COMPANION_THREADS`) they run in threads of their own, and a thread may
be stopped between any two steps of another's: each test stops a thread inside a read of
what is kept (while it hashes its key) and lets another thread change it meanwhile."""
from __future__ import annotations

import threading
from collections.abc import Callable

from companion.web import compress, sheet_pieces
from companion.web.kept import Kept


class PausingKey:
    """A key that, the `at`-th time it is hashed once armed, runs `meanwhile` in another
    thread and waits for it (a second at most: it may be waiting for this one)."""

    def __init__(self, name: str):
        self.name = name
        self.hashed = 0
        self.at: int | None = None
        self.meanwhile: Callable[[], None] | None = None
        self.other: threading.Thread | None = None

    def arm(self, at: int, meanwhile: Callable[[], None]) -> None:
        self.hashed, self.at, self.meanwhile = 0, at, meanwhile

    def __hash__(self) -> int:
        self.hashed += 1
        if self.hashed == self.at and self.meanwhile is not None:
            self.other = threading.Thread(target=self.meanwhile)
            self.other.start()
            self.other.join(timeout=1)
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PausingKey) and other.name == self.name

    def done(self) -> None:
        """The other thread ran, while this one was inside its read, and ended."""
        assert self.other is not None
        self.other.join(timeout=5)
        assert not self.other.is_alive()


def a_sheet(seats: int, rounds: int) -> dict:
    return {"bids": False, "seats": [
        {"rows": [{"total": seat * 100 + index} for index in range(rounds)]}
        for seat in range(seats)]}


def test_a_row_another_thread_forgets_while_it_is_read(app, monkeypatch):
    """A sheet's row is read from what is kept while another thread renders enough
    other rows to push it out: the reader still has its row."""
    monkeypatch.setattr(sheet_pieces, "KEPT", 2)
    sheet = a_sheet(seats=3, rounds=5)
    template = "table/score_sheet/_round_row.html"
    key = PausingKey("row")
    failed: list[BaseException] = []

    def other_rows() -> None:
        try:
            with app.test_request_context("/"):
                for index in range(1, 5):
                    sheet_pieces.sheet_round_row(sheet, index, False)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            failed.append(exc)

    with app.test_request_context("/"):
        first = sheet_pieces.rendered_once(key, template, sheet=sheet, index=0, latest=False)
        key.arm(2, other_rows)  # the second hash of a read: after finding the row
        again = sheet_pieces.rendered_once(key, template, sheet=sheet, index=0, latest=False)
    key.done()
    assert again == first and 'id="sheet-round-1"' in again and failed == []


def test_a_kept_copy_another_thread_forgets_while_it_is_read():
    """The static files' compressed copies (Flask-Compress's cache): a copy read while
    another thread keeps enough others to push it out."""
    copies = compress.static_copies()
    pausing = PausingKey("app.js")
    # A new tuple at each lookup, as the cache is given: its hash is worked out at each
    # step of a lookup (for the very key it holds last, the map may skip one).
    copies.set((pausing, "br"), b"copy")
    failed: list[BaseException] = []

    def others() -> None:
        try:
            for n in range(copies.size):
                copies.set(f"file-{n}", b"other")
        except BaseException as exc:  # noqa: BLE001 (reported below)
            failed.append(exc)
    pausing.arm(2, others)  # the second hash of a read: after finding the copy
    assert copies.get((pausing, "br")) == b"copy"
    pausing.done()
    assert failed == [] and len(copies) == copies.size


def test_what_is_kept_stays_within_its_size_and_is_read_back():
    kept = Kept(3)
    for n in range(5):
        kept.set(n, str(n))
    assert kept.get(4) == "4" and kept.get(0) is None and len(kept) == 3
    assert kept.get(2) == "2"
    kept.set(5, "5")  # 3 is now the least recently used
    assert kept.get(3) is None and kept.get(2) == "2"
