"""The 1840 table: what the 1840 page shows, built from the API payload alone.

The payload carries the seat's ``view`` (all of 1840 is public) and the seat's legal notations;
everything here is derived from those two: the board (rebuilt from the view's tiles and markers
by :mod:`tramways.g1840.analysis` and drawn by :mod:`tramways.g1840.render`), the tables, and
the actions grouped the way a player looks for them.  Nothing is offered that is not a legal
notation of the seat, and every legal notation is offered exactly once (tested).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tramways.g1840.analysis import (
    after_lay,
    best_run,
    board_from_view,
    dividend_prices,
    lay_previews,
)
from tramways.g1840.board import Board
from tramways.g1840.entities import entities
from tramways.g1840.render import render_svg

LAY = re.compile(r"^(L\d+) lay (\S+) (\S+) r(\d)$")
PLACE = re.compile(r"^(L\d+) (station|remove) (\S+)\.(\d+)$")

PREVIEW_LIMIT = 60
"""Revenue previews are computed for at most this many lays of a turn (the router is exact;
a list longer than this shows the lays without a figure rather than a guess)."""


@dataclass
class Choice:
    """One group of legal moves: buttons (``options``), or one list to pick from."""

    kind: str          # what the group is (a key the template names in words)
    actor: str         # who acts: P1, WT, L7
    subject: str = ""  # what it is about (a private, a company, a line)
    options: list[tuple[str, str]] = field(default_factory=list)  # (notation, label)
    note: str = ""


def _phase(view: dict[str, Any]) -> str:
    return str(view["round_info"]["phase"])


def group_legal(legal: list[str], view: dict[str, Any]) -> list[Choice]:
    """The seat's legal notations (all but tile lays and station places), grouped."""
    groups: dict[tuple[str, str, str], Choice] = {}
    me = view.get("viewer")
    certs = view["players"][me]["certificates"] if me is not None else 0

    def add(kind: str, actor: str, subject: str, notation: str, label: str) -> None:
        key = (kind, actor, subject)
        if key not in groups:
            groups[key] = Choice(kind, actor, subject)
        groups[key].options.append((notation, label))

    for text in legal:
        if LAY.match(text) or PLACE.match(text):
            continue
        words = text.split()
        actor, verb, rest = words[0], words[1], words[2:]
        if verb in ("bid", "auction") and rest:
            subject = " ".join(rest[:-1]) or "-"
            add(verb, actor, subject, text, rest[-1])
        elif verb == "par":
            add("par", actor, rest[0], text, rest[1])
        elif verb == "sell":
            add("sell", actor, rest[0], text, rest[1])
        elif verb == "buy" and actor.startswith("P"):
            add("buy_share", actor, "", text, rest[0])
        elif verb == "buy" and actor.startswith("L"):
            add("buy_private", actor, "", text, " ".join(rest))
        elif verb == "buy":
            add("tram", actor, "", text, " ".join(rest))
        elif verb in ("scrap", "arrange"):
            add("tram", actor, "", text, text.split(" ", 1)[1])
        elif verb == "pay":
            add("dividend", actor, "", text, " ".join(rest))
        elif verb == "return":
            add("anytime", actor, "", text, rest[0])
        elif verb == "run":
            add("run", actor, "", text, " ".join(rest))
        else:
            add("simple", actor, "", text, " ".join(words[1:]))
    out = list(groups.values())
    for g in out:
        if g.kind == "buy_share":
            g.note = str(certs + 1)
        if g.kind == "dividend" and g.actor in view["market"]:
            amounts = [int(label) for _n, label in g.options if label.isdigit()]
            prices = dividend_prices(view, g.actor, amounts)
            now = view["companies"][g.actor]["price"] if g.actor in view["companies"] else None
            g.options = [(n, f"{label} → {prices[int(label)]}" if label.isdigit() else label)
                         for n, label in g.options]
            g.note = str(now) if now is not None else ""
    order = ["run", "simple", "bid", "par", "buy_share", "sell", "dividend", "tram", "auction",
             "buy_private", "anytime"]
    out.sort(key=lambda g: order.index(g.kind) if g.kind in order else len(order))
    return out


def _lays(legal: list[str]) -> dict[str, list[dict[str, Any]]]:
    by_hex: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for text in legal:
        m = LAY.match(text)
        if m:
            by_hex[m.group(2)].append({"notation": text, "tile": m.group(3),
                                       "rotation": int(m.group(4)), "line": m.group(1)})
    return dict(by_hex)


