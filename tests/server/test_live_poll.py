"""How often a live socket looks at the database on its own (``server.live``): every 3 s on
SQLite (other processes cannot wake it), every 60 s on PostgreSQL, where every write wakes it
by ``NOTIFY`` and a lost ``LISTEN`` wakes them all (docs/load.md: at 1,000 watched games the
3-s poll was more database reads than the moves)."""

from __future__ import annotations

import asyncio
import time

from tramways.server import ServerSettings, create_app
from tramways.server.live import LISTEN_POLL_SECONDS, POLL_SECONDS, Hub


def test_the_poll_is_3_s_on_sqlite_and_60_s_on_postgresql(db_url):
    app = create_app(ServerSettings(database_url=db_url))
    try:
        expected = 60.0 if db_url.startswith("postgresql") else 3.0
        assert app.state.hub.poll_seconds == expected
        assert (POLL_SECONDS, LISTEN_POLL_SECONDS) == (3.0, 60.0)
    finally:
        app.state.store.close()


def test_a_subscription_without_news_asks_the_database_after_the_hubs_poll():
    async def main() -> tuple[int | None, float]:
        sub = Hub(poll_seconds=0.05).subscribe("g")
        t0 = time.monotonic()
        rev = await sub.wait()  # nothing announced: None (look at the database)
        sub.close()
        return rev, time.monotonic() - t0

    rev, waited = asyncio.run(main())
    assert rev is None and 0.04 <= waited < 5


def test_an_announced_move_wakes_the_subscription_long_before_its_poll():
    async def main() -> tuple[int | None, float]:
        hub = Hub(poll_seconds=60)
        sub = hub.subscribe("g")
        asyncio.get_running_loop().call_later(0.05, hub.publish, "g", 4)
        t0 = time.monotonic()
        rev = await sub.wait()
        sub.close()
        return rev, time.monotonic() - t0

    rev, waited = asyncio.run(main())
    assert rev == 4 and waited < 30
