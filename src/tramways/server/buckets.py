"""The shared rate-limit buckets (``ServerSettings.rate_limits``: on PostgreSQL by default):
rows of ``rate_limits``, each taken by one atomic statement, so that a limit holds across
every server process on the database (:class:`~tramways.server.limits.RateLimiter`).

:class:`SharedBuckets` is a part of :class:`~tramways.server.storage.Store`.  On PostgreSQL
each statement runs in autocommit: one statement is a transaction of its own (as atomic as
before), without the ``BEGIN`` and ``COMMIT`` round trips around it (with the move limit on,
a bucket is taken before every move).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

# One statement takes a token from a bucket, atomically in any number of processes: the
# bucket is refilled by the time since its stamp (at ``rate`` a second, up to ``burst``), and
# one token is taken if there is one.  PostgreSQL's clock decides (server processes on several
# machines need not agree on the time); SQLite (one machine) gets the time from Python.
_BUCKET = """
INSERT INTO rate_limits AS b (key, tokens, stamp, allowed)
VALUES (:key, :burst - 1, {now}, {true})
ON CONFLICT (key) DO UPDATE SET
  allowed = {least}(:burst, b.tokens + {greatest}(0, excluded.stamp - b.stamp) * :rate) >= 1,
  tokens = {least}(:burst, b.tokens + {greatest}(0, excluded.stamp - b.stamp) * :rate)
    - CASE WHEN {least}(:burst, b.tokens + {greatest}(0, excluded.stamp - b.stamp) * :rate) >= 1
      THEN 1 ELSE 0 END,
  stamp = excluded.stamp
RETURNING allowed, tokens
"""
_BUCKET_PG = sa.text(_BUCKET.format(now="extract(epoch from clock_timestamp())::float8",
                                    true="true", least="least", greatest="greatest"))
_BUCKET_SQLITE = sa.text(_BUCKET.format(now=":now", true="1", least="min", greatest="max"))
_FORGET_BUCKETS_PG = sa.text(
    "DELETE FROM rate_limits WHERE key LIKE :prefix "
    "AND stamp < extract(epoch from clock_timestamp())::float8 - :age"
)
_FORGET_BUCKETS_SQLITE = sa.text(
    "DELETE FROM rate_limits WHERE key LIKE :prefix AND stamp < :now - :age"
)



class SharedBuckets:
    """The buckets' statements (a part of the store: its engines and its writer lock)."""

    is_postgres: bool
    _autocommit: Engine
    _writer: AbstractContextManager[Any]

    def _write(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    @contextmanager
    def _bucket_write(self) -> Iterator[Connection]:
        """PostgreSQL: a connection in autocommit; SQLite: the store's write transaction."""
        if not self.is_postgres:
            with self._write() as conn:
                yield conn
            return
        with self._autocommit.connect() as conn, conn.begin():
            yield conn

    def take_token(self, key: str, rate: float, burst: int) -> float | None:
        """Take one token from the shared bucket ``key`` (``rate`` a second, bursts of
        ``burst``): ``None`` if one was there, else the tokens left (under 1; none taken)."""
        import time

        params = {"key": key, "rate": rate, "burst": burst, "now": time.time()}
        with self._bucket_write() as conn:
            row = conn.execute(_BUCKET_PG if self.is_postgres else _BUCKET_SQLITE, params).one()
        allowed: bool = bool(row[0])
        tokens: float = row[1]
        return None if allowed else float(tokens)

    def forget_buckets(self, prefix: str, age: float) -> int:
        """Drop the buckets under ``prefix`` untouched for ``age`` seconds (full again: a
        missing bucket is a full one); how many went."""
        import time

        params = {"prefix": prefix + "%", "age": age, "now": time.time()}
        with self._bucket_write() as conn:
            gone = conn.execute(
                _FORGET_BUCKETS_PG if self.is_postgres else _FORGET_BUCKETS_SQLITE, params
            ).rowcount
        return int(gone or 0)
