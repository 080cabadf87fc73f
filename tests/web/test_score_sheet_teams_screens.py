"""A score sheet of teams on the screens, over the test client on a real database: the
new-table form's teams, the lobby's teams as the host orders the seats, the result and
the standings by team, the sheet's CSV and /games by team."""
from __future__ import annotations

import csv
import io
import re

from companion.extensions import db
from companion.models import SavedOptions
from tests.support.api import Api
from tests.support.pages import csrf_of, inert, page
from tests.support.score_sheets import Sheet
from tests.support.sheet_forms import FORM, created, options_of, sheet_form

FOUR = ("Ann", "Ben", "Cat", "Dan")


def test_the_form_offers_teams_and_makes_and_saves_them(app, host):
    html = page(host, FORM)
    assert 'name="teams"' in html and "Teams" in html
    assert '<textarea id="team_names" name="team_names"' in html
    assert '<option value="members"' in html and "Each member&#39;s row, added up" in html
    code = created(host.post(FORM, data=sheet_form(host, name="Spades", teams="2",
                                                   team_names="North-South\nEast-West",
                                                   team_scoring="together")))
    options = options_of(host, code)
    assert (options["teams"], options["team_names"]) == (2, ["North-South", "East-West"])
    with app.app_context():
        saved = db.session.execute(db.select(SavedOptions)).scalar_one()
    assert saved.options["teams"] == 2 and saved.options["team_names"][1] == "East-West"


def test_teams_the_sheet_cannot_play_are_refused_in_words(host):
    cases = [({"teams": "2", "bids": "wizard"}, "a sheet of bids and tricks cannot have teams"),
             ({"teams": "2", "team_names": "Us"}, "give one name for each team, or none"),
             ({"teams": "1"}, "a table of teams has at least 2 teams"),
             ({"teams": "11"}, "Teams: at most 10.")]
    for fields, said in cases:
        response = host.post(FORM, data=sheet_form(host, name="Spades", **fields))
        assert response.status_code == 400, fields
        assert said in response.get_data(as_text=True), fields


def lobby(app, names=FOUR, **options):
    api = Api(client=app.test_client())
    seated = api.table("score-sheet", players=names, start=False,
                       options={"name": "Spades", **options})
    host = app.test_client()
    host.set_cookie(f"companion_host_{seated.code}", seated.host)
    return api, seated, host


def teams_listed(html):
    part = html.split('<ul class="teams">', 1)[1].split("</ul>", 1)[0]
    return [" ".join(item.split("</li>")[0].replace('<span class="team-name">', "")
                     .replace("</span>", "").split())
            for item in part.split("<li>")[1:]]


def test_the_lobby_shows_the_teams_as_the_host_orders_the_seats(app):
    api, seated, host = lobby(app, team_names=["Us", "Them"], teams=2)
    html = page(host, f"/t/{seated.code}/host")
    inert(html, "lobby")
    assert teams_listed(html) == ["Us: Ann, Cat", "Them: Ben, Dan"]
    ids = seated.ids
    status, _ = api.call("POST", f"/tables/{seated.code}/seats", seated.host,
                         {"order": [ids["Ann"], ids["Ben"], ids["Dan"], ids["Cat"]]})
    assert status == 200
    assert teams_listed(page(host, f"/t/{seated.code}/host")) == ["Us: Ann, Dan",
                                                                  "Them: Ben, Cat"]
    phone = app.test_client()
    phone.set_cookie(f"companion_{seated.code}", seated.tokens["Ben"])
    assert teams_listed(page(phone, f"/t/{seated.code}")) == ["Us: Ann, Dan", "Them: Ben, Cat"]
    display = page(app.test_client(), f"/d/{seated.code}")
    assert teams_listed(display) == ["Us: Ann, Dan", "Them: Ben, Cat"]
    # The first player sits in seat 0: the teams follow from there.
    status, _ = api.call("POST", f"/tables/{seated.code}/seats", seated.host,
                         {"order": [ids["Ben"], ids["Ann"], ids["Dan"], ids["Cat"]]})
    assert teams_listed(page(host, f"/t/{seated.code}/host")) == ["Us: Ben, Dan",
                                                                  "Them: Ann, Cat"]


def test_the_lobby_names_teams_in_the_readers_language(app):
    _, seated, host = lobby(app, names=("Ann", "Ben", "Cat"), teams=3)
    html = host.get(f"/t/{seated.code}/host", headers={"Accept-Language": "fr"}).get_data(
        as_text=True)
    assert teams_listed(html) == ["Équipe 1 : Ann", "Équipe 2 : Ben", "Équipe 3 : Cat"]


def played(app):
    sheet = Sheet(app, names=FOUR, rounds=2, teams=2, team_names=["Us", "Them"])
    sheet.enter("Ann", 1, {"Points": 40})
    sheet.enter("Dan", 1, {"Points": 25})
    sheet.enter("Cat", 2, {"Points": 30})
    sheet.enter("Ben", 2, {"Points": 50})
    return sheet


