"""The screens of ``tramways duel trambahn``: the table, the numbered choices and the score
pad, drawn with rich from the human player's view only, each line at most 80 columns.

The choices are grouped by the turn's five steps (Course of Play 1-5), each with what it
will do (the scoring previews of :mod:`tramways.trambahn.preview`).  The game loop that shows
them: :mod:`tramways.cli.duel`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.text import Text

from tramways.core import Action
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import COLOUR_NAMES, COLOURS, ROW_SIZE, TRAMS
from tramways.trambahn.preview import column_score, passenger_preview, station_preview
from tramways.trambahn.view_types import ColumnView, TrambahnView

STYLE = {"b": "bold blue", "r": "bold red", "g": "bold green", "y": "bold yellow"}
CONDUCTOR_STYLE = "bold magenta"
WIDTH = 80
HEIGHT = 24
"""The terminal the duel is drawn for: every screen fits it (the prompt is the last line)."""
def card_text(face: str) -> Text:
    if face == "C":
        return Text("C", style=CONDUCTOR_STYLE)
    return Text(face, style=STYLE[face[-1]])


def cards_text(faces: Sequence[str], sep: str = " ") -> Text:
    out = Text()
    for i, f in enumerate(faces):
        if i:
            out.append(sep)
        out.append_text(card_text(f))
    return out


def flow(label: str, cells: list[Text], width: int = WIDTH, indent: int = 0) -> list[Text]:
    """``label`` then the cells, two spaces apart, wrapped into lines of at most ``width``."""
    lines: list[Text] = []
    line = Text(label, style="bold")
    pad = indent or len(label)
    line.pad_right(pad - len(label))
    empty = True
    for cell in cells:
        if not empty and line.cell_len + 2 + cell.cell_len > width:
            lines.append(line)
            line = Text(" " * pad)
            empty = True
        if not empty:
            line.append("  ")
        line.append_text(cell)
        empty = False
    lines.append(line)
    for one in lines:
        one.truncate(width, overflow="ellipsis")
    return lines


# -- the picture of the table ------------------------------------------------------------------


def _seat(view: TrambahnView) -> int:
    """The seat the view belongs to (the human's: a duel never shows a spectator's view)."""
    assert view.you is not None
    return view.you


def column_cell(index: int, col: ColumnView) -> Text:
    """One column: ``2:red 3-5-9+1C steam 4x3=12 5/8`` (ET once its Extra Tour scored)."""
    colour = col.colour
    out = Text(f"{index + 1}:")
    out.append(COLOUR_NAMES[colour], style=STYLE[colour])
    out.append(" " + "-".join(s[:-1] for s in col.stations), style=STYLE[colour])
    if col.conductors:
        out.append(f"+{len(col.conductors)}C", style=CONDUCTOR_STYLE)
    if col.tram:
        out.append(f" {col.tram} {col.points}x{col.multiplier}={column_score(col)}")
    else:
        out.append(" no tram!", style="bold red")
        out.append(f" {col.points}pts")
    size = len(col.stations) + len(col.conductors)
    out.append(" ET" if col.extra_tour else f" {size}/8")
    return out


def table_lines(view: TrambahnView, labels: list[str], width: int = WIDTH) -> list[Text]:
    """The whole table as the human player sees it, in short lines."""
    me = _seat(view)
    head = Text()
    if view.over:
        head.append("Game over", style="bold")
    else:
        who = "your turn" if view.turn == me else f"{labels[view.turn]} to play"
        head.append(f"Turn {view.turn_number}: ", style="bold")
        head.append(who, style="bold cyan")
        head.append(f", step {view.step} ({_STEP_NAMES[view.step - 1]})")
    head.append(f" · scorings {view.regular_scorings}/10 · deck {view.deck_size}"
                f" · discard {view.discard_size}")
    players = Text()
    for p in (me, 1 - me):
        if p != me:
            players.append("  |  ")
        players.append(labels[p], style="bold cyan" if p == me else "bold")
        players.append(f" {view.scores[p]} pts · money {view.money_sizes[p]}"
                       f" · hand {view.hand_sizes[p]}")
    rows: list[Text] = []
    half = width // 2
    for pair in (COLOURS[:2], COLOURS[2:]):
        line = Text()
        for c in pair:
            row = view.rows[c]
            cell = Text(f"{COLOUR_NAMES[c]:<7}", style=STYLE[c])
            cell.append("#" * len(row) + "." * (ROW_SIZE - len(row)), style=STYLE[c])
            cell.append(" ")
            cell.append_text(cards_text(row))
            cell.pad_right(half - cell.cell_len)
            line.append_text(cell)
        rows.append(line)
    trams = Text("Trams: ")
    kinds = list(dict.fromkeys(view.display))
    for i, kind in enumerate(kinds):
        value, cost, _ = TRAMS[kind]
        n = view.display.count(kind)
        trams.append(("  " if i else "") + (f"{n} " if n > 1 else "")
                     + f"{kind} x{value} for {cost}")
    if not view.display:
        trams.append("none")
    trams.append(f"   ({len(view.stack)} more in the stack)")
    lines = [head, players, *rows, trams]
    pad = max(len(labels[0]), len(labels[1])) + 2
    for p in (1 - me, me):
        cells = [column_cell(i, c) for i, c in enumerate(view.columns[p])]
        lines.extend(flow(f"{labels[p]}:", cells or [Text("no columns")], width, pad))
    if view.hand is not None:
        hand = Text("Your hand: ", style="bold")
        hand.append_text(cards_text(view.hand, "  "))
        lines.append(hand)
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return lines


def score_pad(view: TrambahnView, labels: list[str]) -> list[Text]:
    """The final scores laid out like the scoring pad (10 scorings, Extra Tours, total)."""
    regular = [h for h in view.history if h.kind == "regular"]
    extra = [sum(h.points[p] for h in view.history if h.kind == "extra")
             for p in (0, 1)]
    name = max(len(labels[0]), len(labels[1]), 8) + 1
    head = Text(f"{'scoring':<{name}}", style="bold")
    for h in regular:
        head.append(f"{str(h.number) + h.colour:>4}", style=STYLE[h.colour])
    head.append(f"{'extra':>6}{'total':>6}{'money':>6}", style="bold")
    lines = [head]
    for p in (0, 1):
        line = Text(f"{labels[p]:<{name}}")
        for h in regular:
            line.append(f"{h.points[p]:>4}")
        line.append(f"{extra[p]:>6}")
        line.append(f"{view.scores[p]:>6}", style="bold")
        line.append(f"{view.money_sizes[p]:>6}")
        lines.append(line)
    return lines


# -- choices -----------------------------------------------------------------------------------


def describe(action: Action, view: TrambahnView, labels: list[str] | None = None) -> Text:
    """A choice in a few characters, with what it will do (scoring previews from
    :mod:`tramways.trambahn.preview`)."""
    me = _seat(view)
    cols = view.columns[me]
    out = Text()
    if isinstance(action, Passenger):
        out.append_text(card_text(action.card))
        if action.card == "C":
            out.append(">" + COLOUR_NAMES[action.row], style=STYLE[action.row])
        seen = passenger_preview(view, action)
        if seen["scoring"]:
            gain = seen["points"]
            out.append(f" SCORES you+{gain[me]} bot+{gain[1 - me]}", style="bold")
            if seen["ends_game"]:
                out.append(" END", style="bold")
        elif seen["count"] == ROW_SIZE - 1:
            out.append(" 3/4!", style="bold yellow")
    elif isinstance(action, Station):
        out.append_text(card_text(action.card))
        out.append(" new" if action.column is None else f">{action.column + 1}")
        tour = station_preview(view, action)
        if tour["extra_tour"]:
            out.append(f" ET+{tour['points']}", style="bold")
    elif isinstance(action, Income):
        out.append_text(card_text(action.card))
    elif isinstance(action, Buy):
        out.append(f"{action.kind}>{action.column + 1}")
    elif isinstance(action, EndTurn):
        out.append("end turn")
        bare = sum(1 for c in cols if c.tram is None)
        if bare:
            out.append(f" ({bare} column(s) without a tram go to money)", style="red")
    return out


_KIND_ORDER = {Passenger: 0, Station: 1, Income: 2, Buy: 3, EndTurn: 4}
_STEP_LABELS = ("Passengers", "Stations", "Income", "Buy trams", "End")
_STEP_NAMES = ("passengers", "stations", "income", "trams", "end")


def choice_order(action: Action) -> tuple[Any, ...]:
    """Choices by step, then colour and value of the card, then column."""
    card = getattr(action, "card", "")
    if card == "C" or not card:
        card_key: tuple[int, int] = (9, 0)
    else:
        card_key = (COLOURS.index(card[-1]), int(card[:-1]))
    column = getattr(action, "column", None)
    return (_KIND_ORDER[type(action)], getattr(action, "kind", ""), card_key,
            getattr(action, "row", ""), -1 if column is None else column)


def choice_lines(actions: list[Action], view: TrambahnView,
                 width: int = WIDTH) -> list[Text]:
    """The numbered choices (in ``choice_order``), one group of lines per step."""
    groups: dict[int, list[Text]] = {}
    for i, a in enumerate(actions):
        cell = Text(f"{i + 1}", style="bold cyan")
        cell.append(" ")
        cell.append_text(describe(a, view))
        groups.setdefault(_KIND_ORDER[type(a)], []).append(cell)
    pad = max(len(s) for s in _STEP_LABELS) + 1
    lines: list[Text] = []
    for kind, cells in sorted(groups.items()):
        lines.extend(flow(_STEP_LABELS[kind], cells, width, pad))
    return lines


_SHORTER = (
    (re.compile(r"places? (\S+) as a passenger in the (\w+) row \((\d)/4\)"),
     r"passenger \1 (\2 \3/4)"),
    (re.compile(r"buys? an? (\w+) tram for (\d+) and assigns? it to column (\d+)"),
     r"\1 tram for \2 on column \3"),
    (re.compile(r"adds? a card to the money pile \((\d+)\)"), r"income (money \1)"),
)


def shorter(line: str) -> str:
    """A log line in fewer words, for the few lines of log an 80x24 screen has room for."""
    for pattern, repl in _SHORTER:
        line = pattern.sub(repl, line)
    return line
