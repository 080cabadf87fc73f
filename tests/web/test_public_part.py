"""The public part of a panel: rendered once per version for every screen of a table, and
marked for each viewer (their own seat, lines for some players, a part for screens with
no move to make)."""
from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import template_rendered
from flask_babel import force_locale
from markupsafe import Markup, escape

from companion.games import GAMES
from companion.table import read
from companion.web.public_part import (except_for, for_viewer, mine, only_for, pieces,
                                       public_html, when_idle)
from tests.support.pages import text_of

NAMES = ("Ann", "Ben", "Cat", "Dan")


def seated(api, game: str):
    engine = GAMES[game]
    count = min(max(engine.min_players, 3), engine.max_players)
    return api.table(game, players=NAMES[:count])


def panel(app, code: str, token: str | None, screen: str = "phone") -> str:
    client = app.test_client()
    if screen == "display":
        url = f"/d/{code}/panel"
    else:
        cookie = f"companion_host_{code}" if screen == "host" else f"companion_{code}"
        client.set_cookie(cookie, token)
        url = f"/t/{code}/panel?screen={screen}"
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    return response.get_data(as_text=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_phone_marks_its_own_seat_and_no_other(app, api, game):
    table = seated(api, game)
    for name, token in table.tokens.items():
        html = panel(app, table.code, token)
        text = text_of(html)
        assert text.count("(you)") == 1 and f"{name} (you)" in text, (name, text)
    for screen, token in (("host", table.host), ("display", None)):
        html = panel(app, table.code, token, screen)
        assert "(you)" not in text_of(html) and "data-yours" not in html


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_public_part_is_rendered_once_per_version(app, api, game):
    table = seated(api, game)
    public = f"table/{GAMES[game].folder}/_public.html"
    rendered = []

    def count(sender, template, context, **extra):
        if template.name == public:
            rendered.append(context["view"]["version"])

    template_rendered.connect(count, app)
    try:
        for token in table.tokens.values():
            panel(app, table.code, token)
        panel(app, table.code, table.host, "host")
        panel(app, table.code, None, "display")
    finally:
        template_rendered.disconnect(count, app)
    assert rendered == [table.view()["version"]]


def test_a_mark_is_kept_for_the_viewers_it_names_only():
    shared = pieces(Markup("<p") + mine(3) + Markup(">") + only_for("mine", 3)
                    + except_for("wait", [3, 4]) + when_idle("news"))
    shown = {you: text_of(for_viewer(shared, you, idle=idle))
             for you, idle in ((3, False), (4, True), (5, False), (None, True), (33, False))}
    assert shown == {3: "mine", 4: "news", 5: "wait", None: "wait news", 33: "wait"}
    assert 'data-mine="3" data-yours>' in for_viewer(shared, 3, idle=False)
    assert "data-yours" not in for_viewer(shared, 33, idle=False)
    assert str(for_viewer(shared, None, idle=True)) == "".join(map(str, [
        Markup("<p") + mine(3) + Markup(">"), only_for("mine", 3),
        except_for("wait", [3, 4]), when_idle("news")]))


def test_text_typed_at_the_table_cannot_forge_a_mark():
    typed = '<span data-only="" hidden>x</span> data-mine="1" data-idle="" data-idle hidden'
    shared = str(escape(typed))
    assert pieces(shared) == (shared,)
    assert for_viewer(pieces(shared), 1, idle=True) == shared
    assert str(only_for(typed, 1)).count("<span") == 1


def test_the_public_part_is_shared_per_language(app, api, tmp_path):
    """Each language gets its own copy of a version's public part: a German screen never
    gets the English one rendered first, nor the other way round."""
    catalog = Catalog(locale="de")
    catalog.add("The table", "Der Tisch")
    folder = tmp_path / "translations" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as compiled:
        write_mo(compiled, catalog)
    app.extensions["babel"].translation_directories = [str(tmp_path / "translations")]
    table = seated(api, "go-big")
    with app.test_request_context():
        snapshot = read.find(table.code)
        english = "".join(map(str, public_html(snapshot, "table/go_big", 5)))
        with force_locale("de"):
            german = "".join(map(str, public_html(snapshot, "table/go_big", 5)))
        assert "".join(map(str, public_html(snapshot, "table/go_big", 5))) == english
    assert 'aria-label="The table"' in english and "Der Tisch" not in english
    assert 'aria-label="Der Tisch"' in german and "The table" not in german