def test_the_result_and_standings_are_by_team_and_both_partners_win(app):
    sheet = played(app)
    view = sheet.view()
    assert sorted(view["result"]["winners"]) == sorted(sheet.seated.ids[n] for n in ("Ben", "Dan"))
    assert [t["name"] for t in view["state"]["teams"]] == ["Us", "Them"]
    assert [t["total"] for t in view["state"]["teams"]] == [70, 75]
    html = sheet.page("Ann")
    assert "Them won with the highest total, 75." in html
    standings = html.split('<table class="standings">', 1)[1].split("</table>", 1)[0]
    assert "<th scope=\"col\">Team</th>" in standings
    assert re.findall(r'<td class="place">(\d)</td>\s*<th scope="row" class="player-name">'
                      r'(\w+)</th><td class="team-name">(\w+)</td>', standings) == [
        ("1", "Ben", "Them"), ("1", "Dan", "Them"), ("2", "Ann", "Us"), ("2", "Cat", "Us")]
    chart = html.split('<figure class="chart-box">', 1)[1].split("</figure>", 1)[0]
    assert "Them" in chart and "Us" in chart and "Ann" not in chart and "Ben" not in chart
    sheet_part = html.split('sheet-teams"', 1)[1].split("</table>", 1)[0]
    assert "Us" in sheet_part and "Them" in sheet_part and ">75<" in sheet_part


def csv_rows(response):
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))


def test_the_sheets_csv_and_past_games_are_by_team(app):
    sheet = played(app)
    client = app.test_client()
    rows = csv_rows(client.get(f"/t/{sheet.code}/sheet.csv"))
    assert rows[0] == ["Round", "Category", "Ann", "Ben", "Cat", "Dan"]
    assert ["Team", "", "Us", "Them", "Us", "Them"] in rows
    assert ["Team total", "", "70", "75", "70", "75"] in rows
    assert ["Place", "", "2", "1", "2", "1"] in rows
    html = page(client, "/games")
    assert "won by <strong>Them: Ben, Dan</strong>" in html
    sheets = html.split('id="sheet-stats"', 1)[1].split("</table>", 1)[0]
    assert "<tr><td>Dan</td><td>1</td><td>1</td>" in sheets
    assert "<tr><td>Cat</td><td>1</td><td>0</td>" in sheets
    past = csv_rows(client.get("/games.csv"))
    assert past[0][-1] == "Team"
    assert [(row[3], row[4], row[6], row[-1]) for row in past[1:]] == [
        ("Ben", "1", "1", "Them"), ("Dan", "1", "1", "Them"),
        ("Ann", "2", "0", "Us"), ("Cat", "2", "0", "Us")]


def test_the_host_ends_a_game_of_named_winners_by_picking_the_winning_team(app):
    sheet = Sheet(app, names=FOUR, teams=2, outcome="winners", team_names=["Us", "Them"])
    html = sheet.page()
    assert "Which team won?" in html
    assert '<input type="checkbox" name="teams[]" value="1"> <span>Them: Ben, Dan</span>' in html
    sheet.post(None, "/act", {"type": "finish", "teams[]": ["1"]})
    ids = sheet.seated.ids
    assert sheet.view()["result"]["winners"] == [ids["Ben"], ids["Dan"]]


def test_the_lobbys_teams_are_the_games_when_another_player_goes_first(app):
    api, seated, host = lobby(app, names=("Ann", "Ben", "Cat", "Dan", "Eve"), teams=2)
    ids = seated.ids
    html = page(host, f"/t/{seated.code}/host")
    response = host.post(f"/t/{seated.code}/first",
                         data={"csrf_token": csrf_of(html), "player": ids["Ben"]})
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:800]
    shown = teams_listed(page(host, f"/t/{seated.code}/host"))
    assert shown == ["Team 1: Ben, Dan, Ann", "Team 2: Cat, Eve"]
    status, _ = api.call("POST", f"/tables/{seated.code}/start", seated.host, {"seed": 7})
    assert status == 200
    names = {number: name for name, number in ids.items()}
    played = [f"{t['name']}: " + ", ".join(names[p] for p in t["players"])
              for t in seated.view()["state"]["teams"]]
    assert played == shown


def test_a_team_row_is_asked_for_by_the_teams_name(app):
    scored = Sheet(app, names=FOUR, teams=2, entry="scorer", team_names=["Us", "Them"])
    form = scored.page().split('class="score-entry round-entry"', 1)[1].split("</form>", 1)[0]
    assert re.findall(r'<label for="round-\d+-1">([^<]+)</label>', form) == ["Us", "Them"]
    phones = Sheet(app, names=FOUR, teams=2)
    assert "Your team's scores for round 1" in phones.page("Cat")


def test_a_team_row_entered_together_is_changed_as_the_teams_own(app):
    """A team scoring together keeps one row: once one partner has entered it, both
    partners' phones offer to change the team's entry (not "my" entry); the other team's
    phones still offer their own round."""
    sheet = Sheet(app, names=FOUR, teams=2)
    sheet.enter("Ann", 1, {"Points": 12})
    for partner in ("Ann", "Cat"):
        panel = sheet.page(partner)
        assert "Change your team's entry" in panel
        assert "Change my entry" not in panel
    for rival in ("Ben", "Dan"):
        assert "Enter round 1" in sheet.page(rival)
