"""A recorded 18xx.games run in our route notation (X-8, docs/interop.md, the mapping).

The site records a run as the hexes in running order and its ``nodes`` as ``HEX-K``: the
K-th revenue location of the tile on that hex in the site's numbering.  That numbering is ours
once placeholders (empty station spaces, which are no revenue location) are left out: the K-th
real location of the hex in our location-id order.  This rule turns all 44 recorded tram runs of
the 2-player oracle into routes that our routes module accepts with exactly the recorded revenue
(before maintenance, interpretations.md "Recorded runs").
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations, product
from typing import Any

from tramways.g1840.interop.actions18xx import Route18xx
from tramways.g1840.interop.errors import ImportError18xx

PRINTED_NODES: dict[str, dict[int, int]] = {"F8": {3: 1}, "F10": {3: 1}}
"""Printed hexes whose site definition interleaves paths between their two towns (Auf der
Schmelz): the site's node 3 is our location 1 (interpretations.md, "Recorded runs").  Every
other printed hex lists its locations in our order, placeholders included: the untiled purple
station (X-6) is node 0 and F24's Stadtbahn circles are nodes 1 and 2."""


def route_text(board: Any, route: Route18xx,
               valid: Callable[[str], bool] | None = None) -> str:
    """``"I27.0-H28.0-H30.0"`` for a recorded route, on our board as it was before the run.

    ``board`` is a :class:`tramways.g1840.board.Board` (its ``locations(hex)``).
    ``ImportError18xx`` if a node does not exist on our board.

    A hex the route visits twice (a loop that leaves a hex with several interchanges at one
    and comes back to another: fz2027_10_5p action 227, E17-F18-F16-E17-D16) has one stop per
    visit.  The site's node list is not always in running order (fz2027_5_6p action 541 lists
    J22-3 first, but J22-0 is where the route starts), so the hex's nodes are tried in every
    order over its visits and the first route ``valid`` accepts is taken.
    """
    nodes: dict[str, list[int]] = {}
    for node in route.nodes:
        hexname, _, number = node.rpartition("-")
        if not hexname or not number.isdigit():
            raise ImportError18xx(f"route of {route.train}: bad node {node!r}")
        nodes.setdefault(hexname, []).append(_location(board, route, hexname, int(number)))
    visits = {h: route.hexes.count(h) for h in nodes}
    unknown = sorted(h for h, n in visits.items() if n == 0)
    if unknown:
        raise ImportError18xx(
            f"route of {route.train}: nodes {unknown} are not on the route's hexes")
    twice = [h for h, n in visits.items() if n > 1]
    orders = [list(dict.fromkeys(permutations(nodes[h]))) for h in twice]
    first = ""
    for choice in product(*orders):
        queue = {h: list(nodes[h]) for h in nodes}
        queue.update({h: list(order) for h, order in zip(twice, choice, strict=True)})
        stops: list[str] = []
        for hexname in route.hexes:
            left = queue.get(hexname, [])
            if not left:
                continue
            # one stop per visit; a hex visited once takes all its nodes there
            take = 1 if visits[hexname] > 1 else len(left)
            stops.extend(f"{hexname}.{loc}" for loc in left[:take])
            queue[hexname] = left[take:]
        text = "-".join(stops)
        first = first or text
        if valid is None or not twice or valid(text):
            return text
    return first


def _location(board: Any, route: Route18xx, hexname: str, index: int) -> int:
    """Our location id of the site's node ``index`` on a hex."""
    if board.tile(hexname) is None:  # a printed hex: the site's part order
        real = [loc.id for loc in board.locations(hexname)]
        index = PRINTED_NODES.get(hexname, {}).get(index, index)
    else:  # a tile's revenue locations come first in the site's definition
        real = [loc.id for loc in board.locations(hexname) if loc.kind != "placeholder"]
    if index >= len(real):
        raise ImportError18xx(
            f"route of {route.train}: {hexname} has no revenue location {index} "
            f"(it has {len(real)})")
    return int(real[index])
