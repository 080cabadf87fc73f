"""A table nobody plays any more, in Chromium at http://table.lan:PORT: /games lists it
apart, and its host ends it from the host's device, a phone (360 x 740) seeing it live."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from companion.extensions import db
from companion.models import Table
from tests.support.api import Api
from tests.support.browser import console_errors, seat_phone


def test_the_host_ends_a_table_not_played_for_a_day_from_past_games(live_server, new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table()
    table.play(3)
    with live_server.app.app_context():  # its last move, set two days back
        db.session.execute(db.update(Table).where(Table.code == table.code)
                           .values(updated_at=time.time() - 2 * 86400))
        db.session.commit()
    phone = seat_phone(new_phone, live_server.url, table, "Ann")
    phone_errors = console_errors(phone)
    host = new_phone()
    errors = console_errors(host)
    host.context.add_cookies([{"name": f"companion_host_{table.code}", "value": table.host,
                               "url": live_server.url}])
    host.goto(f"{live_server.url}/games")
    idle = host.locator(".idle-game", has_text=f"Table {table.code}, last played")
    expect(idle).to_contain_text("not played for a day")
    expect(host.locator(".past-game:not(.idle-game)", has_text=table.code)).to_have_count(0)

    idle.get_by_role("link", name=f"End table {table.code}…").click()
    expect(host.get_by_role("heading", name="End this table?")).to_be_visible()
    host.get_by_role("link", name="No, back to the table").click()  # the way back ends nothing
    host.wait_for_url(f"{live_server.url}/t/{table.code}/host")
    assert table.view()["status"] == "playing"

    host.get_by_role("link", name="End this table…").click()
    host.get_by_role("button", name="Yes, end this table").click()
    host.wait_for_url(f"{live_server.url}/t/{table.code}/host")
    ended = "The host ended this table before the game was over."
    expect(host.locator("#panel .turn:visible")).to_have_text(ended)
    expect(host.get_by_role("link", name="End this table…")).to_have_count(0)
    expect(phone.locator("#panel .turn:visible")).to_have_text(ended)  # live, without a reload
    expect(phone.locator("#panel .actions")).to_have_count(0)
    expect(phone.locator(".log")).to_contain_text(ended)

    host.goto(f"{live_server.url}/games")
    expect(host.locator(".ended-game", has_text=f"Table {table.code}, ended")).to_be_visible()
    expect(host.locator(".idle-game", has_text=table.code)).to_have_count(0)
    assert table.view()["status"] == "ended"
    assert not errors and not phone_errors, errors + phone_errors
