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
    assert rev is None and 0.02 <= waited < 5  # half the poll to all of it


def test_sockets_opened_together_look_at_the_database_at_different_times():
    async def main() -> list[float]:
        hub = Hub(poll_seconds=0.4)
        subs = [hub.subscribe("g") for _ in range(8)]
        t0 = time.monotonic()

        async def one(sub) -> float:
            await sub.wait()
            sub.close()
            return time.monotonic() - t0

        return list(await asyncio.gather(*(one(s) for s in subs)))

    waited = asyncio.run(main())
    assert all(0.19 <= w < 5 for w in waited)
    assert max(waited) - min(waited) > 0.01  # not all at once (8 draws in 0.2-0.4 s)


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
