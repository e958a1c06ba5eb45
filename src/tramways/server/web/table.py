"""The Trambahn table as data for the templates, built from the API's state JSON only.

``table_model(state)`` takes what ``GET /api/games/{id}`` returns to one viewer (its
``view``, that seat's ``legal`` notations, ``n``, ``log``) and groups the legal actions by the
five steps of a turn (Course of Play 1-5), each with its score preview
(:mod:`tramways.trambahn.preview`).  Nothing here sees more than the viewer may: a spectator
gets no hand and no actions.  All words are left to the templates (gettext).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tramways.core import NotationError
from tramways.server.web.payload import TablePayload
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station, parse_action
from tramways.trambahn.cards import (
    COLOURS,
    CONDUCTOR,
    EXTRA_TOUR_SIZE,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAMS,
    face_points,
)
from tramways.trambahn.preview import column_score, preview
from tramways.trambahn.view_types import ColumnView, TrambahnView, as_trambahn_view


def card(face: str) -> dict[str, Any]:
    """A card face as the templates draw it: colour letter, value, victory points."""
    if face == CONDUCTOR:
        return {"face": face, "colour": "c", "value": "", "points": 0}
    return {"face": face, "colour": face[-1], "value": face[:-1], "points": face_points(face)}


def column(col: ColumnView, index: int) -> dict[str, Any]:
    size = len(col.stations) + len(col.conductors)
    return {
        "index": index,
        "number": index + 1,
        "colour": col.colour,
        "stations": [card(f) for f in col.stations],
        "conductors": len(col.conductors),
        "tram": col.tram,
        "multiplier": col.multiplier,
        "points": col.points,
        "score": column_score(col),
        "size": size,
        "extra_tour": col.extra_tour,
        "to_extra_tour": max(0, EXTRA_TOUR_SIZE - size),
        "complete": any(f[:-1] == "10" for f in col.stations),
    }


def _actions(view: TrambahnView, legal: list[str]) -> dict[str, Any]:
    """The legal notations grouped by step, each option with its preview."""
    passengers: list[dict[str, Any]] = []
    stations: dict[str, list[dict[str, Any]]] = {}
    income: list[dict[str, Any]] = []
    buys: dict[str, list[dict[str, Any]]] = {}
    end: str | None = None
    for text in legal:
        try:
            action = parse_action(text)
        except NotationError:
            continue
        if isinstance(action, Passenger):
            passengers.append(
                {"notation": text, "card": card(action.card), "row": action.row,
                 "preview": preview(view, action)}
            )
        elif isinstance(action, Station):
            stations.setdefault(action.card, []).append(
                {"notation": text, "column": None if action.column is None else action.column + 1,
                 "preview": preview(view, action)}
            )
        elif isinstance(action, Income):
            income.append({"notation": text, "card": card(action.card)})
        elif isinstance(action, Buy):
            buys.setdefault(action.kind, []).append(
                {"notation": text, "column": action.column + 1}
            )
        elif isinstance(action, EndTurn):
            end = text
    return {
        "passengers": passengers,
        "stations": [{"card": card(f), "options": opts} for f, opts in stations.items()],
        "income": income,
        "buys": [
            {"kind": k, "value": TRAMS[k][0], "cost": TRAMS[k][1], "options": opts}
            for k, opts in buys.items()
        ],
        "end": end,
        "any": bool(legal),
    }


def score_pad(view: TrambahnView) -> dict[str, Any]:
    """The scoring pad: the 10 regular scorings in order, Extra Tours, totals (Scoring)."""
    regular: list[dict[str, Any]] = [
        {"number": i + 1, "colour": None, "points": None} for i in range(REGULAR_SCORINGS)
    ]
    extra_points = [0, 0]
    extras: list[dict[str, Any]] = []
    for h in view.history:
        if h.kind == "regular" and h.number is not None:
            regular[h.number - 1] = {
                "number": h.number, "colour": h.colour, "points": list(h.points),
                "turn": h.turn,
            }
        else:
            extras.append(h.to_json())
            for p in (0, 1):
                extra_points[p] += h.points[p]
    return {
        "regular": regular,
        "extra": extra_points,
        "extras": extras,
        "totals": list(view.scores),
        "done": view.regular_scorings,
        "of": REGULAR_SCORINGS,
    }


def table_model(state: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the table template shows, from one viewer's state JSON."""
    payload = TablePayload.from_json(state)
    view = as_trambahn_view(payload.view)
    me = view.you
    # The viewer's side is drawn at the bottom; a spectator sees player 1 at the bottom.
    bottom = 0 if me is None else me
    top = 1 - bottom
    bots = {s.seat: s.bot for s in payload.seats}
    players: list[dict[str, Any]] = []
    for p in (0, 1):
        players.append(
            {
                "index": p,
                "number": p + 1,
                "name": view.names[p],
                "score": view.scores[p],
                "money": view.money_sizes[p],
                "hand_size": view.hand_sizes[p],
                "columns": [column(c, i) for i, c in enumerate(view.columns[p])],
                "to_act": not view.over and view.turn == p,
                "is_me": me == p,
                "bot": bots.get(p + 1),
            }
        )
    mine = players[bottom]
    return {
        "n": payload.n,
        "rev": payload.rev,
        "me": me,
        "spectator": me is None,
        "players": players,
        "top": players[top],
        "bottom": mine,
        "hand": [card(f) for f in view.hand] if view.hand is not None else None,
        "rows": [
            {"colour": c, "cards": [card(f) for f in view.rows[c]], "size": ROW_SIZE,
             "missing": ROW_SIZE - len(view.rows[c])}
            for c in COLOURS
        ],
        "display": [
            {"kind": k, "value": TRAMS[k][0], "cost": TRAMS[k][1]} for k in view.display
        ],
        "stack": len(view.stack),
        "stack_next": view.stack[0] if view.stack else None,
        "deck": view.deck_size,
        "discard": view.discard_size,
        "turn": view.turn,
        "turn_number": view.turn_number,
        "step": view.step,
        "passengers_placed": view.passengers_placed,
        "my_turn": me is not None and not view.over and view.turn == me,
        "actions": _actions(view, list(payload.legal)),
        "tramless": [i + 1 for i, c in enumerate(view.columns[bottom]) if c.tram is None],
        "pad": score_pad(view),
        "over": view.over,
        "result": view.result.to_json() if view.result is not None else None,
        "end_reason": view.end_reason,
        "log": [log_entry(line, view.names) for line in payload.log],
        "undoable": payload.undoable,
        "record": payload.record,
    }


