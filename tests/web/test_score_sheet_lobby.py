"""The score sheet's new-table form, its saved sheets, /games for sheets and the CSV
downloads, over the test client on a real SQLite database."""
from __future__ import annotations

import csv
import io
import re


from companion.auth import host_cookie
from companion.extensions import db
from companion.models import SavedOptions, Table
from tests.support.pages import csrf_of, inert, page
from tests.support.sheet_forms import FORM, created, options_of, sheet_form

WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]
def test_the_form_asks_for_the_sheet(host):
    html = page(host, FORM)
    inert(html, FORM)
    assert 'id="name" name="name" value=""' in html and "required" in html
    assert ('name="rounds" value=""' in html
            and "Default: open until the host ends the game." in html)
    assert 'name="target" value=""' in html and 'placeholder="none"' in html
    assert '<textarea id="categories" name="categories"' in html and ">Points</textarea>" in html
    for name in ("lowest_wins", "negative", "secret"):
        assert f'name="{name}"' in html
    assert '<option value="scorer"' in html and "The host</option>" in html
    assert 'name="tiebreaks.0"' in html and 'name="tiebreaks.0.category"' in html
    assert 'value="by=category;most=false"' in html and 'value="by=rounds_won"' in html
    assert "tiebreaks.js" in html
    assert "Save as this server" not in html  # saved sheets instead of the server's defaults
    assert "Saved sheets" not in html  # none yet


def test_a_wingspan_sheet_is_created_with_its_chain_and_saved(app, host):
    code = created(host.post(FORM, data=sheet_form(
        host, name="  Wingspan ", rounds="4", categories="\n".join(WINGSPAN) + "\n\n",
        secret="on", tiebreaks__0="by=category;most=true", tiebreaks__0__category="food ON cards",
        tiebreaks__1="", tiebreaks__1__category="ignored",
        tiebreaks__2="by=rounds_won", tiebreaks__2__category="not used")))
    options = options_of(host, code)
    assert options["name"] == "Wingspan" and options["rounds"] == 4
    assert options["categories"] == WINGSPAN and options["secret"] is True
    assert options["tiebreaks"] == [{"by": "category", "category": "Food on cards", "most": True},
                                    {"by": "rounds_won"}]
    with app.app_context():
        saved = db.session.execute(db.select(SavedOptions)).scalars().all()
        assert [(s.game, s.name, s.uses) for s in saved] == [("score-sheet", "Wingspan", 1)]
        assert saved[0].options == options


def test_bad_input_is_explained_and_keeps_what_was_typed(app, host):
    cases = [
        ({"name": "   ", "categories": "Birds"}, "Game: please fill this in."),
        ({"name": "x" * 41}, "Game: at most 40 characters."),
        ({"name": "Rummy", "rounds": "101"}, "Rounds: at most 100."),
        ({"name": "Rummy", "rounds": "0"}, "Rounds: at least 1."),
        ({"name": "Rummy", "rounds": "four"}, "Rounds: type a whole number."),
        ({"name": "Rummy", "target": "-5"}, "Target score: at least 1."),
        ({"name": "Rummy", "categories": "Birds\nEggs\nbirds"},
         "Categories: birds is there twice; each line once."),
        ({"name": "Rummy", "categories": "\n".join(f"C{n}" for n in range(21))},
         "Categories: at most 20 entries."),
        ({"name": "Rummy", "categories": "A category name far too long"},
         "Categories: at most 24 characters."),
        ({"name": "Rummy", "categories": "Birds\nEggs", "tiebreaks__0": "by=category;most=true",
          "tiebreaks__0__category": "Fish"},
         "a tie-break names a category the sheet does not have"),
        ({"name": "Rummy", "tiebreaks__0": "by=rounds_won", "tiebreaks__1": "by=rounds_won"},
         "each tie-break can be used only once"),
        ({"name": "Rummy", "tiebreaks__0": "by=rounds_won", "tiebreaks__1": "by=category;most=true",
          "tiebreaks__1__category": " "}, "Tie-breaks: say which category for row 2."),
        ({"name": "Rummy", "tiebreaks__0": "by=chess"}, "Tie-breaks: "),
        ({"name": "Rummy", "tiebreaks__0": "by=category;most=maybe"}, "Tie-breaks: "),
        ({"name": "Rummy", "entry": "everyone"}, "Who enters the scores: "),
    ]
    for fields, said in cases:
        response = host.post(FORM, data=sheet_form(host, **fields))
        text = response.get_data(as_text=True)
        assert response.status_code == 400, (fields, text[:800])
        assert 'role="alert"' in text and said in text, (fields, said)
        if fields["name"].strip() and len(fields["name"]) <= 40:
            assert f'name="name" value="{fields["name"]}"' in text, fields
        if "categories" in fields and len(fields["categories"]) < 60:
            assert f'>{fields["categories"]}</textarea>' in text, fields
    # The chain comes back as it was typed.
    response = host.post(FORM, data=sheet_form(
        host, name="Rummy", categories="Birds\nEggs", rounds="7",
        tiebreaks__0="by=category;most=false", tiebreaks__0__category="Fish"))
    text = response.get_data(as_text=True)
    assert 'value="by=category;most=false" selected' in text
    assert 'name="tiebreaks.0.category"\n          value="Fish"' in text
    assert 'name="rounds" value="7"' in text
    with app.app_context():  # nothing was created or saved
        assert db.session.execute(db.select(SavedOptions)).scalars().all() == []


