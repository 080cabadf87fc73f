"""Pure engine tests of the score sheet (companion/games/score_sheet/).

Law: the rulings in docs/rulings.md (Score sheet): a round is the sum of its categories,
the total the sum of the closed rounds; entry by each player or by the host as scorer,
optionally secret until every player has entered; the host's tie-break chain.
"""
from __future__ import annotations

import random

import pydantic
import pytest

from companion.games.engine import HOST, NotYourTurn
from tests.support.sheet_rules import ANN, BEN, CAT, GAME, act, enter, new, refused

WINGSPAN = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards",
            "Tucked cards"]


def points(state, round_, *values, host=False):
    """Everyone's one-category round, in seat order."""
    lines = []
    for player, value in zip(state["players"], values):
        if host:
            lines += enter(state, HOST, round_, player=player, Points=value)
        else:
            lines += enter(state, player, round_, Points=value)
    return lines


def public(state, viewer=None):
    return GAME.view(state, viewer)[0]


# -- shapes -----------------------------------------------------------------------------
def test_a_round_is_the_sum_of_its_categories_and_the_total_the_sum_of_closed_rounds():
    state = new(rounds=2, categories=["Birds", "Eggs"])
    enter(state, ANN, 1, Birds=10, Eggs=5)
    enter(state, BEN, 1, Birds=7, Eggs=9)
    enter(state, ANN, 2, Birds=3, Eggs=1)
    view = public(state)
    ann = view["seats"][0]
    assert [row["total"] for row in ann["rows"]] == [15, 4]  # round 2 still open, shown
    assert ann["rows"][1]["open"] and ann["total"] == 15  # the open round is not counted
    assert view["round"] == 2 and view["entered"] == [ANN] and view["closed"] == 1


def test_the_wingspan_shape_six_categories_ends_after_its_fixed_rounds():
    state = new(players=(ANN, BEN, CAT), rounds=1, categories=WINGSPAN)
    for player, base in ((ANN, 1), (BEN, 2), (CAT, 3)):
        act(state, player, type="enter", round=1, scores={c: base for c in WINGSPAN})
    assert state["finished"]
    result = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (CAT, 1, 18), (BEN, 2, 12), (ANN, 3, 6)]
    assert GAME.waiting_for(state) == [] and GAME.actions(state, ANN) == []


def test_an_open_sheet_goes_on_until_the_host_ends_it_after_the_last_closed_round():
    state = new()
    assert GAME.host_may_act(state) is False
    assert "No round is closed" in refused(state, HOST, type="end")
    points(state, 1, 4, 6)
    points(state, 2, 1, 1)
    enter(state, ANN, 3, Points=50)  # the open round's entries are dropped at the end
    assert GAME.host_may_act(state)
    lines = act(state, HOST, type="end")
    assert str(lines[0].text) == "The host ended the game after round 2."
    assert GAME.result(state).standings[0].player == BEN
    assert GAME.scores(state) == {ANN: 5, BEN: 7}


def test_end_is_refused_on_a_sheet_of_fixed_rounds_and_from_a_player():
    state = new(rounds=3)
    points(state, 1, 1, 2)
    assert "ends after its last round" in refused(state, HOST, type="end")
    assert refused(state, ANN, NotYourTurn, type="end")


# -- who wins --------------------------------------------------------------------------
def test_highest_total_wins_by_default():
    state = new(rounds=2)
    points(state, 1, 10, 3)
    points(state, 2, 1, 4)
    result = GAME.result(state)
    assert result.winners == [ANN]
    assert str(result.explanation) == "{name:1} won with the highest total, 11."
    assert str(result.score_label) == "total"


def test_lowest_total_wins_in_golf():
    state = new(players=(ANN, BEN, CAT), rounds=9, lowest_wins=True)
    for hole in range(1, 10):
        points(state, hole, 4, 3, 5)
    result = GAME.result(state)
    assert [(s.player, s.place, s.score) for s in result.standings] == [
        (BEN, 1, 27), (ANN, 2, 36), (CAT, 3, 45)]
    assert str(result.explanation) == "{name:2} won with the lowest total, 27."
    assert public(state)["leaders"] == [BEN]


def test_a_round_is_won_by_the_lowest_round_score_when_lowest_wins():
    state = new(rounds=2, lowest_wins=True, tiebreaks=[{"by": "rounds_won"}])
    points(state, 1, 2, 5)
    points(state, 2, 5, 2)
    points_left = GAME.result(state)
    assert points_left.standings[0].tiebreak == {"rounds_won": 1}


