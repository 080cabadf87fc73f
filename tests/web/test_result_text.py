"""The result as text to paste: every game's finished table reads as one line of places,
players and scores under the game's name and the day it ended, then the result's own
sentence (the winner, a tie-break); a score sheet by its game's name; ties share a place;
the date as the reader's region writes it, the words in the reader's language (in a
pseudo-translation no word of it is left outside a message); on the phone, the host screen
and the table display alike, in a field whose text is there without the script. A game's
day is fixed by bringing its record in again with the dates of 6 December 2026 (a
record's dates are its own)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from companion import record_import
from companion.games import GAMES
from companion.web.languages import COOKIE
from tests.support.api import Api
from tests.support.browser_tables import GAME_TABLES
from tests.support.catalogs import extracted
from tests.support.pages import HOSTILE_NAMES, inert
from tests.support.pseudo import LANGUAGE, in_pseudo_language, list_words, unmarked
from tests.support.screens import as_host, as_player

FIELD = re.compile(r'<textarea id="result-text"([^>]*)>(.*?)</textarea>', re.S)
TOOLS = re.compile(r'<div class="row result-text-tools"([^>]*)>')
BRITISH = "en-GB,en;q=0.8"
WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]
# Ann and Ben tie on 87 and the tie-break (Birds) splits them; Cat and Dan tie on 41 with
# as many Birds, and share third place.
ROWS = {"Ann": [32, 8, 5, 11, 6, 25], "Ben": [28, 12, 9, 10, 8, 20],
        "Cat": [20, 5, 3, 4, 2, 7], "Dan": [20, 6, 2, 4, 2, 7]}


def text_on(client, url: str, language: str = BRITISH) -> str:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, (url, response.status_code)
    found = FIELD.search(response.get_data(as_text=True))
    assert found, f"{url}: no result text"
    assert " readonly" in found.group(1), f"{url}: the field can be typed into"
    return unescape(found.group(2))


def on_the_sixth(app, table) -> str:
    """The code of the table's game brought in again from its record, which says it was
    played on the evening of 6 December 2026."""
    record = app.test_client().get(f"/t/{table.code}/record.json").get_json()
    record.update(created_at="2026-12-06T19:00:00Z", finished_at="2026-12-06T21:30:00Z")
    with app.app_context():
        code, imported = record_import.import_record(record, "record.json")
    assert imported
    return code


def standings_of(view: dict) -> str:
    names = {p["id"]: p["name"] for p in view["players"]}
    return ", ".join(f"{s['place']}. {names[s['player']]} {s['score']}"
                     for s in view["result"]["standings"])


def finished_sheet(app, players=tuple(ROWS)):
    table = Api(client=app.test_client()).table("score-sheet", players=players, options={
        "name": "Wingspan", "rounds": 1, "categories": WINGSPAN,
        "tiebreaks": [{"by": "category", "category": "Birds"}]})
    for name in players:
        status, body = table.act(table.tokens[name], type="enter", round=1,
                                 scores=dict(zip(WINGSPAN, ROWS.get(name, ROWS["Cat"]))))
        assert status == 200, body
    assert table.view()["status"] == "finished"
    return table


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_result_reads_as_text(app, game):
    options, players, _ = GAME_TABLES.get(game, ({}, ("Ann", "Ben", "Cat"), 0))
    api = Api(client=app.test_client())
    table = api.table(game, players=players[:GAMES[game].max_players], options=options,
                      seed=11)
    table.finish()
    code = on_the_sixth(app, table)
    view = api.call("GET", f"/tables/{code}")[1]
    name = options.get("name") or GAMES[game].title
    assert text_on(app.test_client(), f"/d/{code}") == (
        f"{name}, 6 Dec 2026: {standings_of(view)}.\n{view['result']['explanation']}")


def test_a_sheet_by_its_name_with_a_broken_tie_and_a_shared_place(app):
    code = on_the_sixth(app, finished_sheet(app))
    explanation = Api(client=app.test_client()).call(
        "GET", f"/tables/{code}")[1]["result"]["explanation"]
    assert "Birds" in explanation  # the tie-break's own sentence
    assert text_on(app.test_client(), f"/d/{code}") == (
        "Wingspan, 6 Dec 2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.\n" + explanation)


# The first line read in each language, its date as the browser's region writes dates and
# its places listed as the language lists a tally.
FIRST_LINES = {
    "en-GB": "Wingspan, 6 Dec 2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.",
    "en-US": "Wingspan, Dec 6, 2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.",
    "de-DE": "Wingspan, 06.12.2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.",
    "de-AT": "Wingspan, 06.12.2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.",
    "fr-FR": "Wingspan, 6 déc. 2026\u00a0: 1. Ann 87, 2. Ben 87, 3. Cat 41 et 3. Dan 41.",
    "es-ES": "Wingspan, 6 dic 2026: 1. Ann 87, 2. Ben 87, 3. Cat 41, 3. Dan 41.",
    "pl-PL": "Wingspan, 6 gru 2026: 1. Ann 87, 2. Ben 87, 3. Cat 41 i 3. Dan 41.",
}


@pytest.mark.parametrize("language", sorted(FIRST_LINES))
def test_the_date_as_the_readers_region_writes_it_and_the_words_in_their_language(
        app, language):
    code = on_the_sixth(app, finished_sheet(app))
    client = app.test_client()
    explanation = client.get(f"/api/v1/tables/{code}", headers={
        "Accept-Language": language}).get_json()["result"]["explanation"]
    assert text_on(client, f"/d/{code}", language).split("\n") == [
        FIRST_LINES[language], explanation]


def test_every_word_of_it_is_a_message_but_names_numbers_and_dates(app_with, tmp_path):
    """Read in a pseudo-translation that marks every message, each game's text holds no
    word outside a marker but the players' names: nothing in it stays English."""
    (tmp_path / "extracted").mkdir()
    pseudo = app_with(**in_pseudo_language(extracted(tmp_path / "extracted"),
                                           tmp_path / "catalogs"))
    left = {}
    for game in ("go-big", "big-money", "big-top", "nothing-beats-a-large"):
        options, players, _ = GAME_TABLES[game]
        table = Api(client=pseudo.test_client()).table(game, players, options=options, seed=11)
        table.finish()
        reader = pseudo.test_client()
        reader.set_cookie(COOKIE, LANGUAGE)
        text = text_on(reader, f"/d/{table.code}")
        left[game] = unmarked(text.split("\n"), [*players, *list_words()])
    assert not any(left.values()), left


