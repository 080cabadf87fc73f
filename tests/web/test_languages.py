"""Each screen in its own reader's language: the picker's cookie, else the browser's
Accept-Language, else English; the headers that say so; the streams, each in its
viewer's language. A small German catalog stands in for the languages to come."""
from __future__ import annotations

import re

import pytest

from companion.errors import not_found
from companion.table.checks import field_problem
from companion.web import links
from companion.web.languages import COOKIE, SHIPPED
from tests.support.api import Api
from tests.support.app import LiveServer, make_app
from tests.support.catalogs import in_test_german
from tests.support.pages import csrf_of, page
from tests.support.streams import Stream

GERMAN_BROWSER = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


@pytest.fixture
def german_app(app_with, tmp_path):
    return app_with(**in_test_german(tmp_path / "catalogs"))


def language_of(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.get_data(as_text=True)).group(1)


def test_a_page_is_read_in_the_language_its_browser_asks_for(german_app):
    response = german_app.test_client().get("/", headers=GERMAN_BROWSER)
    assert response.status_code == 200
    assert language_of(response) == "de" and response.headers["Content-Language"] == "de"
    assert "Einem Tisch beitreten" in response.get_data(as_text=True)
    assert {"Accept-Language", "Cookie"} <= set(response.vary)

    english = german_app.test_client().get("/")
    assert language_of(english) == "en" and english.headers["Content-Language"] == "en"
    assert "Join a table" in english.get_data(as_text=True)
    assert {"Accept-Language", "Cookie"} <= set(english.vary)


@pytest.mark.parametrize("header", ["fr-FR,fr;q=0.9", "de;q=0", "xx-YY", ";;;,,q=",
                                    "de;q=abc, *", "\u00e9" * 300, "*"])
def test_an_unknown_or_malformed_accept_language_is_english(german_app, header):
    response = german_app.test_client().get("/", headers={"Accept-Language": header})
    assert response.status_code == 200
    assert language_of(response) == "en" and response.headers["Content-Language"] == "en"


@pytest.mark.parametrize("cookie", ["fr", "DE", "de-DE", "<script>", "", "en;de"])
def test_an_unknown_or_malformed_cookie_is_passed_over(german_app, cookie):
    client = german_app.test_client()
    client.set_cookie(COOKIE, cookie)
    assert language_of(client.get("/")) == "en"
    assert language_of(client.get("/", headers=GERMAN_BROWSER)) == "de"


def test_the_picked_language_beats_the_browsers(german_app):
    client = german_app.test_client()
    client.set_cookie(COOKIE, "en")
    assert language_of(client.get("/", headers=GERMAN_BROWSER)) == "en"
    client.set_cookie(COOKIE, "de")
    response = client.get("/", headers={"Accept-Language": "en"})
    assert language_of(response) == "de" and response.headers["Content-Language"] == "de"


def test_the_picker_keeps_the_choice_and_returns_to_the_page(german_app):
    client = german_app.test_client()
    home = page(client, "/")
    picker = re.search(r'<form method="post" action="/language" class="language-picker" novalidate>'
                       r'.*?</form>', home, re.S).group(0)
    assert re.findall(r'lang="(\w+)"[^>]*>([^<]+)</button>', picker) == [
        ("en", "English"), ("de", "Deutsch")]
    assert 'value="en" lang="en" class="button quiet" aria-current="true"' in picker
    assert 'name="next" value="/"' in picker

    response = client.post("/language", data={"language": "de", "next": "/games",
                                              "csrf_token": csrf_of(home)})
    assert response.status_code == 303 and response.headers["Location"] == "/games"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=de;") and "SameSite=Lax" in cookie
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) > 300 * 24 * 3600
    games = client.get("/games")
    assert language_of(games) == "de" and "Vergangene Spiele" in games.get_data(as_text=True)
    assert 'value="de" lang="de" class="button quiet" aria-current="true"' in \
        games.get_data(as_text=True)


def test_the_picker_returns_to_the_same_address_with_its_query(german_app):
    client = german_app.test_client()
    response = client.get("/join?code=zz")  # a page answered 404 still has the picker
    assert response.status_code == 404 and response.headers["Content-Language"] == "en"
    assert 'name="next" value="/join?code=zz"' in response.get_data(as_text=True)


def test_picking_works_without_a_form_or_script(german_app):
    client = german_app.test_client()
    response = client.get("/language?language=de&next=/games")
    assert response.status_code == 303 and response.headers["Location"] == "/games"
    assert language_of(client.get("/games")) == "de"


