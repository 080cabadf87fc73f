"""A phone's page when the server refuses its live stream, in Chromium at the LAN-like
origin: a phone whose seat the host gave to a new phone is signed out for good (whether
its stream was open then or opens after), says so, offers to join again and stops asking;
a phone over its network's cap of streams says so and follows the table again once there
is room."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.live import REVOKED_MESSAGE
from companion.web.screens import NOT_SEATED
from companion.web.stream_limits import RETRY_SECONDS, TOO_MANY_HERE
from tests.support.api import Api
from tests.support.browser import (SOON, console_errors, first_move, following, screenshot,
                                   seat_phone, serve_on_the_lan)

# The messages are translated where they are shown; these tests read the English text.
REVOKED_MESSAGE, NOT_SEATED = str(REVOKED_MESSAGE), str(NOT_SEATED)
TOO_MANY_HERE = str(TOO_MANY_HERE)

QUIET_MS = 6_000  # how long a signed-out page is watched for another stream request


def stream_requests(page) -> list[str]:
    """The page's requests for its live stream from now on (its checks aside)."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url)
            if "/events" in request.url and "check=1" not in request.url else None)
    return seen


def move_on(table) -> int:
    """The first move offered to the player on turn; the table's version after it."""
    first_move(table, table.names[table.view()["turn"]])
    return table.view()["version"]


def give_seat_away(table, name: str) -> None:
    status, body = table.api.call("POST", f"/tables/{table.code}/players/{table.ids[name]}"
                                  "/rejoin", table.host)
    assert status == 200, body


def refused_requests(errors: list[str], status: int) -> list[str]:
    """Take from `errors` the browser's own report of each request the server refused
    with `status` (the stream, and the page's check of it): the network's log, not an
    error of the page's."""
    refused = [error for error in errors
               if f"Failed to load resource: the server responded with a status of {status}"
               in error]
    errors[:] = [error for error in errors if error not in refused]
    return refused


def assert_signed_out_for_good(page, table, message: str, streams: list[str],
                               errors: list[str]) -> None:
    expect(page.get_by_role("alert")).to_have_text(message, timeout=SOON)
    join = page.get_by_role("link", name="Join the table again")
    expect(join).to_have_attribute("href", f"/j/{table.code}")
    expect(page.locator("#announcer")).to_have_text("")  # no longer "Your turn!"
    expect(page).not_to_have_title(re.compile("^Your turn"))
    asked = len(streams)
    page.wait_for_timeout(QUIET_MS)
    assert len(streams) == asked, streams[asked:]
    assert errors == []
    join.click()
    expect(page).to_have_url(re.compile(rf"/(j|d)/{table.code}$"))


def test_a_phone_whose_seat_is_given_away_while_it_follows_is_signed_out_for_good(
        live_server, new_phone):
    table = Api(live_server.local_url).table()
    phone = new_phone()
    errors = console_errors(phone)
    phone = seat_phone(lambda: phone, live_server.url, table, "Ben")
    following(phone)
    while table.view()["turn"] != table.ids["Ben"]:
        move_on(table)  # until it is Ben's turn: the page and its screen reader say so
    expect(phone.locator("#announcer")).to_have_text(re.compile("Your turn"), timeout=SOON)
    streams = stream_requests(phone)

    give_seat_away(table, "Ben")
    expect(phone.get_by_role("alert")).to_have_text(REVOKED_MESSAGE, timeout=SOON)
    screenshot(phone, "signed-out")
    assert_signed_out_for_good(phone, table, REVOKED_MESSAGE, streams, errors)


def test_a_phone_that_follows_again_after_its_seat_was_given_away_is_signed_out(
        live_server, new_phone):
    """The phone was away (its stream could not reach the server) when the host gave its
    seat to a new phone: its stream, opened again, is refused, and the page learns why."""
    table = Api(live_server.local_url).table()
    phone = new_phone()
    errors = console_errors(phone)
    phone.route(re.compile(r"/events\?"), lambda route: route.abort())  # away
    phone = seat_phone(lambda: phone, live_server.url, table, "Ann")
    expect(phone.locator(".turn:visible")).to_have_text(re.compile("Your turn"))
    give_seat_away(table, "Ann")
    streams = stream_requests(phone)
    phone.unroute(re.compile(r"/events\?"))  # back

    expect(phone.get_by_role("alert")).to_have_text(NOT_SEATED, timeout=4 * SOON)
    assert streams, "the stream was not asked for again"
    assert refused_requests(errors, 403)
    # The browser's report of the requests cut while the phone was away (the route's).
    errors[:] = [error for error in errors if not error.endswith("net::ERR_FAILED")]
    assert_signed_out_for_good(phone, table, NOT_SEATED, streams, errors)


@pytest.fixture
def capped_server(app_with):
    """The server where an address may hold one stream."""
    server = serve_on_the_lan(app_with(STREAMS_PER_ADDRESS=1))
    yield server
    server.stop()


def test_a_phone_over_its_networks_cap_says_so_and_follows_again_when_there_is_room(
        capped_server, new_phone):
    live_server = capped_server
    table = Api(live_server.local_url).table()
    first = seat_phone(new_phone, live_server.url, table, "Ann")
    following(first)

    # A second phone on the same network (the same address): its stream is refused.
    second = new_phone()
    errors = console_errors(second)
    second = seat_phone(lambda: second, live_server.url, table, "Ben")
    notice = second.locator("#stream-notice")
    expect(notice).to_have_text(TOO_MANY_HERE, timeout=SOON)
    screenshot(second, "stream-refused-too-many")
    expect(second.get_by_role("status").filter(has_text=TOO_MANY_HERE)).to_be_visible()

    # Once the first phone leaves (the server sees it gone at its next writes), the
    # second follows the table again by itself.
    first.context.close()
    move_on(table)
    move_on(table)
    following(second, timeout_ms=(3 * RETRY_SECONDS) * 1000)
    expect(notice).to_be_hidden()
    version = move_on(table)
    expect(second.locator("#panel")).to_have_attribute("data-version", str(version),
                                                       timeout=SOON)
    assert refused_requests(errors, 429)
    assert errors == []
