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

A reach is kept per hex as small integer masks (:class:`Reach`: one int per hex for the edges
its border is reached at, the sides entered, the locations reached and those expanded), so a
walk adds bits instead of building ``(coord, edge)`` pairs, a carry copies one dict of ints and
changes only the laid hexes' ints, and the tile lay listing keys each hex on one int.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tramways.g1840.hexgrid import HexTrack
from tramways.g1840.model import FrozenDict, Owner

Step = tuple[int | None, int | None, bool]
Tables = tuple[Mapping[str, tuple[str | None, ...]], Mapping[str, HexTrack],
               Mapping[str, Mapping[int, tuple[Owner, ...]]]]
"""A board's neighbour table, tram track by hex and markers by hex: all a walk reads."""

_EMPTY: Mapping[int, tuple[Owner, ...]] = FrozenDict()


E0, N0, L0, X0 = 0, 6, 12, 20
"""Where each part of a hex's reach bits starts (:attr:`Reach.bits`): the edges its border is
reached at (6 bits), the sides the walk entered it through (6), the locations reached (8) and
the locations the walk went on from (8)."""

EDGE_BITS = 0x3F
LOCATION_BITS = 0xFF << L0
KEY_BITS = EDGE_BITS | LOCATION_BITS
"""The part of a hex's bits a comparison (and the tile lay memo) reads: edges and locations."""


_PARTS: dict[str, tuple[int, int]] = {"edges": (E0, EDGE_BITS), "entered": (N0, EDGE_BITS),
                                      "locations": (L0, 0xFF), "expanded": (X0, 0xFF)}
"""Each part of a hex's bits: where it starts and its mask."""


def _members(width: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(i for i in range(width) if mask >> i & 1) for mask in range(1 << width))


MEMBERS: tuple[tuple[int, ...], ...] = _members(8)
"""The set bits of every 8-bit mask, in increasing order."""

EDGE_SETS: tuple[frozenset[int], ...] = tuple(frozenset(m) for m in MEMBERS[:64])
LOCATION_SETS: tuple[frozenset[int], ...] = tuple(frozenset(m) for m in MEMBERS)
"""A 6-bit edge mask and an 8-bit location mask as the frozenset of its members."""


class Reach:
    """What a line's station markers connect to over tram track (IX.2, IX.4, IX.6), kept per
    hex as small integer masks: ``bits`` maps every hex the reach touches to an int holding

    * bits ``E0``-: the edges its border is reached at (the line's track arrives there: both
      sides of each border its walk crosses or points across, also towards hexes it cannot
      enter, such as an empty inner-city or station hex, or an empty hex - where a new tile
      could connect);
    * bits ``L0``-: the locations reached on it (its own markers included; blocked
      interchanges and red terminal areas included: reached, not passed);
    * bits ``N0``- and ``X0``-: the walk's own state, the sides it entered the hex through and
      the locations it went on from, kept so that :func:`relaid` can carry it over a lay
      (they take no part in comparisons).

    ``bits`` is never changed once the reach is made (copies of a board share it). The
    pair-set views (``edges``, ``locations``, ``hexes``, ``expanded``, ``entered``: ``(coord,
    edge)`` and ``(coord, location)`` pairs) are built when first asked for; the listings read
    the masks (:meth:`edge_mask`, :meth:`has_location`)."""

    __slots__ = ("bits", "_sorted", "_views", "_hash")

    def __init__(self, bits: dict[str, int]) -> None:
        self.bits = bits
        self._sorted: tuple[str, ...] | None = None
        self._views: dict[str, frozenset[Any]] = {}
        self._hash: int | None = None

    def sorted_hexes(self) -> tuple[str, ...]:
        """The hexes the reach touches, sorted (the order tile lays are listed in)."""
        found = self._sorted
        if found is None:
            found = self._sorted = tuple(sorted(self.bits))
        return found

    def edge_mask(self, coord: str) -> int:
        """The edges of ``coord`` the line's track arrives at, as a 6-bit mask."""
        return self.bits.get(coord, 0) & EDGE_BITS

    def has_location(self, coord: str, location: int) -> bool:
        """Whether ``(coord, location)`` is reached."""
        return bool(self.bits.get(coord, 0) >> (L0 + location) & 1)

    def location_count(self) -> int:
        """How many locations are reached (``len(locations)``)."""
        return sum((b >> L0 & 0xFF).bit_count() for b in self.bits.values())

    def _pairs(self, name: str) -> frozenset[Any]:
        """The ``(coord, i)`` pairs of one part of the bits (:data:`_PARTS`), made once."""
        found = self._views.get(name)
        if found is None:
            shift, width = _PARTS[name]
            found = self._views[name] = frozenset(
                (coord, i) for coord, b in self.bits.items() for i in MEMBERS[b >> shift & width])
        return found

    @property
    def edges(self) -> frozenset[tuple[str, int]]:
        """Every ``(coord, edge)`` hex side the line's track arrives at."""
        return self._pairs("edges")

    @property
    def entered(self) -> frozenset[tuple[str, int]]:
        """Every ``(coord, edge)`` side the walk entered a hex through."""
        return self._pairs("entered")

    @property
    def locations(self) -> frozenset[tuple[str, int]]:
        """Every ``(coord, location)`` reached."""
        return self._pairs("locations")

    @property
    def expanded(self) -> frozenset[tuple[str, int]]:
        """Every ``(coord, location)`` the walk went on from."""
        return self._pairs("expanded")

    @property
    def hexes(self) -> frozenset[str]:
        """Every hex of ``edges`` or ``locations``."""
        found = self._views.get("hexes")
        if found is None:
            found = self._views["hexes"] = frozenset(self.bits)
        return found

    def by_hex(self) -> ByHex:
        """``(edges, locations)`` by hex: each hex -> the edges its border is reached at, and
        each hex -> the locations reached on it (only hexes with some)."""
        bits = self.bits
        return ({c: EDGE_SETS[b & EDGE_BITS] for c, b in bits.items() if b & EDGE_BITS},
                {c: LOCATION_SETS[b >> L0 & 0xFF] for c, b in bits.items() if b & LOCATION_BITS})

    def _key(self) -> dict[str, int]:
        return {c: b & KEY_BITS for c, b in self.bits.items()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reach):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            found = self._hash = hash(frozenset(self._key().items()))
        return found

    def __repr__(self) -> str:
        return (f"Reach(edges={sorted(self.edges)}, locations={sorted(self.locations)})")


