"""Exact tile-laying and station legality for 1840 (rules IX.4, IX.5, IX.6; R-LR-1..R-LR-11).

The rules engine asks these functions what a line may build; each ``legal_*`` function lists
every legal choice and each ``check_*`` function accepts one choice or raises
:class:`~tramways.core.errors.IllegalAction` naming the rule. A list and its check share one
evaluator, so they never disagree.

* :class:`BuildState` (protocol) / :class:`SimpleBuildState`: board, phase, ``has_operated``.
* Tiles (IX.4, IX.5): :func:`legal_tile_lays` (from per-hex memos, :mod:`.listing`; the same
  list as :func:`scratch_tile_lays`), :func:`check_tile_lay` -> :class:`TileLay`.
* Stadtbahn (IX.4, R-LR-1, R-LR-3): :func:`legal_stadtbahn_lays` (each once, with the dearest
  cost: :func:`distinct_stadtbahn_lays`), :func:`check_stadtbahn_lay`,
  :func:`bonus_action` and per bonus :func:`legal_bonus_lays` / :func:`check_bonus_lay`
  (extra yellow tile, green upgrade, red inner-city tile, purple station tile); the bonus
  marker is :func:`legal_station_placements` with ``free=True`` (R-LR-4).
* Stations (IX.6, R-LR-5): :func:`legal_station_placements`, :func:`check_station`,
  :func:`legal_marker_removals`, :func:`check_marker_removal`.
"""

from tramways.g1840.legality.context import BuildState, SimpleBuildState, colour_available
from tramways.g1840.legality.listing import legal_tile_lays
from tramways.g1840.legality.stadtbahn import (
    BONUS_ACTIONS,
    BONUS_PURPLE,
    BONUS_RED,
    BONUS_STATION,
    BONUS_UPGRADE,
    BONUS_YELLOW,
    bonus_action,
    check_bonus_lay,
    check_purple_lay,
    check_red_lay,
    check_stadtbahn_lay,
    distinct_stadtbahn_lays,
    legal_bonus_lays,
    legal_purple_lays,
    legal_red_lays,
    legal_stadtbahn_lays,
    stadtbahn_frontier,
)
from tramways.g1840.legality.stations import (
    MARKER_COSTS,
    PERMANENT_STADTBAHN_MARKERS,
    REMOVAL_COST,
    check_marker_removal,
    check_station,
    legal_marker_removals,
    legal_station_placements,
    next_marker_cost,
)
from tramways.g1840.legality.tiles import check_tile_lay, scratch_tile_lays
from tramways.g1840.legality.types import MarkerRemoval, StationPlacement, TileLay

__all__ = [
    "BONUS_ACTIONS",
    "BONUS_PURPLE",
    "BONUS_RED",
    "BONUS_STATION",
    "BONUS_UPGRADE",
    "BONUS_YELLOW",
    "MARKER_COSTS",
    "PERMANENT_STADTBAHN_MARKERS",
    "REMOVAL_COST",
    "BuildState",
    "MarkerRemoval",
    "SimpleBuildState",
    "StationPlacement",
    "TileLay",
    "bonus_action",
    "check_bonus_lay",
    "check_marker_removal",
    "check_purple_lay",
    "check_red_lay",
    "check_stadtbahn_lay",
    "check_station",
    "check_tile_lay",
    "colour_available",
    "distinct_stadtbahn_lays",
    "legal_bonus_lays",
    "legal_marker_removals",
    "legal_purple_lays",
    "legal_red_lays",
    "legal_stadtbahn_lays",
    "legal_station_placements",
    "legal_tile_lays",
    "next_marker_cost",
    "scratch_tile_lays",
    "stadtbahn_frontier",
]
