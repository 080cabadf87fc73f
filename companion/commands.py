"""The command line's export and import (`flask --app wsgi export FILE`, `import FILE`).

`export` writes every table of the database as one document (`transfer`). `import` takes
either such a document or one game's record as its players downloaded it at the end
(`record_import`), from this server or another."""
from __future__ import annotations

import functools
import os
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_babel import force_locale, gettext, ngettext

from . import record_import, transfer
from .games import GAMES
from .web.languages import environment_language


def in_the_terminals_language(command):
    """The command's words (what it says, why it refuses) in the server's terminal's
    language, as `make run` speaks (LANG and its kin)."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        with force_locale(environment_language(current_app.config["LANGUAGES"])):
            return command(*args, **kwargs)
    return run


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
@in_the_terminals_language
def export_command(file: Path) -> None:
    """Write every table to FILE as one JSON document."""
    partial = file.with_name(file.name + ".partial")
    with open(partial, "w", encoding="utf-8") as out:
        count = transfer.export_to(out)
    os.replace(partial, file)  # never a half-written file under the name asked for
    click.echo(ngettext("Exported %(num)s table to %(file)s.",
                        "Exported %(num)s tables to %(file)s.", count, file=str(file)))


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
@in_the_terminals_language
def import_command(file: Path) -> None:
    """Load the tables of an export FILE, or the game of a record FILE, into this
    database."""
    document = transfer.read_json(file)
    if not record_import.is_record(document):
        imported, present = transfer.import_document(document, file)
        click.echo(ngettext("Imported %(num)s table from %(file)s; already here: %(present)s.",
                            "Imported %(num)s tables from %(file)s; already here: %(present)s.",
                            imported, file=str(file), present=present))
        return
    code, imported = record_import.import_record(document, str(file))
    title = GAMES[document["game"]].title
    if imported:
        replay = "/t/%s/replay" % code
        click.echo(gettext("Imported the game of %(title)s in %(file)s as table %(code)s; "
                           "replay it at %(address)s.", title=title, file=str(file), code=code,
                           address=replay))
    else:
        click.echo(gettext("The game of %(title)s in %(file)s is already here, as table "
                           "%(code)s; nothing was imported.", title=title, file=str(file),
                           code=code))


def register(app) -> None:
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