ByHex = tuple[dict[str, frozenset[int]], dict[str, frozenset[int]]]
"""A reach's edges and locations, each grouped by hex (:meth:`Reach.by_hex`)."""


def walk(tables: Tables, starts: list[tuple[str, int]], line: Owner) -> Reach:
    """The walk from ``starts`` (the line's markers, or any locations) from scratch."""
    bits: dict[str, int] = {}
    for coord, loc in starts:
        bits[coord] = bits.get(coord, 0) | 1 << (L0 + loc)
    nodes = [(coord, loc, True) for coord, loc in starts]
    return _close(tables, line, bits, nodes, [])


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


def _renamed(mask: int, mapping: dict[int, int]) -> int:
    out = 0
    for loc in MEMBERS[mask]:
        out |= 1 << mapping.get(loc, loc)
    return out


def relaid(tables: Tables, old: Reach, lays: list[Lay], starts: list[tuple[str, int]],
           line: Owner) -> Reach:
    """``old`` carried over legal lays that keep the track (``lays``, in the order laid, maybe
    none; the tables already show the new tiles) and markers the line placed since: the old
    hexes' bits (a copy of the dict: only the laid hexes' ints change), the laid hexes'
    locations renamed, every location of a laid hex it had expanded, every side through which
    it had entered one and every marker of the line (``starts``, as starts: a terminal path
    may begin there) walked again, and whatever is new followed.  The line's own markers never
    block it (IX.2), so they only add to it."""
    bits = dict(old.bits)
    nodes: list[tuple[str, int, bool]] = []
    entries: list[tuple[str, int]] = []
    if lays:
        maps = _composed(lays)
        for coord in sorted(maps):
            b = bits.get(coord)
            if b is None:
                continue
            mapping = maps[coord]
            located, expanded = b >> L0 & 0xFF, b >> X0 & 0xFF
            if mapping:
                located, expanded = _renamed(located, mapping), _renamed(expanded, mapping)
            bits[coord] = b & (EDGE_BITS | EDGE_BITS << N0) | located << L0
            if expanded:
                nodes.extend([(coord, loc, False) for loc in MEMBERS[expanded]])
            entered = b >> N0 & EDGE_BITS
            if entered:
                entries.extend([(coord, edge) for edge in MEMBERS[entered]])
    for coord, loc in starts:
        bits[coord] = bits.get(coord, 0) & ~(1 << (X0 + loc)) | 1 << (L0 + loc)
        nodes.append((coord, loc, True))
    return _close(tables, line, bits, nodes, entries)


