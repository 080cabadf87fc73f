"""The house's layers: the web layer (routes, templates, rendering in a language for a
page) above the tables, above the store, the records and the games. Nothing below imports
the web layer; the games import neither Flask nor the database."""
from __future__ import annotations

import ast
from pathlib import Path

COMPANION = Path(__file__).resolve().parent.parent / "companion"
# Where the app is put together from every layer: its factory and its commands.
ASSEMBLY = {COMPANION / "__init__.py", COMPANION / "commands.py"}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in a module of the package."""
    package = ".".join(path.relative_to(COMPANION.parent).with_suffix("").parts)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def below_the_web() -> list[Path]:
    return [path for path in COMPANION.rglob("*.py")
            if "web" not in path.relative_to(COMPANION).parts[:1] and path not in ASSEMBLY]


def test_nothing_below_the_web_layer_imports_it():
    problems = [f"{path.relative_to(COMPANION.parent)}:{line} imports {module}"
                for path in below_the_web() for line, module in imports_of(path)
                if module == "companion.web" or module.startswith("companion.web.")]
    assert below_the_web() and not problems, "\n".join(problems)


def test_the_games_import_neither_flask_nor_the_database():
    games = list((COMPANION / "games").rglob("*.py"))
    outside = ("flask", "flask_babel", "sqlalchemy", "flask_sqlalchemy", "companion.store",
               "companion.models", "companion.extensions", "companion.table")
    problems = [f"{path.relative_to(COMPANION.parent)}:{line} imports {module}"
                for path in games for line, module in imports_of(path)
                if module.split(".")[0] in outside or module.startswith(outside)]
    assert games and not problems, "\n".join(problems)


STORE = COMPANION / "store"
# Where the database itself is defined: its tables and the extension that binds it to the app.
DATABASE_DEFINITIONS = {COMPANION / "models.py", COMPANION / "extensions.py"}
# What builds or runs a statement: SQLAlchemy's statement and loader constructors, and the
# mapped tables a statement is built from.
STATEMENT_BUILDERS = {"select", "insert", "update", "delete", "text", "func", "bindparam",
                      "literal", "literal_column", "column", "table", "and_", "or_", "not_",
                      "exists", "case", "join", "outerjoin", "union", "Select", "Insert",
                      "Update", "Delete", "Session", "sessionmaker", "scoped_session",
                      "Query", "selectinload", "joinedload", "subqueryload", "lazyload",
                      "undefer", "defer", "load_only", "contains_eager", "aliased",
                      "create_engine", "Connection"}
MAPPED_TABLES = {"Table", "Player", "Event", "SavedDefaults", "SavedOptions"}


def database_uses(path: Path) -> list[str]:
    """Where a module reaches the database other than through the store: the extension's
    session, engine or statement helpers, a statement built, a mapped table imported."""
    found = [f"{line}: {module}" for line, module in imports_of(path)
             if (module.startswith("sqlalchemy.") and module.rpartition(".")[2]
                 in STATEMENT_BUILDERS)
             or (module.startswith("companion.models.")
                 and module.rpartition(".")[2] in MAPPED_TABLES)]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import) and any(
                alias.name.split(".")[0] == "sqlalchemy" for alias in node.names):
            found.append(f"{node.lineno}: import sqlalchemy")
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "db" and node.attr != "init_app"):
            found.append(f"{node.lineno}: db.{node.attr}")
    return found


def test_only_the_store_reaches_the_database():
    outside = [path for path in COMPANION.rglob("*.py")
               if STORE not in path.parents and path not in DATABASE_DEFINITIONS]
    problems = [f"{path.relative_to(COMPANION.parent)}:{use}"
                for path in outside for use in database_uses(path)]
    assert outside and not problems, "\n".join(problems)

