"""The best-route search against a plain enumeration of every route (IX.2, IX.7, IX.8).

The enumeration below is written separately from :mod:`tramways.g1840.routes`: it walks the
board's paths edge by edge from every stop, keeping the visited locations and the hex borders
used (a border is the piece of track both tiles' paths share there), and scores every route it
can reach.  Hypothesis draws small random boards: random tiles from the real tile set on a
window of the map (rows G-J, columns 20-30: interchanges, a railway station, the Simmering red
area, the Schloss Belvedere landmark), random station markers of lines 4, 6, 15 and 18.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.g1840.test_routes_support import context, new_board
from tramways.g1840.board import Board
from tramways.g1840.data import tiles
from tramways.g1840.model import HexDef
from tramways.g1840.routes import best_route, search

WINDOW = ("G21", "G25", "G27", "G29", "H20", "H24", "H26", "H28", "I21", "I23", "I25",
          "I27", "I29", "J20", "J22", "J24", "J26", "J28")
LINES = (4, 6, 15, 18)


def _red(board: Board, coord: str) -> bool:
    """A route ends here (R-LR-6): red off-board areas except Grinzing, red tiles."""
    if board.layout.hexes[coord].area.startswith("offboard_red"):
        return coord != "A13"
    placed = board.tile(coord)
    return placed is not None and tiles()[placed.tile_id].colour == "red"


def brute_force_best(board: Board, line: int, phase: str, landmarks: frozenset[str],
                     ruleset: str) -> int | None:
    """The highest revenue of any valid route, by enumeration (None: no valid route)."""

    def kind(stop: tuple[str, int]) -> str | None:
        coord, loc_id = stop
        loc = board.location(coord, loc_id)
        if loc.kind in ("halt", "interchange"):
            return loc.kind
        if board.layout.hexes[coord].area == "railway_station" and ruleset == "18xx.games":
            return "station"
        return None

    def tram(coord: str):  # type: ignore[no-untyped-def]
        return [p for p in board.paths(coord) if p.track == "tram"]

    def value(stop: tuple[str, int]) -> int:
        coord, loc_id = stop
        loc = board.location(coord, loc_id)
        if kind(stop) == "halt":
            return loc.value(phase)
        if kind(stop) == "interchange" and line in board.markers(coord).get(loc_id, ()):
            return loc.value(phase)
        return 0

    def passable(stop: tuple[str, int]) -> bool:
        coord, loc_id = stop
        if kind(stop) == "station" or _red(board, coord):
            return False
        if any(p.terminal and loc_id in p.locations for p in tram(coord)):
            return False
        return not board.is_blocked(coord, loc_id, line)

    def score(route: list[tuple[str, int]]) -> int | None:
        if len(route) < 2 or not any(
            line in board.markers(c).get(loc, ()) for c, loc in route
        ):
            return None
        bonus = 20 * len({c for c, _ in route if c in landmarks})
        return sum(value(s) for s in route) + bonus

    def nexts(stop: tuple[str, int], used: frozenset):  # type: ignore[no-untyped-def]
        """(next stop, borders used) for every way out of ``stop``."""
        coord, loc_id = stop
        out = []
        for p in tram(coord):
            if loc_id not in p.locations:
                continue
            far = p.b if p.a.location == loc_id else p.a
            if far.location is not None:
                if far.location != loc_id:
                    out.append(((coord, far.location), used))
                continue
            todo = [(coord, far.edge, used)]
            while todo:
                here, edge, borders = todo.pop()
                there = board.neighbour(here, edge)
                if there is None:
                    continue
                border = frozenset({(here, edge), (there, (edge + 3) % 6)})
                if border in borders:
                    continue
                borders = borders | {border}
                entry = (edge + 3) % 6
                for q in tram(there):
                    if entry not in q.edges:
                        continue
                    other = q.b if q.a.edge == entry else q.a
                    if other.location is not None:
                        out.append(((there, other.location), borders))
                    elif other.edge is not None:
                        todo.append((there, other.edge, borders))
        return out

    best: int | None = None
    starts = [
        (c, loc.id) for c in board.layout.hexes for loc in board.locations(c)
        if kind((c, loc.id)) is not None
    ]

    def dfs(route: list[tuple[str, int]], used: frozenset) -> None:  # type: ignore[type-arg]
        nonlocal best
        got = score(route)
        if got is not None and (best is None or got > best):
            best = got
        if len(route) > 1 and not passable(route[-1]):
            return
        for stop, borders in nexts(route[-1], used):
            if stop in route or kind(stop) is None:
                continue
            route.append(stop)
            dfs(route, borders)
            route.pop()

    for start in starts:
        dfs([start], frozenset())
    return best


def tile_options(hexdef: HexDef, draw_colour: Callable[[], str]) -> list[str]:
    """Every tile that may stand on ``hexdef`` in a random test board (plain tiles of a colour
    drawn only when the hex needs one)."""
    all_tiles = tiles()
    if hexdef.area == "railway_station":
        return sorted(t.id for t in all_tiles.values()
                      if t.colour == "purple" and t.only_on_hex is None)
    if hexdef.stadtbahn is not None:
        return sorted(t.id for t in all_tiles.values() if t.orange_edged)
    kind = "interchange" if hexdef.area == "interchange" else "halt"
    colour = draw_colour()
    return sorted(
        t.id for t in all_tiles.values()
        if not t.orange_edged and t.colour == colour
        and not t.label and [loc.kind for loc in t.locations] == [kind]
    )


def _random_board(data: st.DataObject, line: int, window: tuple[str, ...] = WINDOW,
                  red: str = "K27", towards: dict[str, int] | None = None) -> Board:
    """Random tiles on ``window`` and random markers on its interchanges and the red area
    ``red``; each hex of ``towards`` gets a tile with tram track leaving by the given edge."""
    towards = towards or {}
    ruleset = data.draw(st.sampled_from(["rules", "18xx.games"]))
    board = new_board(ruleset=ruleset)
    board._supply = {key: 99 for key in board._supply}  # test boards ignore the supply
    all_tiles = tiles()
    for coord in window:
        hexdef = board.layout.hexes[coord]
        forced = coord in towards
        if not hexdef.laying_allowed or (not forced and data.draw(st.integers(0, 3)) == 0):
            continue
        if hexdef.area == "inner_city":
            continue
        options = tile_options(hexdef, lambda: data.draw(
            st.sampled_from(["yellow", "green", "brown", "grey"])))
        if forced:
            pairs = [(t, r) for t in options for r in range(6)
                     if towards[coord] in all_tiles[t].exits_at(r, "tram")]
            board.lay(coord, *data.draw(st.sampled_from(pairs)))
            continue
        try:
            board.lay(coord, data.draw(st.sampled_from(options)), data.draw(st.integers(0, 5)))
        except ValueError:
            pass  # a printed Stadtbahn marker with no place on that tile: leave the hex empty
    interchanges = [(c, loc.id) for c in window + (red,) for loc in board.locations(c)
                    if loc.kind == "interchange"]
    for i in range(data.draw(st.integers(1, 8))):
        coord, loc = data.draw(st.sampled_from(interchanges))
        owner = line if i < 2 else data.draw(st.sampled_from(LINES))
        if board.free_slots(coord, loc) > 0:
            board.place_marker(coord, loc, owner)
    return board


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_routes_search_equals_brute_force(data: st.DataObject) -> None:
    """Equal maxima, always; the block bound is switched on at every node (it normally waits
    for larger graphs) so that it is checked too."""
    line = data.draw(st.sampled_from(LINES))
    board = _random_board(data, line)
    phase = data.draw(st.sampled_from(["yellow", "green", "brown", "grey"]))
    # any hex may stand in for a landmark hex here: the bonus code does not care which
    landmarks = frozenset(data.draw(st.sets(st.sampled_from(WINDOW), max_size=4)))
    ruleset = board.ruleset
    use_blocks = data.draw(st.booleans())
    saved = search.BLOCK_BOUND_FROM
    search.BLOCK_BOUND_FROM = 0 if use_blocks else 10**6
    try:
        run = best_route(context(board, line, phase, landmarks, 0, ruleset))
    finally:
        search.BLOCK_BOUND_FROM = saved
    expected = brute_force_best(board, line, phase, landmarks, ruleset)
    assert (run.revenue if run else None) == expected


GRINZING_WINDOW = ("B10", "B12", "B14", "B16", "B18", "C11", "C13", "C15", "C17", "D12", "D14",
                   "D16")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_routes_search_equals_brute_force_around_grinzing(data: st.DataObject) -> None:
    """R-LR-6: the same comparison on the north of the map, where Döbling (B12) and B14 always
    have tram track towards Grinzing (A13), which routes pass through."""
    line = data.draw(st.sampled_from(LINES))
    board = _random_board(data, line, GRINZING_WINDOW, "A13", {"B12": 3, "B14": 2})
    phase = data.draw(st.sampled_from(["yellow", "green", "brown", "grey"]))
    run = best_route(context(board, line, phase, frozenset(), 0, board.ruleset))
    expected = brute_force_best(board, line, phase, frozenset(), board.ruleset)
    assert (run.revenue if run else None) == expected
