"""The reference game (18xx.games, 2 players): every recorded Line Round run (IX.8, X-6, X-8).

For every ``run_routes`` action the board is rebuilt as the trace records it just before the
run.  Recorded revenues are before maintenance (interpretations.md "Recorded runs").

* Re-scored with :func:`check_route` (18xx.games ruleset, X-6) every recorded route is valid
  and earns exactly the recorded revenue.
* The proven best route is never worse than what was run; in LR 5.3 line 7 ran 200 (100 after
  its -100 maintenance) where 220 (120) was possible.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tramways.g1840.interop.trace_positions import board_from_trace, layout_for_header
from tramways.g1840.routes import RouteContext, best_route, check_route

PHASE_OF_18XX = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}
LANDMARK_OF_18XX = {"PR": "D28", "KK": "E21", "SB": "H22", "HB": "E19", "SD": "D20", "SS": "K7"}


def recorded_runs(oracle_dir: Path) -> list[dict[str, Any]]:
    """One item per recorded route: context, recorded stops, revenue, Line Round number."""
    trace = [json.loads(t) for t in (oracle_dir / "2player.trace.jsonl").open(encoding="utf-8")]
    layout = layout_for_header(trace[0])
    game = json.loads((oracle_dir / "2player.json").read_text(encoding="utf-8"))
    runs = []
    for index, action in enumerate(game["actions"]):
        if action["type"] != "run_routes":
            continue
        state = trace[index]["state"]  # trace[0] is the header: state after action index - 1
        board = board_from_trace(layout, state)
        major = state["lines"][action["entity"]]["owning_major"]
        owned = frozenset(
            LANDMARK_OF_18XX[sym] for sym, private in state["companies"].items()
            if private["owner"] == f"corp:{major}"
        )
        line = int(action["entity"])
        maintenance = state["lines"][action["entity"]].get("maintenance", 0)
        ctx = RouteContext(board, line, PHASE_OF_18XX[state["game"]["phase"]], owned,
                           maintenance, "18xx.games")
        for route in action["routes"]:
            stops = [(node.split("-")[0], int(node.split("-")[1])) for node in route["nodes"]]
            runs.append({"ctx": ctx, "stops": stops, "revenue": route["revenue"],
                         "lr": state["game"]["or_counter"], "line": line, "index": index})
    return runs


_CACHE: dict[Path, list[dict[str, Any]]] = {}


@pytest.fixture
def runs(oracle_dir: Path) -> list[dict[str, Any]]:
    if oracle_dir not in _CACHE:
        _CACHE[oracle_dir] = recorded_runs(oracle_dir)
    return _CACHE[oracle_dir]


def test_x8_recorded_runs_rescore_exactly(runs: list[dict[str, Any]]) -> None:
    assert len(runs) == 44
    for item in runs:
        run = check_route(item["ctx"], item["stops"])
        assert run.revenue == item["revenue"], item["index"]


def test_ix8_best_route_never_worse_than_played(runs: list[dict[str, Any]]) -> None:
    better = []
    for item in runs:
        run = best_route(item["ctx"])
        assert run is not None
        assert run.revenue >= item["revenue"], item["index"]
        assert check_route(item["ctx"], run.text).revenue == run.revenue
        if run.revenue > item["revenue"]:
            better.append((item["lr"], item["line"], item["revenue"], run.revenue, run.total))
    # LR 5.3 (the 11th Line Round): line 7 ran 200 before maintenance; 220 was possible.
    assert better == [(11, 7, 200, 220, 120)]
