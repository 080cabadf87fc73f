"""The rules at hand: each built-in game's rules page in every language, with a section
for every id its engine cites; the setup for a table's own options when opened from it;
the rule a refusal cites in the API's 422 and in `check`, which changes nothing."""
from __future__ import annotations

import re
from html import unescape

import pytest

from companion.games import BUILT_IN, GAMES
from companion.web.languages import SHIPPED
from tests.support.api import Api

SECTION = re.compile(r'<section id="([a-z0-9-]+)" class="rule-section"')


def page_of(client, game: str, language: str, **args):
    response = client.get(f"/rules/{game}", query_string=args,
                          headers={"Accept-Language": language})
    assert response.status_code == 200, response.status_code
    assert f'<html lang="{language}">' in response.get_data(as_text=True)
    return response.get_data(as_text=True)


@pytest.mark.parametrize("language", SHIPPED)
@pytest.mark.parametrize("game", [game.id for game in BUILT_IN])
def test_the_rules_page_has_every_section_its_engine_cites_in_order(client, game, language):
    html = page_of(client, game, language)
    assert SECTION.findall(html) == list(GAMES[game].rule_sections)
    for section in GAMES[game].rule_sections:
        assert f'href="#{section}"' in html  # the contents at the top lead to it


def test_a_game_without_rules_is_not_found(client):
    assert client.get("/rules/chess").status_code == 404


@pytest.mark.parametrize("game", [game.id for game in BUILT_IN])
def test_opened_from_a_table_the_setup_says_what_that_table_needs(client, game):
    engine = GAMES[game]
    options = {"name": "Rummy"} if game == "score-sheet" else {}
    names = ("Ann", "Ben", "Cat", "Dan")[:max(engine.min_players, 3)]
    table = Api(client=client).table(game, players=names, start=False, options=options)
    html = page_of(client, game, "en", table=table.code)
    setup = html[html.index('<section id="setup"'):]
    setup = setup[:setup.index("</section>")]
    assert f"For table {table.code}, with {len(names)} players" in setup
    lines = re.findall(r"<li>(.*?)</li>", setup, re.S)
    assert lines and all(unescape(line).strip() for line in lines)
    assert "For table" not in page_of(client, game, "en")


def test_a_refused_move_cites_its_rule_and_check_answers_the_same_changing_nothing(client):
    api = Api(client=client)
    table = api.table("go-big")
    first = table.view()["turn"]
    token = table.token_of(first)
    out_of_step = {"type": "draw", "source": "deck"}
    status, refused = table.act(token, **out_of_step)
    assert status == 422, refused
    rule = refused["error"]["rule"]
    assert set(rule) == {"id", "title", "url"} and rule["id"] in GAMES["go-big"].rule_sections
    assert rule["url"] == f"/rules/go-big#{rule['id']}"
    assert rule["title"] == GAMES["go-big"].rule_sections[rule["id"]]
    assert f'id="{rule["id"]}"' in page_of(client, "go-big", "en")

    before = table.view(token)["version"]
    status, checked = api.call("POST", f"/tables/{table.code}/check", token, out_of_step)
    assert status == 200 and checked == {"legal": False, "error": refused["error"]}
    offered = table.view(token)["actions"][0]
    a_set = {"type": "play", **offered["sets"][0]}
    status, checked = api.call("POST", f"/tables/{table.code}/check", token, a_set)
    assert (status, checked) == (200, {"legal": True}), a_set
    assert table.view(token)["version"] == before


def test_check_speaks_the_callers_language(client):
    table = Api(client=client).table("go-big")
    token = table.token_of(table.view()["turn"])
    response = client.post(f"/api/v1/tables/{table.code}/check", json={"type": "draw",
                                                                      "source": "deck"},
                           headers={"Authorization": f"Bearer {token}",
                                    "Accept-Language": "de"})
    body = response.get_json()
    assert body["legal"] is False
    assert body["error"]["rule"]["title"] != GAMES["go-big"].rule_sections[
        body["error"]["rule"]["id"]]


