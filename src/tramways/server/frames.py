"""The live sockets' frames: built on the event loop when that is cheap, else in a thread.

A frame after a move is the watcher's payload of the game's new position.  When the process's
cached position already holds the announced revision (a move of this process, or one of
another process followed from its ``NOTIFY``), building it needs no database: only the
viewer's view, its legal moves and the new log lines.  For a Trambahn game that is some
0.2 ms of CPU, less than the trip to a worker thread and back (a queue, a wake-up, the
interpreter handed over twice: on PostgreSQL the trips were some 15% of the server's CPU a
move in a profile).  Such frames are built on the event loop; a frame that needs the
database, or whose game's frames have cost more than :data:`INLINE_FRAME_MS` of CPU, goes to
a worker thread as before (docs/load.md: no costly work on the event loop).

The cost is learnt per game (``trambahn``, ``1840``) from the frames built from the cache, as
the thread's CPU time (not the wall time, which a busy machine stretches): a frame dearer than
the estimate raises it at once, cheaper ones lower it slowly.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from tramways.server.positions import Live
from tramways.server.service import GameService

INLINE_FRAME_MS = 1.0
"""Frames of games whose frames cost at most this much CPU (ms) are built on the event loop."""


class FrameCost:
    """The CPU a frame built from the cache costs, per game (ms; an estimate)."""

    def __init__(self) -> None:
        self._ms: dict[str, float] = {}
        self._lock = threading.Lock()

    def cheap(self, game: str) -> bool:
        """Whether ``game``'s frames are known to cost at most :data:`INLINE_FRAME_MS`."""
        return self._ms.get(game, INLINE_FRAME_MS + 1) <= INLINE_FRAME_MS

    def note(self, game: str, ms: float) -> None:
        with self._lock:
            old = self._ms.get(game)
            self._ms[game] = ms if old is None or ms > old else 0.9 * old + 0.1 * ms


COST = FrameCost()


def _timed(service: GameService, live: Live, seat: int | None,
           since: str | None) -> dict[str, Any]:
    t0 = time.thread_time()
    payload = service.payload(live, seat, None, since)
    COST.note(live.row.game, (time.thread_time() - t0) * 1000)
    return payload


def frame(service: GameService, game_id: str, seat: int | None, since: str | None,
          rev: int | None) -> dict[str, Any]:
    """A frame after a write of revision ``rev`` was announced (in a worker thread): from the
    cached position when it is that revision or a later one, else as ``service.state`` (a
    database read; ``rev`` ``None``: the database must be asked)."""
    if rev is not None:
        cached = service.cached(game_id)
        if cached is not None and cached.rev >= rev:
            return _timed(service, cached, seat, since)
    return service.state(game_id, seat, None, since)


def frame_on_loop(service: GameService, game_id: str, seat: int | None, since: str | None,
                  rev: int | None) -> dict[str, Any] | None:
    """The same frame when it can be built on the event loop (from the cache, for a game
    whose frames are cheap); ``None``: build it in a thread (:func:`frame`)."""
    if rev is None:
        return None
    cached = service.cached(game_id)
    if cached is None or cached.rev < rev or not COST.cheap(cached.row.game):
        return None
    return _timed(service, cached, seat, since)