def test_a_target_ends_the_game_at_the_end_of_the_round_in_which_it_is_reached():
    state = new(players=(ANN, BEN, CAT), target=500)
    points(state, 1, 300, 200, 100)
    enter(state, ANN, 2, Points=250)  # 550 already, but the round is not over
    assert not state["finished"]
    lines = points(state, 2, 250, 310, 10)[1:]
    assert state["finished"]
    assert str(lines[-1].text) == ("{name:1} and {name:2} reached the target of 500: the game "
                              "is over.")
    assert GAME.result(state).winners == [ANN]


def test_the_target_counts_the_total_even_when_lowest_wins():
    state = new(target=100, lowest_wins=True)
    points(state, 1, 60, 20)
    points(state, 2, 45, 30)
    assert state["finished"]
    assert GAME.result(state).winners == [BEN]


def test_a_correction_does_not_end_the_game_the_next_close_checks_the_target():
    state = new(target=100)
    points(state, 1, 90, 10)
    act(state, HOST, type="correct", player=ANN, round=1, category="Points", value=120)
    assert not state["finished"] and public(state)["seats"][0]["total"] == 120
    points(state, 2, 0, 0)
    assert state["finished"]


# -- tie-breaks --------------------------------------------------------------------------
def wingspan_tie(*tiebreaks):
    """Ann and Ben both on 87; Ann 32 Birds to Ben's 28; Ann won rounds 1 and 2 (31 and
    31), Ben the last (28 to 25)."""
    state = new(players=(ANN, BEN, CAT), rounds=3, categories=["Birds", "Eggs"],
                tiebreaks=list(tiebreaks))
    rows = {ANN: [(12, 19), (10, 21), (10, 15)],
            BEN: [(10, 20), (9, 20), (9, 19)],
            CAT: [(1, 1), (1, 1), (1, 1)]}
    for index in range(3):
        for player in (ANN, BEN, CAT):
            birds, eggs = rows[player][index]
            enter(state, player, index + 1, Birds=birds, Eggs=eggs)
    return state


def test_a_tie_without_a_chain_is_shared_with_competition_places():
    result = GAME.result(wingspan_tie())
    assert [(s.player, s.place) for s in result.standings] == [(ANN, 1), (BEN, 1), (CAT, 3)]
    assert str(result.explanation) == ("{name:1} and {name:2} tied on 87 and share "
                                       "place 1.")


def test_most_of_a_category_breaks_the_tie_and_the_explanation_says_so():
    result = GAME.result(wingspan_tie({"by": "category", "category": "Birds"}))
    assert [(s.player, s.place) for s in result.standings] == [(ANN, 1), (BEN, 2), (CAT, 3)]
    assert str(result.explanation) == ("{name:1} and {name:2} tied on 87; {name:1} wins on "
                                       "Birds, 32 to 28.")
    assert result.standings[0].tiebreak == {"Birds": 32}


def test_fewest_of_a_category_breaks_the_tie_the_other_way():
    result = GAME.result(wingspan_tie({"by": "category", "category": "Birds",
                                       "most": False}))
    assert result.winners == [BEN]
    assert str(result.explanation) == ("{name:2} and {name:1} tied on 87; {name:2} wins on "
                                       "fewest Birds, 28 to 32.")


def test_most_rounds_won_breaks_the_tie():
    result = GAME.result(wingspan_tie({"by": "rounds_won"}))
    assert result.winners == [ANN]
    assert str(result.explanation) == ("{name:1} and {name:2} tied on 87; {name:1} wins on "
                                       "rounds won, 2 to 1.")


def test_the_last_round_breaks_the_tie_highest_or_lowest():
    high = GAME.result(wingspan_tie({"by": "last_round"}))
    assert high.winners == [BEN]  # 28 against 25
    assert "wins on the last round, 28 to 25." in str(high.explanation)
    low = GAME.result(wingspan_tie({"by": "last_round", "most": False}))
    assert low.winners == [ANN]
    assert "wins on the lowest last round, 25 to 28." in str(low.explanation)


