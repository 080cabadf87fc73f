"""The command line's export and import (`flask --app wsgi export FILE`, `import FILE`).

`export` writes every table of the database as one document (`transfer`). `import` takes
either such a document or one game's record as its players downloaded it at the end
(`record_import`), from this server or another."""
from __future__ import annotations

import os
from pathlib import Path

import click
from flask.cli import with_appcontext

from . import record_import, transfer
from .games import GAMES


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def export_command(file: Path) -> None:
    """Write every table to FILE as one JSON document."""
    partial = file.with_name(file.name + ".partial")
    with open(partial, "w", encoding="utf-8") as out:
        count = transfer.export_to(out)
    os.replace(partial, file)  # never a half-written file under the name asked for
    click.echo(f"Exported {count} tables to {file}.")


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def import_command(file: Path) -> None:
    """Load the tables of an export FILE, or the game of a record FILE, into this
    database."""
    document = transfer.read_json(file)
    if not record_import.is_record(document):
        imported, present = transfer.import_document(document, file)
        click.echo(f"Imported {imported} tables from {file}; {present} were already here.")
        return
    code, imported = record_import.import_record(document, str(file))
    title = GAMES[document["game"]].title
    if imported:
        click.echo(f"Imported the game of {title} in {file} as table {code}; "
                   f"replay it at /t/{code}/replay.")
    else:
        click.echo(f"The game of {title} in {file} is already here, as table {code}; "
                   "nothing was imported.")


def register(app) -> None:
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
