"""Zero-sum rounds and games won without points through the JSON API, over the test client
on a real SQLite database: the options and the finish action described, a round that is
off in every view (the host's included) with no entry shown, the host's finish and the
result the contract gives."""
from __future__ import annotations

MAHJONG = {"name": "Mahjong", "zero_sum": True, "secret": True, "rounds": 2}


def test_the_openapi_document_describes_zero_sum_the_outcome_and_finish(client):
    document = client.get("/api/v1/openapi.json").get_json()
    options = document["components"]["schemas"]["score-sheet.Options"]["properties"]
    assert options["zero_sum"]["type"] == "boolean"
    assert set(options["outcome"]["enum"]) == {"points", "winners", "cooperative"}
    actions = document["paths"]["/api/v1/tables/{code}/actions"]["post"]
    schemas = actions["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    finish = next(s for s in schemas if s["title"] == "score-sheet: Finish")
    assert {"winners", "won", "score"} <= set(finish["properties"])


def test_a_secret_round_that_is_off_shows_by_how_much_and_no_entry(api):
    table = api.table("score-sheet", players=("Ann", "Ben"), options=MAHJONG)
    ann, ben = table.tokens["Ann"], table.tokens["Ben"]
    table.act(ann, type="enter", round=1, scores={"Points": 71})
    status, body = table.act(ben, type="enter", round=1, scores={"Points": -64})
    assert status == 200, body
    assert "Round 1 is off by 7" in body["events"][-1]["summary"]
    for token in (None, table.host, ann, ben):
        seen = table.view(token)
        assert seen["state"]["off_by"] == 7 and seen["state"]["round"] == 1
        assert all(seat["rows"] == [] for seat in seen["state"]["seats"])
    assert "64" not in str(table.view(ann)) and "71" not in str(table.view(ben))
    assert "71" not in str(table.view(table.host))
    table.act(ben, type="enter", round=1, scores={"Points": -71})
    assert table.view()["state"]["off_by"] is None
    assert [s["total"] for s in table.view()["state"]["seats"]] == [71, -71]


def test_the_host_finishes_a_game_of_winners_and_a_player_may_not(api):
    table = api.table("score-sheet", players=("Ann", "Ben", "Cat"),
                      options={"name": "Werewolf", "outcome": "winners"})
    status, body = table.act(table.tokens["Ann"], type="finish", winners=[table.ids["Ann"]])
    assert status == 403, body
    status, body = table.act(table.tokens["Ann"], type="enter", round=1,
                             scores={"Points": 1})
    assert status == 422 and "no score sheet" in body["error"]["message"]
    status, body = table.act(table.host, type="finish",
                             winners=[table.ids["Ben"], table.ids["Cat"]])
    assert status == 200, body
    result = table.view()["result"]
    assert result["winners"] == [table.ids["Ben"], table.ids["Cat"]]
    assert {s["player"]: s["place"] for s in result["standings"]} == {
        table.ids["Ann"]: 2, table.ids["Ben"]: 1, table.ids["Cat"]: 1}


def test_a_cooperative_game_lost_has_everyone_first_and_no_winner(api):
    table = api.table("score-sheet", players=("Ann", "Ben"),
                      options={"name": "Pandemic", "outcome": "cooperative"})
    status, body = table.act(table.host, type="finish", won=False, score=None)
    assert status == 200, body
    result = table.view()["result"]
    assert result["winners"] == []
    assert [s["place"] for s in result["standings"]] == [1, 1]
    assert result["explanation"] == "The table lost together."
