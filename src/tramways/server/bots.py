"""Bot work that no client can starve: one decision at a time, games in turn, people first.

A :class:`BotScheduler` runs the bots' decisions of every game on a few worker threads.  Its
unit of work is **one decision of one game** (``step(game_id)``), never a whole game: after
each decision the game goes to the back of its queue, so every game waiting for a bot is
served in turn, however long the others run.

Games wait in two queues:

- ``Tier.PEOPLE``: games with at least one person's seat.  A person is waiting for the
  bot's reply, so these come first, and one worker is kept for them: games of bots only
  never occupy more than ``workers - 1`` threads (with one worker, that one; people's games
  still go first at the next decision).
- ``Tier.BOTS``: games of bots only (people watch them, or nobody does).  They get the
  threads people's games leave free, in turn.

A person's game therefore waits at most for the decisions already running on the threads
it may use, never for another game's whole run of bot moves.  The scheduler knows nothing
of games or databases: the service gives it ``step`` (see
:meth:`tramways.server.service.GameService.kick_bots`).
"""

from __future__ import annotations

import enum
import logging
import threading
from collections import deque
from collections.abc import Callable

logger = logging.getLogger("tramways.server")


class Tier(enum.IntEnum):
    """Which queue a game waits in; lower goes first."""

    PEOPLE = 0
    """At least one seat is a person's."""
    BOTS = 1
    """Every seat is a bot's."""


Step = Callable[[str], "Tier | None"]
"""One decision of one game: plays at most one bot move of ``game_id`` and returns the tier to
queue the game again in (a bot may still be to act), or ``None`` when no bot is to act."""


class BotScheduler:
    """Worker threads that run ``step`` for queued games, one decision at a time per game.

    ``kick(game_id, tier)`` queues a game (once: a game already queued stays where it is; a
    game whose decision is running is queued again after it).  ``step`` runs outside every
    lock of the scheduler; an exception in it is logged and the game is not queued again
    (the next kick of the game starts it afresh).
    """

    def __init__(self, step: Step, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError("a bot scheduler needs at least one worker")
        self._step = step
        self.workers = workers
        self.bot_threads = max(1, workers - 1)
        """The most threads games of bots only may hold at once (one is kept for people)."""
        self._queues: dict[Tier, deque[str]] = {Tier.PEOPLE: deque(), Tier.BOTS: deque()}
        self._queued: dict[str, Tier] = {}
        self._running: dict[str, Tier] = {}
        self._again: dict[str, Tier] = {}
        self._cond = threading.Condition()
        self._closed = False
        self.decisions = 0
        """Steps run so far (for tests and benchmarks)."""
        self._threads = [
            threading.Thread(target=self._work, name=f"bot-{i}", daemon=True)
            for i in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def kick(self, game_id: str, tier: Tier) -> None:
        """Queue ``game_id`` for a decision (at the back of ``tier``'s queue)."""
        with self._cond:
            if self._closed:
                return
            if game_id in self._running:
                self._again[game_id] = min(tier, self._again.get(game_id, tier))
                return
            queued = self._queued.get(game_id)
            if queued is not None:
                if tier < queued:  # a person sat down: move it to the people's queue
                    self._queues[queued].remove(game_id)
                    self._enqueue(game_id, tier)
                return
            self._enqueue(game_id, tier)

    def _enqueue(self, game_id: str, tier: Tier) -> None:
        self._queues[tier].append(game_id)
        self._queued[game_id] = tier
        self._cond.notify_all()  # a worker (and not only a waiter of wait_idle) must wake

    def _bots_running(self) -> int:
        return sum(1 for t in self._running.values() if t is Tier.BOTS)

    def _take(self) -> tuple[str, Tier] | None:
        """The next game to decide for (the caller holds the lock), or ``None``."""
        if self._queues[Tier.PEOPLE]:
            game_id = self._queues[Tier.PEOPLE].popleft()
            tier = Tier.PEOPLE
        elif self._queues[Tier.BOTS] and self._bots_running() < self.bot_threads:
            game_id = self._queues[Tier.BOTS].popleft()
            tier = Tier.BOTS
        else:
            return None
        del self._queued[game_id]
        self._running[game_id] = tier
        return game_id, tier

    def _work(self) -> None:
        while True:
            with self._cond:
                taken = None
                while not self._closed and (taken := self._take()) is None:
                    self._cond.wait()
                if self._closed or taken is None:
                    return
            game_id, tier = taken
            again: Tier | None = None
            try:
                again = self._step(game_id)
            except Exception:
                logger.exception("bots of game %s stopped", game_id)
            with self._cond:
                self.decisions += 1
                del self._running[game_id]
                kicked = self._again.pop(game_id, None)
                if kicked is not None:
                    again = kicked if again is None else min(again, kicked)
                if again is not None and not self._closed and game_id not in self._queued:
                    self._enqueue(game_id, again)
                self._cond.notify_all()  # a bot thread came free, or the queues changed

    def idle(self) -> bool:
        """Whether no game is queued and no decision is running."""
        with self._cond:
            return not self._queued and not self._running

    def wait_idle(self, timeout: float, game_id: str | None = None) -> bool:
        """Wait until :meth:`idle`, or with ``game_id`` until that game is neither queued
        nor deciding (its bots have played what they had to: a person is to act, or the
        game is over); ``False`` on time-out."""
        import time

        def busy() -> bool:
            if game_id is None:
                return bool(self._queued or self._running)
            return game_id in self._queued or game_id in self._running

        end = time.monotonic() + timeout
        with self._cond:
            while busy():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def queued(self, tier: Tier) -> int:
        """How many games wait in ``tier``'s queue."""
        with self._cond:
            return len(self._queues[tier])

    def close(self) -> None:
        """Stop taking work; decisions already running finish on their daemon threads."""
        with self._cond:
            self._closed = True
            for queue in self._queues.values():
                queue.clear()
            self._queued.clear()
            self._again.clear()
            self._cond.notify_all()
