"""Nothing Beats a Large's "why not" lines on the screens: the player whose choice it is
reads who they cannot rob or challenge, with a link to the rule; no one else reads them."""
from __future__ import annotations

import re

from tests.support.api import Api
from tests.support.pages import page, text_of

GAME = "nothing-beats-a-large"
# Seed 0 deals Ann a green Large and Ben a green Medium (seats Ann, Ben, Cat).
SEED = 0
WHY_NOT = re.compile(r'<ul class="why-not"[^>]*>(.*?)</ul>', re.S)


def why_not_of(client, code: str, screen: str = "") -> str | None:
    found = WHY_NOT.search(page(client, f"/t/{code}{screen}"))
    return found.group(1) if found else None


def seated(app, client):
    table = Api(client=client).table(game=GAME, seed=SEED)
    phones = {}
    for name, token in table.tokens.items():
        phones[name] = app.test_client()
        phones[name].set_cookie(f"companion_{table.code}", token)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    return table, phones, host


def test_the_winner_reads_who_cannot_be_robbed_with_the_rule_and_no_one_else_does(app, client):
    table, phones, host = seated(app, client)
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    assert table.act(ann, type="challenge", opponent=table.ids["Ben"])[0] == 200
    assert table.act(ann, type="cast", piece="green-L")[0] == 200
    assert table.act(ben, type="cast", piece="green-M")[0] == 200

    lines = why_not_of(phones["Ann"], table.code)
    assert lines is not None
    assert text_of(lines) == ("You cannot rob Cat: the winner of a cast takes a piece only "
                              "from its loser. Rule: Stealing")
    assert 'href="/rules/nothing-beats-a-large#steal"' in lines
    assert why_not_of(phones["Ben"], table.code) is None
    assert why_not_of(phones["Cat"], table.code) is None
    assert why_not_of(host, table.code, "/host") is None

    status, _ = table.act(ann, type="steal", piece="red-L")
    assert status == 200
    lines = why_not_of(phones["Ben"], table.code)
    assert lines is not None
    assert text_of(lines) == ("You cannot challenge Ann, who has just cast: challenge "
                              "someone who did not. Rule: Challenging")
    assert 'href="/rules/nothing-beats-a-large#challenge"' in lines
    assert why_not_of(phones["Ann"], table.code) is None
    assert why_not_of(phones["Cat"], table.code) is None


def test_the_line_and_its_rule_read_in_the_players_language(app, client):
    table, phones, _ = seated(app, client)
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    table.act(ann, type="challenge", opponent=table.ids["Ben"])
    table.act(ann, type="cast", piece="green-L")
    table.act(ben, type="cast", piece="green-M")
    phones["Ann"].set_cookie("companion_language", "de")
    lines = why_not_of(phones["Ann"], table.code)
    assert lines is not None
    assert text_of(lines) == ("Du kannst Cat nichts abnehmen: Wer ein Duell gewinnt, nimmt "
                              "nur dem Verlierer eine Pyramide ab. Regel: Stehlen")
