"""The 1840 page's history: stepping by round through past
positions, and each player's worth after each Company Round.

A log line links to the position after the move that wrote it (the payload's ``log_at``);
from a past position (``?at=N``) the page steps by move and by round, the rounds' starts
read from the whole log of the game as it stands (:meth:`Backend.log_index`: no replay).

The worth after a Company Round is the players' ``value`` (XI / R-END-1) in the position
after its last move, read once through the history of past positions (replayed from its
nearest kept position, in the lane of the costly reads) and kept here by ``(game, line of
play, position)``: a past position never changes while its line of play stands (an undo
starts a new line, :mod:`tramways.server.history`), so each is read once per process.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from tramways.g1840.view_types import as_view1840
from tramways.server.positions import LogIndex
from tramways.server.web.backend import Backend
from tramways.server.web.g1840_log import RoundSteps, round_starts, round_steps
from tramways.server.web.g1840_stats import Worth, company_round_ends, worth
from tramways.server.web.g1840_table import line_chart
from tramways.server.web.payload import TablePayload

WORTH_KEPT = 4096
"""Samples of worth kept per process (one a game, line of play and Company Round)."""

_WORTH: OrderedDict[tuple[str, int, int], list[int]] = OrderedDict()
"""``(game, line of play, position)`` -> each player's value there (used on the event
loop only)."""


async def _values_at(b: Backend, gid: str, token: str | None, line: int,
                     positions: list[int]) -> dict[int, list[int]]:
    """Each player's value at each of ``positions`` (past ones of line of play ``line``)."""
    out: dict[int, list[int]] = {}
    for n in positions:
        key = (gid, line, n)
        if key not in _WORTH:
            reply = await b.state(gid, token, n)
            if not reply.ok:
                continue
            _WORTH[key] = [p.value for p in as_view1840(reply.data["view"]).players]
            while len(_WORTH) > WORTH_KEPT:
                _WORTH.popitem(last=False)
        _WORTH.move_to_end(key)
        out[n] = _WORTH[key]
    return out


async def worth_over_time(b: Backend, gid: str, token: str | None,
                          state: Mapping[str, Any]) -> Worth:
    """Each player's worth after each Company Round up to the position shown, and there."""
    payload = TablePayload.from_json(state)
    view = as_view1840(payload.view)
    n = payload.n
    ends = company_round_ends(round_starts(payload.log, payload.log_at), n, view.finished)
    line = payload.rev - payload.latest
    here = {n: [p.value for p in view.players]}
    values = {**await _values_at(b, gid, token, line, [s.n for s in ends if s.n != n]),
              **here}
    return worth(ends, values, view, n)


def worth_chart(table: Worth, say: Callable[[str], str], over: bool) -> str:
    """The worth table as a small line chart (server-side SVG, one line per player)."""
    labels = [s.label or (say("End") if over else say("Now")) for s in table.samples]
    series: dict[str, list[int | None]] = {
        name: list(values) for name, values in zip(table.names, table.values, strict=True)}
    return line_chart(series, labels, say("Wealth of each player after each Company Round"),
                      from_zero=False)


async def steps_from(b: Backend, gid: str, token: str | None, at: int) -> RoundSteps | None:
    """From past position ``at``: the previous and next round's starts in the game as it
    stands (``None`` when its log cannot be read)."""
    reply = await b.log_index(gid, token)
    if not reply.ok or not isinstance(reply.data, LogIndex):
        return None
    index: LogIndex = reply.data
    return round_steps(round_starts(index.lines, index.at), at)


async def history_context(b: Backend, gid: str, token: str | None, state: Mapping[str, Any],
                          at: int | None, say: Callable[[str], str]) -> dict[str, Any]:
    """What the 1840 page adds for its history: the round steps of a past position
    (``round_steps``), the worth table (``worth``) and its chart (``worth_chart``)."""
    table = await worth_over_time(b, gid, token, state)
    over = as_view1840(state["view"]).finished
    return {
        "round_steps": await steps_from(b, gid, token, at) if at is not None else None,
        "worth": table,
        "worth_chart": worth_chart(table, say, over) if len(table.samples) > 1 else "",
    }
