"""Benchmark of the best-route search (rules IX.8): prints one JSON object.

* Every line turn of the reference game (oracle/2player.json ``run_routes``; the board as the
  trace records it just before the run): the time of ``best_route`` per line, and how our best
  revenue compares with the revenue run there ("worse_than_played" must be 0).
* Final positions of random-move games with 2-6 players ("selfplay_max_ms").
* A synthetic, fully grown 6-player board: every hex that takes a tile carries the
  highest-colour tile that fits, and every one of the 18 lines has up to six station markers;
  the best route of every line, exactly ("synthetic_max_ms").

Run: ``.venv/bin/python benchmarks/routes.py``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.routes import RouteContext, best_route
from tramways.g1840.routes.search import forget_routes

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO.parent / "shared" / "reference" / "1840" / "oracle"
PHASE_OF_18XX = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}
LANDMARK_OF_18XX = {"PR": "D28", "KK": "E21", "SB": "H22", "HB": "E19", "SD": "D20", "SS": "K7"}
COLOUR_RANK = {"yellow": 1, "green": 2, "brown": 3, "grey": 4}


def reference_game() -> dict[str, object]:
    from tramways.g1840.interop.trace_positions import board_from_trace, layout_for_header

    lines = [json.loads(t) for t in (ORACLE / "2player.trace.jsonl").open(encoding="utf-8")]
    layout = layout_for_header(lines[0])
    game = json.loads((ORACLE / "2player.json").read_text(encoding="utf-8"))
    times: list[float] = []
    worse = better = 0
    for index, action in enumerate(game["actions"]):
        if action["type"] != "run_routes":
            continue
        state = lines[index]["state"]  # the state after the previous action
        board = board_from_trace(layout, state)
        major = state["lines"][action["entity"]]["owning_major"]
        owned = frozenset(
            LANDMARK_OF_18XX[sym]
            for sym, private in state["companies"].items()
            if private["owner"] == f"corp:{major}"
        )
        ctx = RouteContext(board, int(action["entity"]), PHASE_OF_18XX[state["game"]["phase"]],
                           owned, 0, "18xx.games")
        forget_routes()  # a fresh search, not a route remembered
        start = time.perf_counter()
        run = best_route(ctx)
        times.append((time.perf_counter() - start) * 1000)
        ours = run.revenue if run else 0
        played = sum(route["revenue"] for route in action["routes"])
        worse += ours < played
        better += ours > played
    return {
        "positions": len(times),
        "median_ms": round(statistics.median(times), 3),
        "max_ms": round(max(times), 3),
        "worse_than_played": worse,
        "better_than_played": better,
    }


def _fits(board: Board, coord: str, tile_id: str, rotation: int) -> bool:
    """Every tram exit of the tile leads to a hex (no track off the map)."""
    tile = tiles()[tile_id]
    return all(board.neighbour(coord, e) is not None for e in tile.exits_at(rotation))


def synthetic_board(seed: int = 1840, layout_name: str = "full") -> Board:
    """A map grown out: the highest-colour fitting tile on every hex, markers galore."""
    layout = load_layout(layout_name)
    board = Board(layout)
    board._supply = {key: 99 for key in board._supply}  # a benchmark, not a game
    rng = random.Random(seed)
    all_tiles = tiles()
    for coord in sorted(layout.hexes):
        hexdef = layout.hexes[coord]
        if not hexdef.laying_allowed:
            continue
        if hexdef.area == "inner_city":
            tile_id = sorted(hexdef.red_tile_rotations)[rng.randrange(len(
                hexdef.red_tile_rotations))]
            board.lay(coord, tile_id, hexdef.red_tile_rotations[tile_id][0])
            continue
        if hexdef.area == "railway_station":
            options = [t for t in all_tiles.values() if t.colour == "purple"
                       and (t.only_on_hex in (None, coord))]
            options = [t for t in options if t.only_on_hex == coord] or [
                t for t in options if t.only_on_hex is None]
            tile = options[rng.randrange(len(options))]
            rotations = [tile.fixed_rotation] if tile.fixed_rotation is not None else range(6)
            board.lay(coord, tile.id, max(rotations, key=lambda r: _score(board, coord, tile.id, r)))
            continue
        candidates = _chain(hexdef, board, coord)
        if candidates:
            tile_id, rotation = candidates
            board.lay(coord, tile_id, rotation)
    lines = list(layout.lines_in_game)
    for line in lines:
        home = layout.home_bases.get(line)
        if home is not None:
            _place(board, home, line)
    interchanges = [
        (coord, loc.id) for coord in sorted(layout.hexes) for loc in board.locations(coord)
        if loc.kind == "interchange"
    ]
    for _ in range(5):
        for line in lines:
            rng.shuffle(interchanges)
            for coord, loc in interchanges:
                if board.free_slots(coord, loc) > 0 and not any(
                    line in owners for owners in board.markers(coord).values()
                ):
                    board.place_marker(coord, loc, line)
                    break
    return board


def _score(board: Board, coord: str, tile_id: str, rotation: int) -> int:
    tile = tiles()[tile_id]
    return sum(board.neighbour(coord, e) is not None for e in tile.exits_at(rotation))


def _place(board: Board, coord: str, line: int) -> None:
    for loc in board.locations(coord):
        if loc.kind == "interchange" and board.free_slots(coord, loc.id) > 0:
            board.place_marker(coord, loc.id, line)
            return


def _chain(hexdef: object, board: Board, coord: str) -> tuple[str, int] | None:
    """The highest-colour tile reachable by upgrades from the hex's first tiles, best rotation."""
    all_tiles = tiles()
    first = list(getattr(hexdef, "first_tiles", ()))
    sb = getattr(hexdef, "stadtbahn", None)
    if sb is not None:
        first = list(sb.yellow_tile_options)
    seen = set(first)
    todo = list(first)
    while todo:
        tid = todo.pop()
        for up in all_tiles[tid].upgrades:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    if not seen:
        return None
    best = None
    for tid in sorted(seen):
        tile = all_tiles[tid]
        rank = COLOUR_RANK.get(tile.colour, 0)
        for rotation in range(6):
            if sb is not None and not set(sb.required_exits) <= set(
                tile.exits_at(rotation, "stadtbahn")
            ):
                continue
            if not _fits(board, coord, tid, rotation):
                continue
            key = (rank, _score(board, coord, tid, rotation), tid, -rotation)
            if best is None or key > best[0]:
                best = (key, (tid, rotation))
    return None if best is None else best[1]


