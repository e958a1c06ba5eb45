"""The costly reads' own processes: their CPU work never holds the server's interpreter.

The 1840 map's previews (a board after a lay, a claimed route, a hex's revenue changes) and the
table of a past position are some 10-50 ms of pure Python each.  Run in a thread of the server
process, they held the interpreter (the GIL) in turns with the event loop: with 8 clients
asking for them back to back, a ``/healthz`` waited 100 ms (the reads hammered; docs/load.md).
:class:`ReadPool` runs them in a small pool of worker processes instead
(``ServerSettings.read_processes``, default 1; ``concurrent.futures.ProcessPoolExecutor``):

- the workers are started from a fork server that has imported the rendering code once
  (a new worker is a fork, not an interpreter start), at a lower priority (``nice``
  ``read_nice``: the server process's own requests come first when the cores are busy),
  and end with the server (each watches the server's process: ``pidfd_open``);
- at most ``read_queue`` reads wait or run at once; one more is refused at once with
  ``503 busy`` and ``Retry-After`` (the per-address read limit, 429, comes before);
- a result is kept by its key (the game, its revision, what was asked: a position that has
  changed has another key), the ``read_results`` most recently used: the same read asked
  again costs nothing, and the same read asked while it is computed waits for that one;
- a worker that dies mid-read (killed, out of memory) fails the reads it held with
  ``503 read_failed`` and ``Retry-After``; the pool is replaced and the next read runs on a
  fresh worker: the server itself goes on.

``read_processes = 0`` runs the same functions in the lane of costly reads of the server's
own threads (``ServerSettings.heavy_threads``), as before the pool.  The functions and their
arguments must be picklable: module-level functions of :mod:`tramways.server.web.costly`
given JSON-like data.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import anyio
import anyio.to_thread

from tramways.server.cache import LRU
from tramways.server.errors import ApiError

logger = logging.getLogger("tramways.server")

READ_PROCESSES = 1
"""Worker processes for the costly reads by default (``ServerSettings.read_processes``)."""
READ_QUEUE = 16
"""Costly reads waiting or running at once, at most, by default (``read_queue``)."""
READ_RESULTS = 64
"""Results of costly reads kept by default (``read_results``; an SVG board is some 100 KB)."""
READ_NICE = 10
"""How much lower the workers' priority is than the server's (``read_nice``)."""
PRELOAD = "tramways.server.web.costly"
"""Imported once by the fork server, so that every worker starts with it."""


def _start_worker(nice: int, server: int) -> None:
    """In each new worker: end with the server, give way to it."""
    threading.Thread(target=_end_with, args=(server,), name="server-watch", daemon=True).start()
    if nice > 0:
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the worker runs at the server's priority
            pass


def _end_with(server: int) -> None:
    """Exit this worker when the ``server`` process is gone.  Its parent is the fork server,
    which lives while a worker holds its pipe: a parent-death signal would never come, and a
    worker waiting for work from a dead server would wait for ever."""
    try:
        handle = os.pidfd_open(server)  # Linux: readable when the process ends
        select.select([handle], [], [])
    except (AttributeError, OSError):  # elsewhere, or it is gone already: look every second
        while True:
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(1.0)
    os._exit(0)


def _context() -> Any:
    """A fork server where the platform has one (the server process has threads: a plain
    fork of it could copy a lock held by another thread), else fresh interpreters."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([PRELOAD])
        return ctx
    return multiprocessing.get_context("spawn")


class ReadPool:
    """The costly reads of one server process (see the module's docstring)."""

    def __init__(self, processes: int = READ_PROCESSES, queue: int = READ_QUEUE,
                 results: int = READ_RESULTS, nice: int = READ_NICE,
                 lane: anyio.CapacityLimiter | None = None) -> None:
        self.processes = max(0, processes)
        self.queue = max(1, queue)
        self.nice = nice
        self.lane = lane
        self._results = LRU(max(1, results))
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._running: dict[Hashable, concurrent.futures.Future[Any]] = {}
        self._pending = 0
        self._lock = threading.Lock()
        self.computed = 0
        """Reads computed (not served from the kept results), for tests and benchmarks."""
        self.restarts = 0
        """Pools replaced after a worker died."""

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.processes, mp_context=_context(), initializer=_start_worker,
                    initargs=(self.nice, os.getpid()))
            return self._executor

    def start(self, warm: Callable[[], Any] | None = None, wait: float = 0.0) -> None:
        """Start the workers now (they start on the first read otherwise), each running
        ``warm()`` first (compiling what the reads need); wait at most ``wait`` seconds for
        them to be ready."""
        if self.processes > 0:
            pool = self._pool()
            started = [pool.submit(warm or os.getpid) for _ in range(self.processes)]
            if wait > 0:
                concurrent.futures.wait(started, timeout=wait)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The workers' process ids (tests)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return list(processes)

    def kept(self, key: Hashable) -> Any:
        """The result kept for ``key`` (``None``: none)."""
        kept = self._results.get(key)
        return None if kept is None else kept[0]

    async def run(self, key: Hashable | None, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker (or the lane of costly reads), or the result kept for
        ``key`` (``None``: never kept).  503 ``busy`` when ``read_queue`` reads are already
        waiting or running; 503 ``read_failed`` when the worker died."""
        if key is not None:
            kept = self._results.get(key)
            if kept is not None:
                return kept[0]
        with self._lock:
            running = self._running.get(key) if key is not None else None
            if running is None and self._pending >= self.queue:
                raise ApiError(503, "busy", "the server is busy with costly reads (previews, "
                               "past positions); try again in a second", retry_after=1)
            self._pending += 1
        try:
            if running is not None:
                result = await _outcome(running)
            elif self.processes == 0:
                result = await anyio.to_thread.run_sync(lambda: fn(*args), limiter=self.lane)
                self.computed += 1
            else:
                result = await self._in_worker(key, fn, args)
        finally:
            with self._lock:
                self._pending -= 1
        if key is not None:
            self._results.put(key, (result,))
        return result

    async def _in_worker(self, key: Hashable | None, fn: Callable[..., Any],
                         args: tuple[Any, ...]) -> Any:
        executor = self._pool()
        try:
            future = executor.submit(fn, *args)
        except BrokenProcessPool:
            self._replace(executor)
            executor = self._pool()
            future = executor.submit(fn, *args)
        if key is not None:
            with self._lock:
                self._running[key] = future
        try:
            result = await _outcome(future)
        except ApiError:
            self._replace(executor)
            raise
        finally:
            if key is not None:
                with self._lock:
                    if self._running.get(key) is future:
                        del self._running[key]
        self.computed += 1
        return result

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """Drop a pool whose worker died (the next read starts a new one)."""
        with self._lock:
            if self._executor is not broken:
                return  # another read replaced it already
            self._executor = None
            self.restarts += 1
        logger.warning("a costly reads' worker died; its pool is replaced")
        broken.shutdown(wait=False, cancel_futures=True)


async def _outcome(future: concurrent.futures.Future[Any]) -> Any:
    """The result of a worker's read; 503 ``read_failed`` when its worker died."""
    try:
        return await asyncio.wrap_future(future)
    except BrokenProcessPool:
        raise ApiError(503, "read_failed", "the process computing this read stopped; "
                       "try again", retry_after=1) from None
