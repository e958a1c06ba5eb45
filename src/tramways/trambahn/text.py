"""Plain-text picture of a Trambahn view (used by ``tramways show``)."""

from __future__ import annotations

from tramways.trambahn.cards import COLOUR_NAMES, COLOURS, ROW_SIZE, TRAMS
from tramways.trambahn.view_types import ColumnView, TrambahnView

STEP_NAMES = {1: "passengers", 2: "stations", 3: "income", 4: "buy trams"}


def column_text(col: ColumnView) -> str:
    """``red 2-5-7 +C  steam x3  (4 pts)``."""
    stations = "-".join(s[:-1] for s in col.stations)
    cond = f" +{len(col.conductors)}C" if col.conductors else ""
    tram = f"{col.tram} x{col.multiplier}" if col.tram else "no tram"
    tour = ", extra tour done" if col.extra_tour else ""
    size = len(col.stations) + len(col.conductors)
    return (
        f"{COLOUR_NAMES[col.colour]:<6} {stations}{cond}  [{size}/8]  {tram}  "
        f"({col.points} pts{tour})"
    )


def render(view: TrambahnView) -> str:
    names = view.names
    lines = []
    if view.result is not None:
        res = view.result
        w = res.winner
        lines.append(
            f"Game over ({view.end_reason}): {names[0]} {res.scores[0]}, "
            f"{names[1]} {res.scores[1]} - "
            + ("a draw" if w is None else f"winner: {names[w]}")
        )
    else:
        lines.append(
            f"Turn {view.turn_number}: {names[view.turn]} (P{view.turn + 1}) to play, "
            f"step {view.step} ({STEP_NAMES[view.step]}), "
            f"{view.passengers_placed} passenger(s) placed"
        )
    lines.append(
        f"Scorings {view.regular_scorings}/10   draw pile {view.deck_size}   "
        f"discard {view.discard_size}   reshuffles {view.reshuffles}"
    )
    lines.append("Passenger rows:")
    for c in COLOURS:
        row = view.rows[c]
        lines.append(f"  {COLOUR_NAMES[c]:<6} {' '.join(row) or '-'}  ({len(row)}/{ROW_SIZE})")
    display = ", ".join(f"{k} x{TRAMS[k][0]} ({TRAMS[k][1]})" for k in view.display) or "empty"
    lines.append(f"Tram display: {display}   stack {len(view.stack)}")
    for p in (0, 1):
        lines.append(
            f"P{p + 1} {names[p]}: score {view.scores[p]}, money {view.money_sizes[p]}, "
            f"hand {view.hand_sizes[p]}"
        )
        for i, col in enumerate(view.columns[p]):
            lines.append(f"  {i + 1}. {column_text(col)}")
    if view.hand is not None and view.you is not None:
        lines.append(f"Your hand (P{view.you + 1}): {' '.join(view.hand)}")
    return "\n".join(lines)
