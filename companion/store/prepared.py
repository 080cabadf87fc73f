"""Statements on the path of every move, compiled once per database by SQLAlchemy and
sent with `exec_driver_sql`.

A statement is built as any other of the store's (a Core construct from the models'
columns); SQLAlchemy compiles it for the database (its text in the driver's parameter
style) and gives each parameter's own type processing (JSON as text, datetimes as SQLite
keeps them), and its errors are SQLAlchemy's. Run through `Connection.execute`, each
execution also looks the statement up in SQLAlchemy's cache and builds its execution
context: 0.4 ms more CPU per move than the driver itself (finding the table, the update,
the event), against 0.2 ms this way (bench/README.md, "The table store").
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, CursorResult
from sqlalchemy.sql import ClauseElement


class Prepared:
    def __init__(self, statement: ClauseElement, column_keys: list[str] | None = None):
        self.statement = statement
        self.column_keys = column_keys
        self._compiled: dict[str, tuple[str, list[str] | None,
                                        dict[str, Callable[[Any], Any]]]] = {}

    def _compile(self, dialect) -> tuple[str, list[str] | None, dict]:
        compiled = self.statement.compile(dialect=dialect, column_keys=self.column_keys)
        processors = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                processors[name] = processor
        order = list(compiled.positiontup) if compiled.positional else None
        found = self._compiled[dialect.name] = (compiled.string, order, processors)
        return found

    def run(self, connection: Connection, params: Mapping[str, Any]) -> CursorResult:
        dialect = connection.dialect
        text, order, processors = self._compiled.get(dialect.name) or self._compile(dialect)
        values = {name: processors[name](value) if name in processors else value
                  for name, value in params.items()}
        if order is not None:
            return connection.exec_driver_sql(text, tuple(values[name] for name in order))
        return connection.exec_driver_sql(text, values)
