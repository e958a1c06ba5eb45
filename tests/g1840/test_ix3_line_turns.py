"""IX.3 A line's turn: home marker, construction once each in any order, then the run
(IX.4, IX.6, R-LR-1, R-LR-2, R-LR-5)."""

from __future__ import annotations

import random

from tests.support import refused
from tramways.g1840.actions import LayTile, PlaceStation, RemoveMarker, Run

from .test_game_support import CR1_SCRIPT, make, play, two_player_after_sr1


def lr1a():
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    assert s.round.name == "LR1a"
    return s


def test_ix1_lines_act_in_number_order() -> None:
    s = lr1a()
    assert s.sub.lines == [1, 3]
    assert s.sub.turn.line == 1 and s.current_players() == [1]  # WT's director


def test_ix6_home_marker_free_at_the_start_of_the_first_turn() -> None:
    s = lr1a()
    assert s.board.line_markers(1) == [("D18", 0)]
    assert s.companies["WT"].treasury == 880  # 1000 - 100 tram - 20 line; the marker is free
    assert s.has_operated(1) and not s.has_operated(3)


def test_r_lr_2_first_turn_normal_tile_only_on_the_home_base() -> None:
    s = lr1a()
    normal = [a for a in s.legal_actions() if isinstance(a, LayTile)
              and s.board.layout.hexes[a.hex].stadtbahn is None]
    assert normal and {a.hex for a in normal} == {"D18"}


def test_ix3_one_normal_tile_per_turn() -> None:
    s = lr1a()
    play(s, "L1 lay D18 235 r1")
    assert s.board.tile("D18").tile_id == "235"
    assert not any(isinstance(a, LayTile) and a.hex == "D18" for a in s.legal_actions())
    refused("R-LR-1", play, s, "L1 lay D18 235 r2")


def test_r_lr_1_stadtbahn_tile_costs_20_and_grants_its_bonus() -> None:
    s = lr1a()
    log = play(s, "L1 lay E23 L4 r2")
    assert s.companies["WT"].treasury == 860
    assert s.sub.turn.bonus == "place_additional_station_marker"
    assert any("Bonus action" in line for line in log)
    # the normal lay is still available; a second Stadtbahn tile is not
    hexes = {a.hex for a in s.legal_actions() if isinstance(a, LayTile)}
    assert hexes == {"D18"}


def test_r_lr_5_remove_stadtbahn_marker_for_40() -> None:
    s = lr1a()
    assert RemoveMarker(line=1, hex="D22", location=0) in s.legal_actions()
    play(s, "L1 remove D22.0")
    assert s.companies["WT"].treasury == 840
    assert "D" not in s.board.markers("D22").get(0, ())
    # the termini are never removed
    refused("R-LR-5", play, s, "L1 remove A17.2")


def test_ix6_station_marker_costs_20_and_one_per_turn() -> None:
    s = lr1a()
    play(s, "L1 run", "L3 lay E17 235 r1", "L3 run", "L1 run", "L3 lay E15 5 r3")
    assert PlaceStation(line=3, hex="E15", location=0) in s.legal_actions()
    treasury = s.companies["SJE"].treasury
    play(s, "L3 station E15.0")
    assert s.companies["SJE"].treasury == treasury - 20
    assert not any(isinstance(a, PlaceStation) for a in s.legal_actions())


def test_ix7_run_ends_the_turn() -> None:
    s = lr1a()
    play(s, "L1 run")
    assert s.sub.turn.line == 3 and s.current_players() == [0]
    assert Run(line=3) in s.legal_actions()


def test_ix1_other_line_may_not_act() -> None:
    s = lr1a()
    refused("IX.1", play, s, "L3 run")


def test_r_lr_1_a_pending_bonus_may_be_declined() -> None:
    from tramways.g1840.actions import SkipBonus

    s = lr1a()
    play(s, "L1 lay E23 L4 r2")
    assert SkipBonus(line=1) in s.legal_actions()
    play(s, "L1 skip")
    assert s.sub.turn.bonus is None and SkipBonus(line=1) not in s.legal_actions()
    refused("R-LR-1", play, s, "L1 skip")


def test_r_lr_12_ix6_home_circles_stay_reserved_only_for_lines_that_may_still_operate() -> None:
    s = lr1a()
    assert s.may_still_operate(1) and s.may_still_operate(2)  # owned; on display
    assert not s.may_still_operate(8)  # not in the 2-player game (XIII)
    for c in s.companies.values():
        c.lines = c.lines + [90, 91][: 3 - len(c.lines)]
    assert not s.may_still_operate(2)  # every company has three lines: no more auctions


def test_ix6_r_lr_10_station_options_are_the_placements_the_treasury_can_pay() -> None:
    """A line's station options are every legal placement (IX.6) its treasury can pay
    (R-LR-10): listed without asking the reach when the next marker costs more than the
    treasury holds, the same list as filtering every placement by its cost."""
    from tramways.g1840 import legality
    from tramways.g1840.rounds.line import LineRound
    from tramways.g1840.rounds.line_turn import station_options

    poor = rich = 0
    for ruleset in ("rules", "18xx.games"):
        state = make(4, seed=3, ruleset=ruleset)
        rng = random.Random(3)
        while not state.is_over():
            progress = state.current_round
            turn = progress.turn if isinstance(progress, LineRound) else None
            if turn is not None and not turn.home and turn.offer is None and not turn.ran:
                free = turn.bonus == legality.BONUS_STATION
                treasury = state.company_of_line(turn.line).treasury
                every = [o for o in legality.legal_station_placements(state, turn.line,
                                                                      free=free)
                         if o.cost <= treasury]
                got = station_options(state, turn)
                if not turn.station and not free and turn.bonus_circle is None \
                        and not state.rules.one_marker_per_hex:
                    assert got == every
                cost = legality.next_marker_cost(state.board, turn.line)
                if cost is not None and cost > treasury and not free:
                    assert got == []
                    poor += 1
                else:
                    rich += 1
            seat = state.current_players()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert poor > 0 and rich > 0
