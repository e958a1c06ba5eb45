"""``check_route`` looks only at the claimed route's stops and the track between them; it must
give exactly what the check on the whole line graph gives (IX.2, IX.7, IX.8, R-LR-6, R-LR-7):
the same :class:`Run` for a valid route, the same rule and message for an invalid one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tramways.core.errors import IllegalAction
from tramways.core.selfplay import play_game
from tramways.g1840.board import Board
from tramways.g1840.interop.trace_positions import iter_positions
from tramways.g1840.routes import best_route, format_route, line_graph
from tramways.g1840.routes.model import RouteContext
from tramways.g1840.routes.validate import check_route, check_route_on_line_graph


def outcome(check: Any, ctx: RouteContext, route: Any) -> Any:
    try:
        return check(ctx, route)
    except IllegalAction as error:
        return ("illegal", error.rule, str(error))


def routes_to_try(ctx: RouteContext, rng: random.Random) -> list[Any]:
    """The best route (as text, forwards and backwards), its prefixes, and random walks and
    random stop lists over the line's reachable stops (mostly invalid)."""
    lg = line_graph(ctx)
    g = lg.track
    routes: list[Any] = []
    best = best_route(ctx)
    if best is not None:
        routes += [best.text, list(best.stops), list(reversed(best.stops)), list(best.stops[:2])]
        routes.append([*best.stops, best.stops[0]])
    pool = [g.stops[i] for i in lg.reach] or list(g.stops)
    for _ in range(6):
        if not lg.own:
            break
        s = rng.choice(lg.own)
        walk = [g.stops[s]]
        for _ in range(rng.randint(1, 6)):
            nexts = [g.links[li].other(s) for li in g.incident[s]]
            if not nexts:
                break
            s = rng.choice(nexts)
            walk.append(g.stops[s])
        routes.append(walk)
    for _ in range(4):
        routes.append(rng.sample(pool, min(len(pool), rng.randint(1, 4))))
    routes.append([("A1", 0), ("B2", 0)])  # not hexes of the map
    return routes


def assert_checks_agree(board: Board, lines: Any, rng: random.Random) -> tuple[int, int]:
    """(routes compared, valid ones among them)."""
    compared = valid = 0
    landmarks = frozenset(board.layout.landmarks)
    for line in lines:
        if not isinstance(line, int):
            continue
        for phase, ruleset, marks in (("yellow", "rules", frozenset()),
                                      ("brown", "18xx.games", landmarks),
                                      ("grey", "rules", landmarks)):
            ctx = RouteContext(board, line, phase, marks, ruleset=ruleset)
            for route in routes_to_try(ctx, rng):
                fast = outcome(check_route, ctx, route)
                assert fast == outcome(check_route_on_line_graph, ctx, route), route
                if not isinstance(fast, tuple):
                    assert format_route(fast) == fast.text
                    valid += 1
                compared += 1
    return compared, valid


def owners(board: Board) -> set[Any]:
    return {o for by_loc in board.all_markers().values() for os in by_loc.values() for o in os}


def test_ix2_check_route_equals_line_graph_check_in_the_oracle_game(oracle_dir: Path) -> None:
    rng = random.Random(5)
    previous: dict[str, Any] | None = None
    compared = valid = 0
    for _, _, board in iter_positions(oracle_dir / "2player.trace.jsonl"):
        now = board.to_json()
        if now == previous:
            continue
        previous = now
        more, ok = assert_checks_agree(board, owners(board), rng)
        compared, valid = compared + more, valid + ok
    assert compared > 500
    assert valid > 100


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 5)])
def test_ix2_check_route_equals_line_graph_check_in_selfplay(players: int, seed: int) -> None:
    rng = random.Random(seed)
    seen: list[int] = []
    compared = [0, 0]

    def check(state: Any) -> None:
        board = state.board
        if board is not None and (not seen or board.version != seen[-1]):
            seen.append(board.version)
            if len(seen) % 3 == 0:
                more, ok = assert_checks_agree(board, owners(board), rng)
                compared[0] += more
                compared[1] += ok

    play_game("1840", {"players": players}, seed, check=check)
    assert compared[0] > 200
    assert compared[1] > 50


def test_ix2_check_route_cache_follows_boards_in_any_order() -> None:
    """The track between two route stops is remembered with the tiles its walks looked at:
    checking boards of one game out of order (earlier boards after later ones) still gives
    what the whole line graph gives."""
    boards: list[Board] = []

    def keep(state: Any) -> None:
        board = state.board
        if board is not None and (not boards or board.version != boards[-1].version):
            boards.append(board.copy())

    play_game("1840", {"players": 3}, 2, check=keep)
    rng = random.Random(3)
    picked = rng.sample(boards[len(boards) // 3:], 30)
    compared = valid = 0
    for board in picked + list(reversed(picked)):
        more, ok = assert_checks_agree(board, owners(board), rng)
        compared, valid = compared + more, valid + ok
    assert compared > 300
    assert valid > 50


def test_ix7_ix2_a_remembered_run_follows_markers_tiles_and_context() -> None:
    """A valid run is remembered with the tiles it looked at, the stops' markers and the
    context; a change of any of them is checked again (the rules of IX.2, IX.7, IX.8 apply
    to the board as it is now).

    J24 halt (10) - J26 interchange (20, line 6's marker) - J28 interchange (single circle) -
    K27 red area (20, line 6's marker): J24-J26-J28-K27 earns 50 for line 6."""
    from tests.g1840.test_routes_support import context, lay_exits, new_board
    from tests.support import refused

    board = new_board()
    lay_exits(board, "J24", {2, 4})
    lay_exits(board, "J26", {1, 4}, "interchange")
    lay_exits(board, "J28", {1, 0}, "interchange")
    board.place_marker("K27", 0, 6)
    board.place_marker("J26", 0, 6)
    route = "J24.0-J26.0-J28.0-K27.0"
    run = check_route(context(board, 6), route)
    assert (run.revenue, run.parts) == (50, (10, 20, 0, 20))
    assert check_route(context(board, 6), route) is run  # remembered
    assert check_route(context(board, 6, maintenance=-30), route).total == 20
    before = board.copy()
    board.place_marker("J28", 0, 15)  # fills J28's only circle: blocked for line 6 (IX.7)
    error = refused("IX.7", check_route, context(board, 6), route)
    assert "J28.0: a blocked interchange" in str(error)
    assert check_route(context(before, 6), route).revenue == 50  # the earlier board still runs
    board.remove_marker("J26", 0, 6)
    refused("IX.7", check_route, context(board, 6), "J24.0-J26.0")  # no marker of line 6 now
    assert check_route(context(before, 6), "J24.0-J26.0").revenue == 30
    lay_exits(before, "J24", {1, 3})  # J24's track no longer leads to J26 (IX.2)
    error = refused("IX.2", check_route, context(before, 6), route)
    assert "no tram track joins J24.0 and J26.0" in str(error)
    for ctx in (context(before, 6), context(board, 6)):
        assert outcome(check_route, ctx, route) == outcome(check_route_on_line_graph, ctx, route)
