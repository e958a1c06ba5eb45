"""Station markers: rule IX.6 (with R-LR-4 and R-LR-5).

* The first marker of a line is its home base marker, free, placed when the line first operates,
  on any free circle of its home hex (D18 is the home of lines 1 and 2: either circle, chosen by
  the director once a tile lies there, R-LR-13).
* Later markers cost the charter's next price (20, 40, 60, 80, 100 for the 2nd..6th), go on an
  unoccupied interchange circle, at most one per hex or red board-edge area per line, only with
  an unblocked connection (no reversing) to one of the line's markers, and never take the last
  free circle of a home hex whose line has not yet placed its home marker (IX.6; every home hex
  is reserved from the start, even for lines not yet drawn, until the line can no longer be
  bought, R-LR-12).
* The bonus marker of a Stadtbahn tile is the cheapest one left and free (R-LR-4).
* Stadtbahn markers may be removed for 40 each, any number, without connection, except the
  termini on I1, A17, I11 and F24 (R-LR-5).
"""

from __future__ import annotations

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.entities import entities
from tramways.g1840.legality.context import BuildState, may_still_operate
from tramways.g1840.legality.types import MarkerRemoval, StationPlacement
from tramways.g1840.model import Layout
from tramways.g1840.reach import L0, LOCATION_BITS

MARKER_COSTS: tuple[int, ...] = entities().station_marker_costs
"""IX.6: the charter's marker costs, home base first; each line has six markers (data)."""

REMOVAL_COST: int = entities().marker_removal_cost
"""IX.6, R-LR-5: removing a Stadtbahn marker costs 40 (data)."""

PERMANENT_STADTBAHN_MARKERS = frozenset({"I1", "A17", "I11", "F24"})
"""R-LR-5: Stadtbahn markers on these terminus hexes can never be removed (G3 can)."""


def next_marker_cost(board: Board, line: int) -> int | None:
    """The charter cost of ``line``'s next marker, or None if all six are placed (IX.6)."""
    placed = len(board.line_markers(line))
    return MARKER_COSTS[placed] if placed < len(MARKER_COSTS) else None


_TABLES: dict[int, tuple[Layout, dict[str, tuple[str, ...]], dict[str, tuple[int, ...]]]] = {}


def _tables(layout: Layout) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[int, ...]]]:
    """Per layout: each hex of a printed area -> the area's hexes (the first area listing it,
    as :func:`area_of` reads them), and each home hex -> the lines based there (in the order
    of ``home_bases``)."""
    found = _TABLES.get(id(layout))
    if found is None or found[0] is not layout:
        areas: dict[str, tuple[str, ...]] = {}
        for area in layout.areas:
            for coord in area.hexes:
                areas.setdefault(coord, area.hexes)
        homes: dict[str, tuple[int, ...]] = {}
        for line, home in layout.home_bases.items():
            homes[home] = (*homes.get(home, ()), line)
        found = _TABLES[id(layout)] = (layout, areas, homes)
    return found[1], found[2]


def area_of(board: Board, coord: str) -> tuple[str, ...]:
    """The hexes of the printed area ``coord`` belongs to (a multi-hex red area counts as one
    for IX.6's one-marker-per-area rule); just ``(coord,)`` for an ordinary hex."""
    return _tables(board.layout)[0].get(coord, (coord,))


def reserved_circles(pos: BuildState, coord: str, placing_line: int) -> int:
    """Circles on ``coord`` kept free for home bases of lines other than ``placing_line`` that
    have not yet placed their home marker (IX.6) and may still enter the game."""
    return sum(
        1
        for other in _tables(pos.board.layout)[1].get(coord, ())
        if other != placing_line and not pos.has_operated(other)
        and may_still_operate(pos, other)
    )


def _free_circles(board: Board, coord: str) -> int:
    return sum(
        board.free_slots(coord, loc.id) for loc in board.locations(coord) if loc.is_interchange
    )


def check_station(
    pos: BuildState, line: int, coord: str, location: int, *, free: bool = False
) -> StationPlacement:
    """Accept a station marker placement (IX.6) or raise ``IllegalAction``.

    ``free``: the bonus marker of a Stadtbahn tile (R-LR-4): the cheapest left, cost 0.
    """
    board = pos.board
    layout = board.layout
    if coord not in layout.hexes:
        raise IllegalAction("IX.6", f"{coord} is not on the map")
    locs = {loc.id: loc for loc in board.locations(coord)}
    loc = locs.get(location)
    if loc is None or not loc.is_interchange:
        raise IllegalAction("IX.6", f"station markers go only on interchange circles "
                            f"({coord} location {location} is none)")
    if board.free_slots(coord, location) <= 0:
        raise IllegalAction("IX.6", f"the circles of {coord} location {location} are occupied")
    home = layout.home_bases.get(line)
    if not pos.has_operated(line):
        if coord != home:
            raise IllegalAction(
                "IX.6", f"line {line}'s first marker goes on its home base {home}"
            )
        if _free_circles(board, coord) - 1 < reserved_circles(pos, coord, line):
            raise IllegalAction("IX.6", f"{coord} must keep a circle for another home base")
        return StationPlacement(coord, location, 0, home=True)
    cost = next_marker_cost(board, line)
    if cost is None:
        raise IllegalAction("IX.6", f"line {line} has placed all six station markers")
    mine = set(board.line_markers(line))
    for other in area_of(board, coord):
        if any(c == other for c, _ in mine):
            raise IllegalAction(
                "IX.6", f"line {line} already has a station marker on {other}"
            )
    if _free_circles(board, coord) - 1 < reserved_circles(pos, coord, line):
        raise IllegalAction(
            "IX.6", f"a circle on {coord} is kept for the home base of a line not yet operating"
        )
    if not board.reaches_location(line, coord, location):
        raise IllegalAction(
            "IX.6", f"{coord} has no unblocked connection to line {line}'s station markers"
        )
    return StationPlacement(coord, location, 0 if free else cost)


