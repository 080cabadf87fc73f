"""The score sheet's new-table form as a host fills it in, shared by the tests of its
options."""
from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from tests.support.pages import csrf_of, page

FORM = "/new/score-sheet"


def sheet_form(host, **fields) -> MultiDict:
    """The form as the host fills it in: a name, the categories one per line, tie-breaks
    as rows (`tiebreaks.N` its kind, `tiebreaks.N.category`)."""
    data = MultiDict({"csrf_token": csrf_of(page(host, FORM)), "entry": "players"})
    for key, value in fields.items():
        data[key.replace("__", ".")] = value
    return data


def created(response) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:1500]
    return re.search(r"/t/([A-Z]{4})/host", response.headers["Location"]).group(1)


def options_of(client, code: str) -> dict:
    return client.get(f"/api/v1/tables/{code}").get_json()["options"]
