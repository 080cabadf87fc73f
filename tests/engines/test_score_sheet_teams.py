"""Partnerships on the score sheet (companion/games/score_sheet/teams.py): the player in seat
S plays for team S mod `teams`; a team scoring "together" keeps one row a round, entered by
any member, and one scoring by "members" adds its members' rows; places, winners and
tie-breaks are the teams'.

Law: the contract's `teams`, `team_names` and `team_scoring` options (Score sheet).
"""
from __future__ import annotations

import json

import pydantic
import pytest

from companion.games.engine import HOST, IllegalAction, NotYourTurn
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, enter, new, refused

DAN, EVE, FAY = 4, 5, 6
FOUR = (ANN, BEN, CAT, DAN)
SIX = (ANN, BEN, CAT, DAN, EVE, FAY)


def public(state, viewer=None):
    return GAME.view(state, viewer)[0]


def teams_of(state):
    return [(str(t["name"]), t["players"], t["total"]) for t in public(state)["teams"]]


def test_two_teams_sit_as_partners_at_a_card_table():
    state = new(FOUR, teams=2)
    assert teams_of(state) == [("Team 1", [ANN, CAT], 0), ("Team 2", [BEN, DAN], 0)]


def test_three_teams_take_every_third_seat_and_keep_their_names():
    state = new(SIX, teams=3, team_names=["North", "East", "West"])
    assert teams_of(state) == [("North", [ANN, DAN], 0), ("East", [BEN, EVE], 0),
                               ("West", [CAT, FAY], 0)]


def test_a_sheet_without_teams_shows_none():
    assert public(new())["teams"] == []


def test_together_a_member_enters_the_teams_row_for_both():
    state = new(FOUR, teams=2, rounds=2)
    enter(state, CAT, 1, Points=40)
    assert GAME.waiting_for(state) == [BEN, DAN]
    assert GAME.view(state, ANN)[1]["entry"] == {"Points": 40}
    enter(state, BEN, 1, player=DAN, Points=25)
    assert public(state)["closed"] == 1
    assert teams_of(state) == [("Team 1", [ANN, CAT], 40), ("Team 2", [BEN, DAN], 25)]


def test_together_a_player_cannot_enter_another_teams_row():
    state = new(FOUR, teams=2)
    said = refused(state, ANN, NotYourTurn, type="enter", round=1, player=BEN,
                   scores={"Points": 10})
    assert said == "You can only enter your own team's scores."


def test_together_the_scorer_is_offered_one_row_a_team():
    state = new(FOUR, teams=2, entry="scorer")
    offered = {a["type"]: a for a in GAME.actions(state, HOST)}
    assert offered["enter_round"]["players"] == [ANN, BEN]
    act(state, HOST, type="enter_round", round=1,
        rows=[{"player": ANN, "scores": {"Points": 7}}, {"player": DAN, "scores": {"Points": 9}}])
    assert [t[2] for t in teams_of(state)] == [7, 9]


def test_together_a_correction_changes_the_teams_row():
    state = new(FOUR, teams=2)
    enter(state, ANN, 1, Points=10)
    enter(state, BEN, 1, Points=20)
    act(state, CAT, type="correct", player=CAT, round=1, category="Points", value=12)
    assert [t[2] for t in teams_of(state)] == [12, 20]
    assert [s["total"] for s in public(state)["seats"]] == [12, 20, 12, 20]


def test_members_each_enter_and_the_team_adds_them_up():
    state = new(FOUR, teams=2, team_scoring="members")
    enter(state, ANN, 1, Points=10)
    assert GAME.waiting_for(state) == [BEN, CAT, DAN]
    refused(state, ANN, NotYourTurn, type="enter", round=1, player=CAT, scores={"Points": 1})
    enter(state, BEN, 1, Points=3)
    enter(state, CAT, 1, Points=5)
    lines = enter(state, DAN, 1, Points=4)
    assert "Round 1 closed: Team 1 15, Team 2 7." in [str(line.text) for line in lines]
    assert teams_of(state) == [("Team 1", [ANN, CAT], 15), ("Team 2", [BEN, DAN], 7)]


def finished(state):
    return GAME.result(state)


def test_every_member_of_the_winning_team_wins_with_the_teams_place():
    state = new(FOUR, teams=2, team_scoring="members", rounds=1)
    for player, points in ((ANN, 1), (BEN, 10), (CAT, 20), (DAN, 2)):
        enter(state, player, 1, Points=points)
    result = finished(state)
    assert sorted(result.winners) == [ANN, CAT]
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (ANN, 1, 21), (CAT, 1, 21), (BEN, 2, 12), (DAN, 2, 12)]
    assert str(result.explanation) == "Team 1 won with the highest total, 21."


def test_a_target_reached_by_a_team_ends_the_game_naming_it():
    state = new(FOUR, teams=2, target=30, team_names=["Us", "Them"])
    enter(state, ANN, 1, Points=30)
    lines = enter(state, BEN, 1, Points=5)
    assert str(lines[-1].text) == "Us reached the target of 30: the game is over."
    assert finished(state).winners == [ANN, CAT]


def test_teams_tied_on_total_are_split_by_the_tiebreak_of_the_team():
    state = new(FOUR, teams=2, rounds=2, tiebreaks=[{"by": "last_round", "most": True}])
    enter(state, ANN, 1, Points=10)
    enter(state, BEN, 1, Points=4)
    enter(state, ANN, 2, Points=2)
    enter(state, DAN, 2, Points=8)
    result = finished(state)
    assert result.winners == [BEN, DAN]
    assert str(result.explanation) == ("Team 2 and Team 1 tied on 12; Team 2 wins on the "
                                       "last round, 8 to 2.")
    assert [s.tiebreak["last_round"] for s in result.standings] == [8, 8, 2, 2]


