"""The server's clock, injected: deadlines read the time from a :class:`Clock`, so
tests run an hour's pace in milliseconds.

- :class:`SystemClock`: the time;
- :class:`ManualClock`: a time the test moves (in process);
- :class:`OffsetClock`: the time plus the seconds written in a file (real-process tests:
  every server process reads the same file, so they agree; ``TRAMWAYS_CLOCK_OFFSET_FILE``,
  for tests only).
"""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol

CLOCK_OFFSET_ENV = "TRAMWAYS_CLOCK_OFFSET_FILE"


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told (:meth:`advance`)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += timedelta(seconds=seconds)


class OffsetClock:
    """The time plus the number of seconds in ``path`` (none or unreadable: 0)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def now(self) -> datetime:
        try:
            offset = float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return datetime.now(UTC) + timedelta(seconds=offset)


def clock_from_env() -> Clock:
    """The test clock when ``TRAMWAYS_CLOCK_OFFSET_FILE`` is set, else the time."""
    path = os.environ.get(CLOCK_OFFSET_ENV)
    return OffsetClock(path) if path else SystemClock()
