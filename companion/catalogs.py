"""The translations' catalogs as part of the build: `make install` compiles every
`translations/<language>/LC_MESSAGES/messages.po` into the `.mo` file Flask-Babel reads,
and refuses a catalog that does not parse or whose placeholders do not match, naming its
file and line, so a broken catalog stops `make run` rather than a page.

`python -m companion.catalogs [compile [FOLDER]]` compiles them (translations/ by default);
`python -m companion.catalogs extract [FILE]` writes every message of the code and
templates to a template (.pot) to translate from."""
from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
# The functions whose first arguments are messages, beyond gettext's usual ones.
KEYWORDS = ("lazy_gettext", "lazy_ngettext:1,2")


class CatalogError(Exception):
    """A catalog that cannot be used: its file, the line and what is wrong there."""

    def __init__(self, path: Path, line: int | None, problem: str):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem}")


def catalogs(folder: Path = TRANSLATIONS) -> list[Path]:
    return sorted(folder.glob("*/LC_MESSAGES/messages.po"))


def compile_catalog(path: Path) -> Path:
    """Compile one catalog next to itself (fuzzy entries left out, as gettext does)."""
    language = path.parent.parent.name
    try:
        with path.open("rb") as source:
            catalog = read_po(source, locale=language, abort_invalid=True)
    except PoFileError as error:
        raise CatalogError(path, error.lineno + 1, str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise CatalogError(path, None, str(error)) from None
    for message, problems in catalog.check():
        line = message.lineno or None
        raise CatalogError(path, line, "; ".join(str(problem) for problem in problems))
    compiled = path.with_suffix(".mo")
    with compiled.open("wb") as target:
        write_mo(target, catalog)
    return compiled


def compile_all(folder: Path = TRANSLATIONS) -> list[Path]:
    return [compile_catalog(path) for path in catalogs(folder)]


def extract(template: Path) -> subprocess.CompletedProcess:
    """Every message of the code and templates (babel.cfg says which files) into
    `template`; the answer's stderr holds pybabel's warnings."""
    keywords = [argument for keyword in KEYWORDS for argument in ("-k", keyword)]
    return subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "--quiet", "extract", "-F",
         "babel.cfg", *keywords, "--project", "Companion", "--no-wrap", "--sort-by-file",
         "-o", str(template), "."],
        cwd=ROOT, capture_output=True, text=True, check=False)


# The words of a game's options (its models.py) the options form shows: each Field's title
# and description, and in its JSON schema extras the `labels` of its values and its
# `default_words`. The form looks each one up in the catalog (web/options_form.py).
OPTION_WORDS = ("title", "description")
OPTION_EXTRAS = ("labels", "default_words", "asks")


def extract_option_words(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel's extractor for a game's models.py (babel.cfg): its gettext calls, as any
    Python file's, and the literal words of its options' fields."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Field"):
            continue
        for keyword in node.keywords:
            if keyword.arg in OPTION_WORDS:
                yield from _literal_words(keyword.value)
            elif keyword.arg == "json_schema_extra" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values):
                    if isinstance(key, ast.Constant) and key.value in OPTION_EXTRAS:
                        yield from _literal_words(value)


def _literal_words(node: ast.AST) -> Iterator[tuple]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        yield node.lineno, "", node.value, []
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from _literal_words(value)


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["extract"]:
        target = Path(arguments[1]) if len(arguments) > 1 else TRANSLATIONS / "messages.pot"
        done = extract(target)
        sys.stderr.write(done.stderr)
        return done.returncode
    folder = Path(arguments[1]) if arguments[:1] == ["compile"] and len(arguments) > 1 \
        else TRANSLATIONS
    try:
        compiled = compile_all(folder)
    except CatalogError as error:
        print(f"A translation catalog cannot be used: {error}", file=sys.stderr)
        return 1
    for path in compiled:
        print(f"Compiled {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
