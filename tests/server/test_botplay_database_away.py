"""The bots of a game while the database is away (a PostgreSQL restart): the decision waits
with one warning line, no traceback, and the game is left for the sweep to queue again."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import sqlalchemy as sa

from tramways.server.botplay import BotPlayer


class _AwayStore:
    """A store whose database has gone: every connection fails as psycopg's does."""

    is_postgres = True

    @contextlib.contextmanager
    def bot_lease(self, game_id: str) -> Iterator[bool]:
        raise sa.exc.OperationalError("SELECT pg_try_advisory_lock(1)", {},
                                      ConnectionError("the database system is shutting down"))
        yield True  # pragma: no cover


def test_a_bot_decision_while_the_database_is_away_waits_without_a_traceback(caplog):
    player = BotPlayer(_AwayStore(), None, lambda *a: None, workers=1)
    try:
        with caplog.at_level(logging.WARNING, logger="tramways.server"):
            assert player.step("g1") is None
        [record] = caplog.records
        assert record.levelno == logging.WARNING and record.exc_info is None
        assert record.getMessage() == (
            "bots of game g1 wait: the database is away (ConnectionError)")
    finally:
        player.close()
