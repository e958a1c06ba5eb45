"""The bots in seats: one decision at a time, under a lease, through the move path.

:class:`BotPlayer` queues a game with the :class:`~tramways.server.bots.BotScheduler` when
one of its bots is to act (people's games first) and makes each decision as the scheduler's
step.  On PostgreSQL a decision is made under the game's bot lease (``Store.bot_lease``, a
session advisory lock), so that exactly one server process plays it; the move itself goes
through the same path as a person's (``play``: the service's move, with ``by_bot``).  A bot
chooses from its own view and legal actions only.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections.abc import Callable
from typing import Any

from tramways.core.actions import moves
from tramways.core.game import Game
from tramways.core.rng import derive_rng
from tramways.server.bots import BotScheduler, Tier
from tramways.server.cache import LRU
from tramways.server.database import DATABASE_DOWN
from tramways.server.errors import ApiError
from tramways.server.positions import Live, Positions
from tramways.server.rows import SeatRow
from tramways.server.storage import Store

logger = logging.getLogger("tramways.server")

BotMove = Callable[[str, int, int, str], object]
"""``play(game_id, seat, n, notation)``: a bot's move through the service's move path."""


def tier(seats: list[SeatRow]) -> Tier:
    """People's games go first (:mod:`tramways.server.bots`)."""
    return Tier.PEOPLE if any(s.kind == "human" for s in seats) else Tier.BOTS


def bot_to_act(live: Live) -> int | None:
    """The first seat (0-based) to act that a bot plays, or ``None`` (none in a game an
    admin closed)."""
    if live.row.status == "closed":
        return None
    for p in live.state.current_players():
        if 0 <= p < len(live.seats) and live.seats[p].kind.startswith("bot:"):
            return p
    return None


class BotPlayer:
    """The bots of the games of one process.

    One bot object per (game, seat, kind): a bot may remember what it saw in its own game
    (the Trambahn search's discards) and is never shared between games played at once; at
    most ``cache_games`` are kept (the least recently used are forgotten: a forgotten bot
    starts afresh)."""

    def __init__(self, store: Store, positions: Positions, play: BotMove, *, workers: int = 2,
                 cache_games: int = 2000, bot_seed: int | None = None,
                 delay: float = 0.0) -> None:
        self.store = store
        self.positions = positions
        self.play = play
        self.bot_seed = bot_seed
        self.delay = delay
        """Seconds a bot waits, its move chosen, before playing it (0: none)."""
        self.bots = LRU(cache_games)
        self.scheduler = BotScheduler(self.step, workers=workers)
        self.closed = False
        self._closing = threading.Event()

    def close(self) -> None:
        self.closed = True
        self._closing.set()
        self.scheduler.close()

    def kick(self, game_id: str, live: Live | None = None) -> None:
        """Queue ``game_id`` with the scheduler if one of its bots is to act (or, with no
        position at hand, to look): its decisions are played one at a time, in turn with
        every other game's, people's games first."""
        if self.closed:
            return
        if live is None:
            live = self.positions.cached(game_id)
        if live is not None:
            if bot_to_act(live) is None:
                return
            seats = live.seats
        else:
            try:
                seats = self.store.seats(game_id)
            except Exception:  # the database is away: the next request or sweep kicks again
                logger.warning("bots of game %s not queued: no seats read", game_id)
                return
        self.scheduler.kick(game_id, tier(seats))

    def _bot(self, game_id: str, seat: int, game: Game, kind: str) -> Any:
        key = (game_id, seat, kind)
        bot = self.bots.get(key)
        if bot is None:
            from tramways.bots import make_bot

            bot = make_bot(kind.removeprefix("bot:"), game)
            self.bots.put(key, bot)
        return bot

    def step(self, game_id: str) -> Tier | None:
        """One bot decision of ``game_id`` (the scheduler's step): the tier to queue the game
        again in, or ``None`` when no bot is to act.

        On PostgreSQL the decision is made under the game's bot lease, so that one server
        process plays it; a process that finds the lease taken leaves the game to its holder.
        While the database is away the game waits (a warning, ``None``): the bot sweep or the
        next request queues it again.
        """
        try:
            return self._step(game_id)
        except DATABASE_DOWN as exc:
            # The database is away (a restart): no traceback, the sweep kicks the game again.
            logger.warning("bots of game %s wait: the database is away (%s)", game_id,
                           type(exc.orig or exc).__name__)
            return None

    def _step(self, game_id: str) -> Tier | None:
        seen: int | None = None
        with self.store.bot_lease(game_id) as leased:
            if not leased or self.closed:
                return None
            live = self.positions.live(game_id)
            seen = live.rev
            p = bot_to_act(live)
            if p is not None:
                return tier(live.seats) if self._move(game_id, live, p) else None
        # A move made elsewhere while we held the lease found it taken: look again.
        if self.store.rev(game_id) != seen:
            return tier(live.seats)
        return None

    def _move(self, game_id: str, live: Live, p: int) -> bool:
        """Seat ``p``'s bot chooses from its own view and plays through the move path;
        ``False`` when it cannot (its move was refused: logged, the game's bots stop)."""
        from tramways.bots.match import give_position

        legal = moves(live.state.legal_actions(p))  # bots set no programs
        if not legal:
            return False
        bot = self._bot(game_id, p, live.game, live.seats[p].kind)
        view = live.state.view(p)
        rng = (random.Random(secrets.randbits(64)) if self.bot_seed is None
               else derive_rng(self.bot_seed, live.row.seed, "bot", p, live.n))
        # A searching 1840 bot looks ahead on a copy of the position; it re-samples the
        # hidden line deck itself (bots.match.give_position), so it learns nothing hidden.
        give_position(bot, live.state, rng)
        action = bot.choose(view, legal, rng)
        if self.delay > 0 and self._closing.wait(self.delay):
            return False
        try:
            self.play(game_id, p + 1, live.n, live.game.format_action(action))
        except ApiError as exc:
            if exc.status != 409:  # 409: another process moved first; the next step looks
                logger.error("bot %s in %s: %s", live.seats[p].kind, game_id, exc)
                return False
        return True

    def resume(self, idle_for: float | None = None) -> None:
        """After a (re)start: let every unfinished game's bots continue.  With ``idle_for``
        (seconds), only games not written for that long: the sweep that takes over the bots
        of a server process that died (its lease went with its connection)."""
        since = None
        if idle_for is not None:
            from datetime import UTC, datetime, timedelta

            since = datetime.now(UTC) - timedelta(seconds=idle_for)
        for game_id in self.store.active_bot_games(since):
            self.kick(game_id)

    def wait(self, timeout: float = 30.0, game_id: str | None = None) -> bool:
        """Wait until no bot is thinking or queued (with ``game_id``: none of that game's);
        ``False`` on time-out."""
        return self.scheduler.wait_idle(timeout, game_id)
