"""The one rendering of the engines' messages: translated with the screen's catalog
(plural forms, nested messages, lists and numbers as the language has them), names filled
in and escaped, and English exactly as the engines' source text."""
from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask_babel import force_locale
from markupsafe import Markup

from companion.games.engine import Note
from companion.games.messages import Player, message, players, plural
from companion.i18n import messages
from tests.support.app import make_app

NAMES = {1: "Ann", 2: "<b>Bob</b>", 3: "Cat & Co"}
DREW = ("%(player)s drew %(count)s card from the deck.",
        "%(player)s drew %(count)s cards from the deck.")
POLISH = {DREW: ("%(player)s dobiera %(count)s kartę z talii.",
                 "%(player)s dobiera %(count)s karty z talii.",
                 "%(player)s dobiera %(count)s kart z talii."),
          "%(players)s won with %(set)s.": "%(players)s wygrywa: %(set)s.",
          "pair of %(value)ss": "para %(value)s"}


def drew(count: int):
    return plural(*DREW, "count", player=Player(2), count=count)


def polish_catalog(folder) -> None:
    catalog = Catalog(locale="pl")
    for source, translated in POLISH.items():
        catalog.add(source, translated)
    path = folder / "pl" / "LC_MESSAGES"
    path.mkdir(parents=True)
    with open(path / "messages.mo", "wb") as out:
        write_mo(out, catalog)


def test_english_reads_as_the_engines_source_text_with_names_escaped(app):
    line = message("%(players)s won with %(set)s.", players=players([1, 2, 3]),
                   set=message("pair of %(value)ss", value=4))
    with app.test_request_context("/"):
        assert messages.render(line, NAMES) == "Ann, <b>Bob</b> and Cat & Co won with pair of 4s."
        html = messages.render(line, NAMES, html=True)
        assert isinstance(html, Markup)
        assert html == ("Ann, &lt;b&gt;Bob&lt;/b&gt; and Cat &amp; Co won with pair of 4s.")
        assert messages.render(drew(1), NAMES) == "<b>Bob</b> drew 1 card from the deck."
        assert messages.render(drew(12345), {}) == "someone drew 12345 cards from the deck."
        # A line stored as English text, before messages, still reads.
        assert messages.render("{name:1} passed.", NAMES, html=True) == "Ann passed."
    # The same outside a request (a command), and as the line's own text in a test.
    assert messages.render(drew(3), NAMES) == "<b>Bob</b> drew 3 cards from the deck."
    assert drew(3) == "{name:2} drew 3 cards from the deck."


def test_a_catalog_translates_plurals_nested_messages_and_lists(tmp_path):
    polish_catalog(tmp_path / "translations")
    app = make_app(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path,
                   BABEL_TRANSLATION_DIRECTORIES=str(tmp_path / "translations"))
    line = message("%(players)s won with %(set)s.", players=players([1, 2, 3]),
                   set=message("pair of %(value)ss", value=4))
    with app.test_request_context("/"), force_locale("pl"):
        assert [messages.render(drew(n), NAMES) for n in (1, 2, 5)] == [
            "<b>Bob</b> dobiera 1 kartę z talii.", "<b>Bob</b> dobiera 2 karty z talii.",
            "<b>Bob</b> dobiera 5 kart z talii."]
        assert messages.render(line, NAMES, html=True) == (
            "Ann, &lt;b&gt;Bob&lt;/b&gt; i Cat &amp; Co wygrywa: para 4.")
        # A message the catalog lacks reads in English.
        assert messages.render(message("It is not your turn."), NAMES) == "It is not your turn."


def test_a_note_keeps_its_messages_through_json_and_renumbering():
    note = Note(message("%(player)s passed.", player=Player(1)), {2: drew(2)}, reveal=True)
    stored = note.to_json()
    assert stored["text"] == {"msg": "%(player)s passed.", "params": {"player": {"player": 1}}}
    again = Note.from_json(stored).renumbered({1: 7, 2: 8})
    assert again.text == "{name:7} passed."
    assert again.private[8].params["player"] == Player(8) and again.private[8].counted_by == "count"
    assert again.reveal


def test_a_note_kept_as_json_reads_to_each_viewer_as_the_note_itself():
    """`line_from_json` (a log line read straight from its JSON, the others' lines left
    unread) picks the line `for_viewer` picks, for the player with a line of their own,
    the others, the host and the public; a line written before messages reads as it is."""
    note = Note(message("%(player)s drew.", player=Player(1)), {1: drew(3), 2: drew(1)})
    stored = note.to_json()
    for viewer in (1, 2, 3, None):
        read = Note.line_from_json(stored, viewer)
        assert read == note.for_viewer(viewer)
        assert read.id == note.for_viewer(viewer).id
    old = {"text": "{name:1} passed.", "private": {"1": "You passed."}}
    assert (Note.line_from_json(old, 1), Note.line_from_json(old, 2)) == (
        "You passed.", "{name:1} passed.")
