"""A claimed run checked along its own stops (IX.2, IX.7, IX.8, R-LR-6, R-LR-7, X-6).

What replaying a recorded run needs is only: every stop a tram stop of the board the line may
use, a marker of the line on one of them, no stop twice, nothing passed that must end a route,
each pair of consecutive stops joined by track that passes no other stop, no piece of track
used twice, and the stops' values.  :func:`check_claimed` answers exactly that from the track
between consecutive stops (remembered per pair of stops with the tiles its walks looked at,
:func:`_between`), without building a graph:
no :class:`~tramways.g1840.routes.graph.TrackGraph` nor
:class:`~tramways.g1840.routes.graph.LineGraph` of the route.  It gives what the check on the
line's whole graph gives (:func:`~tramways.g1840.routes.validate.check_route_on_line_graph`):
the same :class:`Run`, or the same rule and message (tested on every position of the oracle
game and of selfplay games, ``tests/g1840/test_perf_route_check.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from tramways.core.errors import IllegalAction
from tramways.g1840.routes.graph.incremental import (
    _LAYOUTS,
    Entry,
    _hex_info,
    _HexInfo,
    _walks_from,
)
from tramways.g1840.routes.graph.track import HALT, INTERCHANGE, STATION, _Pieces
from tramways.g1840.routes.model import LANDMARK_BONUS, RouteContext, Run, Stop

T = TypeVar("T")

if TYPE_CHECKING:
    from tramways.g1840.board import Board, Placed
    from tramways.g1840.model import PathDef

RouteStep = tuple[Stop, int | None]

Chosen = tuple[Entry, Stop]
"""A stretch of track between two consecutive stops: the walk's entry and the stop it was
walked from (the earlier of the two in board order)."""


class _Infos(dict[str, _HexInfo]):
    """The track of each hex as a run's check asks for it (:func:`_hex_info`), read through
    a plain dict: most of a run's hexes are asked for several times (its stops, the walks
    between them)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def __missing__(self, coord: str) -> _HexInfo:
        info = self[coord] = _hex_info(self.board, coord)
        return info


def not_a_stop(board: Board, stop: Stop) -> IllegalAction:
    """Why ``stop`` (on a hex of the map) is no tram stop of the board (IX.2, IX.7, R-LR-6)."""
    coord, loc = stop
    if loc not in {loc_def.id for loc_def in board.locations(coord)}:
        return IllegalAction("IX.2", f"{coord} has no revenue location {loc}")
    if board.layout.hexes[coord].area == "inner_city":
        return IllegalAction("R-LR-6", f"{coord}: an inner-city hex without a red tile "
                             "cannot be entered")
    return IllegalAction("IX.7", f"{coord}.{loc} is not on tram track (dotted Stadtbahn "
                         "track may not be used)")


def _stops(ctx: RouteContext, steps: Sequence[RouteStep], infos: _Infos
           ) -> tuple[list[Stop], list[int], list[int], list[int], list[bool]]:
    """The stops with their place on the board (hex order, then tile order), their values,
    whether each ends a route (``2``: red or station end, R-LR-6; ``1``: an interchange
    blocked for the line, IX.7; ``0``: neither) and whether it holds the line's marker.
    Raises for the first stop in route order that is no usable tram stop."""
    board = ctx.board
    hexes = board.layout.hexes
    stations_end = ctx.ruleset.purple_station_route_end
    phase, line = ctx.phase, ctx.line
    stops: list[Stop] = []
    order: list[int] = []
    values: list[int] = []
    own: list[bool] = []
    ends: list[int] = []
    for stop, _ in steps:
        coord = stop[0]
        if coord not in hexes:
            raise IllegalAction("IX.2", f"{coord} is not a hex of this map")
        info = infos[coord]
        keys = info.keys
        if stop not in keys:
            raise not_a_stop(board, stop)
        j = keys.index(stop)
        kind = info.kinds[j]
        mine = False
        end = 2 if info.terminal[j] else 0
        value = 0
        if kind == HALT:
            value = info.locations[j].value(phase)
        elif kind == INTERCHANGE:
            owners = board.markers(coord).get(stop[1])
            if owners:
                if line in owners:
                    mine = True
                    value = info.locations[j].value(phase)
                elif not end and len(owners) >= info.locations[j].slots:
                    end = 1  # blocked (IX.7)
        elif kind == STATION and not stations_end:
            raise IllegalAction("R-LR-6", f"{coord}: an empty railway station is not a "
                                "revenue location")
        stops.append(stop)
        order.append(j)
        values.append(value)
        own.append(mine)
        ends.append(end)
    return stops, order, values, ends, own


