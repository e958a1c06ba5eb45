"""Limits: the size of a request body, and how fast one seat token (or one address) may act.

- ``BodyLimit``: an ASGI middleware that refuses a body over ``max_bytes`` with 413 before
  the application reads it (by ``Content-Length``, and by counting when the body is chunked).
- ``RateLimiter``: token buckets per key (a seat token for moves and undos, the client address
  for game creation), through the API and the pages alike.  A refusal is
  ``ApiError(429, "rate_limited")`` with ``retry_after`` (seconds), sent with a
  ``Retry-After`` header.  On PostgreSQL the buckets are rows in the database, shared by
  every server process; on SQLite they live in the process (``ServerSettings.rate_limits``).
  The costly reads (past positions, 1840 previews) have their own per-address buckets, always
  in the process.
- ``Limits``: the limiters of one application, asked through :mod:`tramways.server.deps`.
- ``SocketLimit``: caps on the live WebSockets of one process.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tramways.server.errors import ApiError

if TYPE_CHECKING:
    from tramways.server.storage import Store

MAX_BODY_BYTES = 64 * 1024
"""The largest request body the server reads (a move is some dozens of bytes; a new game with
six names and settings well under 2 KB)."""


class BodyLimit:
    """Refuse HTTP request bodies over ``max_bytes`` with ``413`` (JSON, like every refusal)."""

    def __init__(self, app: Any, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await _refuse(send, 400, "bad_request", "Content-Length is not a number")
                    return
        if length is not None and length > self.max_bytes:
            await _refuse(send, 413, "too_large", f"request bodies are at most {self.max_bytes} bytes")
            return
        # Read the whole (small) body here, counting, then hand it on as one message.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _refuse(
                    send, 413, "too_large", f"request bodies are at most {self.max_bytes} bytes"
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Any, status: int, error: str, message: str) -> None:
    import json

    data = json.dumps({"error": error, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class RateLimiter:
    """Token buckets: each key may act ``burst`` times at once and ``rate`` times a second
    after that.  ``rate <= 0`` switches the limiter off.

    Without a ``store`` the buckets live in this process: at most ``max_keys`` of them (the
    least recently used are forgotten: a forgotten key starts with a full bucket), so N
    processes behind a balancer allow up to N times the rate.  With a ``store`` the buckets
    are rows of its ``rate_limits`` table (keys under ``prefix``), taken by one atomic
    statement, so the limit holds across every process on that database; buckets untouched
    long enough to be full again are deleted now and then."""

    FORGET_EVERY = 1000
    """Hits between two clean-ups of the shared buckets (per process)."""

    def __init__(self, rate: float, burst: int, *, what: str, max_keys: int = 100_000,
                 store: Store | None = None, prefix: str = "") -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.what = what
        self.max_keys = max_keys
        self.store = store
        self.prefix = prefix
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0

    @property
    def shared(self) -> bool:
        return self.store is not None

    def hit(self, key: str, now: float | None = None) -> None:
        """Spend one from ``key``'s bucket; ``ApiError(429)`` if it is empty."""
        if self.rate <= 0:
            return
        if self.store is not None:
            left = self.store.take_token(self.prefix + key, self.rate, self.burst)
            with self._lock:
                self._hits += 1
                forget = self._hits % self.FORGET_EVERY == 0
            if forget:
                self.store.forget_buckets(self.prefix, self.burst / self.rate + 1.0)
            if left is not None:
                self._refuse(left)
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                self._refuse(tokens)
            self._buckets[key] = (tokens - 1.0, now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)

    def _refuse(self, tokens: float) -> None:
        wait = max(1, math.ceil((1.0 - tokens) / self.rate))
        raise ApiError(
            429,
            "rate_limited",
            f"too many {self.what}: at most {self.rate:g} a second "
            f"(bursts of {self.burst}); try again in {wait} s",
            retry_after=wait,
        )


