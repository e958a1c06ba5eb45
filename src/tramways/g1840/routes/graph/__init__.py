"""The search graph of tram routes, built from a :class:`~tramways.g1840.board.Board`.

Nodes are the board's revenue locations ("stops"); a *link* is a stretch of tram track from
one stop to the next that passes no other location (usually one hex border; through the red
connector hexes A23, K11, K17, K29 several).  Following track this way cannot reverse at a
junction or change track at a crossover (IX.2): a walk only ever continues along a path that
starts where the previous one ended.

Every link carries the *pieces of track* it uses as a bit mask: the border it crosses (the two
paths that meet there, and any other path of either tile touching that border, share that
piece: IX.2 "no piece of track twice").  Dotted Stadtbahn track is never followed (IX.7).

The graph has two layers:

* :class:`TrackGraph` depends on the tiles only (cached per board version);
* :class:`LineGraph` adds what one line sees: stop values in the phase (R-LR-7), its own
  markers, blocked interchanges (IX.7), the owned landmarks, and keeps only the stops its
  markers can reach.

The package: :mod:`.track` (the graph from scratch), :mod:`.incremental` (derived from the last
one), :mod:`.line` (one line's view). A claimed route is checked without a graph
(:mod:`tramways.g1840.routes.claimed`).
"""

from tramways.g1840.routes.graph.incremental import track_graph, track_pieces
from tramways.g1840.routes.graph.line import (
    LineGraph,
    build_line_graph,
    line_graph,
)
from tramways.g1840.routes.graph.track import (
    HALT,
    INTERCHANGE,
    STATION,
    TRAM,
    Link,
    PieceKey,
    TrackGraph,
    _Pieces,
    build_track_graph,
)

__all__ = ["HALT", "INTERCHANGE", "STATION", "TRAM", "LineGraph", "Link", "PieceKey",
           "TrackGraph", "_Pieces", "build_line_graph", "build_track_graph", "line_graph",
           "track_graph", "track_pieces"]