# -- the log ----------------------------------------------------------------------------------

_P = r"P(?P<p>[12])"
LOG_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(pattern))
    for kind, pattern in [
        ("passenger", rf"{_P} places (?P<card>\S+) as a passenger in the (?P<colour>\w+) row \((?P<count>\d)/4\)"),
        ("scoring", r"Scoring (?P<k>\d+) \((?P<colour>\w+)\): P1 (?P<a>[\d+=]+), P2 (?P<b>[\d+=]+)"),
        ("game_over", r"Game over \((?P<reason>[^)]*)\): P1 (?P<a>\d+), P2 (?P<b>\d+) - (?:P(?P<w>[12]) wins|a draw)"),
        ("new_column", rf"{_P} starts column (?P<col>\d+) with (?P<card>\S+)"),
        ("station", rf"{_P} adds (?P<card>\S+) to column (?P<col>\d+)"),
        ("extra_tour", rf"Extra Tour: {_P} column (?P<col>\d+) scores (?P<pts>\d+) x (?P<mult>\d) = (?P<points>\d+)"),
        ("income", rf"{_P} adds a card to the money pile \((?P<count>\d+)\)"),
        ("buy", rf"{_P} buys a (?P<tram>\w+) tram for (?P<cost>\d+) and assigns it to column (?P<col>\d+)"),
        ("tramless", rf"{_P} moves a tram-less (?P<colour>\w+) column to money"),
        ("end_turn", rf"{_P} ends turn (?P<turn>\d+)"),
        ("discard_half", rf"{_P} discards (?P<k>\d+) of (?P<m>\d+) money cards"),
        ("reshuffle", r"Reshuffle (?P<k>\d+): (?P<count>\d+) cards form the new draw pile"),
        ("undo", r"(?P<name>.+) takes back (?P<count>\d+) move\(s\): (?P<moves>.*)"),
        ("resign", rf"{_P} resigns: the game ends"),
    ]
]
"""Every line the engine (:mod:`tramways.trambahn.rules`) and the server's undo write to the
log, so the pages can say it in the reader's language; a test checks whole games' logs."""

_COLOUR_LETTER = {"blue": "b", "red": "r", "green": "g", "yellow": "y"}


def log_entry(line: str, names: Sequence[str]) -> dict[str, Any]:
    """One log line as ``{"kind", ...fields}``; ``kind`` ``"text"`` for a line not known."""
    for kind, pattern in LOG_PATTERNS:
        m = pattern.fullmatch(line)
        if m is None:
            continue
        fields: dict[str, Any] = {k: v for k, v in m.groupdict().items() if v is not None}
        if "p" in fields:
            fields["name"] = names[int(fields["p"]) - 1]
        if "w" in fields:
            fields["winner"] = names[int(fields["w"]) - 1]
        if "colour" in fields:
            fields["colour"] = _COLOUR_LETTER.get(fields["colour"], fields["colour"])
        if "card" in fields:
            fields["card"] = card(fields["card"])
        for key in ("count", "col", "k", "m", "turn", "pts", "mult", "points", "cost"):
            if key in fields:
                fields[key] = int(fields[key])
        return {"kind": kind, **fields}
    return {"kind": "text", "text": line}