def test_the_chain_goes_on_to_its_next_link_only_while_the_tie_holds():
    state = new(rounds=2, categories=["Birds", "Eggs", "Food"],
                tiebreaks=[{"by": "category", "category": "Eggs"}, {"by": "rounds_won"},
                           {"by": "category", "category": "Birds"}])
    enter(state, ANN, 1, Birds=10, Eggs=5, Food=0)
    enter(state, BEN, 1, Birds=6, Eggs=5, Food=0)  # Ann wins round 1, 15 to 11
    enter(state, ANN, 2, Birds=0, Eggs=5, Food=0)
    enter(state, BEN, 2, Birds=3, Eggs=5, Food=1)  # Ben round 2, 9 to 5: one each
    result = GAME.result(state)  # 20 each, Eggs 10 each, a round each: Birds decides
    assert result.winners == [ANN]
    assert str(result.explanation) == ("{name:1} and {name:2} tied on 20; {name:1} wins on "
                                       "Birds, 10 to 9.")
    assert result.standings[1].tiebreak == {"Eggs": 10, "rounds_won": 1, "Birds": 9}


def test_three_tied_players_are_ordered_and_those_still_tied_go_down_the_chain():
    state = new(players=(ANN, BEN, CAT), rounds=1, categories=["Birds", "Eggs"],
                tiebreaks=[{"by": "category", "category": "Birds"},
                           {"by": "category", "category": "Eggs", "most": False}])
    enter(state, ANN, 1, Birds=5, Eggs=5)
    enter(state, BEN, 1, Birds=8, Eggs=2)
    enter(state, CAT, 1, Birds=5, Eggs=5)
    result = GAME.result(state)
    assert [(s.player, s.place) for s in result.standings] == [(BEN, 1), (ANN, 2), (CAT, 2)]
    assert str(result.explanation) == (
        "{name:2}, {name:1} and {name:3} tied on 10; Birds orders them: {name:2} 8, "
        "{name:1} 5, {name:3} 5. {name:1} and {name:3} tied on 10 and share place 2.")


def test_a_full_share_everyone_first():
    state = new(players=(ANN, BEN, CAT), rounds=1, tiebreaks=[{"by": "rounds_won"},
                                                              {"by": "last_round"}])
    points(state, 1, 7, 7, 7)
    result = GAME.result(state)
    assert [s.place for s in result.standings] == [1, 1, 1]
    assert result.winners == [ANN, BEN, CAT]
    assert str(result.explanation) == ("{name:1}, {name:2} and {name:3} tied on 7 and "
                                       "share place 1.")


def test_a_lone_player_keeps_score_alone():
    state = new(players=(ANN,), rounds=1)
    points(state, 1, 42)
    assert str(GAME.result(state).explanation) == "{name:1} scored 42."


# -- numbers ---------------------------------------------------------------------------------
def test_negative_scores_only_when_the_sheet_allows_them():
    state = new(rounds=1)
    assert "below 0" in refused(state, ANN, type="enter", round=1, scores={"Points": -3})
    state = new(rounds=1, negative=True)
    points(state, 1, -3, -10)
    assert GAME.result(state).winners == [ANN]
    assert GAME.actions(new(negative=True), ANN)[0]["min"] == -1_000_000
    assert GAME.actions(new(), ANN)[0]["min"] == 0


@pytest.mark.parametrize("value", [1_000_001, -1_000_001])
def test_an_entry_outside_the_bounds_is_refused_by_the_models(value):
    with pytest.raises(pydantic.ValidationError):
        GAME.parse_action({"type": "enter", "round": 1, "scores": {"Points": value}})
    with pytest.raises(pydantic.ValidationError):
        GAME.parse_action({"type": "correct", "player": 1, "round": 1, "category": "Points",
                           "value": value})


def test_the_bounds_themselves_are_allowed():
    state = new(rounds=1, negative=True)
    points(state, 1, 1_000_000, -1_000_000)
    assert GAME.scores(state) == {ANN: 1_000_000, BEN: -1_000_000}


# -- entering -----------------------------------------------------------------------------
def test_an_entry_carries_every_category_and_only_the_sheets():
    state = new(categories=["Birds", "Eggs"])
    assert "Enter a score for Eggs." == refused(state, ANN, type="enter", round=1,
                                               scores={"Birds": 1})
    assert "no category Fish" in refused(state, ANN, type="enter", round=1,
                                         scores={"Birds": 1, "Eggs": 1, "Fish": 1})


def test_an_entry_for_another_round_than_the_open_one_is_refused_as_stale():
    state = new()
    points(state, 1, 1, 2)
    assert refused(state, ANN, type="enter", round=1,
                   scores={"Points": 3}) == "Round 1 is not open: round 2 is."
    assert "Round 3 is not open" in refused(state, ANN, type="enter", round=3,
                                            scores={"Points": 3})