_REMOVALS: dict[int, tuple[MarkerRemoval, ...]] = {}
_REMOVALS_LIMIT = 20_000
"""Removal listings kept per markers version (:attr:`Board.markers_version`: never reused, and
a copy of a board keeps it only while its markers are equal)."""


def legal_station_placements(
    pos: BuildState, line: int, *, free: bool = False
) -> list[StationPlacement]:
    """Every legal station marker placement for ``line`` now (IX.6; ``free``: R-LR-4): what
    :func:`check_station` accepts among the interchange circles of the hexes the line reaches
    (its home before it has operated), with what the checks share worked out once per call
    and per hex."""
    board = pos.board
    if not pos.has_operated(line):
        home = board.layout.home_bases.get(line)
        return [] if home is None else _home_placements(pos, line, home)
    placed = board.line_markers(line)
    if len(placed) >= len(MARKER_COSTS):
        return []  # all six placed (IX.6)
    cost = 0 if free else MARKER_COSTS[len(placed)]  # next_marker_cost
    reached = board.reach(line).bits  # per hex: bit L0 + i, location i reached
    mine = {c for c, _ in placed}
    areas, homes = _tables(board.layout)
    result: list[StationPlacement] = []
    for coord in sorted(c for c, b in reached.items() if b & LOCATION_BITS):
        area = areas.get(coord)
        if coord in mine if area is None else any(other in mine for other in area):
            continue  # one marker per hex or red area (IX.6)
        on_hex = board.markers(coord)
        left = [(loc.id, loc.slots - len(on_hex.get(loc.id, ())))  # Board.free_slots
                for loc in board.locations(coord) if loc.is_interchange]
        circles = [loc for loc, n in left if n > 0]
        if not circles:
            continue
        if coord in homes and sum(n for _, n in left) - 1 < reserved_circles(pos, coord, line):
            continue  # kept for a home base (IX.6, R-LR-12; no home base here: none kept)
        located = reached[coord] >> L0
        result.extend([StationPlacement(coord, loc, cost) for loc in circles
                       if located >> loc & 1])
    return result


def _home_placements(pos: BuildState, line: int, home: str) -> list[StationPlacement]:
    """IX.6: the home base marker, free, on a free circle of the home hex that leaves the
    circles other home bases need."""
    result = []
    for loc in pos.board.locations(home):
        if not loc.is_interchange:
            continue
        try:
            result.append(check_station(pos, line, home, loc.id))
        except IllegalAction:
            continue
    return result


def check_marker_removal(
    pos: BuildState, line: int, coord: str, location: int, company: str | None = None
) -> MarkerRemoval:
    """Accept removing a Stadtbahn marker (IX.6, R-LR-5) or raise ``IllegalAction``."""
    board = pos.board
    if coord not in board.layout.hexes:
        raise IllegalAction("IX.6", f"{coord} is not on the map")
    owners = board.markers(coord).get(location, ())
    companies = [o for o in owners if isinstance(o, str)]
    if company is not None:
        companies = [c for c in companies if c == company]
    if not companies:
        raise IllegalAction("IX.6", f"no Stadtbahn marker on {coord} location {location}")
    if coord in PERMANENT_STADTBAHN_MARKERS:
        raise IllegalAction("R-LR-5", f"the Stadtbahn terminus marker on {coord} stays")
    return MarkerRemoval(coord, location, companies[0], REMOVAL_COST)


_REMOVAL_OF: dict[tuple[str, int, str], MarkerRemoval] = {}
"""Each removal made once (a hex, circle and company; a few dozen in a game): the listings of
every markers version share them instead of making and keeping their own."""


def legal_marker_removals(pos: BuildState, line: int) -> list[MarkerRemoval]:
    """Every Stadtbahn marker ``line`` may remove now, 40 each, no connection (R-LR-5); the
    same for every line, kept per markers version (they depend on the markers only)."""
    board = pos.board
    kept = _REMOVALS.get(board.markers_version)
    if kept is not None:
        return list(kept)
    result = []
    for coord, by_loc in sorted(board.all_markers().items()):
        if coord in PERMANENT_STADTBAHN_MARKERS:
            continue
        for location, owners in sorted(by_loc.items()):
            for owner in owners:
                if isinstance(owner, str):
                    key = (coord, location, owner)
                    removal = _REMOVAL_OF.get(key)
                    if removal is None:
                        removal = _REMOVAL_OF[key] = MarkerRemoval(coord, location, owner,
                                                                   REMOVAL_COST)
                    result.append(removal)
    if len(_REMOVALS) >= _REMOVALS_LIMIT:
        _REMOVALS.clear()
    _REMOVALS[board.markers_version] = tuple(result)
    return result
