"""The table clock's times in the result, in Chromium at the LAN address on 360 px
phones: a sheet tied on its total and broken on less time used, each phone's result
showing the times beside the scores and the sentence that says why, in German too."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.api import Api
from tests.support.browser import SOON, fits_a_phone, screenshot, seat_phone

ON_TIME = {"name": "Wingspan", "rounds": 1, "tiebreaks": [{"by": "time", "most": False}]}


def test_a_tie_broken_on_less_time_used_shows_the_times_on_each_phone(live_server,
                                                                      new_phone):
    api = Api(live_server.local_url, app=live_server.app)
    table = api.table("score-sheet", ("Ann", "Ben"), options=ON_TIME,
                      clock={"mode": "count_up"})
    phones = {name: seat_phone(new_phone, live_server.url, table, name)
              for name in ("Ann", "Ben")}
    assert table.act(table.tokens["Ann"], type="enter", round=1,
                     scores={"Points": 75})[0] == 200
    # Ben enters once his own time, counting on his phone, shows two seconds more than
    # Ann's, stopped as she entered.
    ann_ms = {p["player"]: p["used_ms"] for p in table.view()["clock"]["players"]}[
        table.ids["Ann"]]
    later = ann_ms // 1000 + 2
    expect(phones["Ben"].locator(".clock-own .clock-time")).to_have_text(
        f"{later // 60}:{later % 60:02d}", timeout=SOON)
    assert table.act(table.tokens["Ben"], type="enter", round=1,
                     scores={"Points": 75})[0] == 200
    for name, phone in phones.items():
        result = phone.locator("section.result")
        expect(result).to_be_visible(timeout=SOON)
        expect(result.locator("thead")).to_contain_text("Time")
        expect(result.locator(".explanation")).to_contain_text(
            "Ann wins on fewest seconds used")
        expect(result.locator(".result-times")).to_contain_text("Time used in all")
        assert fits_a_phone(phone, f"clock-result-{name}") == []
    german = phones["Ann"]
    german.context.add_cookies([{"name": "companion_language", "value": "de",
                                 "url": live_server.url}])
    german.reload()
    expect(german.locator("section.result thead")).to_contain_text("Zeit")
    expect(german.locator("section.result .explanation")).to_contain_text(
        "verbrauchte Sekunden")
    assert fits_a_phone(german, "clock-result-de") == []
    screenshot(german, "clock-result-de")