def test_saved_sheets_are_one_tap_and_offered_as_the_name_is_typed(app, host):
    wingspan = dict(name="Wingspan", categories="\n".join(WINGSPAN),
                    tiebreaks__0="by=category;most=true", tiebreaks__0__category="Food on cards")
    created(host.post(FORM, data=sheet_form(host, **wingspan)))
    created(host.post(FORM, data=sheet_form(host, name="Golf", rounds="9", lowest_wins="on",
                                            entry="scorer")))
    created(host.post(FORM, data=sheet_form(host, name="golf", rounds="18", lowest_wins="on",
                                            entry="scorer")))
    with app.app_context():  # a sheet's table brought from another server: nothing saved
        db.session.add(Table(code="HANA", game="score-sheet", options={"name": "Hanabi"},
                             host_token_hash="h"))
        db.session.commit()
    html = page(host, FORM)
    inert(html, FORM)
    # Most used first: Golf (twice, under the name as last typed), then Wingspan.
    assert re.findall(r'<button type="submit" class="button primary" name="name" '
                      r'value="([^"]+)"', html) == ["golf", "Wingspan"]
    # Offered as the name is typed: the saved sheets, then the names of other tables.
    offered = html[html.index('<datalist id="name-offered">'):]
    assert re.findall(r'<option value="([^"]+)"></option>',
                      offered[:offered.index("</datalist>")]) == ["golf", "Wingspan", "Hanabi"]
    assert ", ".join(WINGSPAN) in html
    # One tap: a table with Wingspan's categories and tie-breaks; counted once more.
    code = created(host.post(f"{FORM}/saved",
                             data={"csrf_token": csrf_of(html), "name": "Wingspan"}))
    options = options_of(host, code)
    assert options["name"] == "Wingspan" and options["categories"] == WINGSPAN
    assert options["tiebreaks"] == [{"by": "category", "category": "Food on cards", "most": True}]
    with app.app_context():
        uses = dict(db.session.execute(db.select(SavedOptions.name, SavedOptions.uses)).all())
    assert uses == {"golf": 2, "Wingspan": 2}
    # A name typed again with other settings updates the saved sheet.
    created(host.post(FORM, data=sheet_form(host, name="WINGSPAN", categories="Birds\nEggs")))
    code = created(host.post(f"{FORM}/saved",
                             data={"csrf_token": csrf_of(html), "name": "wingspan"}))
    assert options_of(host, code)["categories"] == ["Birds", "Eggs"]
    assert options_of(host, code)["name"] == "WINGSPAN"
    # "Change" fills the form with a saved sheet's settings.
    filled = page(host, f"{FORM}?saved=golf")
    assert 'name="name" value="golf"' in filled and 'name="rounds" value="18"' in filled
    assert 'name="lowest_wins" checked' in filled and '<option value="scorer" selected' in filled
    # A name nothing is saved under is refused in place.
    response = host.post(f"{FORM}/saved", data={"csrf_token": csrf_of(html), "name": "Chess"})
    assert response.status_code == 404
    assert "Nothing is saved under that name on this server." in response.get_data(as_text=True)


def test_a_sheet_made_through_the_api_is_saved_too(app, api):
    api.table("score-sheet", start=False, options={"name": "Sushi Go", "rounds": 3})
    api.table("score-sheet", start=False)  # no name: a plain Score sheet, saved under none
    with app.app_context():
        saved = db.session.execute(db.select(SavedOptions)).scalar_one()
    assert (saved.name, saved.options["rounds"], saved.uses) == ("Sushi Go", 3, 1)


def play_sheet(api, players, options, rounds):
    """A sheet played to its end through the API: each player enters their own rows."""
    table = api.table("score-sheet", players=players, options=options)
    for number, entries in enumerate(rounds, start=1):
        for name, scores in entries.items():
            status, body = table.act(table.tokens[name], type="enter", round=number, scores=scores)
            assert status == 200, body
    return table


def rows_of(response) -> list[list[str]]:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))


