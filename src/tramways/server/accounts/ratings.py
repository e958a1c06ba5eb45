"""Ratings: Elo for Trambahn (two players), OpenSkill (Plackett-Luce, the ``openskill``
package) for 1840 (2-6 players); people by account and bots by kind (``bot:rule``), so a
"strong bot" has a number.

A game is rated once it is over, when every seat is an account's or a bot's (a seat held
only by a link is nobody to rate) and no one sits twice.  The process that wrote the last
move rates it, off the move's path (a queue and one thread); the primary key of
``results`` makes a second rating of the same game fail in any process, and a finished
game listed in an account's games ("my games", the lobby) or over in its profile is rated
there if that was missed or is not done yet (a process killed in between, or the rater's
queue behind the page).

- Trambahn (the winner by Game End, T-R-4; a draw scores half): Elo from 1500, K = 32.
- 1840 (the ranking of XI / R-END-1, equal wealth sharing a place): OpenSkill's defaults
  (mu 25, sigma 25/3); a rating is shown as mu.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from tramways.core import Outcome
from tramways.server.accounts.tables import Account, AccountStore, Rating
from tramways.server.service import GameService

ELO_START = 1500.0
ELO_K = 32.0
TRIES = 4
"""How often the rater tries a finished game whose rating failed (a database error: a
pool timeout, a lost connection, a serialization failure of PostgreSQL) before it leaves it
to the catch-up of "my games"; the primary key of ``results`` keeps a retry from rating
twice."""
RETRY_SECONDS = 0.5
logger = logging.getLogger("tramways.server.ratings")


def elo(a: float, b: float, score_a: float, k: float = ELO_K) -> tuple[float, float]:
    """Both ratings after a game in which the first scored ``score_a`` (1, 0.5 or 0)."""
    expected_a = 1.0 / (1.0 + 10 ** ((b - a) / 400.0))
    change = k * (score_a - expected_a)
    return a + change, b - change


def places(outcome: Outcome) -> list[int]:
    """1-based places per seat from a game's result (equal places for a tie): Trambahn's
    winner by T-R-4 (a draw shares the first place), 1840's rank of XI / R-END-1."""
    return list(outcome.places)


def new_ratings(game: str, before: list[Rating], place: list[int]) -> list[Rating]:
    if game == "trambahn":
        score = 0.5 if place[0] == place[1] else (1.0 if place[0] < place[1] else 0.0)
        a, b = elo(before[0].mu, before[1].mu, score)
        return [Rating(a, 0.0, before[0].games + 1), Rating(b, 0.0, before[1].games + 1)]
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model.rate(teams, ranks=[float(p) for p in place])
    return [Rating(float(t[0].mu), float(t[0].sigma), r.games + 1)
            for t, r in zip(rated, before, strict=True)]


def start_rating(game: str) -> Rating:
    if game == "trambahn":
        return Rating(ELO_START, 0.0, 0)
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    fresh = model.rating()
    return Rating(float(fresh.mu), float(fresh.sigma), 0)


