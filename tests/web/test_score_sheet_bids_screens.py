"""A score sheet of bids and tricks on the phone, host and display screens over the test
client: the bid form, a secret bid on no other screen (the host's included) until every
player has bid, "Bids revealed", the tricks form (with Skull King's bonus), tricks that do not
add up, and the dealer."""
from __future__ import annotations

from tests.support.pages import csrf_of, page
from tests.support.score_sheets import Sheet

WIZARD = {"bids": "wizard", "secret": True, "dealer": True, "rounds": 3}


def bid(sheet, name, round_, value, status=200):
    return sheet.post(name, "/act", {"type": "bid", "round": str(round_), "bid": str(value)},
                      status)


def tricks(sheet, name, round_, value, status=200, **more):
    return sheet.post(name, "/act", {"type": "enter", "round": str(round_),
                                     "tricks": str(value), **more}, status)


def display(sheet):
    return page(sheet.public, f"/d/{sheet.code}")


def test_a_phone_bids_in_secret_and_the_bids_are_revealed_together(app):
    sheet = Sheet(app, **WIZARD)
    phone = sheet.page("Ann")
    assert 'name="bid"' in phone and "Your bid for round 1" in phone
    assert "Round 1 deals 1 card." in phone and "Ann deals round 1." in phone
    assert "Hidden from everyone, the host included, until every player has bid." in phone
    panel = bid(sheet, "Ann", 1, 1)
    assert "Change my bid" in panel and "Your bid for round 1: <strong>1</strong>" in panel
    bid(sheet, "Ben", 1, 0)
    for where, screen in {"Ben": sheet.page("Ben"), "Cat": sheet.page("Cat"),
                          "host": sheet.page(None), "display": display(sheet)}.items():
        assert "bid 1" not in screen and "Your bid for round 1: <strong>1" not in screen, where
        assert "Bids for round 1: 2 of 3." in screen, where
        assert "Bids revealed." not in screen, where
    bid(sheet, "Cat", 1, 0)
    for where, screen in {"Ann": sheet.page("Ann"), "host": sheet.page(None),
                          "display": display(sheet)}.items():
        assert "Bids revealed." in screen and "bid 1" in screen, where
    phone = sheet.page("Ann")
    assert 'name="tricks"' in phone and "You bid 1." in phone and 'name="bonus"' not in phone


def test_tricks_that_do_not_add_up_say_by_how_many_on_every_screen(app):
    sheet = Sheet(app, **WIZARD)
    for name in ("Ann", "Ben", "Cat"):
        bid(sheet, name, 1, 0)
    tricks(sheet, "Ann", 1, 1)
    tricks(sheet, "Ben", 1, 1)
    tricks(sheet, "Cat", 1, 0)
    for screen in (sheet.page("Cat"), sheet.page(None), display(sheet)):
        assert "Tricks add up to 2 of 1." in screen
    panel = tricks(sheet, "Ben", 1, 0)
    assert "tricks-off" not in panel
    assert "Ben deals round 2." in display(sheet) and "Round 2 deals 2 cards." in display(sheet)
    assert "bid 0, took 1" in display(sheet)


def test_a_bad_bid_from_a_form_is_refused_in_words_and_changes_nothing(app):
    sheet = Sheet(app, **WIZARD)
    panel = bid(sheet, "Ann", 1, 3, status=422)
    assert "In round 1 a bid is from 0 to 1." in panel
    assert sheet.view()["state"]["bidden"] == []


def test_skull_king_asks_for_the_bonus_and_the_host_enters_for_a_scorer_sheet(app):
    sheet = Sheet(app, bids="skull_king", entry="scorer", names=("Ann", "Ben"))
    host = sheet.page(None)
    assert "Bids for round 1" in host and 'name="bid"' in host and 'name="player"' in host
    ids = sheet.seated.ids
    sheet.post(None, "/act", {"type": "bid", "round": "1", "bid": "1", "player": ids["Ann"],
                              "drawn_for": "host-bid-1-"})
    sheet.post(None, "/act", {"type": "bid", "round": "1", "bid": "0", "player": ids["Ben"],
                              "drawn_for": f"host-bid-1-{ids['Ann']}"})
    host = sheet.page(None)
    assert 'name="tricks"' in host and 'name="bonus"' in host
    sheet.post(None, "/act", {"type": "enter", "round": "1", "tricks": "1", "bonus": "20",
                              "player": ids["Ann"], "drawn_for": "host-enter-1-"})
    sheet.post(None, "/act", {"type": "enter", "round": "1", "tricks": "0", "bonus": "0",
                              "player": ids["Ben"],
                              "drawn_for": f"host-enter-1-{ids['Ann']}"})
    assert [seat["rows"][0]["total"] for seat in sheet.view()["state"]["seats"]] == [40, 10]