def floor_reaches(tables: Tables, known: Reach, laid: frozenset[str], coord: str,
                  location: int) -> bool:
    """True if a reach contained in the line's reach now (``known``, walked before legal lays
    on the hexes ``laid``, whose locations may have been renamed since) shows that the line
    reaches ``(coord, location)``: the location is in it, or its walk entered ``coord`` by a
    side from which the hex's track now leads straight to the location (one more step of the
    walk: a location entered is reached, IX.2).  False means "walk and see"."""
    b = known.bits.get(coord, 0)
    if coord not in laid and b >> (L0 + location) & 1:
        return True
    trk = tables[1][coord]
    if location in trk.placeholders:
        return False
    entered = b >> N0
    return any(entered >> edge & 1 and any(
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
    b = known.bits.get(coord, 0)
    if coord not in laid:
        expanded = b >> X0
        for loc, steps in trk.steps_by_location.items():
            if expanded >> loc & 1 and any(
                    out == edge and not terminal for out, _, terminal in steps):
                return True
    entered = b >> N0
    markers = tables[2].get(coord, _EMPTY)
    for side, steps in trk.steps_by_edge.items():
        if not entered >> side & 1:
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


def _close(tables: Tables, line: Owner, bits: dict[str, int],
           nodes: list[tuple[str, int, bool]], entries: list[tuple[str, int]]) -> Reach:
    """Expand ``nodes`` (locations: coord, location, is a start; already reached) and
    ``entries`` (hex sides to enter) until nothing new is found, in ``bits`` (every hex a
    node or an entry is on is already in it).  Leaving by an edge marks both sides of the
    border (and enters the neighbour); arriving at a location reaches it and expands it unless
    it is a terminal end, a placeholder (never entered) or an interchange blocked for the line
    (IX.2, R-LR-6)."""
    nb_table, trk_table, markers = tables

    def follow(coord: str, trk: HexTrack, steps: tuple[Step, ...], start: bool) -> None:
        for out, to, terminal in steps:
            if terminal and not start:
                continue
            if out is not None:
                bits[coord] |= 1 << out
                nb = nb_table[coord][out]
                if nb is not None:
                    back = (out + 3) % 6
                    there = bits.get(nb, 0)
                    if not there >> (N0 + back) & 1:  # entered implies the edge's bit
                        bits[nb] = there | (1 | 1 << N0) << back
                        entries.append((nb, back))
                continue
            if to is None or to in trk.placeholders:
                continue
            b = bits[coord] = bits[coord] | 1 << (L0 + to)
            if terminal or b >> (X0 + to) & 1:
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
            b = bits[coord]
            if b >> (X0 + loc) & 1:
                continue
            bits[coord] = b | 1 << (X0 + loc)
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
    return Reach(bits)


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
                             if k == owner or coord in _of(v).bits]:
                    del store[line]

    def carried(self, coord: str, mapping: Mapping[int, int] | None) -> None:
        """A legal lay on ``coord`` that keeps the track: the reaches that touched it wait to
        be carried over it (:func:`relaid`, on the tables of that moment: a later change
        elsewhere is walked as it is then); one already waiting is carried over it too."""
        mapping = None if mapping is None else dict(mapping)
        for old, lays in self.pending.values():
            if coord in old.bits:
                lays.append((coord, mapping))
        cached = self.cached
        if cached:
            for line in [k for k, r in cached.items() if coord in r.bits]:
                self.pending[line] = (cached.pop(line), [(coord, mapping)])

    def placed(self, coord: str, location: int, owner: Owner, full: tuple[Owner, ...]) -> None:
        """``owner``'s marker went on ``location`` of ``coord`` (``full``: the circle's markers
        if it is now full, else empty).  Its own cached reach waits to gain the start (a
        line's markers never block it, IX.2: its reach only grows).  Another's changes only if
        the circle is now full without a marker of its own, blocked for it (IX.2), and its
        walk passed through it (a marker matters to a walk only by blocking it); then it is
        dropped, as is one waiting for a lay on ``coord``."""
        bit = 1 << (X0 + location)
        cached, pending = self.cached, self.pending
        mine = cached.pop(owner, None)
        if full:
            for line in [k for k, r in cached.items()
                         if r.bits.get(coord, 0) & bit and k not in full]:
                del cached[line]
        if pending:
            for line in [k for k, (r, lays) in pending.items() if k != owner and (
                    (full and r.bits.get(coord, 0) & bit and k not in full)
                    or any(c == coord for c, _ in lays))]:
                del pending[line]
        if mine is not None:
            pending[owner] = (mine, [])


def _of(value: Reach | tuple[Reach, list[Lay]]) -> Reach:
    return value if isinstance(value, Reach) else value[0]
