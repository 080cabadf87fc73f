"""The picture of a result, /t/CODE/result.png, for a group chat: for every game, a PNG at
least 1080 px wide, in the reader's language with every letter in its font, showing only
what the result shows everyone; refused before the end and for an unknown table, and
fetched again for nothing (its ETag)."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageDraw

from companion.games import BUILT_IN
from companion.plot import plot_of
from companion.result_picture import BOLD, REGULAR, ResultSheet, draw, drawn_text, font
from companion.auth import Viewer
from companion.table import moves, read
from companion.web.languages import SHIPPED
from companion.web.pictures import result_sheet
from tests.support.api import Api
from tests.support.pages import text_of
from tests.support.screens import as_host, as_player

OPTIONS = {"go-big": {"copies_per_value": 4}}
# A character no font of ours has: it is drawn as the font's "missing" box.
NO_SUCH_GLYPH = "\U0010fffd"


def finished(app, game: str):
    table = Api(client=app.test_client()).table(game, players=("Ann", "Bożena", "Çelik"),
                                                seed=11, options=OPTIONS.get(game))
    table.finish()
    return table


def drawn_alone(face, character: str) -> bytes:
    size = int(face.size)
    image = Image.new("L", (size * 3, size * 3))
    ImageDraw.Draw(image).text((size, size), character, font=face, fill=255)
    return image.tobytes()


def missing_glyphs(texts: list[str]) -> set[str]:
    """The characters of `texts` that the picture's fonts draw as their "missing" box."""
    missing = set()
    for face in (font(REGULAR, 26), font(BOLD, 26)):
        box = drawn_alone(face, NO_SUCH_GLYPH)
        missing |= {character for character in set("".join(texts))
                    if not character.isspace() and drawn_alone(face, character) == box}
    return missing


def test_the_font_check_finds_a_missing_letter():
    assert missing_glyphs(["Ann ąćęłńóśźżßñéèêç"]) == set()
    assert missing_glyphs(["Ann \u4e2d"]) == {"\u4e2d"}  # no Chinese in DejaVu Sans


@pytest.mark.parametrize("game", [engine.id for engine in BUILT_IN])
def test_every_games_result_is_a_picture_in_every_language(app, game):
    table = finished(app, game)
    anyone = app.test_client()  # no cookie: the result is everyone's once the game is over
    secrets = {table.host, *table.tokens.values()}
    for language in SHIPPED:
        asked = {"Accept-Language": language}
        response = anyone.get(f"/t/{table.code}/result.png", headers=asked)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        assert response.mimetype == "image/png"
        assert response.headers["Content-Language"] == language
        picture = Image.open(io.BytesIO(response.data))
        assert picture.format == "PNG" and picture.width >= 1080 and picture.height >= 600
        with app.test_request_context(headers=asked):
            sheet = result_sheet(read.find(table.code))
        assert draw(sheet) == response.data  # what is checked below is what was drawn
        texts = drawn_text(sheet)
        assert not missing_glyphs(texts), (language, missing_glyphs(texts))
        if language != "en":
            assert sheet.columns[:2] != ["Place", "Player"], language
            assert not sheet.winners.startswith("Winner"), language
        # Only what the table display's result shows anyone (the date and the winners'
        # line aside, which name the standings' first): no secret, no token.
        shown = text_of(anyone.get(f"/d/{table.code}", headers=asked).get_data(as_text=True))
        for text in [t for t in texts if t not in (sheet.date, sheet.winners)]:
            assert " ".join(text.split()) in shown, (language, text)
        winners = [row[1] for row, first in zip(sheet.rows, sheet.first) if first]
        assert winners and all(name in sheet.winners for name in winners)
        assert not any(secret in text for secret in secrets for text in texts)


