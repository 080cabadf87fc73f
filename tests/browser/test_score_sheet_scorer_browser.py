"""The host keeping a score sheet as its scorer, in Chromium: typed the way a scorer at a
table types (a digit on the keypad, Enter, the next player), the same score twice in a
row for two players."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import host_screen


def golf_for_three(live_server):
    api = Api(live_server.local_url, app=live_server.app)
    return api.table("score-sheet", players=("Ann", "Ben", "Cat"), options={
        "name": "Golf", "rounds": 9, "lowest_wins": True, "entry": "scorer"})


def open_entry(table, name: str):
    view = table.view(table.host)
    seat = next(s for s in view["state"]["seats"] if s["player"] == table.ids[name])
    return next((row["scores"] for row in seat["rows"] if row.get("open")), None)


class SlowAnswers:
    """The answers to the screen's moves held back until released, as on a busy Wi-Fi,
    where the update pushed on the stream often arrives before the move's own answer."""

    def __init__(self, page, server):
        self.held = []
        self.server = server
        page.route(re.compile(r"/act$"), self.hold)

    def hold(self, route) -> None:
        # Sent on from the test's side, which reaches the server at its local address.
        sent = route.request.url.replace(self.server.url, self.server.local_url)
        self.held.append((route, route.fetch(url=sent)))

    def release(self) -> None:
        while self.held:
            route, answer = self.held.pop(0)
            route.fulfill(response=answer)


def test_the_same_score_typed_for_the_next_player_is_saved_as_typed(live_server, new_phone):
    table = golf_for_three(live_server)
    host = host_screen(new_phone, live_server.url, table.code, table.host)
    answers = SlowAnswers(host, live_server)
    for count, name in enumerate(("Ann", "Ben"), start=1):
        expect(host.get_by_role("radio", name=re.compile(rf"^{name}"))).to_be_checked()
        host.get_by_label("Points", exact=True).click()
        host.keyboard.press("4")
        host.get_by_role("button", name="Enter", exact=True).click()
        # The pushed update shows the entry before the answer to the move arrives.
        expect(host.locator(".entered-line")).to_contain_text(f"{count} of 3")
        answers.release()
    assert open_entry(table, "Ann") == {"Points": 4}
    assert open_entry(table, "Ben") == {"Points": 4}
