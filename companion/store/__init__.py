"""The table store: the one way a table is read from and written to the database.

It owns every statement on tables, their players and their log, in one style (SQLAlchemy
Core statements, compiled once and cached by SQLAlchemy, run on a connection of the
store's own choosing: `connections`), and the snapshots those reads make (`loading`: one
read per version per process, shared by every request and stream of the table).

A change is computed elsewhere, from the table's snapshot, as a `Change`: the row's new
values, the log's new events, the seats to add, edit or remove. `writing.write` makes it
one versioned transaction (the conditional update of the table's version, the events,
the seats, the notice to other processes), tries it again on the table as it is then
should another writer have got there first, and afterwards puts the new snapshot in the
cache and wakes this process's streams. Nothing outside the store touches a connection
for a table.

Off the path of a move, `history` reads tables whole (the lists of games, past logs, an
export, what an import must know of what is here) and `saved` the options kept under a
name and the games' saved defaults.
"""
from .connections import (close_pooled_connections, database_answers,
                          release_session_connection, schema_upgrade_lock)
from .loading import at_least, cache, database_name, find_version, latest, load
from . import history, saved
from .saved import Named
from .reads import (actions_in_effect, actions_since, clock_log, events, free_code,
                    sent_action)
from .writing import (WRITE_RETRIES, Change, NewTable, Written, busy, create_table,
                      import_tables, write)

__all__ = ["WRITE_RETRIES", "Change", "Named", "NewTable", "Written", "actions_in_effect",
           "actions_since", "at_least", "busy", "cache", "clock_log", "close_pooled_connections",
           "create_table", "database_answers",
           "database_name", "events", "find_version", "free_code", "history",
           "import_tables", "latest", "load", "release_session_connection", "saved",
           "schema_upgrade_lock", "sent_action", "write"]