def synthetic() -> dict[str, object]:
    board = synthetic_board()
    worst = 0.0
    total = 0.0
    results = {}
    for line in board.layout.lines_in_game:
        ctx = RouteContext(board, line, "grey", frozenset(), -100)
        forget_routes()  # a fresh search, not a route remembered
        start = time.perf_counter()
        run = best_route(ctx)
        spent = (time.perf_counter() - start) * 1000
        worst = max(worst, spent)
        total += spent
        results[line] = run.revenue if run else 0
    return {
        "synthetic_lines": len(results),
        "synthetic_max_ms": round(worst, 1),
        "synthetic_total_ms": round(total, 1),
        "synthetic_best_revenues": results,
    }


def selfplay_boards() -> dict[str, object]:
    """Final positions of random-move games (2-6 players): every line with a tram."""
    from tramways.core.selfplay import play_game

    times: list[float] = []
    for players in (2, 3, 4, 5, 6):
        for seed in range(2):
            state = play_game("1840", {"players": players}, seed, max_actions=20000).session.state
            for line in state.lines_with_trams():  # type: ignore[attr-defined]
                ctx = state.route_context(line)  # type: ignore[attr-defined]
                forget_routes()  # the game's own run found this route
                start = time.perf_counter()
                best_route(ctx)
                times.append((time.perf_counter() - start) * 1000)
    return {"selfplay_lines": len(times), "selfplay_max_ms": round(max(times), 3)}


def main() -> int:
    out: dict[str, object] = {}
    if (ORACLE / "2player.json").is_file():
        out.update(reference_game())
    if "--no-synthetic" not in sys.argv:
        out.update(synthetic())
    try:
        out.update(selfplay_boards())
    except Exception as exc:  # the engine is optional for this benchmark
        out["selfplay_error"] = str(exc)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
