"""The values the route code hands out: the context of a run and the run itself.

A :class:`RouteContext` says whose run is wanted and under which conditions (the line, the
phase of R-LR-7, the landmarks its tram company owns, the tram's maintenance and the ruleset);
a :class:`Run` is one valid route with its revenue worked out stop by stop (IX.8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from tramways.g1840.ruleset import RULES, Ruleset

if TYPE_CHECKING:
    from tramways.g1840.board import Board
    from tramways.g1840.model import End, PathDef

PHASES = ("yellow", "green", "brown", "grey")

LANDMARK_BONUS = 20
"""IV.2 / IX.8: +20 when a route runs to or through the stop of a landmark the company owns."""

Stop = tuple[str, int]
"""A revenue location on the board: ``(hex coordinate, location id)``."""


@dataclass(frozen=True, slots=True)
class RouteContext:
    """Everything a line's run depends on besides the board.

    ``landmark_hexes``: the landmark hexes of the privates owned by the line's tram company.
    ``maintenance``: the tram's figure from Table 7 (negative; ``+200`` for a purple tram), or
    ``None`` when the line has no tram.  ``ruleset``: the game's :class:`Ruleset` (X-6; its
    name, ``"rules"`` or ``"18xx.games"``, is accepted and read as that ruleset).
    """

    board: Board
    line: int
    phase: str
    landmark_hexes: frozenset[str] = frozenset()
    maintenance: int | None = 0
    ruleset: Ruleset = RULES

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r} (one of {', '.join(PHASES)})")
        if not isinstance(self.ruleset, Ruleset):
            object.__setattr__(self, "ruleset", Ruleset.named(self.ruleset))


@dataclass(frozen=True, slots=True)
class Run:
    """A valid route and what it earns (IX.7, IX.8).

    ``stops``: the revenue locations in running order; ``parts``: what each stop earns (a halt
    always, an interchange only with the line's marker, R-LR-7 values); ``paths``: every piece
    of track used, as ``(hex, path in absolute edges)`` in running order; ``hexes``: the hexes
    entered, in order, without repeats; ``landmark_bonus``: 20 per owned landmark hex on the
    route; ``revenue`` = sum of parts + bonus (the figure 18xx.games records); ``maintenance``:
    the tram's Table 7 figure (0 without a tram); ``total`` = revenue + maintenance.
    """

    stops: tuple[Stop, ...]
    parts: tuple[int, ...]
    paths: tuple[tuple[str, PathDef], ...]
    hexes: tuple[str, ...]
    landmark_bonus: int
    revenue: int
    maintenance: int
    total: int
    text: str = field(default="")

    def to_json(self) -> RunJSON:
        """A JSON-able description (for UIs and ``tramways routes --json``)."""

        def end(e: End) -> RunEndJSON:
            if e.edge is not None:
                return {"edge": e.edge}
            assert e.location is not None  # an End has exactly one of them
            return {"location": e.location}

        return {
            "route": self.text,
            "stops": [f"{c}.{loc}" for c, loc in self.stops],
            "parts": list(self.parts),
            "hexes": list(self.hexes),
            "paths": [{"hex": c, "a": end(p.a), "b": end(p.b)} for c, p in self.paths],
            "landmark_bonus": self.landmark_bonus,
            "revenue": self.revenue,
            "maintenance": self.maintenance,
            "total": self.total,
        }


class RunEndJSON(TypedDict, total=False):
    """One end of a piece of track run: a hex edge, or a location on the tile."""

    edge: int
    location: int


class RunPathJSON(TypedDict):
    """A piece of track run: its hex and its two ends."""

    hex: str
    a: RunEndJSON
    b: RunEndJSON


class RunJSON(TypedDict):
    """The JSON of a :class:`Run` (the pages' run table and ``tramways routes --json``)."""

    route: str
    stops: list[str]  # "hex.location", in running order
    parts: list[int]
    hexes: list[str]
    paths: list[RunPathJSON]
    landmark_bonus: int
    revenue: int
    maintenance: int
    total: int
