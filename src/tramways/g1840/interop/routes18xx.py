"""A recorded 18xx.games run in our route notation (X-8, PLAN.md section 3).

The site records a run as the hexes in running order and its ``nodes`` as ``HEX-K``: the
K-th revenue location of the tile on that hex in the site's numbering.  That numbering is ours
once placeholders (empty station spaces, which are no revenue location) are left out: the K-th
real location of the hex in our location-id order.  This rule turns all 44 recorded tram runs of
the 2-player oracle into routes that our routes module accepts with exactly the recorded revenue
(before maintenance, interpretations.md "Recorded runs").
"""

from __future__ import annotations

from typing import Any

from tramways.g1840.interop.actions18xx import Route18xx
from tramways.g1840.interop.errors import ImportError18xx

PRINTED_NODES: dict[str, dict[int, int]] = {"F8": {3: 1}, "F10": {3: 1}}
"""Printed hexes whose site definition interleaves paths between their two towns (Auf der
Schmelz): the site's node 3 is our location 1 (interpretations.md, "Recorded runs").  Every
other printed hex lists its locations in our order, placeholders included: the untiled purple
station (X-6) is node 0 and F24's Stadtbahn circles are nodes 1 and 2 (issue 10, items 4, 9)."""


def route_text(board: Any, route: Route18xx) -> str:
    """``"I27.0-H28.0-H30.0"`` for a recorded route, on our board as it was before the run.

    ``board`` is a :class:`tramways.g1840.board.Board` (its ``locations(hex)``).
    ``ImportError18xx`` if a node does not exist on our board.
    """
    nodes: dict[str, list[int]] = {}
    for node in route.nodes:
        hexname, _, number = node.rpartition("-")
        if not hexname or not number.isdigit():
            raise ImportError18xx(f"route of {route.train}: bad node {node!r}")
        nodes.setdefault(hexname, []).append(int(number))
    stops: list[str] = []
    for hexname in route.hexes:
        for index in nodes.pop(hexname, []):
            if board.tile(hexname) is None:  # a printed hex: the site's part order
                real = [loc.id for loc in board.locations(hexname)]
                index = PRINTED_NODES.get(hexname, {}).get(index, index)
            else:  # a tile's revenue locations come first in the site's definition
                real = [loc.id for loc in board.locations(hexname) if loc.kind != "placeholder"]
            if index >= len(real):
                raise ImportError18xx(
                    f"route of {route.train}: {hexname} has no revenue location {index} "
                    f"(it has {len(real)})")
            stops.append(f"{hexname}.{real[index]}")
    if nodes:
        raise ImportError18xx(
            f"route of {route.train}: nodes {sorted(nodes)} are not on the route's hexes")
    return "-".join(stops)
