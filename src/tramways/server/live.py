"""The live hub: after a committed write, wake every WebSocket watching that game.

Writes happen in worker threads; each subscriber remembers its own event loop and is woken
with ``call_soon_threadsafe``.  The hub carries only ``(game, rev)``: each connection builds
its own viewer's payload, from the process's cached position when it holds that revision (a
move made in this process: no database read per socket), else from the database.  On PostgreSQL every write also sends ``NOTIFY`` inside its
transaction (delivered at commit) and each server process ``LISTEN``s, so moves made through
another process arrive at once; on SQLite connections look at the database every few seconds
(``POLL_SECONDS``) and catch up from there.  When the ``LISTEN`` connection is lost and made
again, every connection of that process is woken (``Hub.wake_all``) and compares its ``rev``
with the database's: nothing missed in between stays missed.  So on PostgreSQL a connection
looks at the database on its own only every ``LISTEN_POLL_SECONDS`` (60 s: a safety net):
at 1,000 watched games the 3-s poll was some 330 database reads and payloads a second for
nothing, more than the moves themselves (docs/load.md).  A ``NOTIFY`` of a move carries the move: the process plays it on its cached
position before it wakes the sockets (``Positions.follow``), so their frames come from the
cache.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
from collections import defaultdict

POLL_ENV = "TRAMWAYS_LIVE_POLL_SECONDS"
POLL_SECONDS = float(os.environ.get(POLL_ENV, "3"))
"""How often a connection looks at the database when nothing woke it (SQLite: other processes
cannot wake it)."""
LISTEN_POLL_SECONDS = float(os.environ.get(POLL_ENV, "60"))
"""The same on PostgreSQL, where every write of every process wakes it by ``NOTIFY`` (and a
lost ``LISTEN`` wakes them all): only a safety net.  ``$TRAMWAYS_LIVE_POLL_SECONDS`` sets
both."""


class Subscription:
    def __init__(self, hub: Hub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()
        self._rev: int | None = None
        self._ask = False

    def _wake(self, rev: int) -> None:
        """(On the subscriber's loop.)  ``rev`` < 0: the database must be asked."""
        if rev < 0:
            self._ask = True
        elif self._rev is None or rev > self._rev:
            self._rev = rev
        self.event.set()

    async def wait(self, timeout: float | None = None) -> int | None:
        """Until a write is announced (or ``timeout``): the newest revision announced since
        the last wait, or ``None`` when the database must be asked (the time-out's poll, or
        a wake after a lost ``LISTEN``); ``timeout`` ``None``: between half the hub's
        ``poll_seconds`` and all of it, drawn anew each time, so that sockets opened together
        (after a restart, say) do not all look at the database in the same second."""
        if timeout is None:
            timeout = self.hub.poll_seconds * random.uniform(0.5, 1.0)
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            pass
        self.event.clear()
        rev, ask = self._rev, self._ask
        self._rev, self._ask = None, False
        return None if ask else rev

    def close(self) -> None:
        self.hub._remove(self)


class Hub:
    def __init__(self, poll_seconds: float = POLL_SECONDS) -> None:
        self.poll_seconds = poll_seconds
        """How long a subscription waits before it looks at the database on its own."""
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._lock = threading.Lock()

    def subscribe(self, game_id: str) -> Subscription:
        sub = Subscription(self, game_id)
        with self._lock:
            self._subs[game_id].add(sub)
        return sub

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def wake_all(self) -> None:
        """Wake every connection (after a lost ``LISTEN``: each one looks at the database)."""
        with self._lock:
            games = list(self._subs)
        for game_id in games:
            self.publish(game_id, -1)

    def publish(self, game_id: str, rev: int) -> None:
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub._wake, rev)
            except RuntimeError:  # its loop is closed
                self._remove(sub)
