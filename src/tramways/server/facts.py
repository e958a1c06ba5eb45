"""What a server process remembers of a game between requests instead of asking the database:
facts that change only by rare writes that every process hears of (docs/load.md).

A move asked the database two questions that nearly always have the same answer: whether
the game has a pace (its clocks start on every move of a paced game: docs/async.md) and where
its "your turn" messages go (its webhook, its seats' e-mail addresses).  On PostgreSQL each
was a query per move (a pre-ping, a statement and a commit), a tenth of the server's CPU a
move in a profile.  :class:`GameFacts` keeps the answers per game (``kind`` names the
question) and forgets a game's when:

- this process writes one of them (the store forgets after its commit:
  :meth:`~tramways.server.storage.Store.settings_write`);
- another process does: its write sends a ``NOTIFY`` of its own (``GAME settings``,
  :meth:`~tramways.server.rows.Written.settings_of`), and the ``LISTEN`` thread forgets the
  game; a write of the game that is not a move (an undo, a seat changing hands, a closing)
  forgets it too;
- the ``LISTEN`` connection was lost (notifications in between are gone): everything.

An answer read while the game is forgotten (a read that began before a write's commit and
ended after it) is not kept: every forgetting moves a generation, and a read keeps its answer
only if the generation did not move meanwhile.  Only PostgreSQL has the notifications, so the
facts are kept only there (``enabled``): on SQLite every question goes to the database as
before (several processes may share one SQLite file with ``--workers``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from tramways.server.cache import LRU

T = TypeVar("T")

FACT_GAMES = 20_000
"""Games whose facts a process keeps (a few hundred bytes each; least recently used out)."""


class GameFacts:
    """Per game, the answers to a few questions (``kind``), each read once from the database
    and kept until the game is forgotten (see the module)."""

    def __init__(self, enabled: bool, size: int = FACT_GAMES) -> None:
        self.enabled = enabled
        self._games = LRU(size)
        self._lock = threading.Lock()
        self._generation = 0
        self.reads = 0
        """Questions that went to the database (tests)."""

    def get(self, game_id: str, kind: str, read: Callable[[], T]) -> T:
        """The kept answer to ``kind`` for ``game_id``, else ``read()`` (kept if no write
        was heard of meanwhile)."""
        if not self.enabled:
            self.reads += 1
            return read()
        with self._lock:
            facts: dict[str, Any] | None = self._games.get(game_id)
            if facts is not None and kind in facts:
                found: T = facts[kind]
                return found
            generation = self._generation
        value = read()
        with self._lock:
            self.reads += 1
            if generation == self._generation:
                facts = self._games.get(game_id) or {}
                self._games.put(game_id, {**facts, kind: value})
        return value

    def holds(self, game_id: str, kind: str) -> bool:
        """Whether an answer to ``kind`` is kept for ``game_id`` (tests)."""
        with self._lock:
            facts: dict[str, Any] | None = self._games.get(game_id)
            return facts is not None and kind in facts

    def forget(self, game_id: str | None = None) -> None:
        """Forget what is kept of ``game_id`` (``None``: of every game)."""
        with self._lock:
            self._generation += 1
            if game_id is None:
                for key in self._games.keys():
                    self._games.pop(key)
            else:
                self._games.pop(game_id)
