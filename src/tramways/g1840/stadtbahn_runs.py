"""Stadtbahn revenue (VIII.5.2): the imaginary trams of W, V, G and D.

Each Stadtbahn company runs from one of the two termini of its dotted line, along dotted
(Stadtbahn) track, as far as it is built: pre-printed dotted track counts, so does the dotted
track of Stadtbahn tiles; the printed route on a light-orange hex still without its tile
(``stadtbahn_planned``) does not.  Every halt met earns, and every interchange where the
company still has a station marker (a marker a line removed no longer earns, IX.6).  The better
of the two ends is run; once the line is built from terminus to terminus both runs are the
whole line and every stop earns.  A run with fewer than two revenue locations earns nothing.

Special tiles: on F24 (Bahnhof Hauptzollamt) the W and D termini move onto the purple tile
(their location ids may change, so a terminus is found by the dotted track at its edge); on
G11 (Westbahnhof) the special tile keeps the G line continuous (its halt carries dotted track).

The CR multiplier (x2 in CR4, x3 in CR5, x10 in CR6) is applied via ``multiplier``.
Before any tile on the full map D and V earn 70 and W and G 0 (the rules' CR1 note).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tramways.g1840.board import Board, Placed
    from tramways.g1840.model import Layout, Owner, PathDef, StadtbahnLine

DOTTED = "stadtbahn"


@dataclass(frozen=True, slots=True)
class StadtbahnRun:
    """A Stadtbahn company's run: ``revenue`` (multiplied), the ``stops`` in running order with
    their ``parts`` (unmultiplied), the terminus it starts from and whether the line is
    complete from terminus to terminus."""

    company: str
    revenue: int
    stops: tuple[tuple[str, int], ...]
    parts: tuple[int, ...]
    from_terminus: tuple[str, int] | None
    complete: bool
    multiplier: int = 1


def _terminus_location(board: Board, coord: str, printed_location: int, looked: set[str]
                       ) -> int | None:
    """The current location of a printed terminus: found by the dotted track at its edge."""
    looked.add(coord)
    printed = board.layout.hexes[coord]
    edges = {
        e.edge
        for p in printed.paths
        if p.track == DOTTED and printed_location in p.locations
        for e in (p.a, p.b)
        if e.edge is not None
    }
    for path in board.paths(coord):
        if path.track != DOTTED or not path.locations:
            continue
        if set(path.edges) & edges:
            return path.locations[0]
    return None


_DOTTED_PATHS: dict[tuple[int, str, str | None, int], tuple[PathDef, ...]] = {}


def _dotted_paths(board: Board, coord: str) -> tuple[PathDef, ...]:
    """The hex's dotted track that leads somewhere (paths with an edge), in the order of
    :meth:`Board.paths`; remembered per layout, hex and tile (id and rotation)."""
    placed = board.tile(coord)
    key = ((id(board.layout), coord, None, 0) if placed is None
           else (id(board.layout), coord, placed.tile_id, placed.rotation))
    found = _DOTTED_PATHS.get(key)
    if found is None:
        _dotted_hexes(board.layout)  # keeps the layout of the id alive
        found = _DOTTED_PATHS[key] = tuple(
            p for p in board.paths(coord) if p.track == DOTTED and p.edges)
    return found


def _walk(board: Board, company: str, start: tuple[str, int], route: tuple[str, ...],
          looked: set[str]) -> list[tuple[str, int]]:
    """The locations met from ``start`` along built dotted track (``start`` first);
    ``looked`` receives every hex whose tile the walk looked at."""
    on_route = set(route)
    stops = [start]
    coord, loc = start
    came_by = None  # the path we arrived on
    seen = {start}
    while True:
        moved = False
        looked.add(coord)
        for path in _dotted_paths(board, coord):
            if loc not in path.locations or path is came_by or path == came_by:
                continue
            edge = path.edges[0]
            there = board.neighbour(coord, edge)
            if there is None or there not in on_route:
                continue
            entry = (edge + 3) % 6
            nxt = _follow(board, there, entry, looked)
            if nxt is None:
                continue
            arrive_path, where = nxt
            if where in seen:
                continue
            coord, loc = where
            came_by = arrive_path
            stops.append(where)
            seen.add(where)
            moved = True
            break
        if not moved:
            return stops


def _follow(
    board: Board, coord: str, entry: int, looked: set[str]
) -> tuple[PathDef, tuple[str, int]] | None:
    """From ``entry`` of ``coord`` along dotted track to the next location (crossing plain
    dotted track hexes such as A15 and A11)."""
    hops = 0
    while hops < 20:
        hops += 1
        looked.add(coord)
        for path in _dotted_paths(board, coord):
            if entry not in path.edges:
                continue
            if path.locations:
                return path, (coord, path.locations[0])
            out = next(e for e in path.edges if e != entry) if len(path.edges) == 2 else None
            if out is None:
                return None
            there = board.neighbour(coord, out)
            if there is None:
                return None
            coord, entry = there, (out + 3) % 6
            break
        else:
            return None
    return None


def _value(board: Board, company: str, stop: tuple[str, int], phase: str) -> tuple[bool, int]:
    """(is a revenue location, what it earns the company)."""
    coord, loc_id = stop
    for loc in board.locations(coord):
        if loc.id != loc_id:
            continue
        if loc.kind == "halt":
            return True, loc.value(phase)
        if loc.kind == "interchange":
            mine = company in board.markers(coord).get(loc_id, ())
            return True, loc.value(phase) if mine else 0
        return False, 0
    return False, 0


_DOTTED_HEXES: dict[int, tuple[Layout, tuple[str, ...]]] = {}


def _dotted_hexes(layout: Layout) -> tuple[str, ...]:
    """The hexes dotted track can be on: printed dotted track or light-orange (Stadtbahn tiles
    go only there, IX.4)."""
    entry = _DOTTED_HEXES.get(id(layout))
    if entry is None or entry[0] is not layout:
        found = tuple(sorted(
            c for c, h in layout.hexes.items()
            if h.stadtbahn is not None or any(p.track != "tram" for p in h.paths)))
        entry = _DOTTED_HEXES[id(layout)] = (layout, found)
    return entry[1]


@dataclass(frozen=True, slots=True)
class _Looked:
    """The hexes a run looked at (``coords``, sorted), with their tiles and markers then,
    as :func:`_hex_state` gives them."""

    coords: tuple[str, ...]
    tiles: tuple[Placed | None, ...]
    markers: tuple[Mapping[int, tuple[Owner, ...]] | None, ...]


def _hex_state(board: Board, coords: tuple[str, ...]
               ) -> tuple[tuple[Placed | None, ...], tuple[Mapping[int, tuple[Owner, ...]] | None, ...]]:
    """The tile and the markers (``None``: none) of each of ``coords``, read in one pass each
    (the board never changes a tile or a hex's marker map in place, so an unchanged hex gives
    the very same objects and the tuples compare by identity first)."""
    return (tuple(map(board.placed().get, coords)),
            tuple(map(board.all_markers().get, coords)))


_RUNS: dict[tuple[int, str, str], list[tuple[_Looked, StadtbahnRun]]] = {}
"""Per layout, company and phase: the runs (x1) computed or used last (:data:`RUNS_KEPT`,
the one used last first), each with the tiles and markers of the hexes it looked at."""

RUNS_KEPT = 8


def _unchanged(board: Board, looked: _Looked) -> bool:
    """The board has the same tiles and markers on every hex of ``looked``."""
    tiles, markers = _hex_state(board, looked.coords)
    return tiles == looked.tiles and markers == looked.markers


def stadtbahn_run(board: Board, company: str, phase: str = "yellow", multiplier: int = 1
                  ) -> StadtbahnRun:
    """The run of Stadtbahn company ``company`` (VIII.5.2); revenue x ``multiplier``.

    A run only looks at the dotted track from the company's termini and at the markers where
    it stops: it is kept (x1) with the tiles and markers of the hexes it looked at, and reused
    while they are the same (a lay or marker elsewhere, on another company's line or on
    plain track, does not run it again; nor does the next Company Round's multiplier: the
    better end x1 is the better end multiplied).  The run used last is asked first."""
    line = board.layout.stadtbahn_lines.get(company)
    if line is None:
        return StadtbahnRun(company, 0, (), (), None, False, multiplier)
    if multiplier < 1:
        return _run(board, company, line, phase, multiplier)
    key = (id(board.layout), company, phase)
    kept = _RUNS.get(key)
    if kept is None:
        _dotted_hexes(board.layout)  # keeps the layout of the id alive
        kept = _RUNS[key] = []
    for k, (looked, known) in enumerate(kept):
        if _unchanged(board, looked):
            if k:
                kept.insert(0, kept.pop(k))
            run = known
            break
    else:
        hexes: set[str] = set()
        run = _run(board, company, line, phase, 1, hexes)
        coords = tuple(sorted(hexes))
        kept.insert(0, (_Looked(coords, *_hex_state(board, coords)), run))
        del kept[RUNS_KEPT:]
    if multiplier == 1:
        return run
    return StadtbahnRun(company, run.revenue * multiplier, run.stops, run.parts,
                        run.from_terminus, run.complete, multiplier)


def _run(board: Board, company: str, line: StadtbahnLine, phase: str, multiplier: int,
         looked: set[str] | None = None) -> StadtbahnRun:
    """The run afresh; ``looked`` receives every hex whose tile or markers it looked at."""
    if looked is None:
        looked = set()
    termini = []
    for coord, printed in line.termini:
        loc = _terminus_location(board, coord, printed, looked)
        if loc is not None:
            termini.append((coord, loc))
    best: StadtbahnRun | None = None
    other_ends = set(termini)
    for start in termini:
        stops = _walk(board, company, start, line.route, looked)
        looked.update([c for c, _ in stops])  # their locations and markers (already walked)
        valued = [(s, *_value(board, company, s, phase)) for s in stops]
        counted = [(s, v) for s, is_loc, v in valued if is_loc]
        complete = stops[-1] in other_ends and stops[-1] != start
        values = tuple([v for _, v in counted])
        total = sum(values) if len(counted) >= 2 else 0
        run = StadtbahnRun(
            company,
            total * multiplier,
            tuple([s for s, _ in counted]),
            values,
            start,
            complete,
            multiplier,
        )
        if best is None or run.revenue > best.revenue:
            best = run
    if best is None:
        return StadtbahnRun(company, 0, (), (), None, False, multiplier)
    return best
