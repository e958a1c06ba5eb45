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
closure (the laid hexes' locations renamed by their maps), walks the laid hexes again - every
location it had expanded there and every side through which it had entered one - and follows
whatever is new; several lays are carried at once, and markers the line placed since are
walked as starts. The results equal a fresh walk (tested against :func:`walk` on random games
and boards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    over a lay; they take no part in comparisons.  :meth:`by_hex` indexes ``edges`` and
    ``locations`` by hex (built when first asked; a reach carried over a lay from one whose
    index was built gets that index updated by the differences only, :func:`relaid`).
    """

    edges: frozenset[tuple[str, int]]
    locations: frozenset[tuple[str, int]]
    hexes: frozenset[str]
    expanded: frozenset[tuple[str, int]] = field(default=_NONE, compare=False)
    entered: frozenset[tuple[str, int]] = field(default=_NONE, compare=False)
    index: ByHex | None = field(default=None, compare=False, repr=False)
    """:meth:`by_hex` once built (a cache on a frozen value: set once, by :meth:`by_hex` or
    by :func:`relaid`)."""

    def by_hex(self) -> ByHex:
        """``(edges, locations)`` by hex: each hex -> the edges its border is reached at
        (``edges``), and each hex -> the locations reached on it (``locations``)."""
        found = self.index
        if found is None:
            found = (_grouped(self.edges), _grouped(self.locations))
            object.__setattr__(self, "index", found)  # a cache: compare=False
        return found


ByHex = tuple[dict[str, frozenset[int]], dict[str, frozenset[int]]]
"""A reach's edges and locations, each grouped by hex (:meth:`Reach.by_hex`)."""


def _grouped(pairs: frozenset[tuple[str, int]]) -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for coord, item in pairs:
        bucket = found.get(coord)
        if bucket is None:
            found[coord] = {item}
        else:
            bucket.add(item)
    return {c: frozenset(items) for c, items in found.items()}


def _updated(table: dict[str, frozenset[int]], before: frozenset[tuple[str, int]],
             after: frozenset[tuple[str, int]]) -> dict[str, frozenset[int]]:
    """``table`` (``before`` grouped by hex) made the grouping of ``after``: only the hexes
    with an item gained or lost are grouped again."""
    gained, lost = after - before, before - after
    if not gained and not lost:
        return table
    out = dict(table)
    changes: dict[str, tuple[set[int], set[int]]] = {}
    for coord, item in gained:
        changes.setdefault(coord, (set(), set()))[0].add(item)
    for coord, item in lost:
        changes.setdefault(coord, (set(), set()))[1].add(item)
    for coord, (plus, minus) in changes.items():
        now = (out.get(coord, _NO_ITEMS) - minus) | plus
        if now:
            out[coord] = frozenset(now)
        else:
            del out[coord]
    return out


_NO_ITEMS: frozenset[int] = frozenset()


def walk(tables: Tables, starts: list[tuple[str, int]], line: Owner) -> Reach:
    """The walk from ``starts`` (the line's markers, or any locations) from scratch."""
    nodes = [(coord, loc, True) for coord, loc in starts]
    return _close(tables, line, set(), set(starts), {c for c, _ in starts}, set(), set(),
                  nodes, [])


Lay = tuple[str, "Mapping[int, int] | None"]
"""A legal lay carried over: the hex and its location map (old id -> new; ``None``: the
identity)."""


def _composed(lays: list[Lay]) -> dict[str, dict[int, int]]:
    """Each laid hex's location map from before its first lay to now (a hex laid twice: one
    map after the other)."""
    if len(lays) == 1:  # the usual: one lay (its map as it is)
        coord, mapping = lays[0]
        return {coord: {} if mapping is None else dict(mapping)}
    maps: dict[str, dict[int, int]] = {}
    for coord, mapping in lays:
        first = maps.get(coord, {})
        then = {} if mapping is None else mapping
        maps[coord] = {loc: then.get(first.get(loc, loc), first.get(loc, loc))
                       for loc in first.keys() | then.keys()}
    return maps


def relaid(tables: Tables, old: Reach, lays: list[Lay], starts: list[tuple[str, int]],
           line: Owner) -> Reach:
    """``old`` carried over legal lays that keep the track (``lays``, in the order laid, maybe
    none; the tables already show the new tiles) and markers the line placed since: the old
    closure with the laid hexes' locations renamed, every location of a laid hex it had
    expanded, every side through which it had entered one and every marker of the line
    (``starts``, as starts: a terminal path may begin there) walked again, and whatever is new
    followed.  The line's own markers never block it (IX.2), so they only add to it."""
    maps = _composed(lays)
    renamed = any(old_id != new_id for m in maps.values() for old_id, new_id in m.items())
    reached = {(c, maps[c].get(loc, loc)) if c in maps else (c, loc)
               for c, loc in old.locations} if renamed else set(old.locations)
    expanded = {key for key in old.expanded if key[0] not in maps} if maps else set(
        old.expanded)
    hexes = set(old.hexes)
    nodes: list[tuple[str, int, bool]] = []
    for coord in sorted(maps):
        again = sorted({maps[coord].get(loc, loc) for c, loc in old.expanded if c == coord})
        nodes.extend((coord, loc, False) for loc in again)
    for key in starts:
        expanded.discard(key)
        reached.add(key)
        hexes.add(key[0])
        nodes.append((key[0], key[1], True))
    entries = sorted(side for side in old.entered if side[0] in maps)
    new = _close(tables, line, set(old.edges), reached, hexes, expanded, set(old.entered),
                 nodes, entries)
    if old.index is not None:  # update the index by the differences, while old is at hand
        edges, locations = old.index
        object.__setattr__(new, "index", (_updated(edges, old.edges, new.edges),
                                          _updated(locations, old.locations, new.locations)))
    return new


def floor_reaches(tables: Tables, known: Reach, laid: frozenset[str], coord: str,
                  location: int) -> bool:
    """True if a reach contained in the line's reach now (``known``, walked before legal lays
    on the hexes ``laid``, whose locations may have been renamed since) shows that the line
    reaches ``(coord, location)``: the location is in it, or its walk entered ``coord`` by a
    side from which the hex's track now leads straight to the location (one more step of the
    walk: a location entered is reached, IX.2).  False means "walk and see"."""
    if coord not in laid and (coord, location) in known.locations:
        return True
    trk = tables[1][coord]
    if location in trk.placeholders:
        return False
    entered = known.entered
    return any((coord, edge) in entered and any(
                   out is None and to == location for out, to, _ in steps)
               for edge, steps in trk.steps_by_edge.items())


def floor_leaves(tables: Tables, known: Reach, laid: frozenset[str], coord: str, edge: int,
                 line: Owner) -> bool:
    """True if ``known`` (as for :func:`floor_reaches`) shows that the line's walk leaves
    ``coord`` by ``edge`` (so that border is among the reach's edges from both sides): a
    location of the hex it went on from has a path there, or a side through which it entered
    the hex leads there, straight or through one location it may pass (not a terminal end,
    not an interchange blocked for it: IX.2, R-LR-6).  False means "walk and see"."""
    trk = tables[1][coord]
    if coord not in laid:
        expanded = known.expanded
        for loc, steps in trk.steps_by_location.items():
            if (coord, loc) in expanded and any(
                    out == edge and not terminal for out, _, terminal in steps):
                return True
    entered = known.entered
    markers = tables[2].get(coord, _EMPTY)
    for side, steps in trk.steps_by_edge.items():
        if (coord, side) not in entered:
            continue
        for out, to, terminal in steps:
            if out == edge:
                return True
            if out is not None or to is None or terminal or to in trk.placeholders:
                continue
            slots = trk.slots.get(to)
            owners = markers.get(to, ())
            if slots is not None and len(owners) >= slots and line not in owners:
                continue  # blocked for the line (IX.2)
            if any(then == edge and not end for then, _, end in trk.steps_by_location.get(to, ())):
                return True
    return False


def _close(tables: Tables, line: Owner, edges: set[tuple[str, int]],
           reached: set[tuple[str, int]], hexes: set[str], expanded: set[tuple[str, int]],
           entered: set[tuple[str, int]], nodes: list[tuple[str, int, bool]],
           entries: list[tuple[str, int]]) -> Reach:
    """Expand ``nodes`` (locations: coord, location, is a start) and ``entries`` (hex sides
    to enter) until nothing new is found (``hexes``: the hexes of ``edges`` and ``reached``,
    kept up to date as they grow: a location reached is on the hex a step leaves from, and
    that hex is already among them).  Leaving by an edge marks both sides of the border
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
                    hexes.add(nb)
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
    return Reach(frozenset(edges), frozenset(reached), frozenset(hexes), frozenset(expanded),
                 frozenset(entered))


class Reaches:
    """A board's reaches by owner (:meth:`tramways.g1840.board.Board.reach`): the cached ones,
    and those waiting to be carried over the legal lays made since (and to gain the markers
    their line placed since) when next asked.  The board tells it every change."""

    __slots__ = ("cached", "pending")

    def __init__(self) -> None:
        self.cached: dict[Owner, Reach] = {}
        self.pending: dict[Owner, tuple[Reach, list[Lay]]] = {}

    def copy(self) -> Reaches:
        other = Reaches()
        other.cached = dict(self.cached)
        other.pending = {k: (r, list(lays)) for k, (r, lays) in self.pending.items()}
        return other

    def get(self, tables: Tables, line: Owner, starts: Callable[[], list[tuple[str, int]]]
            ) -> Reach:
        """The reach of ``line`` (``starts``: its markers now)."""
        found = self.cached.get(line)
        if found is None:
            waiting = self.pending.pop(line, None)
            if waiting is not None:
                found = relaid(tables, waiting[0], waiting[1], starts(), line)
            else:
                found = walk(tables, starts(), line)
            self.cached[line] = found
        return found

    def floor(self, line: Owner) -> tuple[Reach, frozenset[str]] | None:
        """A reach contained in ``line``'s reach now, known without walking: the cached one,
        or one waiting, with the hexes laid since (their locations may have been renamed;
        every other fact of it holds now: a legal lay keeps every old path, a marker that
        blocks its walk drops it); ``None`` if there is none."""
        found = self.cached.get(line)
        if found is not None:
            return found, frozenset()
        waiting = self.pending.get(line)
        if waiting is not None:
            return waiting[0], frozenset(c for c, _ in waiting[1])
        return None

    def changed(self, coord: str, owner: Owner | None = None) -> None:
        """Any change on ``coord`` (and of ``owner``'s markers): a reach stays unless its walk
        touched ``coord`` (every hex whose track or markers it looked at is in its ``hexes``)
        or it is ``owner``'s (new or fewer starts)."""
        for store in (self.cached, self.pending):
            if store:
                for line in [k for k, v in store.items()
                             if k == owner or coord in _of(v).hexes]:
                    del store[line]

    def carried(self, coord: str, mapping: Mapping[int, int] | None) -> None:
        """A legal lay on ``coord`` that keeps the track: the reaches that touched it wait to
        be carried over it (:func:`relaid`, on the tables of that moment: a later change
        elsewhere is walked as it is then); one already waiting is carried over it too."""
        mapping = None if mapping is None else dict(mapping)
        for old, lays in self.pending.values():
            if coord in old.hexes:
                lays.append((coord, mapping))
        cached = self.cached
        if cached:
            for line in [k for k, r in cached.items() if coord in r.hexes]:
                self.pending[line] = (cached.pop(line), [(coord, mapping)])

    def placed(self, coord: str, location: int, owner: Owner, full: tuple[Owner, ...]) -> None:
        """``owner``'s marker went on ``location`` of ``coord`` (``full``: the circle's markers
        if it is now full, else empty).  Its own cached reach waits to gain the start (a
        line's markers never block it, IX.2: its reach only grows).  Another's changes only if
        the circle is now full without a marker of its own, blocked for it (IX.2), and its
        walk passed through it (a marker matters to a walk only by blocking it); then it is
        dropped, as is one waiting for a lay on ``coord``."""
        key = (coord, location)
        cached, pending = self.cached, self.pending
        mine = cached.pop(owner, None)
        if full:
            for line in [k for k, r in cached.items() if key in r.expanded and k not in full]:
                del cached[line]
        if pending:
            for line in [k for k, (r, lays) in pending.items() if k != owner and (
                    (full and key in r.expanded and k not in full)
                    or any(c == coord for c, _ in lays))]:
                del pending[line]
        if mine is not None:
            pending[owner] = (mine, [])


def _of(value: Reach | tuple[Reach, list[Lay]]) -> Reach:
    return value if isinstance(value, Reach) else value[0]
