"""Over real HTTP: a stream refused says why, in the answer's status and Retry-After, and
`?check=1` tells a page the same answer without opening a stream: too many streams from
one address (429), a phone signed out (403, with the panel that replaces its own)."""
from __future__ import annotations

import pytest
import requests

from companion.web.screens import NOT_SEATED
from companion.web.stream_limits import RETRY_SECONDS, TOO_MANY_HERE
from tests.support.api import Api
from tests.support.app import LiveServer
from tests.support.streams import Stream

# The messages are translated where they are shown; these tests read the English text.
NOT_SEATED, TOO_MANY_HERE = str(NOT_SEATED), str(TOO_MANY_HERE)

CAP = 2


@pytest.fixture
def capped(app_with):
    """The app on a real HTTP server, an address holding two streams."""
    server = LiveServer(app_with(STREAMS_PER_ADDRESS=CAP)).start()
    yield server
    server.stop()


def test_an_address_over_its_cap_is_told_so_and_when_to_try_again(capped):
    table = Api(capped.url, app=capped.app).table()
    api_stream = f"{capped.url}/api/v1/tables/{table.code}/stream"
    screen_stream = f"{capped.url}/t/{table.code}/events?screen=phone"
    cookies = {f"companion_{table.code}": table.tokens["Ben"]}
    assert requests.get(api_stream + "?check=1", timeout=10).status_code == 204
    held = [Stream(api_stream, table.tokens["Ann"]), Stream(screen_stream, cookies=cookies)]
    try:
        refused = requests.get(api_stream, timeout=10)
        assert refused.status_code == 429
        assert 0 < int(refused.headers["Retry-After"]) <= RETRY_SECONDS
        assert refused.json()["error"] == {"code": "too_many_requests",
                                           "message": TOO_MANY_HERE}
        checked = requests.get(screen_stream + "&check=1", cookies=cookies,
                               headers={"HX-Request": "true"}, timeout=10)
        assert checked.status_code == 429
        assert 0 < int(checked.headers["Retry-After"]) <= RETRY_SECONDS
        assert TOO_MANY_HERE in checked.text
    finally:
        for stream in held:
            stream.close()
    # Once the server sees a stream gone (at its next writes), there is room again.
    for _ in range(2):
        table.play(1)
    for _ in range(50):
        if requests.get(api_stream + "?check=1", timeout=10).status_code == 204:
            break
    else:
        raise AssertionError("the closed streams still count")


def test_a_phone_signed_out_is_told_by_the_panel_that_replaces_its_own(capped):
    table = Api(capped.url).table()
    status, _ = table.api.call("POST", f"/tables/{table.code}/players/{table.ids['Ann']}"
                               "/rejoin", table.host)
    assert status == 200
    cookies = {f"companion_{table.code}": table.tokens["Ann"]}  # the old phone's
    for path in ("/events?screen=phone&check=1", "/panel?screen=phone"):
        answer = requests.get(f"{capped.url}/t/{table.code}{path}", cookies=cookies,
                              headers={"HX-Request": "true"}, timeout=10)
        assert answer.status_code == 403
        assert NOT_SEATED in answer.text
        assert f'href="/j/{table.code}"' in answer.text
        assert 'data-status="signed-out"' in answer.text
    # Its stream itself is refused as before, the reason given as a page.
    answer = requests.get(f"{capped.url}/t/{table.code}/events?screen=phone",
                          cookies=cookies, timeout=10)
    assert answer.status_code == 403 and "signed-out" not in answer.text
