"""Go Big's "why not" lines on a phone: under the moves of the player whose turn it is, each
with a link to the rule that says so, in the phone's language and with the players' names."""
from __future__ import annotations

import re
from html import unescape

from tests.support.pages import page
from tests.support.screens import new_table, post, seat

WHY_NOT = re.compile(r'<ul class="why-not"[^>]*>(.*?)</ul>', re.S)


def why_not_lines(html: str) -> list[tuple[str, str | None]]:
    """Each line's text and the address its rule link opens."""
    found = WHY_NOT.search(html)
    if found is None:
        return []
    lines = []
    for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S):
        link = re.search(r'<a class="rule-link" href="([^"]+)"', item)
        text = unescape(re.sub(r"<a .*?</a>|<[^>]+>", "", item, flags=re.S)).strip()
        lines.append((text, link.group(1) if link else None))
    return lines


def started(app, host, names=("Ann", "Ben")):
    code = new_table(host)
    phones = {name: seat(app, code, name) for name in names}
    post(host, f"/t/{code}/start", {}, f"/t/{code}/host")
    return code, phones


def test_the_phone_whose_turn_it_is_says_why_there_is_no_bank_step_with_its_rule(app, host):
    code, phones = started(app, host)
    lines = why_not_lines(page(phones["Ann"], f"/t/{code}"))
    assert ("There is no banking step to tap: the app banks your display as your turn "
            "begins.", "/rules/go-big#bank") in lines
    assert ("No one else shows a set: whatever you play now beats nothing.",
            "/rules/go-big#beating") in lines
    assert why_not_lines(page(phones["Ben"], f"/t/{code}")) == []
    assert 'id="bank"' in page(phones["Ann"], "/rules/go-big#bank")


def test_a_display_no_set_can_beat_is_named_with_its_owner(app, host):
    code, phones = started(app, host)
    post(phones["Ann"], f"/t/{code}/act", {"type": "play", "value": "1", "count": "1"},
         f"/t/{code}")
    post(phones["Ann"], f"/t/{code}/act", {"type": "draw", "source": "deck"}, f"/t/{code}")
    lines = why_not_lines(page(phones["Ben"], f"/t/{code}/panel"))
    assert ("No one can beat Ann's single 1: no value is lower than 1.",
            "/rules/go-big#beating") in lines


def test_the_lines_speak_the_phones_language(app, host):
    code, phones = started(app, host)
    phones["Ann"].set_cookie("companion_language", "de")
    lines = why_not_lines(page(phones["Ann"], f"/t/{code}"))
    assert ("Für die Bank gibt es nichts anzutippen: Die App legt deine Auslage zu Beginn "
            "deines Zugs in deine Bank.", "/rules/go-big#bank") in lines