def test_entering_again_before_the_round_closes_replaces_the_entry():
    state = new()
    enter(state, ANN, 1, Points=4)
    lines = enter(state, ANN, 1, Points=9)
    assert str(lines[0].text) == "{name:1} changed their round 1 entry to 9 (Points 9)."
    enter(state, BEN, 1, Points=1)
    assert GAME.scores(state) == {ANN: 9, BEN: 1}


def test_open_entry_shows_at_once_and_says_the_values():
    state = new(categories=["Birds", "Eggs"])
    lines = enter(state, ANN, 1, Birds=12, Eggs=3)
    assert str(lines[0].text) == "{name:1} entered round 1: 15 (Birds 12, Eggs 3)."
    assert public(state, BEN)["seats"][0]["rows"][0]["scores"] == {"Birds": 12, "Eggs": 3}
    lines = enter(state, BEN, 1, Birds=1, Eggs=1)
    assert str(lines[-1].text) == "Round 1 closed: {name:1} 15, {name:2} 2."
    assert not lines[-1].reveal


def test_a_player_enters_only_their_own_row():
    state = new()
    assert refused(state, ANN, NotYourTurn, type="enter", round=1, player=BEN,
                   scores={"Points": 1})
    enter(state, ANN, 1, player=ANN, Points=1)  # naming oneself is fine


def test_the_host_enters_for_a_player_without_a_phone_and_must_say_whom():
    state = new()
    assert "which player" in refused(state, HOST, type="enter", round=1,
                                     scores={"Points": 1})
    lines = enter(state, HOST, 1, player=BEN, Points=6)
    assert str(lines[0].text) == "The host entered round 1 for {name:2}: 6 (Points 6)."
    assert "not at this table" in refused(state, HOST, type="enter", round=1, player=99,
                                          scores={"Points": 1})


def test_with_a_scorer_only_the_host_enters_and_no_player_is_awaited():
    state = new(entry="scorer")
    assert GAME.waiting_for(state) == [] and GAME.host_may_act(state)
    assert "host enters" in refused(state, ANN, NotYourTurn, type="enter", round=1,
                                    scores={"Points": 1})
    assert [a["type"] for a in GAME.actions(state, ANN)] == []
    assert GAME.actions(state, HOST)[0]["players"] == [ANN, BEN]
    points(state, 1, 3, 4, host=True)
    assert public(state)["closed"] == 1


# -- secret entry ---------------------------------------------------------------------------
def test_secret_entries_are_in_no_view_not_even_the_hosts_until_everyone_has_entered():
    state = new(players=(ANN, BEN, CAT), secret=True, categories=["Birds", "Eggs"])
    ann_line = enter(state, ANN, 1, Birds=31, Eggs=17)
    enter(state, BEN, 1, Birds=29, Eggs=13)
    assert str(ann_line[0].text) == "{name:1} entered round 1."
    for viewer in (None, BEN, CAT):
        view, private = GAME.view(state, viewer)
        assert all(seat["rows"] == [] for seat in view["seats"])
        assert "31" not in repr(view) and "31" not in repr(private)
        assert "31" not in repr(GAME.actions(state, viewer))
    assert public(state)["entered"] == [ANN, BEN]  # who has entered is public
    assert GAME.view(state, ANN)[1] == {"entry": {"Birds": 31, "Eggs": 17}}
    assert GAME.view(state, CAT)[1] == {"entry": None}
    assert GAME.secrets(state) == {ANN: [{"entry": {"Birds": 31, "Eggs": 17}}],
                                   BEN: [{"entry": {"Birds": 29, "Eggs": 13}}]}


def test_the_last_entry_reveals_the_round_and_the_reveal_is_a_reveal():
    state = new(players=(ANN, BEN), secret=True)
    enter(state, ANN, 1, Points=7)
    lines = enter(state, BEN, 1, Points=9)
    assert str(lines[0].text) == "{name:2} entered round 1."
    assert str(lines[1].text) == "Round 1 revealed: {name:1} 7, {name:2} 9."
    assert lines[1].reveal and not lines[0].reveal
    assert public(state, BEN)["seats"][0]["rows"][0]["scores"] == {"Points": 7}
    assert GAME.secrets(state) == {}


