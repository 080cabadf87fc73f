"""The OpenAPI document describes the live stream as the server serves it."""
from __future__ import annotations

from flask import url_for


def test_the_openapi_document_describes_the_stream(app, client):
    document = client.get("/api/v1/openapi.json").get_json()
    operation = document["paths"]["/api/v1/tables/{code}/stream"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert {"401", "404", "429", "503"} <= set(operation["responses"])
    assert [p["name"] for p in document["paths"]["/api/v1/tables/{code}/stream"]["parameters"]] \
        == ["code"]
    with app.test_request_context():  # the path documented is the one served
        assert url_for("api.stream", code="{code}").replace("%7B", "{").replace("%7D", "}") \
            == "/api/v1/tables/{code}/stream"
