"""The OpenAPI document describes the live stream as the server serves it."""
from __future__ import annotations


def test_the_openapi_document_describes_the_stream(app, client):
    document = client.get("/api/v1/openapi.json").get_json()
    item = document["paths"]["/api/v1/tables/{code}/stream"]
    operation = item["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert {"401", "404", "429", "503"} <= set(operation["responses"])
    assert [parameter["name"] for parameter in item["parameters"]] == ["code"]
    served = {rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    assert "/api/v1/tables/<code>/stream" in served
