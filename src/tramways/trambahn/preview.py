"""What an action would score, computed from a player's view alone (for tables and bots).

``preview(view, action)`` answers the question a player asks before clicking: does this
passenger fill its row and trigger a scoring (Step 1, T-R-2), and what would each player
score; does this station make a column's 8th card and trigger its Extra Tour (T-R-3)?  It
reads only the view, so a page can show it without any hidden card; tests check it against
the engine's own scoring on a copy of the real state.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from tramways.core import Action
from tramways.trambahn.actions import Passenger, Station
from tramways.trambahn.cards import (
    CONDUCTOR,
    EXTRA_TOUR_SIZE,
    REGULAR_SCORINGS,
    ROW_SIZE,
    face_points,
)
from tramways.trambahn.view_types import ColumnView, TrambahnView


def column_score(col: ColumnView) -> int:
    """A column view's score now: victory points x tram value (0 without a tram, T-R-3)."""
    return col.points * col.multiplier


class PassengerPreview(TypedDict):
    """What a passenger does (Step 1): the row's ``count`` after it, whether it is the 4th and
    ``scoring`` (T-R-2), the ``points`` each player (0, 1) would score then, and whether that
    scoring ``ends_game`` (T-R-4).  A plain dict at run time (a page's template reads it)."""

    kind: Literal["passenger"]
    row: str
    count: int
    scoring: bool
    points: list[int]
    ends_game: bool


class StationPreview(TypedDict):
    """What a station does (Step 2): the ``column``'s ``size`` after it (1: a new column) and,
    on its 8th card, its ``extra_tour`` and the ``points`` it scores (T-R-3)."""

    kind: Literal["station"]
    column: int | None
    size: int
    extra_tour: bool
    points: int


Preview = PassengerPreview | StationPreview


def passenger_preview(view: TrambahnView, action: Passenger) -> PassengerPreview:
    """The row's count after the passenger; on its 4th, the scoring it triggers (T-R-2).

    ``points`` is what each player (0, 1) would score: all their columns of the row's colour,
    points x tram value.  ``ends_game`` is true when this would be the 10th regular scoring
    (T-R-4).
    """
    count = len(view.rows[action.row]) + 1
    out: PassengerPreview = {
        "kind": "passenger",
        "row": action.row,
        "count": count,
        "scoring": count >= ROW_SIZE,
        "points": [0, 0],
        "ends_game": False,
    }
    if out["scoring"]:
        out["points"] = [
            sum(column_score(c) for c in cols if c.colour == action.row)
            for cols in view.columns
        ]
        out["ends_game"] = view.regular_scorings + 1 >= REGULAR_SCORINGS
    return out


def station_preview(view: TrambahnView, action: Station) -> StationPreview:
    """The column's size after the card; on its 8th card, the Extra Tour's points (T-R-3)."""
    out: StationPreview = {
        "kind": "station",
        "column": action.column,
        "size": 1,
        "extra_tour": False,
        "points": 0,
    }
    if action.column is None:
        return out
    col = view.columns[action.player][action.column]
    size = len(col.stations) + len(col.conductors) + 1
    out["size"] = size
    if size == EXTRA_TOUR_SIZE and not col.extra_tour:
        out["extra_tour"] = True
        gained = 0 if action.card == CONDUCTOR else face_points(action.card)
        out["points"] = (col.points + gained) * col.multiplier
    return out


def preview(view: TrambahnView, action: Action) -> Preview | None:
    """The preview of a passenger or station action; ``None`` for other actions."""
    if isinstance(action, Passenger):
        return passenger_preview(view, action)
    if isinstance(action, Station):
        return station_preview(view, action)
    return None