_ROUTE_PIECES: dict[int, _Pieces] = {}


def _route_pieces(board: Board) -> _Pieces:
    """The numbering of pieces of track for route checks on this layout (append-only)."""
    pieces = _ROUTE_PIECES.get(id(board.layout))
    if pieces is None:
        _LAYOUTS[id(board.layout)] = board.layout  # keeps the layout of the id alive
        pieces = _ROUTE_PIECES[id(board.layout)] = _Pieces()
    return pieces


_ORIGINS: dict[tuple[int, Stop], tuple[tuple[str, ...], tuple[Placed | None, ...],
                                       dict[Stop, list[Entry]]]] = {}
_ORIGINS_LIMIT = 4096
_NO_ENTRIES: list[Entry] = []


def _any_stop(other: Stop) -> bool:
    return True


def _between(board: Board, a: Stop, b: Stop, looked: set[str], infos: _Infos) -> list[Entry]:
    """The stretches of track from stop ``a`` to stop ``b`` that pass no other stop (the walks
    of :func:`~tramways.g1840.routes.graph.track.build_track_graph` from ``a``, ``a`` the
    earlier of the two in board order: same order, steps and edges), as ``(b, mask, steps,
    exit edge, entry edge)``; ``looked`` receives every hex whose track the walks looked at.

    The walks from ``a`` look at the same track whichever stop they end at, so they are
    remembered per layout and origin ``a`` (every stop they reach, with its stretches) with
    the tile on every hex looked at, and reused only while each of those hexes holds an equal
    tile (or stays empty): the pairs of a run, and of later runs, that share their first stop
    walk once."""
    key = (id(board.layout), a)
    found = _ORIGINS.get(key)
    tiles = board.placed()
    if found is not None:
        coords, placed, by_stop = found
        if tuple(map(tiles.get, coords)) == placed:
            looked.update(coords)
            return by_stop.get(b, _NO_ENTRIES)
    mine: set[str] = set()
    by_stop = {}
    for entry in _walks_from(board, infos.__getitem__, _route_pieces(board), a[0], a[1],
                             _any_stop, mine):
        by_stop.setdefault(entry[0], []).append(entry)
    if len(_ORIGINS) >= _ORIGINS_LIMIT:
        _ORIGINS.clear()
    coords = tuple(mine)
    _ORIGINS[key] = (coords, tuple(map(tiles.get, coords)), by_stop)
    looked.update(coords)
    return by_stop.get(b, _NO_ENTRIES)


def _leaving(entry: Entry, origin: Stop, stop: Stop) -> int | None:
    """The edge by which the stretch leaves ``stop``'s hex (``origin``: where it was walked
    from)."""
    return entry[3] if stop == origin else entry[4]


RunKey = tuple[int, tuple[RouteStep, ...], int, str, frozenset[str], int | None, bool]
Remembered = tuple[tuple[str, ...], tuple["Placed | None", ...], tuple[object, ...], Run]

_RUNS: dict[RunKey, Remembered] = {}
_RUNS_LIMIT = 4096


def check_claimed(ctx: RouteContext, steps: Sequence[RouteStep]) -> Run:
    """The :class:`Run` of the claimed route ``steps`` (stops with optional exit edges), or
    :class:`IllegalAction` naming the rule, with :func:`check_route`'s rules and messages.

    A valid route's :class:`Run` is remembered with what it was computed from: the context
    (line, phase, owned landmarks, maintenance, X-6), the tile on every hex the check looked
    at and the markers on the stops' hexes; it is reused only while all of them are equal (a
    line running the same route again on the same track)."""
    board = ctx.board
    key = (id(board.layout), tuple(steps), ctx.line, ctx.phase, ctx.landmark_hexes,
           ctx.maintenance, ctx.ruleset.purple_station_route_end)
    found = _RUNS.get(key)
    if found is not None:
        coords, placed, markers, run = found
        if (tuple(map(board.placed().get, coords)) == placed
                and tuple(board.markers(c) for c, _ in run.stops) == markers):
            return run
    looked: set[str] = set()
    run = _check(ctx, steps, looked)
    if len(_RUNS) >= _RUNS_LIMIT:
        _RUNS.clear()
    coords = tuple(looked)
    _RUNS[key] = (coords, tuple(map(board.placed().get, coords)),
                  tuple(board.markers(c) for c, _ in run.stops), run)
    return run