def test_teams_tied_after_the_chain_share_the_place_and_all_win():
    state = new(FOUR, teams=2, rounds=1, lowest_wins=True)
    enter(state, ANN, 1, Points=6)
    enter(state, BEN, 1, Points=6)
    result = finished(state)
    assert sorted(result.winners) == list(FOUR)
    assert {s.place for s in result.standings} == {1}
    assert str(result.explanation) == "Team 1 and Team 2 tied on 6 and share place 1."


def test_zero_sum_counts_a_teams_row_once():
    state = new(FOUR, teams=2, zero_sum=True)
    enter(state, ANN, 1, Points=15)
    lines = enter(state, BEN, 1, Points=-10)
    assert public(state)["off_by"] == 5
    assert "off by 5" in str(lines[-1].text)
    enter(state, DAN, 1, Points=-15)
    assert public(state)["closed"] == 1


def test_zero_sum_with_members_adds_every_row():
    state = new(FOUR, teams=2, zero_sum=True, team_scoring="members")
    for player, points in ((ANN, 5), (BEN, -5), (CAT, 3), (DAN, -3)):
        enter(state, player, 1, Points=points)
    assert public(state)["closed"] == 1
    assert [t[2] for t in teams_of(state)] == [8, -8]


def test_secret_entry_hides_a_teams_row_from_the_other_team_until_all_are_in():
    state = new(FOUR, teams=2, secret=True)
    enter(state, ANN, 1, Points=37)
    assert GAME.view(state, CAT)[1]["entry"] == {"Points": 37}
    assert GAME.view(state, BEN)[1]["entry"] is None
    assert "37" not in json.dumps(public(state)) and "37" not in json.dumps(
        GAME.view(state, HOST)[0])
    lines = enter(state, BEN, 1, Points=20)
    assert any(line.reveal for line in lines)
    assert [t[2] for t in teams_of(state)] == [37, 20]


def test_a_game_won_by_named_winners_is_won_by_whole_teams():
    state = new(FOUR, teams=2, outcome="winners")
    said = refused(state, HOST, type="finish", winners=[ANN])
    assert said == "Name every member of the winning team."
    act(state, HOST, type="finish", winners=[ANN, CAT])
    assert finished(state).winners == [ANN, CAT]


def test_more_teams_than_players_is_refused_when_the_game_starts():
    with pytest.raises(IllegalAction) as caught:
        new((ANN, BEN, CAT), teams=4)
    assert str(caught.value.message) == ("4 teams need at least 4 players: this table has "
                                         "3.")


@pytest.mark.parametrize("options, error", [
    (dict(teams=1), "at least 2 teams"),
    (dict(teams=11), "less than or equal to 10"),
    (dict(teams=2, team_names=["Us"]), "one name for each team"),
    (dict(teams=0, team_names=["Us"]), "one name for each team"),
    (dict(teams=2, team_names=["Us", "us"]), "named only once"),
    (dict(teams=2, bids="wizard"), "bids and tricks cannot have teams"),
    (dict(teams=2, team_scoring="everyone"), "'together' or 'members'"),
])
def test_options_of_teams_that_cannot_be_are_refused(options, error):
    with pytest.raises(pydantic.ValidationError) as caught:
        GAME.options_for({"name": "Test", **options}, 4)
    assert error in str(caught.value)


def test_the_host_may_name_the_winning_team_by_its_number():
    state = new(SIX, teams=3, outcome="winners")
    finish = [a for a in GAME.actions(state, HOST) if a["type"] == "finish"][0]
    assert [(str(t["name"]), t["players"]) for t in finish["teams"]] == [
        ("Team 1", [ANN, DAN]), ("Team 2", [BEN, EVE]), ("Team 3", [CAT, FAY])]
    assert refused(state, HOST, type="finish", teams=[3]) == "That team is not at this table."
    assert refused(state, HOST, type="finish", teams=[1], winners=[BEN, EVE]) == (
        "Name the winners or the winning teams, not both.")
    act(state, HOST, type="finish", teams=[1])
    assert finished(state).winners == [BEN, EVE]
    assert str(finished(state).explanation) == (
        "The host ended the game: Team 2 won ({name:2} and {name:5}).")


def test_a_table_without_teams_cannot_be_won_by_a_team():
    state = new(outcome="winners")
    assert refused(state, HOST, type="finish", teams=[0]) == "This table plays without teams."


def test_a_tie_between_teams_broken_on_time_counts_the_members_time_together():
    state = new(FOUR, teams=2, rounds=1, tiebreaks=[{"by": "time", "most": False}])
    enter(state, ANN, 1, Points=5)
    enter(state, BEN, 1, Points=5)
    used = {ANN: 20_000, CAT: 30_000, BEN: 40_000, DAN: 1_000}
    result = GAME.result_with_times(state, used)
    assert result.winners == [BEN, DAN]
    assert [s.tiebreak["seconds_used"] for s in result.standings] == [41, 41, 50, 50]


def test_the_dealer_still_goes_round_the_seats_at_a_table_of_teams():
    state = new(FOUR, teams=2, dealer=True)
    assert public(state)["dealer"] == ANN
    enter(state, ANN, 1, Points=5)
    enter(state, BEN, 1, Points=5)
    assert public(state)["dealer"] == BEN
