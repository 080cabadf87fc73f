"""A sentence about a list of people agrees with how many they are, in every language:
"Esperando a que Cat elija", "Esperando a que Ben y Cat elijan" (Big Money's setup, on a
phone and on the host screen, one person and several)."""
from __future__ import annotations

import re

import pytest

from tests.support.api import Api
from tests.support.pages import page, text_of

NAMES = ("Ann", "Ben", "Cat")
# (language, phone's "the others choose theirs" for one, for several; the host screen's
# "choose a Start-Up" for one, for several)
SAID = {
    "en": ("Waiting for Cat to choose theirs.", "Waiting for Ben and Cat to choose theirs.",
           "Waiting for Cat to choose a Start-Up.",
           "Waiting for Ann, Ben and Cat to choose a Start-Up."),
    "de": ("Noch nicht gewählt hat: Cat.", "Noch nicht gewählt haben: Ben und Cat.",
           "Noch kein Start-up gewählt hat: Cat.",
           "Noch kein Start-up gewählt haben: Ann, Ben und Cat."),
    "es": ("Esperando a que Cat elija la suya.", "Esperando a que Ben y Cat elijan la suya.",
           "Esperando a que Cat elija una Startup.",
           "Esperando a que Ann, Ben y Cat elijan una Startup."),
    "fr": ("Cat n'a pas encore choisi la sienne.", "Ben et Cat n'ont pas encore choisi la leur.",
           "Cat doit encore choisir une Start-up.",
           "Ann, Ben et Cat doivent encore choisir une Start-up."),
    "pl": ("Czekamy, aż Cat wybierze swój start-up.",
           "Czekamy, aż Ben i Cat wybiorą swoje start-upy.",
           "Czekamy, aż Cat wybierze start-up.",
           "Czekamy, aż Ann, Ben i Cat wybiorą start-upy."),
}



def page_text(client, url: str) -> str:
    return text_of(page(client, url))


@pytest.mark.parametrize("language", sorted(SAID))
def test_big_money_setup_agrees_with_one_person_and_several(app, language):
    table = Api(client=app.test_client()).table("big-money", players=NAMES, seed=7)
    ann, host = app.test_client(), app.test_client()
    ann.set_cookie(f"companion_{table.code}", table.tokens["Ann"])
    host.set_cookie(f"companion_host_{table.code}", table.host)
    for client in (ann, host):
        client.set_cookie("companion_language", language)
    one_left, several_left, one_choosing, several_choosing = SAID[language]

    assert several_left in page_text(ann, f"/t/{table.code}")
    assert several_choosing in page_text(host, f"/t/{table.code}/host")
    assert table.act(table.tokens["Ben"], type="startup", industry="food")[0] == 200
    assert one_left in page_text(ann, f"/t/{table.code}")
    assert table.act(table.tokens["Ann"], type="startup", industry="food")[0] == 200
    assert one_choosing in page_text(host, f"/t/{table.code}/host")
    assert one_choosing in page_text(ann, f"/t/{table.code}")


# Big Top's hand entry: (language, Ann's phone before she enters, with two others still to
# enter; after she has, with one still to enter)
HANDS = {
    "en": ("Your turn: enter your hand. Ben and Cat are still entering theirs.",
           "Your hand is in. Waiting for Cat to enter their hand."),
    "de": ("Du bist dran: Gib deine Hand ein. Ben und Cat geben ihre noch ein.",
           "Deine Hand ist eingegeben. Warten, bis Cat die Hand eingibt."),
    "es": ("Te toca: introduce tu mano. Ben y Cat aún están introduciendo las suyas.",
           "Tu mano ya está introducida. Esperando a que Cat introduzca su mano."),
    "fr": ("À vous : saisissez votre main. Ben et Cat saisissent encore les leurs.",
           "Votre main est saisie. On attend que Cat saisisse sa main."),
    "pl": ("Twoja kolej: wpisz swoje karty na ręce. Ben i Cat wciąż wpisują swoje.",
           "Twoje karty są wpisane. Czekamy, aż Cat wpisze swoje karty."),
}


def turn_line(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    page = response.get_data(as_text=True)
    # The viewer's own turn line where it reads otherwise than the table's (which it hides).
    found = (re.search(r'<div id="own-turn" data-own-turn>\s*<div class="turn[^"]*">(.*?)</div>',
                       page, re.S)
             or re.search(r'<div class="turn[^"]*">(.*?)</div>', page, re.S))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.mark.parametrize("language", sorted(HANDS))
def test_big_top_hand_entry_names_who_is_still_entering(app, language):
    table = Api(client=app.test_client()).table("big-top", players=NAMES, seed=7)
    ann = app.test_client()
    ann.set_cookie(f"companion_{table.code}", table.tokens["Ann"])
    ann.set_cookie("companion_language", language)
    before, after = HANDS[language]
    assert turn_line(ann, f"/t/{table.code}") == before
    for name in ("Ann", "Ben"):
        hand = table.view(table.tokens[name])["actions"][0]
        cards = hand["cards"][:int(hand["expected_count"])]
        status, body = table.act(table.tokens[name], type="hand", cards=cards)
        assert status == 200, body
    assert turn_line(ann, f"/t/{table.code}") == after
