"""The table clock's arithmetic, from a log with chosen times: turn by turn, simultaneous
steps, the host's own time, pauses, increments, overtime, undo and the end."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from pydantic import ValidationError

from companion.games.clock import (CLOCK_SETTING, BankClock, CountUpClock, Pause, Tick,
                                   figures)

ANN, BEN, CAT = 1, 2, 3
PLAYERS = [ANN, BEN, CAT]
START = datetime(2026, 12, 6, 20, 0, 0)
COUNT_UP = CountUpClock(mode="count_up")


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def move(seconds: float, actor: int | None, *awaiting: int, undone: bool = False) -> Tick:
    return Tick(at(seconds), tuple(awaiting), actor, undone)


def clock(ticks=(), pauses=(), now=0.0, end=None, setting=COUNT_UP, first=(ANN,)):
    return figures(setting, PLAYERS, START, first, ticks,
                   pauses, None if end is None else at(end), at(now))


def test_each_players_time_runs_exactly_while_the_game_awaits_them():
    ticks = [move(10, ANN, BEN), move(25, BEN, CAT), move(27.5, CAT, ANN)]
    seen = clock(ticks, now=31.25)
    assert seen.used_ms == {ANN: 10_000 + 3_750, BEN: 15_000, CAT: 2_500}
    assert seen.running == [ANN]
    assert seen.admin_ms == 0 and not seen.paused
    assert seen.left_ms == {ANN: None, BEN: None, CAT: None}


def test_as_of_an_earlier_moment_only_what_had_happened_counts():
    ticks = [move(10, ANN, BEN), move(25, BEN, CAT)]
    assert clock(ticks, now=12).used_ms == {ANN: 10_000, BEN: 2_000, CAT: 0}
    assert clock(ticks, now=12).running == [BEN]


def test_before_the_first_move_the_first_player_runs_from_the_start():
    assert clock(now=0).used_ms == {ANN: 0, BEN: 0, CAT: 0}
    assert clock(now=4.5).used_ms == {ANN: 4_500, BEN: 0, CAT: 0}


def test_a_simultaneous_step_runs_each_awaited_players_time_until_they_act():
    # Everyone enters a hand in secret: Ben at 8 s, Cat at 20 s, Ann last at 30 s.
    ticks = [move(8, BEN, ANN, CAT), move(20, CAT, ANN), move(30, ANN, BEN)]
    seen = clock(ticks, now=33, first=(ANN, BEN, CAT))
    assert seen.used_ms == {ANN: 30_000, BEN: 8_000 + 3_000, CAT: 20_000}
    assert seen.running == [BEN]
    assert clock(ticks, now=15, first=(ANN, BEN, CAT)).running == [ANN, CAT]


def test_time_awaiting_only_the_host_is_the_tables_own():
    ticks = [move(10, ANN), move(16, None, BEN)]  # then the host's step, then Ben
    seen = clock(ticks, now=20)
    assert seen.used_ms == {ANN: 10_000, BEN: 4_000, CAT: 0}
    assert seen.admin_ms == 6_000
    assert clock(ticks, now=12).running == []


def test_a_pause_stops_every_running_time_and_counts_as_the_tables_own():
    ticks = [move(8, BEN, ANN, CAT)]
    pauses = [Pause(at(10), True), Pause(at(70), False)]
    seen = clock(ticks, pauses, now=75, first=(ANN, BEN, CAT))
    assert seen.used_ms == {ANN: 15_000, BEN: 8_000, CAT: 15_000}
    assert seen.admin_ms == 60_000
    assert seen.running == [ANN, CAT] and not seen.paused
    during = clock(ticks, pauses, now=40, first=(ANN, BEN, CAT))
    assert during.paused and during.running == []
    assert during.used_ms == {ANN: 10_000, BEN: 8_000, CAT: 10_000}
    assert during.admin_ms == 30_000


def test_a_move_made_during_a_pause_changes_who_runs_once_it_is_resumed():
    ticks = [move(20, ANN, BEN)]
    pauses = [Pause(at(5), True), Pause(at(30), False)]
    seen = clock(ticks, pauses, now=32)
    assert seen.used_ms == {ANN: 5_000, BEN: 2_000, CAT: 0}
    assert seen.admin_ms == 25_000 and seen.running == [BEN]


def test_a_bank_gains_the_increment_after_each_of_the_players_actions():
    bank = BankClock(mode="bank", bank_seconds=60, increment_seconds=5)
    ticks = [move(10, ANN, BEN), move(40, BEN, ANN), move(45, ANN, BEN)]
    seen = clock(ticks, now=50, setting=bank)
    assert seen.used_ms == {ANN: 15_000, BEN: 35_000, CAT: 0}
    assert seen.left_ms == {ANN: 60_000 + 2 * 5_000 - 15_000,
                            BEN: 60_000 + 5_000 - 35_000, CAT: 60_000}


def test_the_host_acting_as_the_host_earns_no_one_an_increment():
    bank = BankClock(mode="bank", bank_seconds=60, increment_seconds=5)
    seen = clock([move(10, None, BEN)], now=10, setting=bank)
    assert seen.left_ms == {ANN: 50_000, BEN: 60_000, CAT: 60_000}


def test_a_bank_runs_below_zero_into_overtime_and_keeps_running():
    bank = BankClock(mode="bank", bank_seconds=60, increment_seconds=0)
    seen = clock(now=95.5, setting=bank)
    assert seen.left_ms[ANN] == -35_500
    assert seen.running == [ANN]


def test_an_undo_gives_no_time_back_and_takes_back_the_undone_moves_increment():
    bank = BankClock(mode="bank", bank_seconds=60, increment_seconds=10)
    # Ann moves at 10 s, Ben thinks 5 s, then the host undoes Ann's move: Ann again.
    ticks = [move(10, ANN, BEN, undone=True), Tick(at(15), (ANN,)), move(18, ANN, BEN)]
    seen = clock(ticks, now=20, setting=bank)
    assert seen.used_ms == {ANN: 10_000 + 3_000, BEN: 5_000 + 2_000, CAT: 0}
    assert seen.left_ms == {ANN: 60_000 + 10_000 - 13_000, BEN: 60_000 - 7_000, CAT: 60_000}


def test_a_line_that_changes_no_one_awaited_keeps_the_time_running():
    ticks = [move(10, ANN, BEN), Tick(at(12), None)]  # a seat given to a new phone
    assert clock(ticks, now=15).used_ms == {ANN: 10_000, BEN: 5_000, CAT: 0}


def test_at_the_end_every_time_stops_for_good():
    ticks = [move(10, ANN, BEN), move(25, BEN)]
    seen = clock(ticks, now=500, end=25)
    assert seen.used_ms == {ANN: 10_000, BEN: 15_000, CAT: 0}
    assert seen.running == [] and seen.admin_ms == 0 and not seen.paused
    # An end while paused: the pause's time up to the end is the table's, and no more.
    paused = clock(ticks, [Pause(at(20), True)], now=500, end=25)
    assert paused.used_ms == {ANN: 10_000, BEN: 10_000, CAT: 0}
    assert paused.admin_ms == 5_000 and not paused.paused


def test_times_are_whole_milliseconds_rounded_down():
    ticks = [Tick(START + timedelta(microseconds=1_999), (BEN,), ANN)]
    seen = clock(ticks, now=0.0025)
    assert seen.used_ms == {ANN: 1, BEN: 0, CAT: 0}


@pytest.mark.parametrize("setting", [
    {"mode": "count_up"},
    {"mode": "count_up", "warn_seconds": 600},
    {"mode": "bank", "bank_seconds": 60},
    {"mode": "bank", "bank_seconds": 36000, "increment_seconds": 600, "warn_seconds": 0},
])
def test_the_settings_the_contract_takes(setting):
    assert CLOCK_SETTING.validate_python(setting).model_dump(exclude_unset=True) == setting


@pytest.mark.parametrize("setting", [
    {}, {"mode": "sand"}, {"mode": "bank"}, {"mode": "bank", "bank_seconds": 59},
    {"mode": "bank", "bank_seconds": 36001}, {"mode": "bank", "bank_seconds": "60"},
    {"mode": "bank", "bank_seconds": True}, {"mode": "bank", "bank_seconds": 60.5},
    {"mode": "bank", "bank_seconds": 60, "increment_seconds": 601},
    {"mode": "bank", "bank_seconds": 60, "increment_seconds": -1},
    {"mode": "count_up", "warn_seconds": 601}, {"mode": "count_up", "bank_seconds": 60},
    {"mode": "count_up", "increment_seconds": 5},
])
def test_settings_out_of_range_or_of_another_mode_are_refused(setting):
    with pytest.raises(ValidationError):
        CLOCK_SETTING.validate_python(setting)