class Rater:
    """Rates finished games: :meth:`submit` (a listener of every write) queues the game;
    one thread looks whether it is over and rates it (a failed try is made again, up to
    :data:`TRIES` times: one error of the database no longer leaves the game unrated)."""

    def __init__(self, service: GameService, accounts: AccountStore) -> None:
        self.service = service
        self.accounts = accounts
        self._queue: queue.Queue[tuple[str, int] | None] = queue.Queue(maxsize=1000)
        self._rated: set[str] = set()
        self._thread = threading.Thread(target=self._run, name="ratings", daemon=True)
        self._thread.start()

    def submit(self, game_id: str, rev: int) -> None:
        """Queue a written game for the rater's thread, unless this process's position shows
        it going on (:meth:`goes_on`, the thread's own first look): nearly every move, and
        waking the thread for it cost 2% of the server's CPU samples at 1,000 games."""
        if self.goes_on(game_id, rev):
            return
        try:
            self._queue.put_nowait((game_id, rev))
        except queue.Full:
            logger.warning("ratings queue full: game %s rated when next shown", game_id)

    def catch_up(self, game_id: str) -> None:
        """A finished game shown in someone's games: rate it if that was missed (the process
        that wrote its last move was killed before it rated it).  Once rated, this process
        remembers it and asks the database no more."""
        if game_id in self._rated:
            return
        if self.accounts.is_rated(game_id) or self.rate(game_id):
            self._rated.add(game_id)
            if len(self._rated) > 10_000:
                self._rated.clear()

    def close(self) -> None:
        self._queue.put(None)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            game_id, rev = item
            for attempt in range(1, TRIES + 1):
                try:
                    if not self.goes_on(game_id, rev):
                        self.rate(game_id)
                    break
                except Exception:
                    logger.exception("rating game %s failed (try %d of %d)", game_id,
                                     attempt, TRIES)
                    time.sleep(RETRY_SECONDS * attempt)

    def goes_on(self, game_id: str, rev: int) -> bool:
        """Whether this process's cached position of ``game_id`` shows it going on at the
        written revision ``rev`` or later: then there is nothing to rate, and no need to ask
        the database (nearly every write; asking cost a query per move).  A game that ended
        at ``rev`` is over in any position from ``rev`` on, so one going on there did not
        end at ``rev``."""
        cached = self.service.cached(game_id)
        return cached is not None and cached.rev >= rev and not cached.state.is_over()

    def rate(self, game_id: str) -> bool:
        """Rate ``game_id`` if it is over, rateable and not rated yet; whether it was now."""
        live = self.service.live(game_id)
        if not live.state.is_over() or self.accounts.is_rated(game_id):
            return False
        holders = self.accounts.holders(game_id)
        players: list[str] = []
        for seat in live.seats:
            if seat.kind.startswith("bot:"):
                players.append(seat.kind)
            elif seat.seat in holders:
                players.append(f"a:{holders[seat.seat]}")
            else:
                return False  # a seat of a link only: nobody to rate
        if len(set(players)) != len(players):
            return False
        game = live.row.game
        place = places(live.state.outcome())
        known = self.accounts.ratings_of(players, game)
        before = [known.get(p) or start_rating(game) for p in players]
        after = new_ratings(game, before, place)
        rows = [(i + 1, p, place[i], before[i], after[i]) for i, p in enumerate(players)]
        return self.accounts.save_results(game_id, game, rows)


def shown(game: str, rating: Rating) -> str:
    """How a rating is shown: Elo as a whole number, OpenSkill's mu to one decimal."""
    return f"{rating.mu:.0f}" if game == "trambahn" else f"{rating.mu:.1f}"


def profile(app_state: Any, account: Account) -> dict[str, Any]:
    """The profile's figures: ratings per game and finished games with results.

    A game of the account that is over but not rated yet is rated here first: the rater's
    thread rates it off the move's path, so a profile opened right after the last move (in
    this process or another) was shown without it and, a static page, never showed it (the
    browser story on PostgreSQL, 1 run in 7 here).  Rated once whoever is first: the primary
    key of ``results`` refuses the second."""
    accounts: AccountStore = app_state.accounts
    for game_id in accounts.unrated_over(account.id):
        app_state.rater.catch_up(game_id)
    ratings = {g: {"rating": shown(g, r), "games": r.games}
               for g, r in sorted(accounts.all_ratings(account.player).items())}
    games = []
    for row in accounts.results_of(account.player):
        others = [r for r in accounts.game_results(row.game_id) if r.seat != row.seat]
        named = accounts.accounts_named([r.player[2:] for r in others if r.player.startswith("a:")])
        games.append({
            "id": row.game_id, "game": row.game, "place": row.place,
            "change": (f"{row.after - row.before:+.0f}" if row.game == "trambahn"
                       else f"{row.after - row.before:+.1f}"),
            "rating": shown(row.game, Rating(row.after, 0, 0)),
            "opponents": [named[o.player[2:]].name if o.player[2:] in named else o.player
                          for o in others],
            "created": row.created,
        })
    return {"ratings": ratings, "games": games}


def bot_ratings(accounts: AccountStore) -> dict[str, list[tuple[str, str, int]]]:
    """The bots' ratings per game: ``(bot, shown rating, games)``."""
    out: dict[str, list[tuple[str, str, int]]] = {}
    for game in ("trambahn", "1840"):
        out[game] = [(p, shown(game, r), r.games) for p, r in accounts.top(game, 50)
                     if p.startswith("bot:")]
    return out