def test_the_new_table_form_chooses_the_bids_and_the_dealer_and_wizard_is_one_tap_next_time(
        host):
    form = "/new/score-sheet"
    html = page(host, form)
    assert '<select id="bids" name="bids"' in html
    for value, label in (("", "none"), ("wizard", "Wizard"), ("oh_hell", "Oh Hell"),
                         ("skull_king", "Skull King")):
        assert f'<option value="{value}"' in html and f">{label}</option>" in html
    assert 'name="dealer"' in html
    data = {"csrf_token": csrf_of(html), "entry": "players", "name": "Wizard",
            "bids": "wizard", "dealer": "on", "secret": "on", "rounds": "15"}
    response = host.post(form, data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:1500]
    plain = host.post(form, data={**data, "name": "Hearts", "bids": ""})
    assert plain.status_code == 303
    html = page(host, form)
    response = host.post(f"{form}/saved", data={"csrf_token": csrf_of(html), "name": "Wizard"})
    code = response.headers["Location"].split("/t/")[1].split("/")[0]
    options = host.get(f"/api/v1/tables/{code}").get_json()["options"]
    assert (options["bids"], options["dealer"], options["secret"]) == ("wizard", True, True)
    hearts = host.get(f"/api/v1/tables/{plain.headers['Location'].split('/t/')[1][:4]}")
    assert hearts.get_json()["options"].get("bids") is None


def test_a_bids_sheet_with_two_categories_is_refused_on_the_form_in_words(host):
    form = "/new/score-sheet"
    html = page(host, form)
    response = host.post(form, data={"csrf_token": csrf_of(html), "entry": "players",
                                     "name": "Wizard", "bids": "wizard",
                                     "categories": "Points\nBonus"})
    assert response.status_code == 400
    assert "a sheet of bids and tricks has one category" in response.get_data(as_text=True)


def test_a_secret_bid_of_a_player_without_a_phone_is_made_behind_the_cover(app):
    from tests.support.api import Api
    from tests.support.pages import revealed
    from tests.support.screens import post

    api = Api(client=app.test_client())
    table = api.table(game="score-sheet", players=("Ann", "Ben"), start=False,
                      options={"name": "Wizard", **WIZARD})
    host = app.test_client()
    host.set_cookie(f"companion_host_{table.code}", table.host)
    post(host, f"/t/{table.code}/players/local", {"name": "Dan"}, f"/t/{table.code}/host")
    dan = next(p["id"] for p in table.view()["players"] if p["name"] == "Dan")
    assert api.call("POST", f"/tables/{table.code}/start", table.host, {"seed": 1})[0] == 200
    screen = page(host, f"/t/{table.code}/host")
    assert "Play for Dan (no phone)" in screen and 'name="bid"' not in screen
    cover = page(host, f"/t/{table.code}/as/{dan}")
    assert "Pass the device to Dan" in cover and 'name="bid"' not in cover
    assert 'name="bid"' in revealed(host, f"/t/{table.code}/as/{dan}")
    status, body = table.act(table.host, type="bid", round=1, bid=1, player=table.ids["Ann"])
    assert status == 403, body  # Ann has a phone: her bid is hers to make


def test_a_finished_sheet_of_secret_bids_replays_each_bid_under_its_players_name(app):
    sheet = Sheet(app, names=("Ann", "Ben"), bids="wizard", secret=True, rounds=1)
    bid(sheet, "Ann", 1, 1)
    bid(sheet, "Ben", 1, 0)
    tricks(sheet, "Ann", 1, 1)
    tricks(sheet, "Ben", 1, 0)
    first = page(sheet.public, f"/t/{sheet.code}/replay?step=1")
    assert "Ann's bid for round 1: <strong>1</strong>" in first
    last = page(sheet.public, f"/t/{sheet.code}/replay?step=4")
    assert "Ann won with the highest total, 30." in last
