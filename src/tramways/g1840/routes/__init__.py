"""1840 tram routes: the proven best run of a line and the validation of claimed runs.

Rules IX.2 (route), IX.7 (operating trams), IX.8 (income) with rulings R-LR-6, R-LR-7,
R-LR-8 and, for records from 18xx.games, X-6.

* :class:`RouteContext` (board, line, phase, owned landmark hexes, maintenance, ruleset) and
  :class:`Run` (stops, parts, paths, hexes, landmark bonus, revenue, maintenance, total, text);
* :func:`best_route` - the proven best run (exact search, see :mod:`.search`), ``None`` if the
  line has no valid route (R-LR-8);
* :func:`check_route` - validate and score a claimed route, or ``IllegalAction`` naming the
  rule; :func:`format_route` / :func:`parse_route` - its text form ``"H30.0-H28.0-I27.0"``
  (``HEX.LOCATION`` stops; ``>EDGE`` after a stop where two tracks lead to the next one).

>>> ctx = RouteContext(board, line=4, phase="yellow", maintenance=0)   # doctest: +SKIP
>>> best_route(ctx).text                                                # doctest: +SKIP
'H30.0-H28.0-I27.0'
"""

from tramways.g1840.routes.graph import LineGraph, TrackGraph, line_graph, track_graph
from tramways.g1840.routes.model import LANDMARK_BONUS, RouteContext, Run, Stop
from tramways.g1840.routes.search import best_route
from tramways.g1840.routes.validate import check_route, format_route, make_run, parse_route

__all__ = [
    "LANDMARK_BONUS",
    "LineGraph",
    "RouteContext",
    "Run",
    "Stop",
    "TrackGraph",
    "best_route",
    "check_route",
    "format_route",
    "line_graph",
    "make_run",
    "parse_route",
    "track_graph",
]
