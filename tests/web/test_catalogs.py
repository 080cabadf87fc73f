"""The catalogs guard the translations: every message of the code and templates is in
every shipped language's catalog, translated, not fuzzy, with its source's placeholders
and its language's plural forms; a catalog that cannot be used stops the build."""
from __future__ import annotations

import subprocess
import sys

import pytest
from babel.messages.catalog import Catalog

from companion import catalogs
from companion.web.languages import DEFAULT, SHIPPED
from tests.support.app import ROOT
from tests.support.catalogs import (extracted, messages, placeholders, positional, problems,
                                    translated_in_full, where, write_catalog)


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Catalog:
    return extracted(tmp_path_factory.mktemp("extracted"))


def test_extraction_finds_the_messages_of_the_code_templates_and_options(source):
    found = {message.id: where(message) for message in messages(source)}
    assert found["Join a table"].startswith("templates/lobby/home.html:")
    assert found["There is no such game here."].startswith("companion/web/lobby.py:")
    assert found["There is no table with that code."].startswith("companion/errors.py:")
    assert found["%(option)s: type a whole number."].startswith("companion/web/options_form.py:")
    # A game's options: the words of its fields, from its models.
    assert found["Deals per player"].startswith("companion/games/big_top/models.py:")
    assert found["By hand"].startswith("companion/games/nothing_beats_a_large/models.py:")


def test_every_shipped_catalog_holds_every_message_translated(source):
    for language in SHIPPED:
        if language == DEFAULT:
            continue
        path = catalogs.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
        assert path.exists(), f"{language} ships without {path}"
        found = problems(source, path)
        assert not found, "\n".join(found)


def test_every_message_names_its_placeholders(source):
    unnamed = [f"{where(message)}: {text!r}" for message in messages(source)
               for text in ([message.id] if isinstance(message.id, str) else message.id)
               if positional(text)]
    assert not unnamed, "Placeholders must be named, %(name)s:\n" + "\n".join(unnamed)


def test_the_guard_names_a_missing_a_fuzzy_and_a_misplaced_entry(source, tmp_path):
    translations = translated_in_full(source, "de")
    assert not problems(source, write_catalog(tmp_path, "de", translations))

    named = next(m for m in messages(source) if isinstance(m.id, str) and placeholders(m.id))
    del translations["Join a table"]
    translations[named.id] = "Ohne Platzhalter"
    path = write_catalog(tmp_path, "de", translations, fuzzy=["Past games"], compile=False)
    found = problems(source, path)
    assert len(found) == 3, found
    home = where(next(m for m in messages(source) if m.id == "Join a table"))
    assert f"{home}: 'Join a table' is not in the de catalog" in found
    assert any(line.endswith("'Past games' is fuzzy in the de catalog") for line in found)
    assert any(line.startswith(where(named)) and "placeholders" in line for line in found)


def test_the_guard_counts_the_plural_forms_of_each_language(source, tmp_path):
    source.add(("%(count)s test card", "%(count)s test cards"), locations=[("templates/x.html", 3)])
    polish = translated_in_full(source, "pl")
    assert len(polish[("%(count)s test card", "%(count)s test cards")]) == 3
    assert not problems(source, write_catalog(tmp_path, "pl", polish))

    polish[("%(count)s test card", "%(count)s test cards")] = ("%(count)s karta", "%(count)s karty")
    assert problems(source, write_catalog(tmp_path, "pl", polish)) == [
        "templates/x.html:3: '%(count)s test card' needs 3 plural forms in pl, not 2"]
    polish[("%(count)s test card", "%(count)s test cards")] = (
        "karta", "%(name)s karty", "%(count)s kart")
    assert problems(source, write_catalog(tmp_path, "pl", polish, compile=False)) == [
        "templates/x.html:3: '%(count)s test card' has the placeholders ['name'] in pl, "
        "not ['count']"]


def test_a_positional_placeholder_is_told_apart_from_a_named_one():
    assert not positional("%(name)s paid %(amount)d, 100%% sure")
    assert positional("%s paid") and positional("%d cards") and positional("50% off")


BROKEN = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"

msgid "Join a table"
msgstr "Einem Tisch beitreten"

msgid "Join %(code)s"
Beitreten %(code)s
msgstr "%(code)s beitreten"
'''

MISPLACED = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"

#, python-format
msgid "Join %(code)s"
msgstr "%(table)s beitreten"
'''


@pytest.mark.parametrize("text, line", [(BROKEN, 9), (MISPLACED, 6)])
def test_a_catalog_that_cannot_be_used_stops_the_build_naming_its_line(tmp_path, text, line):
    path = tmp_path / "de" / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(catalogs.CatalogError, match=f"messages.po:{line}: "):
        catalogs.compile_all(tmp_path)
    assert not path.with_suffix(".mo").exists()

    # What `make install` (and so `make run`) runs: it stops, and says where.
    done = subprocess.run([sys.executable, "-m", "companion.catalogs", "compile",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1
    assert f"A translation catalog cannot be used: {path}:{line}: " in done.stderr


def test_a_good_catalog_compiles_for_the_server(tmp_path):
    path = write_catalog(tmp_path, "de", {"Join a table": "Einem Tisch beitreten"})
    done = subprocess.run([sys.executable, "-m", "companion.catalogs", "compile",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert path.with_suffix(".mo").stat().st_size > 0