def _check(ctx: RouteContext, steps: Sequence[RouteStep], looked: set[str]) -> Run:
    """:func:`check_claimed` computed (``looked``: every hex whose track it looked at)."""
    if len(steps) < 2:
        raise IllegalAction("IX.7", "a route needs at least two different revenue locations")
    infos = _Infos(ctx.board)
    stops, order, values, ends, own = _stops(ctx, steps, infos)
    if len(set(stops)) != len(stops):
        raise IllegalAction("IX.7", "a route may not visit the same revenue location twice")
    if not any(own):
        raise IllegalAction("IX.7", f"the route has no station marker of line {ctx.line}")
    for i in range(1, len(stops) - 1):
        if ends[i]:
            coord, loc = stops[i]
            if ends[i] == 2:
                raise IllegalAction("R-LR-6", f"{coord}.{loc}: a route ends at a red tile or "
                                    "area (or a railway station); it cannot pass through")
            raise IllegalAction("IX.7", f"{coord}.{loc}: a blocked interchange may only "
                                "begin or end a route")
    board = ctx.board
    options: list[list[Chosen]] = []
    counts: list[int] = []
    for i in range(len(stops) - 1):
        s, t = stops[i], stops[i + 1]
        origin, other = (s, t) if (s[0], order[i]) < (t[0], order[i + 1]) else (t, s)
        entries = _between(board, origin, other, looked, infos)
        edge = steps[i][1]
        between = [(e, origin) for e in entries
                   if edge is None or _leaving(e, origin, s) == edge]
        if not between:
            raise IllegalAction("IX.2", f"no tram track joins {s[0]}.{s[1]} and {t[0]}.{t[1]}"
                                + (f" leaving by edge {edge}" if edge is not None else "")
                                + " without passing another stop, reversing or changing track")
        options.append(between)
        counts.append(len(entries))
    chosen = _pick(options)
    if chosen is None:
        raise IllegalAction("IX.2", "the route uses a piece of track more than once")
    return _run(ctx, stops, values, chosen, counts)


def _pick(options: list[list[Chosen]]) -> list[Chosen] | None:
    """One stretch per pair of stops, no piece of track twice (IX.2): the first such choice
    in the order of the options (depth first).  The first option of every pair is that
    choice when no two of them share a piece of track (as nearly always): tried first."""
    used = 0
    for between in options:
        mask = between[0][0][1]
        if used & mask:
            break
        used |= mask
    else:
        return [between[0] for between in options]
    return disjoint_choice(options, lambda option: option[0][1])


def disjoint_choice(options: Sequence[Sequence[T]], mask: Callable[[T], int]) -> list[T] | None:
    """One option of each list, no two sharing a bit of ``mask`` (a piece of track, IX.2):
    the first such choice in the order of the options, depth first; ``None``: there is none.
    A claimed run's stretches (:func:`_pick`) and a route's links
    (:func:`tramways.g1840.routes.validate`) are chosen by it."""
    chosen: list[T] = []

    def pick(i: int, used: int) -> bool:
        if i == len(options):
            return True
        for option in options[i]:
            bits = mask(option)
            if used & bits:
                continue
            chosen.append(option)
            if pick(i + 1, used | bits):
                return True
            chosen.pop()
        return False

    return chosen if pick(0, 0) else None


def _run(ctx: RouteContext, stops: list[Stop], values: list[int], chosen: list[Chosen],
         counts: list[int]) -> Run:
    """The :class:`Run` (IX.8), in its canonical direction (the smaller of the two stop
    sequences), as :func:`~tramways.g1840.routes.validate.make_run` makes it."""
    if tuple(reversed(stops)) < tuple(stops):
        stops, values = stops[::-1], values[::-1]
        chosen, counts = chosen[::-1], counts[::-1]
    paths: list[tuple[str, PathDef]] = []
    parts: list[str] = []
    for i, stop in enumerate(stops):
        text = f"{stop[0]}.{stop[1]}"
        if i < len(chosen):
            entry, origin = chosen[i]
            paths.extend(entry[2] if stop == origin else reversed(entry[2]))
            if counts[i] > 1:
                edge = _leaving(entry, origin, stop)
                if edge is not None:
                    text += f">{edge}"
        parts.append(text)
    hexes = list(dict.fromkeys([stops[0][0], *(c for c, _ in paths)]))
    marks = ctx.landmark_hexes
    bonus = LANDMARK_BONUS * len({c for c, _ in stops if c in marks}) if marks else 0
    revenue = sum(values) + bonus
    maintenance = ctx.maintenance or 0
    return Run(
        stops=tuple(stops),
        parts=tuple(values),
        paths=tuple(paths),
        hexes=tuple(hexes),
        landmark_bonus=bonus,
        revenue=revenue,
        maintenance=maintenance,
        total=revenue + maintenance,
        text="-".join(parts),
    )