def test_the_picture_is_refused_before_the_end_and_for_an_unknown_table(app):
    api = Api(client=app.test_client())
    anyone = app.test_client()
    lobby = api.table(start=False)
    playing, ended = api.table(), api.table()
    playing.play(3)
    ended.play(3)
    with app.app_context():
        moves.end(read.find(ended.code), Viewer(is_host=True), None)
    for table, english in ((lobby, "when the game is over"), (playing, "when the game is over"),
                           (ended, "ended this table before the game was over")):
        for language in SHIPPED:
            response = anyone.get(f"/t/{table.code}/result.png",
                                  headers={"Accept-Language": language})
            assert response.status_code == 409 and response.mimetype == "text/html"
            assert response.headers["Content-Language"] == language
            said = text_of(response.get_data(as_text=True))
            assert (english in said) == (language == "en"), (language, said)
    assert playing.view()["status"] == "playing" and ended.view()["status"] == "ended"
    response = anyone.get("/t/ZZZZ/result.png")
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_a_chat_fetching_the_picture_again_gets_it_for_nothing(app):
    table = finished(app, "go-big")
    chat = app.test_client()
    first = chat.get(f"/t/{table.code}/result.png", headers={"Accept-Language": "pl"})
    tag = first.headers["ETag"]
    assert first.status_code == 200 and "no-cache" in first.headers["Cache-Control"]
    assert {"Accept-Language", "Cookie"} <= set(first.vary)
    again = chat.get(f"/t/{table.code}/result.png",
                     headers={"Accept-Language": "pl", "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    other = chat.get(f"/t/{table.code}/result.png",
                     headers={"Accept-Language": "de", "If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] != tag


def test_every_result_screen_offers_the_picture_by_its_games_name_and_date(app):
    table = finished(app, "big-top")
    screens = {"phone": as_player(app.test_client(), table.code, table.tokens["Ann"]),
               "host": as_host(app.test_client(), table.code, table.host),
               "display": app.test_client()}
    for screen, url in (("phone", f"/t/{table.code}"), ("host", f"/t/{table.code}/host"),
                        ("display", f"/d/{table.code}")):
        html = screens[screen].get(url).get_data(as_text=True)
        link = re.search(r'<a class="button" href="([^"]+)" download="([^"]+)">([^<]+)</a>',
                         html[html.index('class="result"'):])
        assert link, screen
        assert link.group(1) == f"/t/{table.code}/result.png"
        assert re.fullmatch(rf"Big-Top-\d{{4}}-\d\d-\d\d-{table.code}\.png", link.group(2))
        assert link.group(3) == "Download the picture"
        disposition = screens[screen].get(link.group(1)).headers["Content-Disposition"]
        assert f'filename="{link.group(2)}"' in disposition


def sheet_of(columns: list[str], rows: list[list[str]]) -> ResultSheet:
    series = {number: [0, number, 2 * number] for number in range(1, len(rows) + 1)}
    return ResultSheet(title="Wingspan", date="6 December 2026", winners="Winner: P1",
                       explanation="P1 wins.", columns=columns, rows=rows,
                       first=[index == 0 for index in range(len(rows))], caption="Scores",
                       legend={player: f"P{player}" for player in series}, scale=("6", "0"),
                       plot=plot_of(series))


def paper_at_the_right(png: bytes) -> bool:
    """Whether the picture's right margin is bare: nothing drawn runs off its side."""
    picture = Image.open(io.BytesIO(png)).convert("L")
    margin = picture.crop((picture.width - 40, 0, picture.width, picture.height))
    return margin.getextrema() == (255, 255)


def test_standings_too_wide_for_the_picture_widen_it_and_nothing_is_cut():
    usual = draw(sheet_of(["Place", "Player", "Total"], [["1", "Ann", "85"], ["2", "Ben", "81"]]))
    assert Image.open(io.BytesIO(usual)).width == 1200 and paper_at_the_right(usual)
    columns = ["Place", "Player", "Total", *(f"Category {n} (tie-break)" for n in range(5))]
    wide = draw(sheet_of(columns, [["1", "Maximiliane von Hohenzollern-Sigmaringen", "85",
                                    "1", "2", "3", "4", "5"]]))
    assert Image.open(io.BytesIO(wide)).width > 1200 and paper_at_the_right(wide)
