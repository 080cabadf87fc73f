"""A score sheet's view asked with `rows_since` (the API): only the rows changed after the
version the caller holds, so that a client that follows a large sheet does not fetch it
whole after every entry; after an undo, the whole view."""
from __future__ import annotations

import json

from tests.support.api import Api


def sheet(app, rounds=5):
    api = Api(client=app.test_client())
    table = api.table("score-sheet", players=("Ann", "Ben"), options={
        "name": "Rummy", "rounds": rounds, "entry": "scorer"})
    for number in range(1, rounds):
        for name, value in (("Ann", number), ("Ben", 10 + number)):
            status, body = table.act(table.host, type="enter", round=number,
                                     player=table.ids[name], scores={"Points": value})
            assert status == 200, body
    return api, table


def since(api, table, version):
    status, body = api.call("GET", f"/tables/{table.code}?rows_since={version}", table.host)
    assert status == 200, body
    return body


def rounds_shown(view) -> list[list[int]]:
    return [[row["round"] for row in seat["rows"]] for seat in view["state"]["seats"]]


def test_the_rows_since_a_version_are_the_rounds_changed_after_it(app):
    api, table = sheet(app)
    held = table.view(table.host)
    assert rounds_shown(held) == [[1, 2, 3, 4]] * 2 and "rows_since" not in held["state"]
    status, _ = table.act(table.host, type="enter", round=5, player=table.ids["Ann"],
                          scores={"Points": 7})
    assert status == 200
    later = since(api, table, held["version"])
    assert later["state"]["rows_since"] == held["version"]
    assert rounds_shown(later) == [[5], []]  # Ann's open entry, nothing else
    assert [seat["total"] for seat in later["state"]["seats"]] == [10, 50]  # whole totals
    # A correction of an old round, then the round closed: those two rounds only.
    status, _ = table.act(table.host, type="correct", player=table.ids["Ben"], round=2,
                          category="Points", value=20)
    status, _ = table.act(table.host, type="enter", round=5, player=table.ids["Ben"],
                          scores={"Points": 1})
    assert rounds_shown(since(api, table, later["version"])) == [[2, 5], [2, 5]]
    # Nothing since: the open round only (none: the sheet is over).
    now = table.view(table.host)
    assert rounds_shown(since(api, table, now["version"])) == [[], []]
    # Everything else is the view as it is.
    whole = since(api, table, now["version"])
    assert {k: v for k, v in whole.items() if k != "state"} == \
        {k: v for k, v in now.items() if k != "state"}


def test_after_an_undo_or_from_a_version_not_reached_the_view_is_whole(app):
    api, table = sheet(app)
    held = table.view(table.host)
    status, body = api.call("POST", f"/tables/{table.code}/undo", table.host, {})
    assert status == 200, body
    undone = since(api, table, held["version"])
    assert "rows_since" not in undone["state"] and rounds_shown(undone) == [[1, 2, 3, 4], [1, 2, 3]]
    assert "rows_since" not in since(api, table, held["version"] + 50)["state"]


def test_rows_since_that_is_not_a_version_is_refused(app):
    api, table = sheet(app, rounds=2)
    for bad in ("-1", "x", "1.5", "9" * 40):
        status, body = api.call("GET", f"/tables/{table.code}?rows_since={bad}", table.host)
        assert status == 400 and "rows_since" in body["error"]["message"]


def test_a_large_sheet_after_one_entry_is_a_small_answer(app):
    api, table = sheet(app, rounds=40)
    held = table.view(table.host)
    table.act(table.host, type="enter", round=40, player=table.ids["Ann"], scores={"Points": 1})
    whole = json.dumps(table.view(table.host))
    cut = json.dumps(since(api, table, held["version"]))
    assert len(cut) * 3 < len(whole)