def test_a_post_without_its_csrf_token_changes_nothing(german_app):
    client = german_app.test_client()
    response = client.post("/language", data={"language": "de", "next": "/"})
    assert response.status_code == 400
    assert "Set-Cookie" not in response.headers or COOKIE not in response.headers["Set-Cookie"]
    assert language_of(client.get("/")) == "en"


@pytest.mark.parametrize("language", ["fr", "xx", "", "de<script>", "\u00e9" * 50])
def test_an_unknown_picked_language_is_english(german_app, language):
    client = german_app.test_client()
    client.set_cookie(COOKIE, "de")
    response = client.get("/language", query_string={"language": language, "next": "/"})
    assert response.status_code == 303
    assert response.headers["Set-Cookie"].startswith(f"{COOKIE}=en;")
    assert language_of(client.get("/", headers=GERMAN_BROWSER)) == "en"


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/x",
                                    "/\\elsewhere.example", "javascript:alert(1)", "games", ""])
def test_the_picker_returns_only_to_this_site(german_app, target):
    response = german_app.test_client().get("/language", query_string={
        "language": "de", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_the_five_languages_ship_and_one_language_alone_shows_no_picker(client, app,
                                                                       database_url, tmp_path):
    assert app.config["LANGUAGES"] == SHIPPED == ("en", "de", "fr", "es", "pl")
    assert all(name in page(client, "/") for name in ("Deutsch", "Français", "Polski"))
    english_only = make_app(database_url, tmp_path, LANGUAGES=("en",)).test_client()
    text = page(english_only, "/")
    assert "language-picker" not in text and '<html lang="en">' in text


def test_the_apis_errors_follow_accept_language_and_its_codes_stay_english(german_app):
    client = german_app.test_client()
    response = client.get("/api/v1/tables/ZZZZ", headers=GERMAN_BROWSER)
    assert response.status_code == 404 and response.headers["Content-Language"] == "de"
    assert response.get_json()["error"] == {"code": "not_found",
                                            "message": "Es gibt keinen Tisch mit diesem Code."}
    english = client.get("/api/v1/tables/ZZZZ").get_json()["error"]
    assert english == {"code": "not_found", "message": "There is no table with that code."}
    lost = client.get("/nowhere/at/all", headers=GERMAN_BROWSER)
    assert lost.status_code == 404
    assert "Unter dieser Adresse gibt es nichts." in lost.get_data(as_text=True)


def test_a_field_the_api_did_not_understand_is_named_in_the_readers_language(client):
    """Pydantic's own words never reach the reader: each kind of error has a sentence of
    ours, the values a field allows listed as the contract spells them."""
    german = {"Accept-Language": "de"}
    status, body = _posted(client, "/api/v1/tables", {"game": "go-big", "options": []}, german)
    assert status == 400
    assert body["error"]["message"] == ("Das wurde nicht verstanden (options: kein Wert der "
                                        "richtigen Art).")
    status, body = _posted(client, "/api/v1/tables", {"game": "chess"}, german)
    message = body["error"]["message"]
    assert status == 400 and "game: einer der Werte 'go-big', " in message
    assert " or " not in message and "Input should" not in message
    code = _posted(client, "/api/v1/tables", {"game": "go-big", "options": {}}, {})[1]["code"]
    status, body = _posted(client, f"/api/v1/tables/{code}/players", {"name": 5}, german)
    assert status == 400  # what is wrong with a name, in the name's own words
    assert body["error"]["message"] == "Ein Name ist ein Text."
    with client.application.test_request_context("/", headers=german):
        assert field_problem({"loc": (), "type": "model_type", "msg": "Input should be"}) == (
            "die Eingabe: kein Wert der richtigen Art")
        assert field_problem({"loc": ("x",), "type": "value_error", "msg": "Value error"}) == (
            "x: ungültig")


def _posted(client, path: str, body, headers: dict) -> tuple[int, dict]:
    response = client.post(path, json=body, headers=headers)
    return response.status_code, response.get_json()


def test_each_screen_keeps_its_own_language(german_app):
    """The host screen, the display and a phone are browsers each with its own cookie:
    one's choice changes nothing on another."""
    table = Api(client=german_app.test_client()).table("guess-number", ("Ann", "Ben"))
    host, display = german_app.test_client(), german_app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    host.set_cookie(COOKIE, "en")
    display.get("/language?language=de&next=/")
    assert "Zahlen von 1 bis 20." in page(display, f"/d/{table.code}")
    assert "Numbers from 1 to 20." in page(host, f"/t/{table.code}/host")
    host.get("/language?language=en&next=/")
    assert "Zahlen von 1 bis 20." in page(display, f"/d/{table.code}")


def test_two_phones_at_one_table_each_get_their_own_language_pushed(german_app):
    """The public part is rendered once per version and language: a German phone and an
    English one, at the same version, each get theirs, and so does a German display."""
    server = LiveServer(german_app).start()
    try:
        api = Api(server.url)
        table = api.table("guess-number", ("Ann", "Ben"))
        version = table.view()["version"]
        url = f"{server.url}/t/{table.code}/events?screen=phone&since={version}"
        ann = Stream(url, cookies={f"companion_{table.code}": table.tokens["Ann"],
                                   COOKIE: "de"}, headers={"Accept-Language": "en"})
        ben = Stream(url, cookies={f"companion_{table.code}": table.tokens["Ben"]},
                     headers=GERMAN_BROWSER | {"Accept-Language": "en-GB,en;q=0.9"})
        display = Stream(f"{server.url}/d/{table.code}/events?since={version}",
                         headers=GERMAN_BROWSER)
        assert ann.response.headers["Content-Language"] == "de"
        assert ben.response.headers["Content-Language"] == "en"
        assert display.response.headers["Content-Language"] == "de"
        table.act(table.tokens["Ann"], type="choose", number=7)
        for events, said, unsaid in ((ann, "Zahlen von 1 bis 20.", "Numbers from 1 to"),
                                     (ben, "Numbers from 1 to 20.", "Zahlen von"),
                                     (display, "Zahlen von 1 bis 20.", "Numbers from 1 to")):
            event, html = events.get(timeout=5)
            assert event == "panel" and f'data-version="{version + 1}"' in html
            assert said in html and unsaid not in html
    finally:
        server.stop()


def test_the_terminal_speaks_the_servers_language(german_app, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    text = links.welcome(german_app, "http://192.0.2.1:8000")
    assert text.startswith("\nCompanion läuft. Öffne dies")
    assert "\n    http://192.0.2.1:8000\n" in text
    for other in ("C.UTF-8", "fr_FR.UTF-8", "not a locale", ""):
        monkeypatch.setenv("LANG", other)
        assert links.welcome(german_app, "http://192.0.2.1:8000").startswith(
            "\nCompanion is running. Open this on any phone or laptop on the same Wi-Fi:\n\n")


def test_past_games_show_dates_and_numbers_as_the_language_writes_them(german_app):
    table = Api(client=german_app.test_client()).table("guess-number", ("Ann", "Ben"))
    table.finish()
    client = german_app.test_client()
    german = client.get("/games", headers=GERMAN_BROWSER).get_data(as_text=True)
    assert re.search(r"<p>Finished \d{2}\.\d{2}\.\d{2}, \d{2}:\d{2} · ", german), german
    english = client.get("/games").get_data(as_text=True)
    assert re.search(r"<p>Finished \d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s[AP]M · ", english), \
        english


def test_a_message_read_without_a_request_is_english(german_app):
    with german_app.app_context():
        assert not_found().to_json()["error"]["message"] == "There is no table with that code."


def test_the_score_chart_is_drawn_in_each_readers_language(german_app):
    """The chart is drawn once per version and kept: once per language too, so the first
    screen to draw it does not fix its words for every other."""
    table = Api(client=german_app.test_client()).table("go-big", ("Ann", "Ben"))
    table.finish()
    german, english = german_app.test_client(), german_app.test_client()
    german.set_cookie(COOKIE, "de")
    for client in (german, english, german):
        client.set_cookie(f"companion_{table.code}", table.tokens["Ann"])
    assert "Punkte im Lauf des Spiels" in page(german, f"/t/{table.code}")
    shown = page(english, f"/t/{table.code}")
    assert "Scores over the game" in shown and "Punkte im Lauf des Spiels" not in shown


def test_each_language_has_its_own_compiled_templates(german_app):
    """A template is compiled once per catalog, its messages translated in as it is: the
    copy one language compiled first never serves a reader of another, in either order."""
    table = Api(client=german_app.test_client()).table("guess-number", ("Ann", "Ben"))
    german, english = german_app.test_client(), german_app.test_client()
    german.set_cookie(COOKIE, "de")
    for client, said, unsaid in ((english, "Numbers from 1 to 20.", "Zahlen von"),
                                 (german, "Zahlen von 1 bis 20.", "Numbers from 1 to"),
                                 (english, "Numbers from 1 to 20.", "Zahlen von")):
        shown = page(client, f"/d/{table.code}")
        assert said in shown and unsaid not in shown


def test_a_message_renders_in_the_readers_language_with_its_values_escaped(german_app):
    """A template's message: its placeholders filled in and escaped (the translation itself
    is not), a literal percent sign, a message inside an expression (kept in a variable,
    joined to markup, which stays markup), a plural, a message named by a variable, one
    joined to constants alone; each in the reader's language, at every rendering."""
    from flask import render_template_string

    templates = {
        "printed": '{{ _("Numbers from 1 to %(highest)s.", highest=top) }}|'
                   '{{ _("Room code") }}|{{ _("100%% <i>sure</i>") }}|'
                   "{{ _('Numbers from 1 to %(highest)s.', "
                   "highest=('<b>'|safe ~ top ~ '</b>'|safe)) }}",
        "kept": '{% set said = _("Numbers from 1 to %(highest)s.", highest=top) %}'
                '{{ said }}|{{ said|length }}',
        "joined": "{{ '<small>'|safe ~ _('Room code') ~ top }}|"
                  '{{ "<b>"|default(_("Room code")) }}|{{ unset|default(_("Room code")) }}',
        "at_rendering": '{{ _(word) }}|{{ ngettext("Exported %(num)s table to %(file)s.", '
                        '"Exported %(num)s tables to %(file)s.", 2, file="<f>") }}|'
                        "{{ '<small>'|safe ~ _('Room code') ~ '</small>'|safe }}",
    }
    for language, numbers, code in (("de", "Zahlen von 1 bis", "Raumcode"),
                                    ("en", "Numbers from 1 to", "Room code"),
                                    ("de", "Zahlen von 1 bis", "Raumcode")):
        with german_app.test_request_context("/", headers={"Cookie": f"{COOKIE}={language}"}):
            def rendered(name: str, **values) -> str:
                return render_template_string(templates[name], **values)

            assert rendered("printed", top="<b>") == (
                f"{numbers} &lt;b&gt;.|{code}|100% <i>sure</i>|{numbers} <b>&lt;b&gt;</b>.")
            assert rendered("kept", top="<b>") == (
                f"{numbers} &lt;b&gt;.|{len(numbers + ' &lt;b&gt;.')}")
            assert rendered("joined", top="<b>") == f"<small>{code}&lt;b&gt;|&lt;b&gt;|{code}"
            rooms = "Exported 2 tables to &lt;f&gt;."  # (not in the test's German)
            assert rendered("at_rendering", word="Room code") == (
                f"{code}|{rooms}|<small>{code}</small>")


def test_a_template_may_name_its_placeholders_as_it_likes(german_app):
    """The templates' gettext and ngettext take their strings by position: a placeholder
    called `text`, `string` or `plural` is the template's own (a replay's secret lines are
    "%(name)s read: %(text)s")."""
    from flask import render_template_string

    with german_app.test_request_context("/"):
        shown = render_template_string(
            '{{ _("%(text)s, %(string)s", text="<b>", string="b") }} '
            '{{ ngettext("%(num)s %(plural)s", "%(num)s %(plural)ss", 2, plural="card") }}'
            '{% for n in [1, 2] %} {{ ngettext("%(num)s %(what)s", "%(num)s %(what)ss", n, '
            'what="<i>") }}{% endfor %}')
    assert shown == "&lt;b&gt;, b 2 cards 1 &lt;i&gt; 2 &lt;i&gt;s"


def test_a_refusal_in_the_readers_language_shows_a_players_name_as_text(client):
    """A message read in the reader's language that names a player (a name taken at the
    join form, in Polish) never lets the name in as markup."""
    table = Api(client=client).table(players=("<b>Bo</b>",), start=False)
    form = page(client, f"/j/{table.code}")
    response = client.post(f"/j/{table.code}", headers={"Accept-Language": "pl"},
                           data={"name": "<b>Bo</b>", "csrf_token": csrf_of(form)})
    text = response.get_data(as_text=True)
    assert response.status_code == 409 and '<html lang="pl">' in text
    assert "<b>Bo</b>" not in text and "&lt;b&gt;Bo&lt;/b&gt;" in text


def test_the_picker_comes_back_to_the_page_not_to_what_a_request_carried(client):
    """The picker keeps what of a page's query says which page it is (a replay's step, a
    screen): not a move a request carried (a previewed card is the asker's own business,
    and nothing to come back to)."""
    text = page(client, "/games?step=3&card=clowns-L3&screen=host")
    assert 'name="next" value="/games?step=3&amp;screen=host"' in text
    assert "clowns-L3" not in text
