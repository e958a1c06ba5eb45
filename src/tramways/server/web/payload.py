"""The game payload as the pages read it: typed once, where the page receives it.

The pages receive what ``GET /api/games/ID`` sends one viewer (the JSON of
:mod:`tramways.server.payloads`, described by :class:`~tramways.server.replies.GamePayload`).
:meth:`TablePayload.from_json` reads the parts a table page shows into attributes, so the page
models (:mod:`~tramways.server.web.g1840_table`, :mod:`~tramways.server.web.table`) never index
a dict; the viewer's ``view`` stays the JSON it came as, for the game's own door to make typed
(``as_view1840``, ``as_trambahn_view``).  A part a payload leaves out (a hand-made one in a
test) reads as empty: no seat, no legal move, no log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SeatInfo", "TablePayload"]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as every viewer sees it: its number (1-based), kind (``human``, ``bot:NAME``)
    and name."""

    seat: int
    kind: str
    name: str

    @property
    def bot(self) -> str | None:
        """The bot playing the seat (``bot:rule``), None for a human."""
        return self.kind if self.kind.startswith("bot:") else None


@dataclass(frozen=True, slots=True)
class TablePayload:
    """What a table page shows of one viewer's payload."""

    game: str
    n: int  # the moves of the position shown
    latest: int  # the moves played so far
    rev: int  # +1 for every move and every undo
    seat: int | None  # the viewer's seat, 1-based (None: a spectator)
    to_act: tuple[int, ...]  # 1-based
    legal: tuple[str, ...]  # the viewer's legal moves, in notation
    log: tuple[str, ...]
    log_at: tuple[int | None, ...] | None  # the position each log line links to (or None)
    seats: tuple[SeatInfo, ...]
    undoable: int
    record: bool  # whether the record may be downloaded now
    view: Mapping[str, Any]  # the viewer's view as JSON (the game's type reads it)

    @property
    def me(self) -> int | None:
        """The viewer's seat, 0-based as the engines count (None: a spectator)."""
        return self.seat - 1 if self.seat is not None else None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TablePayload:
        """The payload's JSON (what the service sends), read once."""
        seats = tuple(SeatInfo(seat=int(s.get("seat", i + 1)), kind=str(s.get("kind", "human")),
                               name=str(s.get("name", "")))
                      for i, s in enumerate(d.get("seats") or []))
        log_at = d.get("log_at")
        return cls(game=str(d.get("game", "")), n=int(d["n"]),
                   latest=int(d.get("latest", d["n"])), rev=int(d.get("rev", d["n"])),
                   seat=d.get("seat"), to_act=tuple(d.get("to_act") or ()),
                   legal=tuple(d.get("legal") or ()), log=tuple(d.get("log") or ()),
                   log_at=tuple(log_at) if log_at is not None else None,
                   seats=seats, undoable=int(d.get("undoable", 0)),
                   record=bool(d.get("record", False)), view=d["view"])