def test_every_result_screen_shows_it_in_a_field_there_without_the_script(app):
    """The phone, the host screen and the table display show the same text; its Copy and
    Share wait for the script (hidden), the field's text does not. Names are text in it."""
    players = ("Ann", HOSTILE_NAMES[0], HOSTILE_NAMES[3])
    table = finished_sheet(app, players)
    screens = {"phone": (as_player(app.test_client(), table.code, table.tokens["Ann"]),
                         f"/t/{table.code}"),
               "host": (as_host(app.test_client(), table.code, table.host),
                        f"/t/{table.code}/host"),
               "display": (app.test_client(), f"/d/{table.code}")}
    texts = {}
    for screen, (client, url) in screens.items():
        texts[screen] = text_on(client, url)
        page = client.get(url).get_data(as_text=True)
        inert(page, screen)
        assert " hidden" in TOOLS.search(page).group(1), f"{screen}: Copy shows without script"
        assert page.count('data-copy="result-text"') == 1
    assert texts["phone"] == texts["host"] == texts["display"]
    first = texts["phone"].split("\n")[0]
    assert first.startswith("Wingspan, ") and first.endswith(
        f"1. Ann 87, 2. {HOSTILE_NAMES[0]} 41, 2. {HOSTILE_NAMES[3]} 41.")


def test_a_game_being_played_has_no_result_text(app):
    table = Api(client=app.test_client()).table("go-big")
    table.play(3)
    phone = as_player(app.test_client(), table.code, table.tokens["Ann"])
    assert 'id="result-text"' not in phone.get(f"/t/{table.code}").get_data(as_text=True)
