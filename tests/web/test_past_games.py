"""/games: its dates in the reader's region, and the tables nobody plays any more listed
apart from those being played."""
from __future__ import annotations

import re
import time
from datetime import datetime, timezone

import pytest

from companion.extensions import db
from companion.models import Event, Table
from tests.support.api import Api

FINISHED_AT = datetime(2026, 12, 6, 15, 4)  # UTC, the server's time zone by default


def finished_on_a_known_day(app):
    table = Api(client=app.test_client()).table("guess-number", ("Ann", "Ben"))
    table.finish()
    with app.app_context():
        db.session.execute(db.update(Table).where(Table.code == table.code)
                           .values(finished_at=FINISHED_AT))
        db.session.commit()
    return table


@pytest.mark.parametrize(("asked", "written"), [
    ("en-GB,en;q=0.9", "Finished 06/12/2026, 15:04 · "),
    ("en-US,en;q=0.9", "Finished 12/6/26, 3:04\u202fPM · "),
    ("en", "Finished 12/6/26, 3:04\u202fPM · "),
    ("de-AT,de;q=0.9", "Beendet 06.12.26, 15:04 · "),
    ("fr-CA,fr;q=0.8", "2026-12-06 15 h 04"),
    ("fr-FR,fr;q=0.8", "06/12/2026 15:04"),
])
def test_dates_on_past_games_follow_the_readers_region(app, asked, written):
    finished_on_a_known_day(app)
    games = app.test_client().get("/games", headers={"Accept-Language": asked})
    assert games.status_code == 200
    assert written in games.get_data(as_text=True)


def test_a_region_of_another_language_leaves_the_dates_in_the_language(app):
    """A browser that asks for British English before German, with German picked: German
    dates (the region asked for is English's, not German's)."""
    finished_on_a_known_day(app)
    client = app.test_client()
    client.set_cookie("companion_language", "de")
    games = client.get("/games", headers={"Accept-Language": "en-GB,de-CH;q=0.5"})
    assert "Beendet 06.12.26, 15:04 · " in games.get_data(as_text=True)
    games = client.get("/games", headers={"Accept-Language": "en-GB,zz-QQ;q=0.5"})
    assert "Beendet 06.12.26, 15:04 · " in games.get_data(as_text=True)


def played_days_ago(app, code: str, days: float) -> None:
    """The table's last move set `days` in the past, in the store (nobody waits a day)."""
    with app.app_context():
        db.session.execute(db.update(Table).where(Table.code == code)
                           .values(updated_at=time.time() - days * 86400))
        db.session.commit()


def section(html: str, heading: str) -> str:
    """The part of /games under a heading, up to the next one."""
    found = re.search(rf"<h2[^>]*>{re.escape(heading)}</h2>(.*?)(?=<h2|$)", html, re.DOTALL)
    return found.group(1) if found else ""


def test_a_table_not_played_for_a_day_is_listed_apart_with_when_it_was_last_played(app):
    api = Api(client=app.test_client())
    idle, busy = api.table(), api.table()
    idle.play(2)
    played_days_ago(app, idle.code, 1.5)
    with app.app_context():
        last_played = datetime.fromtimestamp(
            db.session.execute(db.select(Table.updated_at).where(Table.code == idle.code))
            .scalar_one(), timezone.utc)
    html = app.test_client().get("/games", headers={"Accept-Language": "en-GB"}) \
        .get_data(as_text=True)
    being_played, not_played = section(html, "Being played"), section(html, "Not played for a day")
    assert busy.code in being_played and idle.code not in being_played
    assert (f"Table {idle.code}, last played {last_played:%d/%m/%Y, %H:%M} · Ann, Ben, Cat"
            in not_played)
    assert busy.code not in not_played
    assert "End this table" not in html  # only the host's device may end it

    host = app.test_client()
    host.set_cookie(f"companion_host_{idle.code}", idle.host)
    host.set_cookie(f"companion_host_{busy.code}", idle.host)  # another table's token
    html = host.get("/games").get_data(as_text=True)
    assert f'href="/t/{idle.code}/end"' in section(html, "Not played for a day")
    assert f'href="/t/{busy.code}/end"' not in html


def test_the_host_ends_a_table_in_its_log_and_it_takes_no_move_after(app):
    api = Api(client=app.test_client())
    table = api.table()
    table.play(2)
    played_days_ago(app, table.code, 2)
    anyone, phone = app.test_client(), app.test_client()
    phone.set_cookie(f"companion_{table.code}", table.tokens["Ann"])
    for client in (anyone, phone):  # only the host's device
        assert client.get(f"/t/{table.code}/end").status_code == 403
        assert client.post(f"/t/{table.code}/end", data={}).status_code in (400, 403)
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    confirm = host.get(f"/t/{table.code}/end")
    assert confirm.status_code == 200
    page_text = confirm.get_data(as_text=True)
    assert "End this table?" in page_text and f'href="/t/{table.code}/host"' in page_text
    version = table.view()["version"]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page_text).group(1)
    stale = host.post(f"/t/{table.code}/end", data={"csrf_token": token,
                                                    "version": str(version - 1)})
    assert stale.status_code == 409 and table.view()["status"] == "playing"

    ended = host.post(f"/t/{table.code}/end", data={"csrf_token": token, "version": str(version)})
    assert ended.status_code == 303 and ended.headers["Location"] == f"/t/{table.code}/host"
    view = table.view(table.tokens["Ann"])
    assert view["status"] == "ended" and view["actions"] == [] and view["waiting_for"] == []
    status, log = api.call("GET", f"/tables/{table.code}/log", table.tokens["Ben"])
    assert log["events"][-1]["summary"] == "The host ended this table before the game was over."
    with app.app_context():
        kinds = db.session.execute(db.select(Event.kind).join(Table, Table.id == Event.table_id)
                                   .where(Table.code == table.code)
                                   .order_by(Event.seq)).scalars().all()
    assert kinds[-1] == "end"

    again = host.post(f"/t/{table.code}/end", data={"csrf_token": token})
    assert again.status_code == 409 and "ended this table" in again.get_data(as_text=True)
    status, _ = api.call("POST", f"/tables/{table.code}/undo", table.host, {"steps": 1})
    assert status == 409
    assert "The host ended this table before the game was over." in \
        phone.get(f"/t/{table.code}").get_data(as_text=True)
    html = app.test_client().get("/games").get_data(as_text=True)
    assert table.code in section(html, "Ended before the end")
    assert table.code not in section(html, "Not played for a day")
    assert table.code not in section(html, "Being played")
