"""Where a line's station markers connect to over tram track (IX.2, IX.4, IX.6): the walk
behind :meth:`tramways.g1840.board.Board.reach`, from scratch (:func:`walk`) or carried over a
tile lay that keeps the old track (:func:`relaid`).

The walk starts at each marker and follows tram track only (dotted Stadtbahn track never
counts, IX.7). It may reach but not pass through an interchange blocked for the line (IX.2) or
a location entered by a terminal path (red off-board areas and red inner-city tiles, R-LR-6);
it never enters a placeholder (an untiled inner-city or station hex, R-LR-6). It never
reverses at a junction: arriving at an edge it always crosses to the neighbour, and it leaves
a location by any other path (IX.2).

What it finds is a closure: the locations and hex sides reachable from the markers. A lay
that keeps every old path (IX.4, IX.5: a printed or replaced tile's track and revenue
locations are kept, markers move along the location map) and never takes circles away (the
tile data: no upgrade has fewer circles) only adds to it, so :func:`relaid` keeps the old
closure (the laid hex's locations renamed by the map), walks the laid hex again - every
location it had expanded there and every side through which it had entered it - and follows
whatever is new. The result equals a fresh walk (tested against :func:`walk` on random games
and boards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tramways.g1840.hexgrid import HexTrack
from tramways.g1840.model import FrozenDict, Owner

Step = tuple[int | None, int | None, bool]
Tables = tuple[Mapping[str, tuple[str | None, ...]], Mapping[str, HexTrack],
               Mapping[str, Mapping[int, tuple[Owner, ...]]]]
"""A board's neighbour table, tram track by hex and markers by hex: all a walk reads."""

_EMPTY: Mapping[int, tuple[Owner, ...]] = FrozenDict()
_NONE: frozenset[tuple[str, int]] = frozenset()


@dataclass(frozen=True, slots=True)
class Reach:
    """What a line's station markers connect to over tram track (IX.2, IX.4, IX.6).

    * ``edges``: every ``(coord, edge)`` hex side the line's track arrives at: both sides of
      each border its walk crosses or points across (also towards hexes it cannot enter, such
      as an empty inner-city or station hex, or an empty hex - where a new tile could connect).
    * ``locations``: every ``(coord, location)`` revenue location it reaches (its own markers
      included; blocked interchanges and red terminal areas included: reached, not passed).
    * ``hexes``: every hex of ``edges`` or ``locations``.

    ``expanded`` (the locations the walk went on from) and ``entered`` (the hex sides it
    entered a hex through) are the walk's own state, kept so that :func:`relaid` can carry it
    over a lay; they take no part in comparisons.
    """

    edges: frozenset[tuple[str, int]]
    locations: frozenset[tuple[str, int]]
    hexes: frozenset[str]
    expanded: frozenset[tuple[str, int]] = field(default=_NONE, compare=False)
    entered: frozenset[tuple[str, int]] = field(default=_NONE, compare=False)


def walk(tables: Tables, starts: list[tuple[str, int]], line: Owner) -> Reach:
    """The walk from ``starts`` (the line's markers, or any locations) from scratch."""
    nodes = [(coord, loc, True) for coord, loc in starts]
    return _close(tables, line, set(), set(starts), set(), set(), nodes, [])


def relaid(tables: Tables, old: Reach, coord: str, mapping: Mapping[int, int] | None,
           line: Owner) -> Reach:
    """``old`` carried over a lay on ``coord`` that keeps its track (the tables already show
    the new tile; ``mapping``: old location id -> new, the identity where absent)."""
    def moved(loc: int) -> int:
        return loc if mapping is None else mapping.get(loc, loc)

    starts = {loc for loc, owners in tables[2].get(coord, _EMPTY).items() if line in owners}
    reached = {(c, moved(loc)) if c == coord else (c, loc) for c, loc in old.locations}
    expanded = {key for key in old.expanded if key[0] != coord}
    again = sorted({moved(loc) for c, loc in old.expanded if c == coord})
    nodes = [(coord, loc, loc in starts) for loc in again]
    entries = sorted(side for side in old.entered if side[0] == coord)
    return _close(tables, line, set(old.edges), reached, expanded, set(old.entered), nodes,
                  entries)


def _close(tables: Tables, line: Owner, edges: set[tuple[str, int]],
           reached: set[tuple[str, int]], expanded: set[tuple[str, int]],
           entered: set[tuple[str, int]], nodes: list[tuple[str, int, bool]],
           entries: list[tuple[str, int]]) -> Reach:
    """Expand ``nodes`` (locations: coord, location, is a start) and ``entries`` (hex sides
    to enter) until nothing new is found.  Leaving by an edge marks both sides of the border
    (and enters the neighbour); arriving at a location reaches it and expands it unless it is
    a terminal end, a placeholder (never entered) or an interchange blocked for the line (IX.2,
    R-LR-6)."""
    nb_table, trk_table, markers = tables

    def follow(coord: str, trk: HexTrack, steps: tuple[Step, ...], start: bool) -> None:
        for out, to, terminal in steps:
            if terminal and not start:
                continue
            if out is not None:
                edges.add((coord, out))
                nb = nb_table[coord][out]
                if nb is not None:
                    side = (nb, (out + 3) % 6)
                    edges.add(side)
                    if side not in entered:
                        entered.add(side)
                        entries.append(side)
                continue
            if to is None or to in trk.placeholders:
                continue
            key = (coord, to)
            reached.add(key)
            if terminal or key in expanded:
                continue
            slots = trk.slots.get(to)
            if slots is not None:
                owners = markers.get(coord, _EMPTY).get(to, ())
                if len(owners) >= slots and line not in owners:
                    continue  # blocked for the line (IX.2)
            nodes.append((coord, to, False))

    while nodes or entries:
        while nodes:
            coord, loc, start = nodes.pop()
            key = (coord, loc)
            if key in expanded:
                continue
            expanded.add(key)
            trk = trk_table[coord]
            steps = trk.steps_by_location.get(loc)
            if steps:
                follow(coord, trk, steps, start)
        while entries:
            coord, edge = entries.pop()
            trk = trk_table[coord]
            steps = trk.steps_by_edge.get(edge)
            if steps:
                follow(coord, trk, steps, True)
    hexes = {c for c, _ in edges}
    hexes.update(c for c, _ in reached)
    return Reach(frozenset(edges), frozenset(reached), frozenset(hexes), frozenset(expanded),
                 frozenset(entered))
