"""The rules at hand, in Chromium at the LAN address on 360 x 740 phones: a refused move
says why and links to the rule that forbids it, which opens on its section in a tab of its
own (the half-typed move stays where it was); Go Big's "why not" lines follow the table as
the hands and displays change."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, seat_phone


def test_a_refused_entry_links_to_the_rule_that_opens_on_its_section(app, live_server,
                                                                      new_phone):
    table = Api(client=app.test_client()).table(
        "score-sheet", players=("Ann", "Ben"), options={"name": "Golf", "rounds": 2})
    ann = seat_phone(new_phone, live_server.url, table, "Ann")
    ann.get_by_label("Points", exact=True).fill("-4")
    ann.get_by_role("button", name="Enter round 1").click()
    expect(ann.locator(".error[role=alert]")).to_have_text(
        "Scores below 0 are not allowed on this sheet.")
    link = ann.locator(".rule-cited").get_by_role("link", name=re.compile("^Rule: "))
    expect(link).to_have_attribute("href", "/rules/score-sheet#entering")
    with ann.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/score-sheet#entering")
    section = rules.locator("section#entering")
    expect(section).to_be_in_viewport()
    assert rules.evaluate("document.querySelector(':target').id") == "entering"
    # The phone is where it was, with what was typed.
    expect(ann.get_by_label("Points", exact=True)).to_have_value("-4")
    assert table.view()["state"]["entered"] == []


def go_big_move(table, name: str) -> None:
    """The player whose turn it is plays their first set, then draws from the deck."""
    token = table.tokens[name]
    view = table.view(token)
    assert view["turn"] == table.ids[name]
    assert table.act(token, type="play", **view["actions"][0]["sets"][0])[0] == 200
    assert table.act(token, type="draw", source="deck")[0] == 200


def test_go_bigs_why_not_lines_follow_the_table(app, live_server, new_phone):
    table = Api(client=app.test_client()).table("go-big", players=("Ann", "Ben"), seed=5)
    first = table.names[table.view()["turn"]]
    other = next(name for name in ("Ann", "Ben") if name != first)
    phone = seat_phone(new_phone, live_server.url, table, first)
    why_not = phone.locator("ul.why-not")
    # The first turn: no one shows a set yet, so any set beats nothing.
    expect(why_not).to_contain_text("No one else shows a set")
    expect(why_not.locator(".rule-link").first).to_have_attribute(
        "href", re.compile(r"^/rules/go-big#[a-z-]+$"))
    go_big_move(table, first)
    # Not this player's turn: no lines at all.
    expect(why_not).to_have_count(0, timeout=SOON)
    go_big_move(table, other)
    # Their turn again, the other's set on the table: the first line is gone.
    expect(why_not).to_be_visible(timeout=SOON)
    expect(why_not).not_to_contain_text("No one else shows a set")
    expect(why_not).to_contain_text("There is no banking step to tap")
