"""The suite's own shape: test modules (and conftest files) take what they share from
tests/support/, never from one another, so importing a test module never runs, collects
or drags in another's dependencies (a web test importing Playwright through a browser
test, say)."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHARED = ("tests.support", "tests.games")  # the helpers, and the test-only game


def imported_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import in `source`; a relative import as ".name"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.module in SHARED:  # `from tests.support import bots` names a module
                found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, module))
    return found


def stray_imports(source: str, shared: bool = False) -> list[str]:
    """The imports of test code that reach past the shared packages (whose own modules,
    `shared`, may import one another relatively)."""
    return [f"line {line}: {module}" for line, module in imported_modules(source)
            if (module.startswith(".") and not shared) or (
                (module == "tests" or module.startswith("tests."))
                and not module.startswith(tuple(f"{shared}." for shared in SHARED))
                and module not in SHARED)]


def test_no_test_module_imports_another():
    problems = []
    for path in sorted(TESTS.rglob("*.py")):
        package = ".".join(path.relative_to(TESTS.parent).parts[:2])
        for stray in stray_imports(path.read_text(), shared=package in SHARED):
            problems.append(f"{path.relative_to(TESTS.parent)} {stray}")
    assert not problems, "put what is shared in tests/support/:\n" + "\n".join(problems)


def test_the_check_sees_every_form_of_import():
    for source in ("from tests.web.test_live import ServerProcess",
                   "import tests.browser.test_accessibility",
                   "from tests.conftest import Api",
                   "from tests.trust import test_secrecy",
                   "from .test_screens import seat",
                   "from tests import conftest"):
        assert stray_imports(source), source
    assert stray_imports("from tests.support.api import Api\nimport tests.support.bots\n"
                         "from tests.support import streams\n"
                         "from tests.games.guess_number import GuessNumber") == []
