"""Pure engine tests of the score sheet kept by a scorer (companion/games/score_sheet/):
a round entered at once, and the second look at an entry far outside what the sheet has
shown. Law: docs/rulings.md (Score sheet: A round at once, A second look)."""
from __future__ import annotations



from companion.games.engine import HOST, NotYourTurn
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, enter, new, refused


def test_the_scorer_enters_a_whole_round_at_once_and_it_closes():
    state = new(players=(ANN, BEN, CAT), entry="scorer", lowest_wins=True)
    offered = [a for a in GAME.actions(state, HOST) if a["type"] == "enter_round"]
    assert offered and offered[0]["players"] == [ANN, BEN, CAT]
    lines = act(state, HOST, type="enter_round", round=1, rows=[
        {"player": ANN, "scores": {"Points": 4}}, {"player": BEN, "scores": {"Points": 3}},
        {"player": CAT, "scores": {"Points": 5}}])
    assert [row["Points"] for row in state["closed"][0].values()] == [4, 3, 5]
    assert lines[-1].text.id == "Round %(round)s closed: %(totals)s."
    # A round at once with some already entered: only those left are offered.
    enter(state, HOST, 2, player=BEN, Points=2)
    offered = [a for a in GAME.actions(state, HOST) if a["type"] == "enter_round"]
    assert offered[0]["players"] == [ANN, CAT]


def test_a_round_at_once_is_the_scorers_and_holds_each_player_once():
    rows = [{"player": ANN, "scores": {"Points": 4}}, {"player": ANN, "scores": {"Points": 5}}]
    scorer = new(entry="scorer")
    assert "once" in refused(scorer, HOST, type="enter_round", round=1, rows=rows)
    players = new()
    assert "scorer" in refused(players, HOST, type="enter_round", round=1, rows=rows[:1])
    assert not [a for a in GAME.actions(players, HOST) if a["type"] == "enter_round"]
    refused(scorer, ANN, NotYourTurn, type="enter_round", round=1, rows=rows[:1])
    # A bad row refuses the whole round: nothing of it is entered.
    assert refused(scorer, HOST, type="enter_round", round=1, rows=[
        {"player": ANN, "scores": {"Points": 4}}, {"player": 99, "scores": {"Points": 1}}])
    assert scorer["open"] == {}


def test_an_entry_far_outside_what_the_sheet_has_seen_gets_a_second_look():
    state = new(players=(ANN, BEN), entry="scorer")
    look = lambda **data: GAME.second_look(state, GAME.parse_action(data))  # noqa: E731
    assert look(type="enter", round=1, player=ANN, scores={"Points": 900}) == []  # nothing seen
    enter(state, HOST, 1, player=ANN, Points=4)
    enter(state, HOST, 1, player=BEN, Points=3)
    assert look(type="enter", round=2, player=ANN, scores={"Points": 40}) == []
    flagged = look(type="enter", round=2, player=ANN, scores={"Points": 44})
    assert len(flagged) == 1 and flagged[0].params["largest"] == 4
    assert look(type="enter_round", round=2, rows=[
        {"player": ANN, "scores": {"Points": 4}}, {"player": BEN, "scores": {"Points": 41}}])
    assert look(type="correct", player=BEN, round=1, category="Points", value=400)
    # The rules take it as it is: the second look is the screens' to ask.
    enter(state, HOST, 2, player=ANN, Points=44)
    assert state["open"][str(ANN)] == {"Points": 44}


def test_the_second_look_never_counts_a_secret_entry():
    state = new(players=(ANN, BEN), secret=True)
    enter(state, ANN, 1, Points=500)
    assert GAME.second_look(state, GAME.parse_action(
        {"type": "enter", "round": 1, "scores": {"Points": 9}})) == []
