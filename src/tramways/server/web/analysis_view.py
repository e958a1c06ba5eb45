"""The end page's post-game analysis: the strong bot's evaluation of every
seat over the game as a server-drawn SVG chart, and each seat's three worst decisions with the
move played and the better one in the page's words, the loss, and a link to the position
(``?at=N``).  The analysis itself is :mod:`tramways.bots.analysis`, run in the background by
:mod:`tramways.server.analyses` when the game ends; until it is ready the page says so."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anyio.to_thread
from fastapi import Request

from tramways.bots.analysis import Analysis
from tramways.g1840.view_types import View1840
from tramways.server.analyses import Analyser
from tramways.server.web.g1840_log import log_line
from tramways.server.web.g1840_table import line_chart
from tramways.server.web.i18n import negotiate, translations
from tramways.server.web.table import log_entry
from tramways.trambahn.view_types import TrambahnView

MOVE_KINDS = ("passenger", "new_column", "station", "income", "buy", "end_turn")
"""Trambahn's log entries that say what a move was."""


def _words(game: str, lines: Sequence[str], names: Sequence[str],
           gettext: Callable[[str], str]) -> Any:
    """A move's engine log line as the page words it: Trambahn's log entry (the template's
    ``log_line`` macro), 1840's translated line."""
    line = lines[0] if lines else ""
    if game == "trambahn":  # the move's own line (ending a turn may first discard a column)
        entries = [log_entry(x, names) for x in lines] or [log_entry(line, names)]
        return next((e for e in entries if e["kind"] in MOVE_KINDS), entries[0])
    return {"kind": "text", "text": log_line(line, gettext)}


def analysis_model(game: str, data: dict[str, Any], names: Sequence[str],
                   gettext: Callable[[str], str]) -> dict[str, Any]:
    """The chart (SVG) and each seat's worst decisions of a finished game's analysis."""
    a = Analysis.from_json(data)
    series: dict[str, list[int | None]] = {
        names[s]: [round(p.values[s]) for p in a.curve] for s in range(a.seats)}
    chart = line_chart(series, [str(p.index) for p in a.curve],
                       gettext("The strong bot's evaluation of each player over the game"),
                       from_zero=False)
    seats = []
    for s in range(a.seats):
        worst = [{"at": d.index, "loss": round(d.loss),
                  "played": _words(game, d.played_log, names, gettext),
                  "best": _words(game, d.best_log, names, gettext)} for d in a.worst(s)]
        seats.append({"name": names[s], "worst": worst})
    return {"status": "done", "chart": chart, "seats": seats, "names": list(names),
            "decisions": len(a.decisions)}


async def analysis_context(request: Request, gid: str, view: View1840 | TrambahnView
                           ) -> dict[str, Any] | None:
    """The page's ``analysis`` of a finished game shown now (``view``: its latest position;
    None when the server analyses nothing): ``status`` pending, failed or done (then the
    chart and the worst decisions)."""
    if isinstance(view, View1840):
        game, names = "1840", [p.name for p in view.players]
    else:
        game, names = "trambahn", list(view.names)
    gettext = translations(negotiate(request.query_params.get("lang"),
                                     request.cookies.get("lang"),
                                     request.headers.get("accept-language"))).gettext
    analyser: Analyser | None = getattr(request.app.state, "analyser", None)
    if analyser is None or not analyser.enabled:
        return None
    status, data = await anyio.to_thread.run_sync(analyser.result, gid)
    if status != "done" or data is None:
        return {"status": status}
    return await anyio.to_thread.run_sync(
        lambda: analysis_model(game, data, names, gettext))
