"""Nothing Beats a Large's rules page as the engine gives it: the section of each step, what
to set out for a table, the section each refusal cites, and why a challenger or a thief is
not offered some players (told only to them)."""
from __future__ import annotations

import random

import pytest

from companion.games.engine import IllegalAction, NotYourTurn
from companion.games.messages import Listed, Player
from companion.games.nothing_beats_a_large import COLORS, NothingBeatsALarge, sorted_pieces
from companion.games.nothing_beats_a_large.pieces import color_name

GAME = NothingBeatsALarge()
ANN, BEN, CAT, DAN = 1, 2, 3, 4


def start(players: list[int], casting: str = "phones") -> dict:
    options = GAME.Options(colors=list(COLORS[:max(3, len(players))]), casting=casting)
    return GAME.setup(players, options, random.Random(5))


def arranged(layout: dict[int, list[str]]) -> dict:
    """A fresh game, Ann to challenge, whose seats hold exactly the pieces of `layout`."""
    state = start(list(layout))
    for seat in state["seats"]:
        seat["pieces"] = sorted_pieces(layout[seat["player"]])
    return state


def act(state: dict, player: int | None, **data):
    return GAME.apply(state, player, GAME.parse_action(data), random.Random(0))


def refusal(state: dict, player: int | None, **data) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        act(state, player, **data)
    return refused.value


def lines(state: dict, player: int | None) -> list[tuple[str, int, str]]:
    """The why-not lines of `player`: (message id, the player it names, rule)."""
    found = []
    for reason in GAME.why_not(state, player):
        assert set(reason.message.params) == {"player"}  # a name, never a goal or a cast
        found.append((reason.message.id, reason.message.params["player"].id, reason.rule))
    return found


THREE = {ANN: ["red-L", "yellow-M", "green-S"],
         BEN: ["yellow-L", "green-M", "red-S"],
         CAT: ["green-L", "red-M", "yellow-S"]}
NOT_JUST_CAST = "You cannot challenge %(player)s, who has just cast: challenge someone who did not."
ONLY_THE_LOSER = ("You cannot rob %(player)s: the winner of a cast takes a piece only from "
                  "its loser.")
LATER = "You rob %(player)s later: one player at a time, clockwise."
ONCE = ("You cannot rob %(player)s now: you take one piece from each player who had any "
        "when you ran out, and no more.")
NO_PIECES = "You cannot rob %(player)s, who has no pieces."


def ann_beats_ben(state: dict) -> None:
    """Ann challenges Ben, and her Large beats his Medium."""
    act(state, ANN, type="challenge", opponent=BEN)
    act(state, ANN, type="cast", piece="red-L")
    act(state, BEN, type="cast", piece="green-M")


# -- the section of each step ----------------------------------------------------------------
def test_the_rules_link_opens_the_section_of_the_step_the_game_is_at():
    state = arranged({ANN: ["red-L", "red-M", "yellow-L", "yellow-M", "yellow-S"],
                      BEN: ["red-S", "green-M"], CAT: ["green-L", "green-S"]})
    state["seats"][0]["goals"] = ["red", "yellow"]
    assert GAME.rule_for(state) == "challenge"
    act(state, ANN, type="challenge", opponent=BEN)
    assert GAME.rule_for(state) == "cast"
    act(state, ANN, type="cast", piece="red-L")
    act(state, BEN, type="cast", piece="green-M")
    assert GAME.rule_for(state) == "steal"
    act(state, ANN, type="steal", piece="red-S")  # both of Ann's goals at once: she wins
    assert state["winner"] == ANN
    assert GAME.rule_for(state) == "end"
    assert list(GAME.rule_sections)[0] == "setup"
    assert {"turn", "challenge", "cast", "steal", "end", "rulings"} <= set(GAME.rule_sections)


# -- what to set out ----------------------------------------------------------------------
def test_the_checklist_of_two_players_casting_on_the_phones():
    lines_ = GAME.setup_checklist(GAME.default_options(2), 2)
    colours = lines_[0].params["colors"]
    assert isinstance(colours, Listed)
    assert colours.items == tuple(color_name(c) for c in ("red", "yellow", "green"))
    ids = [line.id for line in lines_]
    assert any(i.startswith("With two players the spare trio is shared out") for i in ids)
    assert any(i.startswith("Casts are made on the phones") for i in ids)
    assert not any(i.startswith("Casts are made by hand") for i in ids)
    assert any(i.startswith("The goal cards stay in the box") for i in ids)


def test_the_checklist_of_four_players_casting_by_hand():
    options = GAME.Options(colors=["black", "blue", "red", "green"], casting="by-hand")
    lines_ = GAME.setup_checklist(options, 4)
    assert lines_[0].params["colors"].items == tuple(
        color_name(c) for c in ("red", "green", "blue", "black"))  # in the box's order
    ids = [line.id for line in lines_]
    assert not any(i.startswith("With two players") for i in ids)
    assert any(i.startswith("Casts are made by hand") for i in ids)
    assert not any(i.startswith("Casts are made on the phones") for i in ids)


