"""A table's snapshot, the in-memory read of a table at one version, must be exactly what
the database holds at that version however it was made: loaded whole, built by the
process that made a move, or brought up to date from an older one after moves made
elsewhere."""
from __future__ import annotations

import threading

from companion import store
from companion.table import read
from companion.extensions import db
from companion.models import Table


def whole(app, table_id: int) -> store.loading.Snapshot:
    with app.app_context():
        found = store.load(table_id)
        db.session.remove()
    return found


def a_game(app, api, moves: int):
    """A Go Big table `moves` moves in, its id, and its snapshot then."""
    table = api.table()
    with app.app_context():
        table_id = read.find(table.code).id
    table.play(moves)
    return table, table_id, whole(app, table_id)


def test_snapshots_built_from_moves_equal_those_loaded_whole(app, api):
    table, table_id, older = a_game(app, api, 3)
    table.play(12)  # past the log lines and actions a snapshot keeps
    with app.app_context():
        made_here = read.find(table.code)  # the snapshot the moves left in memory
        caught_up = store.load(table_id, older)  # only the moves since `older` read
    loaded = whole(app, table_id)
    assert loaded.version == older.version + 12
    assert made_here == loaded
    assert caught_up == loaded


def test_an_undo_or_a_seat_change_loads_the_snapshot_whole(app, api):
    table, table_id, older = a_game(app, api, 4)
    assert api.call("POST", f"/tables/{table.code}/undo", table.host)[0] == 200
    table.play(2)
    status, _ = api.call("POST", f"/tables/{table.code}/players/{table.ids['Ben']}/rejoin",
                         table.host)
    assert status == 200
    with app.app_context():
        caught_up = store.load(table_id, older)
    loaded = whole(app, table_id)
    assert caught_up == loaded
    assert [e.undone for e in loaded.recent].count(True) == 1
    assert loaded.players != older.players  # Ben's new token


def test_reads_outside_a_transaction_give_their_connection_back_as_the_session_expects(app, api):
    """Finding a table and bringing a snapshot up to date read on a connection of the pool
    of their own, on PostgreSQL in autocommit. The connection goes back to the pool as the
    session expects it: a change the session then rolls back is gone, not committed."""
    table, table_id, older = a_game(app, api, 3)
    with app.app_context():
        db.engine.dispose()  # one connection in the pool: the reads' is the session's next
        read.find(table.code)
        store.load(table_id, older)
        row = db.session.get(Table, table_id)
        row.next_code = "ZZZZ"
        db.session.flush()
        db.session.rollback()
        db.session.remove()
        assert db.session.get(Table, table_id).next_code is None
        db.session.remove()


def test_the_whole_log_read_once_per_version_follows_each_move_and_undo(api):
    """The whole log is kept with the version it was read at: read before a move, after
    it and after its undo, it says each time what that version says."""
    table = api.table()
    ann = table.tokens["Ann"]

    def log() -> list[tuple[str, bool]]:
        status, body = api.call("GET", f"/tables/{table.code}/log")
        assert status == 200, body
        return [(event["summary"], event["undone"]) for event in body["events"]]

    before = log()
    assert log() == before  # read again at the same version
    table.act(ann, type="play", value=3, count=1)
    assert log() == before + [("Ann played a single 3.", False)]
    status, _ = api.call("POST", f"/tables/{table.code}/undo", ann)
    assert status == 200
    assert log() == before + [("Ann played a single 3.", True),
                              ("Ann undid: Ann played a single 3.", False)]


def test_what_a_version_works_out_is_worked_out_once_by_readers_in_threads_at_once(app, api):
    """Streams served by threads wake together at a version: the second reader of a part
    waits for the first's instead of working it out again."""
    table, _, snapshot = a_game(app, api, 1)
    first_working, first_may_end = threading.Event(), threading.Event()
    worked = []

    def slow() -> str:
        worked.append("first")
        first_working.set()
        first_may_end.wait(timeout=5)
        return "part"

    def quick() -> str:
        worked.append("second")
        return "part"

    found = {}
    first = threading.Thread(target=lambda: found.update(first=snapshot.memo("a part", slow)))
    first.start()
    assert first_working.wait(timeout=5)
    second = threading.Thread(target=lambda: found.update(second=snapshot.memo("a part", quick)))
    second.start()
    second.join(timeout=0.2)  # it waits for the first (without the wait: done at once)
    first_may_end.set()
    first.join(timeout=5)
    second.join(timeout=5)
    assert worked == ["first"] and found == {"first": "part", "second": "part"}
