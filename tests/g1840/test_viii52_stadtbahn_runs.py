"""VIII.5.2: the Stadtbahn companies' runs along their dotted lines."""

from __future__ import annotations

from tests.g1840.test_routes_support import new_board
from tramways.g1840.stadtbahn_runs import stadtbahn_run


def _d_line(board, hexes=("B20", "C21", "D22", "E23")):  # type: ignore[no-untyped-def]
    """Lay the D line's yellow Stadtbahn tiles (L2 halts on B20/C21, L4 interchanges on
    D22/E23, rotation 2) on ``hexes``."""
    tile = {"B20": "L2", "C21": "L2", "D22": "L4", "E23": "L4"}
    for coord in hexes:
        board.lay(coord, tile[coord], 2)
    return board


def test_viii52_cr1_note_d_and_v_70_w_and_g_0() -> None:
    """Before any tile (full map): D runs Heiligenstadt 40 + the printed halt A19 30 = 70, V
    Heiligenstadt 40 + the printed interchange A13 30 = 70; W and G reach one stop: 0."""
    board = new_board("full")
    assert {c: stadtbahn_run(board, c).revenue for c in "WVGD"} == {
        "W": 0, "V": 70, "G": 0, "D": 70}
    two = new_board("two_player")
    assert {c: stadtbahn_run(two, c).revenue for c in "WGD"} == {"W": 0, "G": 0, "D": 70}


def test_viii52_example_1_d_runs_80() -> None:
    """Example 1: with the first D tile on B20, D runs 40 + 30 + 10 = 80 from Heiligenstadt;
    the planned dotted route on C21 (no tile yet) stops it."""
    run = stadtbahn_run(_d_line(new_board(), ("B20",)), "D")
    assert run.revenue == 80
    assert run.stops == (("A17", 2), ("A19", 0), ("B20", 0))
    assert run.parts == (40, 30, 10)
    assert run.from_terminus == ("A17", 2) and not run.complete


def test_viii52_the_better_end_wins() -> None:
    """B20 from Heiligenstadt (80) and E23 from Hauptzollamt (F24 20 + E23 20 = 40): 80."""
    board = _d_line(new_board(), ("B20", "E23"))
    run = stadtbahn_run(board, "D")
    assert run.revenue == 80 and run.from_terminus == ("A17", 2)


def test_viii52_complete_line_earns_every_stop() -> None:
    """All four D tiles: 40 + 30 + 10 + 10 + 20 + 20 + 20 (F24) = 150 from either end."""
    run = stadtbahn_run(_d_line(new_board()), "D")
    assert run.complete and run.revenue == 150 and len(run.stops) == 7


def test_viii52_removed_marker_no_longer_earns() -> None:
    """A line removed D's marker on D22 (IX.6): that interchange earns D nothing: 130."""
    board = _d_line(new_board())
    board.remove_marker("D22", 0, "D")
    assert stadtbahn_run(board, "D").revenue == 130


def test_viii52_cr_multiplier() -> None:
    """CR6 multiplies by 10: 150 x 10."""
    run = stadtbahn_run(_d_line(new_board()), "D", multiplier=10)
    assert run.revenue == 1500 and sum(run.parts) == 150


def test_viii52_fewer_than_two_stops_earn_nothing() -> None:
    board = new_board()
    board.remove_marker("D22", 0, "D")
    board.lay("E23", "L4", 2)
    board.remove_marker("E23", 0, "D")
    # from F24: F24 20 + E23 (no marker: 0) -> two locations, 20; from A17: 70
    assert stadtbahn_run(board, "D").revenue == 70


def test_viii52_f24_special_tile_carries_the_termini() -> None:
    """L31b on F24: the W and D termini move onto it (locations 0 and 1 of the tile, worth 10
    in yellow).  From F24 with E23 laid: 10 + 20 = 30 (A17's side is worth 70 more)."""
    board = new_board()
    board.lay("F24", "L31b", 0, {1: 0, 2: 1})
    board.lay("E23", "L4", 2)
    board.lay("D22", "L4", 2)
    board.lay("C21", "L2", 2)
    board.lay("B20", "L2", 2)
    run = stadtbahn_run(board, "D")
    assert run.complete
    assert run.stops[0] in (("F24", 1), ("A17", 2))
    assert run.revenue == 40 + 30 + 10 + 10 + 20 + 20 + 10


