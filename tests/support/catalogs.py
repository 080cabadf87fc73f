"""The translations' catalogs in tests: every message the code and templates hold (the
same extraction as `make messages`), a catalog of one's own written and compiled in a
folder, and what a catalog lacks against the messages."""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from companion import catalogs

# A named placeholder (`%(name)s`), and a literal percent sign (`%%`): any other `%` is a
# positional placeholder, whose order a translation cannot change.
NAMED = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]")
LITERAL_PERCENT = "%%"


def extracted(folder: Path) -> Catalog:
    """Every message of the code and templates, read from a template extracted into
    `folder`. Extraction must be clean: a warning of pybabel fails the caller."""
    template = folder / "messages.pot"
    done = catalogs.extract(template)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    with template.open("rb") as source:
        return read_po(source)


def messages(catalog: Catalog) -> list[Message]:
    """The catalog's messages, its header left out."""
    return [message for message in catalog if message.id]


def where(message: Message) -> str:
    """The first place a message comes from, as file:line."""
    if not message.locations:
        return "(no location)"
    path, line = message.locations[0]
    return f"{path}:{line}"


def texts(text: str | Iterable[str]) -> list[str]:
    return [text] if isinstance(text, str) else list(text)


def placeholders(text: str) -> set[str]:
    return set(NAMED.findall(text))


def positional(text: str) -> bool:
    """Whether `text` holds a placeholder without a name (or a lone `%`)."""
    return "%" in NAMED.sub("", text).replace(LITERAL_PERCENT, "")


def write_catalog(folder: Path, language: str, translations: dict,
                  fuzzy: Iterable = (), compile: bool = True) -> Path:
    """`translations` (msgid, or (singular, plural) for a plural entry -> msgstr, or a
    tuple of the language's plural forms) as `folder/<language>/LC_MESSAGES/messages.po`,
    compiled as `make install` does unless not to `compile` (a catalog the compiler would
    refuse). Entries in `fuzzy` are marked fuzzy."""
    catalog = Catalog(locale=language)
    fuzzy = set(fuzzy)
    for msgid, msgstr in translations.items():
        catalog.add(msgid, msgstr, flags=("fuzzy",) if msgid in fuzzy else ())
    path = folder / language / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as target:
        write_po(target, catalog)
    if compile:
        catalogs.compile_catalog(path)
    return path


def read_catalog(path: Path) -> Catalog:
    language = path.parent.parent.name
    with path.open("rb") as source:
        return read_po(source, locale=language)


def problems(source: Catalog, path: Path) -> list[str]:
    """What the catalog at `path` lacks for each message of `source`, one line each with
    where the message comes from: missing, untranslated, fuzzy, other placeholders than
    its source's, or not the number of plural forms its language's plural rule needs."""
    catalog = read_catalog(path)
    language = path.parent.parent.name
    found = []
    for message in messages(source):
        at, original = where(message), texts(message.id)[0]
        translated = catalog.get(message.id)
        if translated is None or not translated.id:
            found.append(f"{at}: {original!r} is not in the {language} catalog")
            continue
        if translated.fuzzy:
            found.append(f"{at}: {original!r} is fuzzy in the {language} catalog")
            continue
        forms = texts(translated.string)
        filled = [form for form in forms if form]
        if message.pluralizable and (not translated.pluralizable
                                     or len(forms) != catalog.num_plurals
                                     or len(filled) != catalog.num_plurals):
            # (A catalog read back has every form its language needs, the missing ones empty.)
            found.append(f"{at}: {original!r} needs {catalog.num_plurals} plural forms in "
                         f"{language}, not {len(filled)}")
            continue
        if not all(forms):
            found.append(f"{at}: {original!r} is not translated into {language}")
            continue
        # A plural form may leave out the number ("one card"), never add a name.
        wanted = set().union(*(placeholders(text) for text in texts(message.id)))
        for form in forms:
            named = placeholders(form)
            if named != wanted and not (message.pluralizable and named < wanted):
                found.append(f"{at}: {original!r} has the placeholders "
                             f"{sorted(placeholders(form))} in {language}, not {sorted(wanted)}")
                break
    return found


def translated_in_full(source: Catalog, language: str, mark=None) -> dict:
    """A stand-in translation of every message of `source`, placeholders kept: each reads
    `mark(english)` ("[de] " before the English unless told otherwise), in as many plural
    forms as the language has."""
    mark = mark or (lambda english: f"[{language}] {english}")
    forms = Catalog(locale=language).num_plurals
    return {message.id: tuple(mark(message.id[min(form, 1)]) for form in range(forms))
            if message.pluralizable else mark(message.id)
            for message in messages(source)}


# A small German catalog for the tests, while no other language ships: the words of the
# lobby, the errors, the test game's public part and the terminal.
TEST_GERMAN = {
    "Language": "Sprache",
    "Join a table": "Einem Tisch beitreten",
    "Room code": "Raumcode",
    "Past games": "Vergangene Spiele",
    "QR code": "QR-Code",
    "There is no table with that code.": "Es gibt keinen Tisch mit diesem Code.",
    "There is nothing at this address.": "Unter dieser Adresse gibt es nichts.",
    "Numbers from 1 to %(highest)s.": "Zahlen von 1 bis %(highest)s.",
    "Companion is running. Open this on any phone or laptop on the same Wi-Fi:":
        "Companion läuft. Öffne dies auf einem Handy oder Laptop im selben WLAN:",
    "Scores over the game (%(score)s): %(finals)s":
        "Punkte im Lauf des Spiels (%(score)s): %(finals)s",
}


def in_test_german(folder: Path) -> dict:
    """The app's settings that offer English and the test German catalog (written and
    compiled into `folder`)."""
    write_catalog(folder, "de", TEST_GERMAN)
    return {"LANGUAGES": ("en", "de"), "BABEL_TRANSLATION_DIRECTORIES": str(folder)}


PLACEHOLDER_OR_TAG = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|<[^>]*>|%%")
WORD = re.compile(r"[A-Za-z]+")


@cache
def english_left_behind(language: str) -> tuple[str, ...]:
    """The English pieces of text that must not be read on a page in `language`: each run of
    words between the placeholders of a message whose translation differs from its source,
    of two words or more, and found in none of the language's translations (a game's title
    kept as it is, say)."""
    path = catalogs.TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    catalog = read_catalog(path)
    translated = [form for message in catalog if message.id
                  for form in texts(message.string) if form]
    everything_translated = " ".join(translated)
    pieces = set()
    for message in catalog:
        if not message.id or texts(message.id)[0] in texts(message.string):
            continue
        for source in texts(message.id):
            for piece in PLACEHOLDER_OR_TAG.split(source):
                piece = " ".join(piece.split()).strip(" .,:;!?()\"'")
                if len(WORD.findall(piece)) >= 2 and piece not in everything_translated:
                    pieces.add(piece)
    return tuple(sorted(pieces, key=len, reverse=True))


def english_in(text: str, language: str) -> list[str]:
    """The English pieces (`english_left_behind`) read in `text`, as whole words."""
    return [piece for piece in english_left_behind(language)
            if piece in text and re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text)]