def _places(legal: list[str], view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Station places and removable markers by hex; a removal names the marker's owner
    (a Stadtbahn company, R-LR-5, or a line)."""
    owners: dict[str, str] = {}
    for sid, s in view["stadtbahn"].items():
        for place in s["markers"]:
            owners[place] = str(sid)
    for company in view["companies"].values():
        for line, places in company["markers"].items():
            for place in places:
                owners[place] = f"L{line}"
    by_hex: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for text in legal:
        m = PLACE.match(text)
        if m:
            place = f"{m.group(3)}.{m.group(4)}"
            by_hex[m.group(3)].append({"notation": text, "kind": m.group(2),
                                       "location": int(m.group(4)),
                                       "owner": owners.get(place, "")})
    return dict(by_hex)


def _tile_order(item: tuple[str, int]) -> tuple[int, str]:
    digits = "".join(ch for ch in item[0] if ch.isdigit())
    return (int(digits) if digits else 0, item[0])


def share_chart(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The share chart (X.1) as rows of spaces, each with its markers, top first."""
    rows = entities().market_rows
    stacks = view.get("market_stacks", {})
    out = []
    for r, row in enumerate(rows):
        out.append([{"price": price, "markers": list(stacks.get(f"{r},{c}", []))}
                    for c, price in enumerate(row)])
    return out


def board_svg(view: dict[str, Any], line: int | None = None,
              lay: tuple[str, str, int] | None = None, board: Board | None = None
              ) -> tuple[str, Any]:
    """The board as inline SVG (without the XML prolog), with ``line``'s best run drawn; with
    ``lay``, the board as it would be after that tile lay (the preview before confirming)."""
    board = board if board is not None else board_from_view(view)
    if lay is not None:
        board = after_lay(board, lay)
    run = None
    if line is not None:
        try:
            run = best_run(view, line, board)
        except (ValueError, KeyError):
            run = None
    routes = [(line, run)] if run is not None and line is not None else []
    svg = render_svg(board, phase=_phase(view), routes=routes)
    svg = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    return svg, run


def table_model(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the 1840 page shows, from the payload of ``GET /api/games/ID``."""
    view = state["view"]
    legal: list[str] = list(state.get("legal") or [])
    ent = entities()
    seat = state.get("seat")
    me = seat - 1 if seat is not None else None
    turn = view.get("turn") or {}
    line_turn = view["round_info"].get("line_turn") or None
    line = line_turn["line"] if line_turn and turn else None
    board = board_from_view(view)
    lays = _lays(legal)
    previews: dict[str, int | None] = {}
    flat = [(h, o["tile"], o["rotation"]) for h, opts in lays.items() for o in opts]
    if line is not None and flat and len(flat) <= PREVIEW_LIMIT:
        for (h, tile, rot), delta in lay_previews(view, int(line), flat, board).items():
            previews[f"L{line} lay {h} {tile} r{rot}"] = delta
    for opts in lays.values():
        for o in opts:
            o["delta"] = previews.get(o["notation"])
    runs_offered = any(t.split()[1] == "run" for t in legal if len(t.split()) > 1)
    svg, run = board_svg(view, int(line) if line is not None and runs_offered else None,
                         board=board)
    players = []
    limit = ent.certificate_limit.get(len(view["players"]))
    for p in view["players"]:
        players.append({**p, "number": p["seat"] + 1, "is_me": p["seat"] == me,
                        "to_act": turn.get("player") == p["seat"],
                        "limit": limit})
    order = [view["players"][s]["name"] for s in view["playing_order"]]
    supply = [(k, v) for k, v in sorted(board.supply.items(), key=_tile_order) if v > 0]
    return {
        "view": view,
        "n": state["n"],
        "over": bool(view["finished"]),
        "my_turn": me is not None and me + 1 in state.get("to_act", []),
        "spectator": me is None,
        "me": me,
        "turn": turn,
        "line_turn": line_turn,
        "players": players,
        "order": order,
        "companies": view["companies"],
        "stadtbahn": view["stadtbahn"],
        "chart": share_chart(view),
        "round_bar": [{"name": r.name, "type": r.type, "current": r.name == view["round"]}
                      for r in ent.round_bar],
        "choices": group_legal(legal, view),
        "lays": lays,
        "places": _places(legal, view),
        "run": run.to_json() if run is not None else None,
        "run_total": run.total if run is not None else None,
        "svg": svg,
        "supply": supply,
        "log": list(state.get("log") or [])[-60:][::-1],
        "legal_count": len(legal),
        "previews_skipped": len(flat) if line is not None and len(flat) > PREVIEW_LIMIT else 0,
        "preview_limit": PREVIEW_LIMIT,
        "result": view.get("result"),
        "undoable": state.get("undoable", 0),
        "record": state.get("record", False),
        "seats": state.get("seats") or [],
    }