def test_the_preview_of_a_secret_entry_shows_only_ones_own():
    state = new(secret=True)
    enter(state, ANN, 1, Points=77)
    preview = GAME.preview(state, BEN, GAME.parse_action(
        {"type": "enter", "round": 1, "scores": {"Points": 5}}))
    assert str(preview) == "Your entry for round 1: 5." and "77" not in str(preview)


def test_a_secret_entry_may_be_changed_until_the_reveal_without_its_values_in_the_log():
    state = new(secret=True)
    enter(state, ANN, 1, Points=4)
    assert str(enter(state, ANN, 1, Points=8)[0].text) == "{name:1} changed their round 1 entry."
    assert GAME.view(state, ANN)[1] == {"entry": {"Points": 8}}
    assert str(enter(state, HOST, 1, player=BEN, Points=3)[0].text) == (
        "The host entered round 1 for {name:2}.")


def test_the_open_rounds_entries_of_a_secret_sheet_are_dropped_unseen_at_the_end():
    state = new(secret=True)
    points(state, 1, 1, 2)
    enter(state, ANN, 2, Points=99)
    act(state, HOST, type="end")
    assert "99" not in repr(GAME.view(state, None))


# -- corrections ----------------------------------------------------------------------------
def test_a_player_corrects_their_own_closed_row_and_the_host_anyones():
    state = new(categories=["Birds", "Eggs"])
    enter(state, ANN, 1, Birds=12, Eggs=1)
    enter(state, BEN, 1, Birds=2, Eggs=2)
    lines = act(state, HOST, type="correct", player=ANN, round=1, category="Birds", value=15)
    assert str(lines[0].text) == "The host changed {name:1}'s round 1 Birds from 12 to 15."
    lines = act(state, BEN, type="correct", player=BEN, round=1, category="Eggs", value=0)
    assert str(lines[0].text) == "{name:2} changed their round 1 Eggs from 2 to 0."
    assert "another player's" in refused(state, BEN, NotYourTurn, type="correct",
                                         player=ANN, round=1, category="Birds", value=1)
    assert GAME.scores(state) == {ANN: 16, BEN: 2}


def test_only_a_closed_round_can_be_corrected_to_a_new_allowed_value():
    state = new()
    enter(state, ANN, 1, Points=3)
    assert "not closed yet" in refused(state, ANN, type="correct", player=ANN, round=1,
                                       category="Points", value=4)
    enter(state, BEN, 1, Points=3)
    assert "already the score" in refused(state, ANN, type="correct", player=ANN, round=1,
                                          category="Points", value=3)
    assert "below 0" in refused(state, ANN, type="correct", player=ANN, round=1,
                                category="Points", value=-1)
    assert "no category" in refused(state, ANN, type="correct", player=ANN, round=1,
                                    category="Fish", value=1)


# -- the bot -----------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"entry": "scorer", "secret": True},
                                     {"rounds": 5, "negative": True, "lowest_wins": True}])
def test_the_bot_plays_every_shape_to_the_end(options):
    rng = random.Random(4)
    state = new(players=(ANN, BEN, CAT), categories=["A", "B"], **options)
    corrections = 0
    for _ in range(2000):
        movers = GAME.waiting_for(state) + ([HOST] if GAME.host_may_act(state) else [])
        if not movers:
            break
        actor = rng.choice(movers)
        data = GAME.random_action(state, actor, rng)
        corrections += data["type"] == "correct"
        act(state, actor, **data)
    assert state["finished"] and GAME.result(state) is not None
    assert all(GAME.random_action(state, p, rng) is None for p in (ANN, BEN, CAT, HOST))


def test_less_time_used_breaks_the_tie_on_the_times_the_table_hands_in():
    times = {ANN: 185_400, BEN: 120_900, CAT: 60_000}
    result = GAME.result_with_times(wingspan_tie({"by": "time"}), times)
    assert result.winners == [BEN]
    assert str(result.explanation) == ("{name:2} and {name:1} tied on 87; {name:2} wins on "
                                       "fewest seconds used, 120 to 185.")
    assert result.standings[0].tiebreak == {"seconds_used": 120}
    more = GAME.result_with_times(wingspan_tie({"by": "time", "most": True}), times)
    assert more.winners == [ANN]
    assert "wins on most seconds used, 185 to 120." in str(more.explanation)
    # Without times (a table without a clock) the link tells no one apart.
    assert GAME.result(wingspan_tie({"by": "time"})).winners == [ANN, BEN]
