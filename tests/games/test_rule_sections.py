"""Every refusal of every built-in engine cites a section of its game's rules page: read
from the engines' source, so a refusal no test provokes is held to it as well."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from companion.games import BUILT_IN, GAMES
from companion.games import engine as engine_module

REFUSALS = {"IllegalAction", "NotYourTurn"}
SECTIONS_EVERY_GAME_HAS = {"setup", "turn", "end"}


def refusals_in(path: Path) -> list[tuple[int, ast.Call]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in REFUSALS]


def cited(call: ast.Call) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "rule" and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return None


@pytest.mark.parametrize("game", [game.id for game in BUILT_IN])
def test_every_refusal_of_the_game_cites_a_section_of_its_rules(game):
    engine = GAMES[game]
    sections = engine.rule_sections
    assert SECTIONS_EVERY_GAME_HAS <= set(sections), sorted(sections)
    package = Path(inspect.getfile(type(engine))).parent
    found = [(path.name, line, cited(call)) for path in sorted(package.glob("*.py"))
             for line, call in refusals_in(path)]
    assert found, "the engine refuses nothing?"
    uncited = [(name, line) for name, line, rule in found if rule not in sections]
    assert not uncited, f"refusals citing no section of {sorted(sections)}: {uncited}"


def test_the_platforms_own_refusal_of_a_player_count_cites_the_setup():
    [(_, call)] = refusals_in(Path(engine_module.__file__))
    assert cited(call) == "setup"


@pytest.mark.parametrize("game", [game.id for game in BUILT_IN])
def test_the_sections_have_titles_and_the_setup_comes_first(game):
    sections = GAMES[game].rule_sections
    assert list(sections)[0] == "setup"
    assert all(title.strip() for title in sections.values())
