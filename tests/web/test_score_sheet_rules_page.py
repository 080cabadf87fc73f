"""The score sheet's rules page over HTTP: a refused entry cites the section that explains
it, and the page opened from a table says what that sheet needs, in the reader's
language."""
from __future__ import annotations

from tests.support.api import Api


def test_a_player_entering_at_a_scorers_table_is_pointed_to_who_enters(client):
    table = Api(client=client).table("score-sheet", options={"name": "Golf",
                                                             "entry": "scorer"})
    status, refused = table.act(table.tokens["Ann"], type="enter", round=1,
                                scores={"Points": 4})
    assert status == 403, refused
    assert refused["error"]["rule"] == {"id": "entering", "title": "Entering the scores",
                                        "url": "/rules/score-sheet#entering"}
    page = client.get("/rules/score-sheet").get_data(as_text=True)
    assert '<section id="entering"' in page and "only the host enters" in page


def test_a_tables_setup_names_its_game_its_dealer_and_its_cards_in_german(client):
    table = Api(client=client).table("score-sheet", players=("Ann", "Ben", "Cat", "Dan"),
                                     start=False, options={"name": "Wizard", "bids": "wizard",
                                                           "dealer": True, "rounds": 15})
    page = client.get(f"/rules/score-sheet?table={table.code}",
                      headers={"Accept-Language": "de"}).get_data(as_text=True)
    setup = page[page.index('<section id="setup"'):]
    setup = setup[:setup.index("</section>")]
    assert "Für Tisch" in setup and "mit 4 Spielern" in setup
    assert "Baut das Spiel „Wizard“ nach seinen eigenen Regeln auf" in setup
    assert "Der erste Spieler der Sitzordnung gibt in Runde 1" in setup
    assert "Die letzte Runde, Runde 15, gibt jedem Spieler 15 Karten." in setup