@dataclass(frozen=True)
class Limits:
    """The rate limits of one application (``app.state.limits``), asked by the API's and the
    pages' dependencies alike (:mod:`tramways.server.deps`): a page can never move, create or
    read faster than the API allows."""

    moves: RateLimiter
    """Per seat token (its game and seat): moves, undos and notification settings."""
    games: RateLimiter
    """Per client address: new games."""
    bot_games: RateLimiter
    """Per client address: new games with no person's seat (on top of ``games``)."""
    reads: RateLimiter
    """Per client address, always in the process: the reads that cost CPU."""
    max_bot_games: int = 0
    """Games of bots only running at once on the database (0: no cap)."""
    count_bot_only_games: Callable[[], int] | None = None

    def move(self, game_id: str, seat: int | None) -> None:
        """429 when one seat acts too fast (a seat is its token: the key is ``game/seat``);
        a spectator (``seat`` ``None``) is refused later, by the service."""
        if seat is not None:
            self.moves.hit(f"{game_id}/{seat}")

    def new_game(self, address: str, seats: Sequence[str] | None = None) -> None:
        """429 when one client address creates games too fast.

        A game with no person's seat (``seats`` all bots) counts also against the stricter
        ``bot_games`` bucket of the address, and is refused while ``max_bot_games`` games of
        bots only are running on the database: bots of such games run on the threads
        people's games leave free (:mod:`tramways.server.bots`), and their number is bounded
        too."""
        self.games.hit(address)
        if seats is None or "human" in seats:
            return
        self.bot_games.hit(address)
        cap = self.max_bot_games
        if cap > 0 and self.count_bot_only_games is not None and self.count_bot_only_games() >= cap:
            raise ApiError(
                429, "rate_limited",
                f"this site runs its most games of bots only ({cap}) at once; "
                "try again when one has ended, or take a seat yourself",
                retry_after=60,
            )

    def read(self, address: str) -> None:
        """429 when one client address asks too fast for the reads that cost CPU: past
        positions (``?at=N`` through the API and the pages) and the 1840 map's previews (a
        board after a lay, a claimed route, a hex's revenue changes).  Its buckets are always
        in the process: these reads cost the process's CPU, not the database's, and a shared
        bucket would cost a database write per read."""
        self.reads.hit(address)


SOCKETS_TOTAL = 5000
WS_MAX_MESSAGE_BYTES = 4096
"""The largest client message on a live WebSocket (clients need send nothing at all)."""
SOCKETS_PER_ADDRESS = 100
SOCKETS_PER_SEAT = 8


class SocketLimit:
    """Caps on the live WebSockets of one server process: ``total`` at once, ``per_address``
    from one client address and ``per_seat`` for one seat token (its game and seat); 0 is no
    cap.  ``take`` returns a slot to ``give_back`` when the socket closes, or the reason
    (a text) when a cap is reached (the socket is then accepted and closed at
    once with 4429, so the client sees the code)."""

    def __init__(self, total: int = SOCKETS_TOTAL, per_address: int = SOCKETS_PER_ADDRESS,
                 per_seat: int = SOCKETS_PER_SEAT) -> None:
        self.total = total
        self.per_address = per_address
        self.per_seat = per_seat
        self.open = 0
        self._by_address: dict[str, int] = {}
        self._by_seat: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, address: str, seat: str | None) -> tuple[str, str | None] | str:
        """A slot ``(address, seat)``, or the reason (a text) why the socket is refused."""
        with self._lock:
            if self.total and self.open >= self.total:
                return f"this server holds its most live connections ({self.total})"
            if self.per_address and self._by_address.get(address, 0) >= self.per_address:
                return f"at most {self.per_address} live connections from one address"
            if seat is not None and self.per_seat and self._by_seat.get(seat, 0) >= self.per_seat:
                return f"at most {self.per_seat} live connections for one seat"
            self.open += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
            if seat is not None:
                self._by_seat[seat] = self._by_seat.get(seat, 0) + 1
            return (address, seat)

    def give_back(self, slot: tuple[str, str | None]) -> None:
        address, seat = slot
        with self._lock:
            self.open -= 1
            _drop(self._by_address, address)
            if seat is not None:
                _drop(self._by_seat, seat)


def _drop(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
