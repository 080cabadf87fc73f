"""The host keeping a score sheet as its scorer, over the test client: a round at once, a
value that lands only on the player its form showed, and the second look at a score far
outside what the sheet has seen (not saved until confirmed, with script or without)."""
from __future__ import annotations

import re

from tests.support.score_sheets import Sheet


def golf(app) -> Sheet:
    return Sheet(app, entry="scorer", rounds=9, lowest_wins=True)


def drawn_for(panel: str, prefix: str) -> str:
    return re.search(rf'name="drawn_for" value="({prefix}[^"]*)"', panel).group(1)


def open_entries(sheet: Sheet) -> dict:
    return {sheet.seated.names[seat["player"]]: row["scores"]["Points"]
            for seat in sheet.view()["state"]["seats"] for row in seat["rows"]
            if row.get("open")}


def round_fields(sheet: Sheet, panel: str, strokes: dict) -> dict:
    fields = {"type": "enter_round", "round": "1",
              "drawn_for": drawn_for(panel, "host-round-")}
    for index, (name, value) in enumerate(strokes.items()):
        fields[f"rows[{index}].player"] = str(sheet.seated.ids[name])
        fields[f"rows[{index}].scores.Points"] = str(value)
    return fields


def test_a_golf_round_for_three_is_entered_at_once(app):
    sheet = golf(app)
    host = sheet.page(None)
    for name in ("Ann", "Ben", "Cat"):
        assert f'<label for="round-{sheet.seated.ids[name]}-1">{name}</label>' in host
    panel = sheet.post(None, "/act", round_fields(sheet, host, {"Ann": 4, "Ben": 3, "Cat": 5}))
    assert "Round 1 closed: Ann 4, Ben 3, Cat 5." in panel
    seats = sheet.view()["state"]["seats"]
    assert [seat["rows"][0]["total"] for seat in seats] == [4, 3, 5]


def test_a_value_lands_only_on_the_player_the_form_showed(app):
    sheet = golf(app)
    ann, ben = sheet.seated.ids["Ann"], sheet.seated.ids["Ben"]
    shown = sheet.page(None)  # the form for Ann's entry, Ann chosen
    first = drawn_for(shown, "host-enter-")
    sheet.enter(None, 1, {"Points": 4}, player=str(ann), drawn_for=first)
    # The same form, drawn before Ann's entry, sent again for the next player: the
    # panel it was typed in stands for another decision now, and nothing is saved.
    refusal = sheet.enter(None, 1, {"Points": 44}, status=409, player=str(ben),
                          drawn_for=first)
    assert "The sheet changed while this form was open" in refusal
    assert open_entries(sheet) == {"Ann": 4}
    # The form as it is now names Ben, and takes his entry.
    now = drawn_for(sheet.page(None), "host-enter-")
    assert now != first and f'value="{ben}" required checked' in sheet.page(None)
    sheet.enter(None, 1, {"Points": 4}, player=str(ben), drawn_for=now)
    assert open_entries(sheet) == {"Ann": 4, "Ben": 4}
    # A round at once drawn before those entries is refused as a whole.
    stale = round_fields(sheet, shown, {"Ann": 4, "Ben": 4, "Cat": 40})
    assert "The sheet changed" in sheet.post(None, "/act", stale, status=409)
    assert open_entries(sheet) == {"Ann": 4, "Ben": 4}


def second_round(sheet: Sheet) -> None:
    host = sheet.page(None)
    sheet.post(None, "/act", round_fields(sheet, host, {"Ann": 4, "Ben": 3, "Cat": 5}))


def test_a_score_far_outside_the_sheet_is_not_saved_until_the_scorer_confirms_it(app):
    sheet = golf(app)
    second_round(sheet)
    ann = sheet.seated.ids["Ann"]
    key = drawn_for(sheet.page(None), "host-enter-")
    asked = sheet.enter(None, 2, {"Points": 51}, status=409, player=str(ann), drawn_for=key)
    assert "Check this entry" in asked
    assert ("Ann: Points 51 is more than ten times the largest entry so far (5)."
            in asked)
    assert open_entries(sheet) == {}  # not saved
    # The second look sends the same fields again, confirmed.
    confirm = re.search(r'<section class="second-look".*?</section>', asked, re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', confirm))
    assert fields["confirmed"] == "1" and fields["player"] == str(ann)
    assert fields["scores.Points"] == "51" and fields["drawn_for"] == key
    sheet.post(None, "/act", {k: v for k, v in fields.items()
                              if k not in ("csrf_token", "action_id", "screen")})
    assert open_entries(sheet) == {"Ann": 51}


def test_without_script_the_second_look_is_a_plain_form_and_nothing_is_saved(app):
    sheet = golf(app)
    second_round(sheet)
    host = sheet.page(None)
    fields = round_fields(sheet, host, {"Ann": 4, "Ben": 300, "Cat": 5})
    fields.update(round="2", csrf_token=re.search(r'name="csrf_token" value="([^"]+)"',
                                                   host).group(1),
                  action_id="no-script-1", screen="host")
    answer = sheet.host.post(f"/t/{sheet.code}/act", data=fields)  # no HX-Request
    page = answer.get_data(as_text=True)
    assert answer.status_code == 409 and "Ben: Points 300 is more than ten times" in page
    assert 'method="post"' in page and 'name="confirmed" value="1"' in page
    assert open_entries(sheet) == {}
    answer = sheet.host.post(f"/t/{sheet.code}/act", data=dict(fields, confirmed="1"))
    assert answer.status_code == 303
    assert [seat["rows"][1]["total"] for seat in sheet.view()["state"]["seats"]] == [4, 300, 5]
