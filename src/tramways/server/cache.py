"""A least-recently-used cache bounded by count and by approximate memory.

The server keeps the positions of the games it serves (``GameService``).  Counting them
alone bounded nothing useful: a Trambahn position takes some 5-45 KB, an 1840 one 20 KB at
the start and 0.2-1.8 MB late in the game (the route graphs of its lines are kept with it),
so 2,000 positions could be 0.1 GB or 2 GB.  Each entry is therefore weighed when it is put
(``weigh(value)``, an estimate in bytes) and the least recently used entries go while the
total is over ``budget`` (``ServerSettings.cache_bytes``) or the count over ``size``; the
newest entry always stays, whatever it weighs.

``position_bytes`` is the estimate for a game's position: a base and a cost per action by
game (``POSITION_BYTES``), fitted to positions of the golden games measured with
``tracemalloc`` (``tests/server/test_cache.py`` checks the fit).  A position's real size
depends on more than its number of moves (how much track its lines have): the estimate is
at most 2 times under the measured size and up to 6 times over it (a game with little
track), so the budget errs on the side of less memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

POSITION_BYTES: dict[str, tuple[int, int]] = {
    "1840": (20_000, 2_000),
    "trambahn": (4_000, 300),
}
"""Per game: (bytes of a new position, bytes added per action)."""
OTHER_GAME_BYTES = (20_000, 2_000)
"""A game not in ``POSITION_BYTES``: weighed like 1840."""


def position_bytes(game: str, n: int) -> int:
    """The approximate memory of a cached position of ``game`` after ``n`` actions."""
    base, per_action = POSITION_BYTES.get(game, OTHER_GAME_BYTES)
    return base + per_action * max(0, n)


class LRU:
    """A thread-safe mapping that keeps the most recently used entries (``get`` and ``put``
    both count as a use): at most ``size`` of them and, with a ``budget``, entries weighing
    at most ``budget`` together (each weighed by ``weigh(value)`` when put); the least
    recently used go first, the newest always stays."""

    def __init__(self, size: int, budget: int = 0,
                 weigh: Callable[[Any], int] | None = None) -> None:
        if size < 1:
            raise ValueError("an LRU holds at least one entry")
        if budget < 0:
            raise ValueError("a budget is 0 (none) or more bytes")
        self.size = size
        self.budget = budget
        self._weigh = weigh
        self._d: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.weight = 0
        """The entries' weight together (bytes, as estimated)."""

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._d.get(key)
            if found is None:
                return None
            self._d.move_to_end(key)
            return found[0]

    def put(self, key: Any, value: Any) -> None:
        weight = self._weigh(value) if self._weigh is not None else 0
        with self._lock:
            old = self._d.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            self._d[key] = (value, weight)
            self.weight += weight
            while len(self._d) > 1 and (
                    len(self._d) > self.size or (self.budget and self.weight > self.budget)):
                _, (_, gone) = self._d.popitem(last=False)
                self.weight -= gone

    def pop(self, key: Any) -> None:
        with self._lock:
            old = self._d.pop(key, None)
            if old is not None:
                self.weight -= old[1]

    def keys(self) -> list[Any]:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys())

    def __contains__(self, key: Any) -> bool:
        return key in self._d