def test_viii52_g11_special_tile_keeps_the_g_line_continuous() -> None:
    """Full map, G line from Wien (I11, G's marker, 30): H12 (L1 halt 10), Westbahnhof G11 with
    the special L30a (its halt carries the dotted line, 30 in yellow), F12 (L2 halt 10):
    30 + 10 + 30 + 10 = 80; the printed Westbahnhof halt (10) makes it 60 without the tile."""
    board = new_board()
    board.lay("H12", "L1", 0)
    board.lay("F12", "L2", 0)
    assert stadtbahn_run(board, "G").revenue == 60
    board.lay("G11", "L30a", 0)
    run = stadtbahn_run(board, "G")
    assert run.revenue == 80
    assert run.stops == (("I11", 0), ("H12", 0), ("G11", 0), ("F12", 0))


def test_viii52_phase_values_of_red_termini() -> None:
    """W from Hütteldorf (I1: 20/30/40/50) with I3 built: I1 + I3's halt 10."""
    board = new_board()
    hexdef = board.layout.hexes["I3"]
    assert hexdef.stadtbahn is not None
    tile, rotations = sorted(hexdef.stadtbahn.yellow_tile_options.items())[0]
    board.lay("I3", tile, rotations[0])
    assert [stadtbahn_run(board, "W", p).revenue for p in ("yellow", "grey")] == [30, 60]


def test_viii52_reference_game_stadtbahn_runs(oracle_dir) -> None:  # type: ignore[no-untyped-def]
    """Every Stadtbahn run of the reference game ("D runs a City train for 70: A19-A17", ...),
    on the board as the trace records it just before: the same revenue (before the CR
    multiplier) and the same stops."""
    import json
    import re

    from tramways.g1840.interop.trace_positions import board_from_trace, layout_for_header

    phases = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}
    lines = (oracle_dir / "2player.trace.jsonl").read_text(encoding="utf-8").splitlines()
    trace = [json.loads(text) for text in lines]
    layout = layout_for_header(trace[0])
    checked = 0
    for text in (oracle_dir / "2player.log.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(text)
        found = re.match(r"(\w) runs a City train for (\d+): ([A-K0-9-]+)", item["message"])
        if not found:
            continue
        state = trace[item["raw_index"]]["state"]  # after the previous action
        run = stadtbahn_run(board_from_trace(layout, state), found.group(1),
                            phases[state["game"]["phase"]])
        assert run.revenue == int(found.group(2)), item["message"]
        assert {c for c, _ in run.stops} == set(found.group(3).split("-"))
        checked += 1
    assert checked == 15


def test_viii52_remembered_runs_equal_runs_computed_afresh() -> None:
    """The runs are remembered by the tiles and markers where dotted track can be (numbered
    per board version): at every position of a 4-player selfplay game, and on copies that
    diverge, every company's run equals the run computed without the memo (VIII.5.2)."""
    from tramways.core.selfplay import play_game
    from tramways.g1840 import stadtbahn_runs

    compared = [0]

    def afresh(board, company, phase):
        line = board.layout.stadtbahn_lines[company]
        return stadtbahn_runs._run(board, company, line, phase, 1)

    def check(state) -> None:
        board = state.board
        for company in sorted(board.layout.stadtbahn_lines):
            assert stadtbahn_run(board, company, state.phase) == afresh(board, company,
                                                                        state.phase)
            compared[0] += 1
        other = board.copy()  # a copy keeps the version (and the number) while equal
        assert stadtbahn_run(other, "D", state.phase) == stadtbahn_run(board, "D", state.phase)

    play_game("1840", {"players": 4}, 2, check=check)
    assert compared[0] > 500
