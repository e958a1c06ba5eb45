"""Post-game analysis on the server: when a game ends, the strong bot rates
its decisions in the background (:mod:`tramways.bots.analysis`), and the result is kept with
the game (the ``analyses`` table).

- :meth:`Analyser.submit` is a listener of every write: a write that ends a game queues it.
- One thread per process takes the queue, one game at a time.  The work runs in a separate
  process (a pool of one, started on first use with ``spawn``), so the server's threads and
  its event loop keep the GIL; ``mode="thread"`` runs it on that thread, ``mode="off"``
  analyses nothing (the tests' default: ``TRAMWAYS_ANALYSIS=off``).
- The ``analyses`` row is the claim: the process whose insert of a ``running`` row succeeds
  analyses the game, every other process (PostgreSQL: several server processes) leaves it;
  a ``running`` row older than :data:`STALE` (its process died) may be claimed again.
- :meth:`Analyser.result` reads the row; :meth:`Analyser.catch_up` queues a finished game
  whose analysis is missing (one that ended before this server ran, or whose process died).

An analysis reads the whole record, which a finished game shows anyway
(``core.visibility.record_is_public``): nothing is analysed or served before the game is over.
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import sqlalchemy as sa

from tramways.core.record import GameRecord
from tramways.server.service import GameService
from tramways.server.storage import Store
from tramways.server.tables import analyses

logger = logging.getLogger("tramways.server")

STALE = timedelta(minutes=10)
"""A ``running`` claim older than this is taken to be of a process that died."""

Status = Literal["pending", "done", "failed"]


def _stale(started: datetime, now: datetime | None = None) -> bool:
    """Whether a ``running`` claim made at ``started`` is older than :data:`STALE`."""
    started = started if started.tzinfo else started.replace(tzinfo=UTC)
    return (now or datetime.now(UTC)) - started >= STALE


def run_analysis(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The analysis of a finished record as JSON (runs in the worker process)."""
    from tramways.bots.analysis import analyse

    return analyse(GameRecord.model_validate(record), seed=seed).to_json()


class Analyser:
    """The post-game analyses of one server process (see the module docstring)."""

    def __init__(self, service: GameService, store: Store, *, mode: str = "process") -> None:
        self.service = service
        self.store = store
        self.in_process = mode == "thread"
        self.enabled = mode != "off"
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=1000)
        self._pool: ProcessPoolExecutor | None = None
        self._thread = threading.Thread(target=self._run, name="analyses", daemon=True)
        self._thread.start()

    # -- queueing ---------------------------------------------------------------------------

    def submit(self, game_id: str, _rev: int) -> None:
        """A listener of every write: queue ``game_id`` if the write ended it."""
        live = self.service.cached(game_id)
        if live is not None and not live.state.is_over():
            return
        self._put(game_id)

    def catch_up(self, game_id: str) -> None:
        """Queue a finished game whose analysis is missing (the reply says "pending")."""
        self._put(game_id)

    def _put(self, game_id: str) -> None:
        if not self.enabled:
            return
        try:
            self._queue.put_nowait(game_id)
        except queue.Full:
            logger.warning("analysis queue full: game %s analysed when next asked", game_id)

    def close(self) -> None:
        self._queue.put(None)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait until the queue is empty and the last game is done (tests)."""
        done = threading.Event()
        self._queue.put_nowait(done)  # type: ignore[arg-type]
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            item: Any = self._queue.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            try:
                self.analyse(item)
            except Exception:
                logger.exception("analysis of game %s failed", item)

    # -- the work ---------------------------------------------------------------------------

    def analyse(self, game_id: str) -> bool:
        """Analyse ``game_id`` if it is over and this process claims it; whether it did."""
        live = self.service.live(game_id)
        if not live.state.is_over() or not self._claim(game_id, live.n):
            return False
        record = self.service.record(game_id)
        seed = int(live.row.seed) % (2**31)
        try:
            if self.in_process:
                data = run_analysis(record, seed)
            else:
                if self._pool is None:
                    import multiprocessing

                    self._pool = ProcessPoolExecutor(
                        1, mp_context=multiprocessing.get_context("spawn"))
                data = self._pool.submit(run_analysis, record, seed).result()
        except Exception:
            self._finish(game_id, "failed", None)
            raise
        self._finish(game_id, "done", data)
        return True

    def _claim(self, game_id: str, n: int) -> bool:
        now = datetime.now(UTC)
        with self.store._write() as conn:  # the store's one writer (SQLite: its lock)
            row = conn.execute(sa.select(analyses.c.status, analyses.c.started)
                               .where(analyses.c.game_id == game_id)).first()
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(analyses.insert().values(
                            game_id=game_id, status="running", n=n, started=now))
                except sa.exc.IntegrityError:
                    return False  # another process claimed it first
                return True
            if row.status != "running" or not _stale(row.started, now):
                return False
            taken = conn.execute(analyses.update()
                                 .where(analyses.c.game_id == game_id,
                                        analyses.c.status == "running",
                                        analyses.c.started == row.started)
                                 .values(started=now, n=n))
            return bool(taken.rowcount)

    def _finish(self, game_id: str, status: str, data: dict[str, Any] | None) -> None:
        with self.store._write() as conn:
            conn.execute(analyses.update().where(analyses.c.game_id == game_id)
                         .values(status=status, data=data, finished=datetime.now(UTC)))

    def result(self, game_id: str) -> tuple[Status, dict[str, Any] | None]:
        """The analysis of ``game_id``: ``("done", data)``, ``("failed", None)``, or
        ``("pending", None)`` (running, queued, or not started: then queued)."""
        with self.store._read() as conn:
            row = conn.execute(sa.select(analyses.c.status, analyses.c.data,
                                         analyses.c.started)
                               .where(analyses.c.game_id == game_id)).first()
        if row is None or (row.status == "running" and _stale(row.started)):
            self.catch_up(game_id)  # missing, or its process died: claimed again
            return "pending", None
        if row.status == "done":
            return "done", dict(row.data)
        if row.status == "failed":
            return "failed", None
        return "pending", None
