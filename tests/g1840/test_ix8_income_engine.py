"""IX.8 Receiving income: best route, revenue space, maintenance and losses (R-LR-8, R-LR-9)."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.rounds.line import receive_income

from .test_game_support import CR1_SCRIPT, play, two_player_after_sr1

SCRIPT = ("L1 lay E23 L4 r2", "L1 run", "L3 lay E17 235 r1", "L3 run", "L1 lay H12 L1 r0",
          "L1 lay D18 235 r1", "L1 run", "L3 lay E15 5 r3")


def before_line_3_runs():
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT, *SCRIPT)
    assert s.round.name == "LR1b" and s.sub.turn.line == 3
    return s


def test_ix8_best_route_income_goes_onto_the_revenue_space() -> None:
    s = before_line_3_runs()
    log = play(s, "L3 run")
    # E15 halt 10 + own marker at E17 20, yellow tram, no maintenance
    assert s.companies["SJE"].revenue == 30
    assert any("E15.0-E17.0" in line and "for 30" in line for line in log)


def test_ix8_claimed_route_must_be_valid_and_best() -> None:
    s = before_line_3_runs()
    play(s, "L3 run E17.0-E15.0")
    assert s.companies["SJE"].revenue == 30
    s = before_line_3_runs()
    refused("IX.7", play, s, "L3 run E15.0-D18.0")
    assert s.companies["SJE"].revenue == 0 and s.sub.turn.line == 3


def test_ix8_maintenance_subtracted_table_7() -> None:
    s = before_line_3_runs()
    s.trams.newest = "red"  # a yellow tram then costs 50
    s.companies["SJE"].revenue = 40
    play(s, "L3 run")
    assert s.companies["SJE"].revenue == 20  # 40 + (30 - 50)


def test_r_lr_9_negative_run_income_down_to_a_loan() -> None:
    s = before_line_3_runs()
    s.trams.newest = "pink"  # yellow: -200
    sje = s.companies["SJE"]
    sje.revenue, sje.treasury = 50, 70
    s.players[0].cash = 20
    log = play(s, "L3 run")
    # 30 - 200 = -170: revenue 50, treasury 70, director 20 + one loan of 100 (70 left);
    # line 3 was the last to run, so CR2 follows and KK + HB pay P1 30 more
    assert sje.revenue == 0
    assert s.players[0].loans == 1 and s.players[0].cash == 70 + 30
    assert any("loan" in line for line in log)


def test_r_lr_8_no_route_earns_nothing_even_with_maintenance() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    s.trams.newest = "pink"
    play(s, "L1 run")
    assert s.companies["WT"].revenue == 0 and s.companies["WT"].treasury == 880


def test_r_lr_9_order_revenue_then_treasury() -> None:
    s = before_line_3_runs()
    sje = s.companies["SJE"]
    sje.revenue, sje.treasury = 100, 500
    receive_income(s, "SJE", -150, [])
    assert (sje.revenue, sje.treasury) == (0, 450)
