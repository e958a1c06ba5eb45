"""Past positions of games (``?at=N``, the pages' history), kept so that they are not replayed
from the first move on every request.

A position after ``n`` moves is keyed by ``(game, line, n)``.  ``line`` names the line of play:
the server's ``rev - n``, which moves leave alone (each adds one to both) and every undo raises
(one more ``rev``, fewer moves), so positions of a line that was taken back are never served
for the line that replaced it.  A request replays forward from the nearest kept position at or
before ``n`` (the first move when there is none), keeping one position every ``every`` moves on
the way (a reader stepping back through the history then replays at most ``every`` moves), and
keeps the one asked for.  At most ``size`` positions are kept, the least recently used out
first (an 1840 position is some hundred KB: the default of 64 is some MB per process).

Positions handed out are shared and never changed: callers only read them (``view``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tramways.core import Action
from tramways.core.game import GameState
from tramways.core.undo import Played

HISTORY_POSITIONS = 64
"""Past positions kept per server process by default (``ServerSettings.history_positions``)."""
CHECKPOINT_EVERY = 50
"""While replaying, a position is kept every this many moves."""


@dataclass(frozen=True)
class Past:
    """A past position, the log lines its moves wrote (as a replay writes them) and, for each
    line, the position it links to: the number of moves just after the move that wrote it."""

    n: int
    state: GameState
    lines: tuple[str, ...]
    line_at: tuple[int, ...] = ()


Key = tuple[str, int]
"""``(game id, line of play)``."""


class History:
    """A bounded, thread-safe store of past positions (see the module's docstring)."""

    def __init__(self, size: int = HISTORY_POSITIONS, every: int = CHECKPOINT_EVERY) -> None:
        if size < 1 or every < 1:
            raise ValueError("History keeps at least one position, one every >= 1 moves")
        self.size = size
        self.every = every
        self._kept: OrderedDict[tuple[str, int, int], Past] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0
        """Moves replayed since the start (for tests and benchmarks)."""

    def __len__(self) -> int:
        return len(self._kept)

    def _nearest(self, key: Key, n: int) -> Past | None:
        with self._lock:
            best: tuple[str, int, int] | None = None
            for k in self._kept:
                if k[0] == key[0] and k[1] == key[1] and k[2] <= n and (
                        best is None or k[2] > best[2]):
                    best = k
            if best is None:
                return None
            self._kept.move_to_end(best)
            return self._kept[best]

    def _keep(self, key: Key, past: Past) -> None:
        with self._lock:
            self._kept[(key[0], key[1], past.n)] = past
            self._kept.move_to_end((key[0], key[1], past.n))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def position(self, key: Key, n: int, new_state: Callable[[], GameState],
                 actions: Sequence[Action], played: Sequence[Played]) -> Past:
        """The position after the first ``n`` of ``actions`` (played by ``played``'s seats)
        on line ``key``; ``new_state()`` is the position before the first move."""
        start = self._nearest(key, n)
        if start is not None and start.n == n:
            return start
        lines: list[str]
        marks: list[int]
        if start is None:
            state, lines, marks, k = new_state(), [], [], 0
        else:
            state, k = start.state.clone(), start.n
            lines, marks = list(start.lines), list(start.line_at)
        while k < n:
            wrote = state.apply(actions[k], played[k].seat)
            lines.extend(wrote)
            k += 1
            marks.extend([k] * len(wrote))
            self.replayed += 1
            if k % self.every == 0 and k < n:
                self._keep(key, Past(k, state.clone(), tuple(lines), tuple(marks)))
        past = Past(n, state, tuple(lines), tuple(marks))
        self._keep(key, past)
        return past

    def forget(self, game_id: str) -> None:
        """Drop every position of ``game_id``."""
        with self._lock:
            for k in [k for k in self._kept if k[0] == game_id]:
                del self._kept[k]
