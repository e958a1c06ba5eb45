"""Recorded runs in our route notation (X-8, IX.7, IX.8)."""

from __future__ import annotations

import json

import pytest

from tramways.g1840.interop.actions18xx import Route18xx, RunRoutes, parse_action
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.routes18xx import route_text

PHASES = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}


def test_x8_ix8_every_recorded_tram_run_is_a_valid_route_worth_the_recorded_revenue(
        oracle_dir):
    """All 44 recorded line runs of the oracle, each on the board of the state before it:
    our routes module accepts the converted route and values it at the recorded revenue."""
    positions = pytest.importorskip("tramways.g1840.interop.trace_positions")
    routes = pytest.importorskip("tramways.g1840.routes")
    from tramways.g1840.entities import entities

    export = json.loads((oracle_dir / "2player.json").read_text("utf-8"))
    lines = (oracle_dir / "2player.trace.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    layout = positions.layout_for_header(header)
    before = header["initial_state"]
    checked = []
    for text in lines[1:]:
        entry = json.loads(text)
        if not entry["processed"]:
            continue
        action = parse_action(export["actions"][entry["index"]], "action")
        if isinstance(action, RunRoutes) and action.entity.isdigit():
            line = int(action.entity)
            board = positions.board_from_trace(layout, before)
            major = before["lines"][action.entity]["owning_major"]
            privates = before["tram_companies"][major]["companies"]
            ctx = routes.RouteContext(
                board=board, line=line, phase=PHASES[before["game"]["phase"]],
                landmark_hexes=frozenset(entities().privates[p].landmark_hex
                                         for p in privates),
                maintenance=0, ruleset="18xx.games")
            for route in action.routes:
                run = routes.check_route(ctx, route_text(board, route))
                checked.append((entry["index"], run.revenue, route.revenue))
        before = entry["state"]
    assert len(checked) == 44
    assert [c for c in checked if c[1] != c[2]] == []
    assert checked[0] == (32, 50, 50)


class _Loc:
    def __init__(self, id_: int, kind: str) -> None:
        self.id, self.kind = id_, kind


class _Board:
    """A board whose hexes all carry a tile (the site numbers a tile's revenue locations
    first, placeholders left out)."""

    def tile(self, hexname: str) -> object:
        return object()

    def locations(self, hexname: str):
        if hexname == "F24":
            return (_Loc(0, "interchange"), _Loc(1, "placeholder"), _Loc(2, "interchange"))
        return (_Loc(0, "halt"),)


def _route(hexes, nodes):
    return Route18xx(train="O1-0", hexes=tuple(hexes), nodes=tuple(nodes), revenue=0,
                     connections=())


def test_placeholders_are_not_counted_in_the_sites_node_numbers():
    assert route_text(_Board(), _route(["F24", "G25"], ["G25-0", "F24-1"])) == "F24.2-G25.0"


def test_a_node_that_is_not_on_our_board_is_refused():
    with pytest.raises(ImportError18xx, match="G25 has no revenue location 3"):
        route_text(_Board(), _route(["F24", "G25"], ["G25-3"]))
    with pytest.raises(ImportError18xx, match=r"nodes \['H30'\] are not on the route's hexes"):
        route_text(_Board(), _route(["G25"], ["G25-0", "H30-0"]))


def _printed_board(players: int = 5, small: bool = False):
    from tramways.g1840.board import Board
    from tramways.g1840.data import layout_for

    return Board(layout_for(players, small), ruleset="18xx.games")


def test_site_node_numbers_auf_der_schmelz_f8_f10_second_town_is_node_3():
    """Issue 10 item 4: the printed two-town hexes F8 and F10 interleave paths between their
    towns in the site's definition, so the second town is node 3 (our location 1)."""
    board = _printed_board()
    assert route_text(board, _route(["F8", "F10"], ["F8-3", "F10-0"])) == "F8.1-F10.0"
    assert route_text(board, _route(["F10", "F8"], ["F10-3", "F8-0"])) == "F10.1-F8.0"


def test_site_node_numbers_stadtbahn_circle_hex_f24_follows_the_part_order():
    """Issue 10 item 9: on the printed F24 the site's node 0 is the purple station space
    (our F24.0), not our F24.1, which lies on Stadtbahn track; nodes 1 and 2 are ours."""
    board = _printed_board()
    assert route_text(board, _route(["F24", "F22"], ["F24-0", "F22-0"])) == "F24.0-F22.0"
    assert route_text(board, _route(["F24", "F22"], ["F24-2", "F22-0"])) == "F24.2-F22.0"


def test_site_run_ending_on_an_untiled_purple_station_has_node_0_there_x6():
    """Issue 10 item 8 / X-6: a run ending on the untiled purple station I27 names node
    I27-0, the empty station space (a placeholder on our board)."""
    board = _printed_board()
    assert route_text(board, _route(["H28", "I27"], ["H28-0", "I27-0"])) == "H28.0-I27.0"