# -- the section each refusal cites ------------------------------------------------------------
def test_refusals_cite_the_section_that_forbids_the_move():
    with pytest.raises(IllegalAction) as wrong_colours:
        GAME.setup([ANN, BEN, CAT, DAN], GAME.Options(colors=["red", "yellow", "green"]),
                   random.Random(0))
    assert wrong_colours.value.rule == "setup"
    with pytest.raises(IllegalAction) as too_many:
        GAME.setup([1, 2, 3, 4, 5, 6], GAME.Options(), random.Random(0))
    assert too_many.value.rule == "setup"

    state = arranged(THREE)
    assert refusal(state, ANN, type="cast", piece="red-L").rule == "cast"
    assert refusal(state, ANN, type="steal", piece="red-S").rule == "steal"
    out_of_turn = refusal(state, BEN, type="challenge", opponent=CAT)
    assert isinstance(out_of_turn, NotYourTurn) and out_of_turn.rule == "challenge"
    assert refusal(state, ANN, type="challenge", opponent=ANN).rule == "challenge"

    act(state, ANN, type="challenge", opponent=BEN)
    assert refusal(state, ANN, type="challenge", opponent=CAT).rule == "turn"
    assert refusal(state, CAT, type="cast", piece="green-L").rule == "cast"
    assert refusal(state, ANN, type="cast", piece="yellow-L").rule == "cast"  # Ben's piece
    act(state, ANN, type="cast", piece="red-L")
    assert refusal(state, ANN, type="cast", piece="green-S").rule == "cast"  # locked in
    act(state, BEN, type="cast", piece="green-M")

    assert refusal(state, BEN, type="steal", piece="red-L").rule == "steal"
    assert refusal(state, ANN, type="steal", piece="green-L").rule == "steal"  # Cat's
    act(state, ANN, type="steal", piece="red-S")
    assert refusal(state, BEN, type="challenge", opponent=ANN).rule == "challenge"

    state["step"] = "over"
    assert refusal(state, BEN, type="challenge", opponent=CAT).rule == "end"


def test_a_table_casting_by_hand_refuses_a_secret_cast_citing_casting():
    state = start([ANN, BEN, CAT], casting="by-hand")
    act(state, ANN, type="challenge", opponent=BEN)
    assert refusal(state, ANN, type="cast", piece=None).rule == "cast"
    assert refusal(state, CAT, type="record_cast",
                   pieces={str(ANN): None, str(BEN): None}).rule == "cast"


# -- why not: who cannot be challenged ---------------------------------------------------------
def test_the_first_challenger_may_challenge_anyone_so_no_line():
    state = arranged(THREE)
    assert lines(state, ANN) == []


def test_the_loser_is_told_the_winner_cannot_be_challenged_and_only_the_loser():
    state = arranged(THREE)
    ann_beats_ben(state)
    act(state, ANN, type="steal", piece="green-M")
    assert state["challenger"] == BEN
    assert lines(state, BEN) == [(NOT_JUST_CAST, ANN, "challenge")]
    assert lines(state, ANN) == lines(state, CAT) == lines(state, None) == []


def test_with_two_players_the_loser_challenges_the_winner_so_no_line():
    state = arranged({ANN: ["red-L", "yellow-M", "green-S", "yellow-L"],
                      BEN: ["green-L", "red-M", "yellow-S", "green-M", "red-S"]})
    ann_beats_ben(state)
    act(state, ANN, type="steal", piece="green-M")
    assert state["challenger"] == BEN
    assert lines(state, BEN) == []


# -- why not: who cannot be robbed -----------------------------------------------------------
def test_the_winner_is_told_only_the_loser_can_be_robbed():
    state = arranged(THREE)
    ann_beats_ben(state)
    assert lines(state, ANN) == [(ONLY_THE_LOSER, CAT, "steal")]
    assert lines(state, BEN) == lines(state, CAT) == lines(state, None) == []


def test_a_player_at_zero_is_told_who_comes_later_who_is_done_and_who_has_nothing():
    state = arranged({ANN: ["red-L", "yellow-M", "green-S", "blue-S"],
                      BEN: ["green-M"],
                      CAT: ["green-L", "red-M", "yellow-S", "blue-L"],
                      DAN: ["blue-M", "red-S", "yellow-L"]})
    ann_beats_ben(state)
    act(state, ANN, type="steal", piece="green-M")  # Ben is left with nothing
    assert [(s["thief"], s["victim"]) for s in state["steals"]] == [
        (BEN, CAT), (BEN, DAN), (BEN, ANN)]
    assert lines(state, BEN) == [(LATER, ANN, "steal"), (LATER, DAN, "steal")]
    act(state, BEN, type="steal", piece="green-L")
    assert lines(state, BEN) == [(LATER, ANN, "steal"), (ONCE, CAT, "steal")]
    assert lines(state, ANN) == lines(state, CAT) == lines(state, DAN) == []


def test_a_player_robbed_of_their_last_piece_is_named_as_having_none():
    state = arranged({ANN: ["red-L", "yellow-M", "green-S", "blue-S"],
                      BEN: ["green-M"],
                      CAT: ["green-L"],
                      DAN: ["blue-M", "red-S", "yellow-L", "red-M", "yellow-S", "blue-L"]})
    ann_beats_ben(state)
    act(state, ANN, type="steal", piece="green-M")
    act(state, BEN, type="steal", piece="green-L")  # Cat is left with nothing
    assert state["steals"][0] == {"thief": BEN, "victim": DAN, "reason": "zero"}
    assert (NO_PIECES, CAT, "steal") in lines(state, BEN)


def test_why_not_names_a_player_the_screens_fill_in():
    state = arranged(THREE)
    ann_beats_ben(state)
    [reason] = GAME.why_not(state, ANN)
    assert reason.message.params["player"] == Player(CAT)
    assert reason.rule in GAME.rule_sections
