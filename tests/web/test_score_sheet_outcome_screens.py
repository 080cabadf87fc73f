"""Zero-sum rounds and games won without points on the phone, host and display screens
over the test client: by how much a round is off (and nothing more with secret entry),
the host's finish form, the winners or the table's result on every screen, in the reader's
language."""
from __future__ import annotations

import re

from companion.web.languages import COOKIE
from tests.support.pages import page
from tests.support.score_sheets import Sheet

MAHJONG = {"zero_sum": True, "secret": True, "rounds": 2}


def display(sheet):
    return page(sheet.public, f"/d/{sheet.code}")


def test_a_zero_sum_round_that_is_off_says_by_how_much_and_no_entry(app):
    sheet = Sheet(app, **MAHJONG)
    sheet.enter("Ann", 1, {"Points": 317})
    sheet.enter("Ben", 1, {"Points": -119})
    sheet.enter("Cat", 1, {"Points": -193})
    screens = {"Ann": sheet.page("Ann"), "Ben": sheet.page("Ben"),
               "host": sheet.page(None), "display": display(sheet)}
    for where, screen in screens.items():
        assert "Round 1 is off by 5: the entries must add up to 0." in screen, where
        screen = re.sub(r"\?v=[0-9a-f]+", "", screen)  # the static files' versions
        for name, entry in {"Ann": "317", "Ben": "119", "Cat": "193"}.items():
            assert name == where or entry not in screen, (where, name)
    assert "Change my entry" in screens["Ann"]
    sheet.enter("Cat", 1, {"Points": -198})
    screen = display(sheet)
    # (the log's lines still say it was off)
    sheet_shown = re.sub(r'<section class="log".*?</section>', "", screen, flags=re.S)
    assert "is off by" not in sheet_shown and "317" in screen and "Round 2 of 2." in screen


def test_an_off_round_reads_in_the_viewers_language(app):
    sheet = Sheet(app, zero_sum=True, names=("Ann", "Ben"))
    sheet.enter("Ann", 1, {"Points": 4})
    sheet.enter("Ben", 1, {"Points": -1})
    sheet.phones["Ann"].set_cookie(COOKIE, "de")
    assert "Runde 1 liegt um 3 daneben" in sheet.page("Ann")


def test_the_host_names_the_winners_and_every_screen_shows_them(app):
    sheet = Sheet(app, outcome="winners")
    host = sheet.page(None)
    assert "No score is kept: the host ends the game, naming the winners." in host
    assert 'name="winners[]"' in host and "End the game with these winners" in host
    assert 'name="winners[]"' not in sheet.page("Ann")
    ids = sheet.seated.ids
    sheet.post(None, "/act", {"type": "finish", "winners[]": [ids["Ben"], ids["Cat"]]})
    assert sheet.view()["result"]["winners"] == [ids["Ben"], ids["Cat"]]
    for screen in (sheet.page("Ann"), display(sheet)):
        assert "winner" in screen and "Ben and Cat won." in screen


def test_finishing_with_no_winner_is_refused_in_words_and_changes_nothing(app):
    sheet = Sheet(app, outcome="winners")
    panel = sheet.post(None, "/act", {"type": "finish"}, status=422)
    assert "Name at least one winner." in panel
    assert sheet.view()["status"] == "playing"


def test_a_cooperative_game_lost_with_a_score_and_an_empty_score_taken_as_none(app):
    sheet = Sheet(app, outcome="cooperative")
    host = sheet.page(None)
    assert "The table won" in host and "Score (if the game has one)" in host
    sheet.post(None, "/act", {"type": "finish", "won": "false", "score": "3"})
    for screen in (sheet.page("Ann"), display(sheet)):
        assert "Lost together." in screen and "Score: 3." in screen
    assert sheet.view()["result"]["winners"] == []
    other = Sheet(app, outcome="cooperative")
    other.post(None, "/act", {"type": "finish", "won": "true", "score": ""})
    assert "Won together." in display(other)


def test_a_game_won_without_points_shows_no_score_column_no_chart_and_no_score_in_its_text(app):
    sheet = Sheet(app, outcome="winners")
    ids = sheet.seated.ids
    sheet.post(None, "/act", {"type": "finish", "winners[]": [ids["Ben"]]})
    assert sheet.view()["result"]["scored"] is False
    for screen in (sheet.page("Ann"), display(sheet)):
        standings = screen[screen.index('<table class="standings">'):]
        standings = standings[:standings.index("</table>")]
        assert 'class="score num"' not in standings and ">Score<" not in standings
        assert 'class="chart-box"' not in screen
        assert "1. Ben, 2. Ann, 2. Cat." in screen  # the text to paste, no 0 after a name
    scored = Sheet(app, outcome="cooperative")
    scored.post(None, "/act", {"type": "finish", "won": "true", "score": "7"})
    assert scored.view()["result"]["scored"] is True
    assert 'class="score num">7<' in display(scored)