def test_a_finished_sheet_downloads_as_csv(app, client, api):
    table = play_sheet(api, ("Ann", "=cmd|' /C calc'!A0", "@Cat"),
                       {"name": "=Wingspan", "rounds": 2, "categories": ["Birds", "-Eggs"],
                        "negative": True, "tiebreaks": [{"by": "category", "category": "Birds"}]},
                       [{"Ann": {"Birds": 10, "-Eggs": 2},
                         "=cmd|' /C calc'!A0": {"Birds": 8, "-Eggs": 4},
                         "@Cat": {"Birds": -3, "-Eggs": 0}},
                        {"Ann": {"Birds": 5, "-Eggs": 1},
                         "=cmd|' /C calc'!A0": {"Birds": 7, "-Eggs": 1},
                         "@Cat": {"Birds": 1, "-Eggs": 1}}])
    response = client.get(f"/t/{table.code}/sheet.csv")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and f"Wingspan-{table.code}.csv" in disposition
    assert rows_of(response) == [
        ["Round", "Category", "Ann", "'=cmd|' /C calc'!A0", "'@Cat"],
        ["1", "Birds", "10", "8", "-3"],
        ["1", "'-Eggs", "2", "4", "0"],
        ["1", "Round total", "12", "12", "-3"],
        ["2", "Birds", "5", "7", "1"],
        ["2", "'-Eggs", "1", "1", "1"],
        ["2", "Round total", "6", "8", "2"],
        ["Total", "", "18", "20", "-1"],
        ["Place", "", "2", "1", "3"],
    ]
    # Its result on the host screen links to it.
    host = app.test_client()
    host.set_cookie(host_cookie(table.code), table.host)
    assert f'href="/t/{table.code}/sheet.csv" download' in page(host, f"/t/{table.code}/host")


def test_nothing_of_a_sheet_in_play_downloads(client, api):
    table = play_sheet(api, ("Ann", "Ben"), {"name": "Rummy", "secret": True},
                       [{"Ann": {"Points": 4713}}])
    response = client.get(f"/t/{table.code}/sheet.csv")
    assert response.status_code == 409 and b"4713" not in response.get_data()
    go_big = api.table("go-big")
    assert client.get(f"/t/{go_big.code}/sheet.csv").status_code == 404
    assert client.get("/t/ZZZZ/sheet.csv").status_code == 404
    assert rows_of(client.get("/games.csv")) == [
        ["Finished", "Game", "Table", "Player", "Place", "Score", "Won", "Time used", "Team"]]


def test_games_lists_sheets_by_their_name_with_best_and_average(app, client, api):
    golf = {"name": "Golf", "rounds": 1, "lowest_wins": True}
    play_sheet(api, ("Ann", "Ben"), golf, [{"Ann": {"Points": 30}, "Ben": {"Points": 36}}])
    play_sheet(api, ("ann", "Ben"), golf, [{"ann": {"Points": 41}, "Ben": {"Points": 33}}])
    play_sheet(api, ("Ann", "Ben"), {"name": "Rummy", "rounds": 1},
               [{"Ann": {"Points": 5}, "Ben": {"Points": 50}}])
    go_big = api.table("go-big", players=("Ann", "Dan"), options={"copies_per_value": 4})
    go_big.api.app = app
    go_big.finish()
    html = page(client, "/games")
    inert(html, "/games")
    assert (html.count("<h3>Golf</h3>") == 2 and "<h3>Rummy</h3>" in html
            and "<h3>Go Big</h3>" in html)
    assert "Score sheet" not in html.split("<h2>Players</h2>")[0]
    sheets = html[html.index('id="sheet-stats"'):]
    row = re.compile(r"<tr><td>([^<]*)</td><td>(\d+)</td><td>(\d+)</td>\s*"
                     r"<td>([^<]*)</td><td>([^<]*)</td></tr>")
    rows = [(name, game, *figures)
            for game, table in re.findall(r"<caption>([^<]*)</caption>(.*?)</table>", sheets,
                                          re.S)
            for name, *figures in row.findall(table)]
    # A name as the newest game has it; the best of Golf is the lowest total.
    assert sorted(rows) == [("Ann", "Rummy", "1", "0", "5", "5"),
                            ("Ben", "Golf", "2", "1", "33", "34.5"),
                            ("Ben", "Rummy", "1", "1", "50", "50"),
                            ("ann", "Golf", "2", "1", "30", "35.5")]
    others = html[html.index("<h2>Players</h2>"):html.index('id="sheet-stats"')]
    assert "Go Big" in others and "Golf" not in others and "Best total" not in others
    # The history as CSV: a row per player of each finished game, numbers as numbers.
    response = client.get("/games.csv")
    assert 'filename=past-games.csv' in response.headers["Content-Disposition"]
    history = rows_of(response)
    assert history[0] == ["Finished", "Game", "Table", "Player", "Place", "Score", "Won",
                          "Time used", "Team"]
    assert sorted((r[1], r[3], r[4], r[5], r[6]) for r in history[1:] if r[1] != "Go Big") == [
        ("Golf", "Ann", "1", "30", "1"), ("Golf", "Ben", "1", "33", "1"),
        ("Golf", "Ben", "2", "36", "0"), ("Golf", "ann", "2", "41", "0"),
        ("Rummy", "Ann", "2", "5", "0"), ("Rummy", "Ben", "1", "50", "1")]
    assert {r[3] for r in history[1:] if r[1] == "Go Big"} == {"Ann", "Dan"}
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", r[0]) for r in history[1:])