def test_check_of_someone_elses_turn_and_without_a_seat(client):
    api = Api(client=client)
    table = api.table("go-big")
    waiting = next(p for p in table.ids.values() if p != table.view()["turn"])
    offered = table.view(table.token_of(table.view()["turn"]))["actions"][0]
    offered = {"type": "play", **offered["sets"][0]}
    status, checked = api.call("POST", f"/tables/{table.code}/check",
                               table.token_of(waiting), offered)
    assert status == 200 and checked["legal"] is False
    assert checked["error"]["code"] in {"forbidden", "illegal"}
    status, _ = api.call("POST", f"/tables/{table.code}/check", None, offered)
    assert status == 401


def test_opened_from_a_table_the_page_names_the_game_it_plays(client):
    api = Api(client=client)
    fan_tan = api.table("big-top", start=False, options={"variant": "fan-tan"})
    html = page_of(client, "big-top", "en", table=fan_tan.code)
    assert "The rules of Fan Tan" in html and "<title>Rules · Fan Tan</title>" in html
    assert "The rules of Big Top" in page_of(client, "big-top", "en")
    golf = api.table("score-sheet", start=False, options={"name": "Golf"})
    assert "The rules of Score sheet" in page_of(client, "score-sheet", "en", table=golf.code)


def test_a_link_naming_no_table_there_opens_the_rules_alone(client):
    for query in ("table=NOPE", "table=NOPE&at=now", "table=" + "X" * 300):
        answer = client.get(f"/rules/go-big?{query}")
        assert answer.status_code == 200, query
        assert "The rules of Go Big" in answer.get_data(as_text=True)


def test_check_of_a_body_that_is_no_action_is_a_bad_request(client):
    api = Api(client=client)
    table = api.table("go-big")
    token = table.token_of(table.view()["turn"])
    for body in ({"choice": "Y"}, {"type": "play", "value": 9, "count": 1}):
        status, answer = api.call("POST", f"/tables/{table.code}/check", token, body)
        assert status == 400 and answer["error"]["code"] == "bad_request", answer


def test_every_screen_of_a_table_links_to_its_rules(client, app):
    api = Api(client=client)
    waiting = api.table("go-big", start=False)
    playing = api.table("go-big")
    turn = playing.view()["turn"]
    phone_in_lobby = app.test_client()
    phone_in_lobby.set_cookie(f"companion_{waiting.code}", waiting.tokens["Ann"])
    phone = app.test_client()
    phone.set_cookie(f"companion_{playing.code}", playing.token_of(turn))
    host = app.test_client()
    host.set_cookie(f"companion_host_{playing.code}", playing.host)
    for screen, url, code in ((phone_in_lobby, f"/t/{waiting.code}", waiting.code),
                              (app.test_client(), f"/d/{waiting.code}", waiting.code),
                              (phone, f"/t/{playing.code}", playing.code),
                              (host, f"/t/{playing.code}/host", playing.code),
                              (app.test_client(), f"/d/{playing.code}", playing.code)):
        html = screen.get(url).get_data(as_text=True)
        section = "setup" if code == waiting.code else "play"
        link = f"/rules/go-big?table={code}&at=now"
        assert f'href="{link.replace("&", "&amp;")}"' in html, url
        # Followed, the link opens the page at the step the table is at then.
        followed = screen.get(link)
        assert followed.status_code == 303, url
        assert followed.headers["Location"] == f"/rules/go-big?table={code}#{section}", url


def test_a_screen_s_rules_link_opens_the_step_the_table_is_at_when_followed(client):
    api = Api(client=client)
    table = api.table("go-big")
    link = f"/rules/go-big?table={table.code}&at=now"
    assert client.get(link).headers["Location"].endswith("#play")
    table.act(table.token_of(table.view()["turn"]), type="play", value=2, count=1)
    assert client.get(link).headers["Location"].endswith("#draw")
    assert client.get(f"/rules/go-big?table={table.code}").status_code == 200
