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
