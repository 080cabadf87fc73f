"""Options saved under a name (a score sheet's game name, "Wingspan"): written in the
transaction that creates a table of that name, read for the new-table form (the saved
sheets, the names offered as the host types). And, with a game's saved defaults (its box
and house rules), read whole for an export and merged from one."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from collections import Counter

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..models import SavedDefaults, SavedOptions, utcnow
from .connections import read_connection, transaction
from .reads import TABLES

SAVED = SavedOptions.__table__
DEFAULTS = SavedDefaults.__table__
# How many saved names the form offers: the most used first.
OFFERED = 200
# How many of the latest tables of a game are looked at for names nothing is saved under
# (a game's record brought in from another server).
TABLES_LOOKED_AT = 500


@dataclass(frozen=True)
class Named:
    """Options to keep under a name when the table they create is written."""

    game: str
    name: str
    options: dict[str, Any]
    clock: dict[str, Any] | None = None


# The table clock is saved with the options, beside them in the same JSON under a key no
# game's options have.
CLOCK = "clock"


def _with_clock(options: dict[str, Any], clock: dict[str, Any] | None) -> dict[str, Any]:
    return {**options, CLOCK: clock} if clock else dict(options)


def _named(game: str, name: str, stored: dict[str, Any]) -> Named:
    options = dict(stored)
    return Named(game, name, options, options.pop(CLOCK, None))


def save(connection: Connection, named: Named) -> None:
    """Insert the name's options, or (the same name in any case saved before) replace
    them and count one use more: one statement, so two hosts creating a table of the same
    new name at once both count."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    values = {"game": named.game, "name": named.name, "name_key": named.name.casefold(),
              "options": _with_clock(named.options, named.clock), "uses": 1,
              "saved_at": utcnow()}
    statement = dialect.insert(SAVED).values(values)
    connection.execute(statement.on_conflict_do_update(
        index_elements=[SAVED.c.game, SAVED.c.name_key],
        set_={"name": statement.excluded.name, "options": statement.excluded.options,
              "saved_at": statement.excluded.saved_at, "uses": SAVED.c.uses + 1}))


def saved(game: str, limit: int = OFFERED) -> list[Named]:
    """The names saved for a game, the most used first (then the latest saved)."""
    with read_connection() as connection:
        rows = connection.execute(
            select(SAVED.c.name, SAVED.c.options).where(SAVED.c.game == game)
            .order_by(SAVED.c.uses.desc(), SAVED.c.saved_at.desc(), SAVED.c.id.desc())
            .limit(limit)).all()
    return [_named(game, row.name, row.options) for row in rows]


def find(game: str, name: str) -> Named | None:
    """The options saved under a name (in any case), None if there are none."""
    with read_connection() as connection:
        row = connection.execute(
            select(SAVED.c.name, SAVED.c.options).where(
                SAVED.c.game == game, SAVED.c.name_key == name.casefold())).first()
    return _named(game, row.name, row.options) if row else None


def names(game: str, option: str, limit: int = OFFERED) -> list[str]:
    """The names this server has seen for a game: those saved, the most used first, then
    those of its latest tables that nothing is saved under, the most frequent first."""
    offered = [named.name for named in saved(game, limit)]
    known = {name.casefold() for name in offered}
    with read_connection() as connection:
        rows = connection.execute(
            select(TABLES.c.options).where(TABLES.c.game == game)
            .order_by(TABLES.c.id.desc()).limit(TABLES_LOOKED_AT)).all()
    seen = Counter(row.options.get(option) for row in rows if isinstance(row.options, dict))
    offered += [name for name, _ in seen.most_common()
                if isinstance(name, str) and name.casefold() not in known]
    return offered[:limit]


def defaults(game: str) -> dict[str, Any]:
    """The option values saved as this server's defaults for a game ({} if none)."""
    return saved_defaults(game).options


def saved_defaults(game: str) -> Named:
    """This server's defaults for a game: its option values and its clock (none saved:
    no options and no clock)."""
    with read_connection() as connection:
        options = connection.execute(select(DEFAULTS.c.options)
                                     .where(DEFAULTS.c.game == game)).scalar()
    return _named(game, "", options or {})


def save_defaults(game: str, options: dict[str, Any],
                  clock: dict[str, Any] | None = None) -> None:
    """Keep these option values (and this clock) as this server's defaults for a game, in
    place of any saved before."""
    with transaction() as connection:
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(DEFAULTS).values(game=game,
                                                    options=_with_clock(options, clock),
                                                    saved_at=utcnow())
        connection.execute(statement.on_conflict_do_update(
            index_elements=[DEFAULTS.c.game],
            set_={"options": statement.excluded.options,
                  "saved_at": statement.excluded.saved_at}))


def everything() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every game's saved defaults, by game, and every option set saved under a name, by
    game and name: what an export holds of them."""
    with read_connection() as connection:
        defaults = connection.execute(select(DEFAULTS.c.game, DEFAULTS.c.options,
                                             DEFAULTS.c.saved_at).order_by(DEFAULTS.c.game))
        named = connection.execute(
            select(SAVED.c.game, SAVED.c.name, SAVED.c.options, SAVED.c.uses, SAVED.c.saved_at)
            .order_by(SAVED.c.game, SAVED.c.name_key))
        return ([{"game": row.game, "options": row.options, "saved_at": row.saved_at}
                 for row in defaults],
                [{"game": row.game, "name": row.name, "options": row.options,
                  "uses": row.uses, "saved_at": row.saved_at} for row in named])


def merge(connection: Connection, defaults: list[dict[str, Any]],
          named: list[dict[str, Any]]) -> None:
    """Saved settings brought from elsewhere (an export, as `everything` gives them): each
    kept unless what is saved here under the same game (and name, in any case) was saved
    later; a name's uses are the larger count of the two. Merging twice changes nothing."""
    for values in defaults:
        here = connection.execute(select(DEFAULTS.c.saved_at)
                                  .where(DEFAULTS.c.game == values["game"])).first()
        if here is None:
            connection.execute(insert(DEFAULTS).values(values))
        elif here.saved_at < values["saved_at"]:
            connection.execute(update(DEFAULTS).where(DEFAULTS.c.game == values["game"])
                               .values(values))
    for values in named:
        key = values["name"].casefold()
        here = connection.execute(select(SAVED.c.id, SAVED.c.uses, SAVED.c.saved_at).where(
            SAVED.c.game == values["game"], SAVED.c.name_key == key)).first()
        if here is None:
            connection.execute(insert(SAVED).values({**values, "name_key": key}))
            continue
        changes = dict(values) if here.saved_at < values["saved_at"] else {}
        changes["uses"] = max(here.uses, values["uses"])
        connection.execute(update(SAVED).where(SAVED.c.id == here.id).values(changes))
