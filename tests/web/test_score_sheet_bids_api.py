"""A score sheet of bids and tricks through the JSON API, over the test client on a real
SQLite database: the options taken and described, secret bids in no one else's view (the
host's included) until all have bid, tricks that do not add up, the dealer, and the sheet
saved with its bids."""
from __future__ import annotations

from companion.extensions import db
from companion.models import SavedOptions

WIZARD = {"name": "Wizard", "bids": "wizard", "secret": True, "dealer": True, "rounds": 3}


def test_the_openapi_document_describes_the_bids_the_dealer_and_the_bid_action(client):
    document = client.get("/api/v1/openapi.json").get_json()
    options = document["components"]["schemas"]["score-sheet.Options"]["properties"]
    assert {"wizard", "oh_hell", "skull_king"} <= set(
        next(kind["enum"] for kind in options["bids"]["anyOf"] if "enum" in kind))
    assert options["dealer"]["type"] == "boolean"
    actions = document["paths"]["/api/v1/tables/{code}/actions"]["post"]
    schemas = actions["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    bid = next(s for s in schemas if s["title"] == "score-sheet: Bid")
    assert {"round", "bid", "player"} <= set(bid["properties"])
    enter = next(s for s in schemas if s["title"] == "score-sheet: Enter")
    assert {"tricks", "bonus", "scores"} <= set(enter["properties"])


def test_bad_bids_options_are_refused_with_a_clear_error(api):
    for options, said in (({"name": "Wizard", "bids": "hearts"}, "wizard"),
                          ({"name": "Wizard", "bids": "wizard", "categories": ["A", "B"]},
                           "not valid"),
                          ({"name": "Wizard", "dealer": "yes"}, "dealer")):
        status, body = api.call("POST", "/tables", json={"game": "score-sheet",
                                                         "options": options})
        assert status == 400, body
        assert body["error"]["code"] == "bad_request" and said in body["error"]["message"]


def test_secret_bids_are_in_no_view_until_all_have_bid_then_tricks_score_the_round(api):
    table = api.table("score-sheet", players=("Ann", "Ben", "Cat"), options=WIZARD)
    ann, ben, cat = (table.tokens[n] for n in ("Ann", "Ben", "Cat"))
    view = table.view()
    assert view["state"]["dealer"] == table.ids["Ann"] and view["state"]["hand"] == 1
    assert [a["type"] for a in table.view(ann)["actions"]] == ["bid"]
    status, body = table.act(ann, type="bid", round=1, bid=1)
    assert status == 200, body
    assert body["events"][0]["summary"] == "Ann bid."
    status, body = table.act(table.host, type="bid", round=1, bid=0, player=table.ids["Ben"])
    assert status == 403, body  # Ben has a phone: his bid is his to make
    table.act(ben, type="bid", round=1, bid=0)
    for token in (None, table.host, ben, cat):
        seen = table.view(token)
        assert all(seat["rows"] == [] for seat in seen["state"]["seats"])
        assert (seen["private"] or {}).get("bid") in (None, {"round": 1, "bid": 0})
        assert seen["state"]["bidden"] == [table.ids["Ann"], table.ids["Ben"]]
    status, body = api.call("GET", f"/tables/{table.code}/log", cat)
    assert all("1" not in event["summary"] for event in body["events"][1:])
    assert table.view(ann)["private"]["bid"] == {"round": 1, "bid": 1}
    status, body = table.act(cat, type="bid", round=1, bid=0)
    assert "Bids revealed for round 1: Ann 1, Ben 0, Cat 0." in body["events"][-1]["summary"]
    assert [seat["rows"][0]["bid"] for seat in table.view()["state"]["seats"]] == [1, 0, 0]
    status, body = table.act(ann, type="enter", round=1, tricks=1, bonus=10)
    assert status == 422 and "Skull King" in body["error"]["message"]
    table.act(ann, type="enter", round=1, tricks=1)
    table.act(ben, type="enter", round=1, tricks=1)
    status, body = table.act(cat, type="enter", round=1, tricks=0)
    assert body["events"][-1]["summary"].endswith(
        "Tricks add up to 2 of 1: round 1 stays open until an entry is changed.")
    view = table.view()
    assert view["state"]["tricks_off"] == {"taken": 2, "hand": 1}
    assert len(view["waiting_for"]) == 3
    status, body = table.act(ben, type="enter", round=1, tricks=0)
    assert status == 200, body
    view = table.view()
    assert [seat["rows"][0]["total"] for seat in view["state"]["seats"]] == [30, 20, 20]
    assert view["state"]["dealer"] == table.ids["Ben"] and view["state"]["hand"] == 2


def test_a_bids_sheet_plays_to_its_end_and_is_saved_with_its_bids(app, api):
    table = api.table("score-sheet", players=("Ann", "Ben"),
                      options={"name": "Skull King", "bids": "skull_king", "rounds": 2})
    table.finish()
    view = table.view()
    assert view["status"] == "finished" and view["result"]["standings"]
    assert all(len(seat["rows"]) == 2 for seat in view["state"]["seats"])
    with app.app_context():
        saved = db.session.execute(db.select(SavedOptions)).scalar_one()
    assert saved.name == "Skull King" and saved.options["bids"] == "skull_king"


def test_a_finished_sheet_of_bids_downloads_with_its_bids_and_tricks(client, api):
    import csv
    import io

    table = api.table("score-sheet", players=("Ann", "Ben"),
                      options={"name": "Oh Hell", "bids": "oh_hell", "rounds": 1})
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    for token, value in ((ann, 1), (ben, 1)):
        assert table.act(token, type="bid", round=1, bid=value)[0] == 200
    for token, value in ((ann, 1), (ben, 0)):
        assert table.act(token, type="enter", round=1, tricks=value)[0] == 200
    response = client.get(f"/t/{table.code}/sheet.csv")
    assert response.status_code == 200
    assert list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig")))) == [
        ["Round", "Category", "Ann", "Ben"],
        ["1", "Points", "11", "0"],
        ["1", "Tricks bid", "1", "1"],
        ["1", "Tricks taken", "1", "0"],
        ["Total", "", "11", "0"],
        ["Place", "", "1", "2"]]
