"""Keeping old track when a tile goes down (IX.4, IX.5).

A new tile (or the first tile on a printed hex) must keep every existing track and revenue
location: each old halt or interchange becomes a new location of the same kind, and every old
path becomes a new path of the same track type between the corresponding ends. The result is the
*location map* (old id -> new id) along which station markers move (IX.4: "in the same
orientation"; IX.5: transferred to the newly laid tile).

Special cases, all from the rules or the data:

* a printed ``stadtbahn_planned`` route is kept by dotted ``stadtbahn`` track (IX.4);
* a printed edge-to-edge path may be kept through a location (edge - location - edge);
* a ``placeholder`` (the empty space of an untiled inner-city or station hex) is not a revenue
  location: its arrows only have to be kept as track of the same type at the same edges;
* two interchanges may merge into one only on OO tiles (the brown OO tile L17 has a single
  2-slot interchange replacing both green circles, IX.5) and only if the new one has room for
  both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from tramways.g1840.data import tiles
from tramways.g1840.model import End, LocationDef, PathDef

LocationMap = tuple[tuple[int, int], ...]

_KEPT_AS = {"stadtbahn_planned": "stadtbahn"}


def _track_kept(old_track: str) -> str:
    return _KEPT_AS.get(old_track, old_track)


def _end_key(end: End) -> tuple[str, int]:
    if end.edge is not None:
        return ("e", end.edge)
    assert end.location is not None
    return ("l", end.location)


def edge_tracks(paths: Sequence[PathDef]) -> frozenset[tuple[int, str]]:
    """Each ``(edge, track type)`` the paths have track at."""
    return frozenset([(e, p.track) for p in paths for e in p.edges])


def kept_edge_tracks(old_paths: Sequence[PathDef]) -> frozenset[tuple[int, str]]:
    """Each ``(edge, track type)`` a new tile must have track at to keep ``old_paths`` (IX.4,
    IX.5; planned Stadtbahn track is kept as Stadtbahn track): a map keeping the old track
    exists only if these are among the new tile's :func:`edge_tracks`."""
    return frozenset([(e, _track_kept(p.track)) for p in old_paths for e in p.edges])


@cache
def _tile_edge_tracks(tile_id: str) -> tuple[frozenset[tuple[int, str]],
                                             tuple[frozenset[tuple[int, str]], ...]]:
    """The tile's :func:`kept_edge_tracks` at rotation 0 and its :func:`edge_tracks` per
    rotation."""
    tile = tiles()[tile_id]
    return (kept_edge_tracks(tile.paths_at(0)),
            tuple([edge_tracks(tile.paths_at(rotation)) for rotation in range(6)]))


def edges_kept(old_id: str, new_id: str, turn: int) -> bool:
    """Whether tile ``new_id`` turned by ``turn`` has track of the kept type at every edge
    where ``old_id`` has track (IX.5): no location map keeps the old track otherwise."""
    return _tile_edge_tracks(old_id)[0] <= _tile_edge_tracks(new_id)[1][turn]


def match_locations(
    old_paths: Sequence[PathDef],
    old_locations: Sequence[LocationDef],
    new_paths: Sequence[PathDef],
    new_locations: Sequence[LocationDef],
    *,
    merge: bool = False,
) -> LocationMap | None:
    """The location map under which the new track keeps all old track, or ``None``.

    ``merge`` allows several old interchanges to become one new interchange (OO tiles only).
    The first valid map in location-id order is returned.
    """
    real_old = [loc for loc in old_locations if loc.kind != "placeholder"]
    placeholders = {loc.id for loc in old_locations if loc.kind == "placeholder"}
    candidates: list[list[LocationDef]] = []
    for loc in real_old:
        same_kind = [new for new in new_locations if new.kind == loc.kind]
        if not same_kind:
            return None
        candidates.append(same_kind)
    if not old_paths:  # no old track to keep: the first map the capacities allow (IX.4)
        if not real_old:
            return ()
        if len(real_old) == 1:  # one location fits any new one of its kind
            return ((real_old[0].id, candidates[0][0].id),)
        for choice in product(*candidates):
            if _capacity_ok(real_old, choice, merge):
                return tuple(sorted([(old.id, new.id)
                                     for old, new in zip(real_old, choice, strict=True)]))
        return None

    new_edges = edge_tracks(new_paths)
    if not kept_edge_tracks(old_paths) <= new_edges:
        return None  # an old edge loses its track, under any map (what _path_kept checks)
    new_pairs: set[tuple[frozenset[tuple[str, int]], str]] = set()
    through: dict[tuple[int, str], set[int]] = {}
    for p in new_paths:
        ka, kb = _end_key(p.a), _end_key(p.b)
        new_pairs.add((frozenset((ka, kb)), p.track))
        for edge_end, loc_end in ((ka, kb), (kb, ka)):
            if edge_end[0] == "e" and loc_end[0] == "l":
                through.setdefault((loc_end[1], p.track), set()).add(edge_end[1])

    for choice in product(*candidates):
        mapping = {old.id: new.id for old, new in zip(real_old, choice, strict=True)}
        if not _capacity_ok(real_old, choice, merge):
            continue
        if all(
            _path_kept(p, mapping, placeholders, new_pairs, through, new_edges)
            for p in old_paths
        ):
            return tuple(sorted(mapping.items()))
    return None


def _capacity_ok(
    old: Sequence[LocationDef], new: Sequence[LocationDef], merge: bool
) -> bool:
    used: dict[int, list[LocationDef]] = {}
    for o, n in zip(old, new, strict=True):
        used.setdefault(n.id, []).append(o)
    new_by_id = {n.id: n for n in new}
    for new_id, olds in used.items():
        if len(olds) > 1:
            if not merge or any(o.kind != "interchange" for o in olds):
                return False
            if sum(o.slots for o in olds) > new_by_id[new_id].slots:
                return False
    return True


def _path_kept(
    path: PathDef,
    mapping: dict[int, int],
    placeholders: set[int],
    new_pairs: set[tuple[frozenset[tuple[str, int]], str]],
    through: dict[tuple[int, str], set[int]],
    edge_tracks: frozenset[tuple[int, str]],
) -> bool:
    track = _track_kept(path.track)
    ends = []
    for end in (path.a, path.b):
        if end.location is not None and end.location in placeholders:
            # An arrow into a placeholder: keep track of this type at the other end's edge.
            other = path.b if end is path.a else path.a
            return other.edge is None or (other.edge, track) in edge_tracks
        key = _end_key(end)
        if key[0] == "l":
            key = ("l", mapping[key[1]])
        ends.append(key)
    if (frozenset(ends), track) in new_pairs:
        return True
    if ends[0][0] == "e" and ends[1][0] == "e":
        wanted = {ends[0][1], ends[1][1]}
        return any(
            wanted <= edges for (_, t), edges in through.items() if t == track
        )
    return False
