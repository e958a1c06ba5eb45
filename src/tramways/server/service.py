"""The games a server holds: the use cases (create, view, move, undo, record, notification
settings, a holder's games); the service knows no HTTP.

Its parts, each a module of one job:

- :mod:`tramways.server.positions`: the bounded cache of live positions keyed by
  ``(game, rev)`` and its catch-up (every request compares the cached ``rev`` with the
  database's; moves made elsewhere are read and played on a copy, after an undo the record is
  replayed), with each game's write lock;
- :mod:`tramways.server.payloads`: what one viewer is sent, built from views only;
- :mod:`tramways.server.botplay`: the bots in seats, one decision at a time under a lease;
- :mod:`tramways.server.urls`: the seat and spectator links.

A move is checked on a clone of the position, written in one transaction (compare-and-set on
``games.rev`` plus the unique ``(game, seq)`` of ``actions``), and only then installed in the
cache and announced to listeners.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from tramways.core import GameRecord, IllegalAction, NotationError
from tramways.core.rng import draw_seed
from tramways.core.undo import Played, check_undo, reveals
from tramways.core.visibility import public_notation, record_is_public
from tramways.games import get_game
from tramways.server.bodies import SETTINGS_FAILURES, NewGame
from tramways.server.botplay import BotPlayer
from tramways.server.cache import LRU
from tramways.server.errors import ApiError
from tramways.server.history import HISTORY_POSITIONS, History
from tramways.server.notify import NotifyRefused, TurnEvent, check_email, check_webhook, safe_host
from tramways.server.payloads import cursor, payload, seats_json
from tramways.server.positions import (
    CACHE_BYTES,
    CACHE_GAMES,
    Live,
    LogIndex,
    Positions,
    apply_as,
    check_id,
    status,
)
from tramways.server.rows import ActionRow, Conflict, GameRow
from tramways.server.storage import Store
from tramways.server.urls import seat_url, spectator_url

__all__ = ["CACHE_BYTES", "CACHE_GAMES", "LRU", "GameService", "Live", "cursor"]

logger = logging.getLogger("tramways.server")

CLOSED_LINE = "The site's admins closed this game: no more moves."
CLOSED_MESSAGE = "the site's admins closed this game: no more moves"

SEATS_KEPT = 10_000
"""Seat tokens whose seat a process remembers (each some hundred bytes)."""


class GameService(Positions):
    """Games in a :class:`~tramways.server.storage.Store`, with bots and change listeners.

    Memory per process is bounded: the positions kept weigh at most ``cache_bytes`` (as
    estimated by ``cache.position_bytes``) and number at most ``cache_games`` (least
    recently used out first; a forgotten game is rebuilt from its record when it is asked
    for again), bot objects are at most ``cache_games``, and a game's write lock lives only
    while it is in use.
    """

    def __init__(self, store: Store, *, bot_workers: int = 2,
                 cache_games: int = CACHE_GAMES, cache_bytes: int = CACHE_BYTES,
                 bot_seed: int | None = None,
                 bot_delay: float = 0.0,
                 history_positions: int = HISTORY_POSITIONS) -> None:
        super().__init__(store, cache_games, cache_bytes)
        self._history = History(history_positions)
        self._seats = LRU(SEATS_KEPT)
        """``(game, token) -> seat`` of the tokens seen (a seat keeps its token for good)."""
        self._listeners: list[Callable[[str, int], None]] = []
        self.turn_listener: Callable[[TurnEvent], None] | None = None
        """Told of the human seats that have just come to act (the "your turn" notifier);
        called after the commit, never allowed to fail or slow a move."""
        self.bots = BotPlayer(store, self, self._bot_plays, workers=bot_workers,
                              cache_games=cache_games, bot_seed=bot_seed, delay=bot_delay)
        self._bots = self.bots.bots
        self._scheduler = self.bots.scheduler

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits, its move chosen, before playing it (0: none): a table paced
        for people; the tests use it to catch a bot in the middle of its decision."""
        return self.bots.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.bots.delay = seconds

    def close(self) -> None:
        self.bots.close()

    # -- listeners (the live hub) -----------------------------------------------------------

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """``listener(game_id, rev)`` is called (from any thread) after every committed write."""
        self._listeners.append(listener)

    def _announce(self, game_id: str, rev: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, rev)
            except Exception:  # a listener never breaks a move
                logger.exception("live listener failed")

    def _turns(self, before: Live, after: Live, mover: int | None) -> None:
        """The human seats to act in ``after`` that were not in ``before`` (and did not just
        move): hand them to the turn listener."""
        if self.turn_listener is None:
            return
        try:
            was = set(before.state.current_players())
            now = [p for p in after.state.current_players()
                   if p not in was and p + 1 != mover and 0 <= p < len(after.seats)
                   and after.seats[p].kind == "human"]
            if now and not after.state.is_over():
                self.turn_listener(TurnEvent(after.row.id, after.row.game, after.n,
                                             tuple((p + 1, after.seats[p].name) for p in now)))
        except Exception:  # a notification never breaks a move
            logger.exception("turn listener failed")

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat (1-based) of ``token`` in this game; ``None`` for no token (a spectator).

        An unknown token is refused (403), so that a mistyped link never looks like a seat.
        """
        if not token:
            return None
        check_id(game_id)
        key = (game_id, token)
        known = self.remembered_seat(game_id, token)
        if known is not None:  # a token's seat never changes: no database read
            return known
        seat = self.store.seat_for_token(game_id, token)
        if seat is not None:
            self._seats.put(key, int(seat))
        if seat is None:
            if self.store.rev(game_id) is None:
                raise ApiError(404, "not_found", f"no game {game_id!r}")
            raise ApiError(403, "bad_token", "this token holds no seat in this game")
        return int(seat)

    def remembered_seat(self, game_id: str, token: str) -> int | None:
        """The seat of a token this process has seen (no database read; ``None``: not
        remembered)."""
        known = self._seats.get((game_id, token))
        return None if known is None else int(known)

    def forget_token(self, game_id: str, token: str | None = None) -> None:
        """Forget a seat token seen here (``None``: all of the game): its seat has a new one."""
        for key in [k for k in self._seats.keys() if k[0] == game_id and token in (None, k[1])]:
            self._seats.pop(key)

    # -- payloads ---------------------------------------------------------------------------

    def payload(self, live: Live, seat: int | None, at: int | None = None,
                since: str | None = None) -> dict[str, Any]:
        """What ``seat`` (1-based; ``None``: a spectator) may see, now or after ``at`` moves
        (:func:`tramways.server.payloads.payload`)."""
        return payload(live, seat, self._history, at, since)

    def state(self, game_id: str, seat: int | None, at: int | None = None,
              since: str | None = None) -> dict[str, Any]:
        live = self.live(game_id)
        self.kick_bots(game_id, live)
        return self.payload(live, seat, at, since)

    def log_index(self, game_id: str) -> LogIndex:
        """The game's whole log and the position each line links to (the log is every
        viewer's: a spectator's payload carries it too)."""
        return LogIndex.of(self.live(game_id))

    def frame(self, game_id: str, seat: int | None, since: str | None,
              rev: int | None) -> dict[str, Any]:
        """A live frame after a write of revision ``rev`` was announced: from the cached
        position when it is that revision or a later one (a move of this process: no
        database read for each watcher), else as :meth:`state` (``rev`` ``None``: ask the
        database)."""
        if rev is not None:
            cached = self.cached(game_id)
            if cached is not None and cached.rev >= rev:
                return self.payload(cached, seat, None, since)
        return self.state(game_id, seat, None, since)

    # -- creating ---------------------------------------------------------------------------

    def create(
        self,
        game_name: str,
        settings: dict[str, Any],
        seat_kinds: list[str],
        names: list[str | None] | None = None,
        seed: int | None = None,
    ) -> dict[str, Any]:
        """Create a game from its fields, validated as the API validates its body
        (:class:`~tramways.server.bodies.NewGame`: 422 ``bad_game``, ``bad_seats``,
        ``bad_names``, ``bad_settings``); see :meth:`start`."""
        body = NewGame.checked(game=game_name, settings=settings, seats=seat_kinds, names=names)
        return self.start(body, seed)

    def start(self, body: NewGame, seed: int | None = None) -> dict[str, Any]:
        """Start the game of a validated body: draw its set-up, store it with a token per
        seat, and let its bots play; ``seed`` (1840 only: its record is public anyway) fixes
        the set-up, else one is drawn.  The reply holds each human seat's secret link."""
        game = get_game(body.game)
        settings = body.settings
        if seed is None or game.info.hidden_information:
            seed = draw_seed()  # a game with hidden cards never takes a chosen seed
        try:
            setup = game.setup(settings, seed)
        except SETTINGS_FAILURES as exc:
            raise ApiError(422, "bad_settings", str(exc) or type(exc).__name__) from None
        shown = list(game.player_names(settings))
        rows = [(kind, shown[i] if i < len(shown) else f"P{i + 1}")
                for i, kind in enumerate(body.seats)]
        game_id, tokens = self.store.create_game(
            game.name, game.version, settings, seed, setup, rows
        )
        self.kick_bots(game_id)
        return {
            "id": game_id,
            "game": game.name,
            "seats": [
                {
                    "seat": i + 1,
                    "kind": kind,
                    "name": name,
                    "token": tokens[i] if kind == "human" else None,
                    "url": seat_url(game_id, tokens[i]) if kind == "human" else None,
                }
                for i, (kind, name) in enumerate(rows)
            ],
            "spectate": spectator_url(game_id),
        }

    # -- moving -----------------------------------------------------------------------------

    def move(self, game_id: str, seat: int | None, n: int, text: str,
             since: str | None = None) -> dict[str, Any]:
        """Play ``text`` for ``seat`` as move number ``n`` (0-based: the moves so far); the
        new payload (only what is new after cursor ``since``, if given)."""
        result = self._move(game_id, seat, n, text, since=since)
        self.kick_bots(game_id)
        return result

    def _move(
        self, game_id: str, seat: int | None, n: int, text: str, by_bot: bool = False,
        since: str | None = None, stand_in: bool = False, resign: bool = False,
    ) -> dict[str, Any]:
        if seat is None:
            raise ApiError(403, "spectator", "spectators cannot act: use your seat's link")
        with self._lock(game_id):
            # Moves trust the cache: the compare-and-set of the write notices another
            # process's move, and then the position is rebuilt and the move judged again.
            live = self.cached(game_id) or self.live(game_id)
            if n != live.n:
                live = self.live(game_id)
            for attempt in range(3):
                try:
                    new = self._try_move(live, seat, n, text, by_bot, stand_in, resign)
                    break
                except Conflict:  # another process wrote first: catch up and judge again
                    live = self.live(game_id)
                    if attempt == 2:
                        raise ApiError(
                            409, "stale", "another move was played first",
                            state=self.payload(live, seat),
                        ) from None
            if new is live:
                return self.payload(live, seat, since=since)  # the same move again: once
            self.put(new)
        self._announce(game_id, new.rev)
        self._turns(live, new, seat)
        return self.payload(new, seat, since=since)

    def _try_move(self, live: Live, seat: int, n: int, text: str, by_bot: bool,
                  stand_in: bool = False, resign: bool = False) -> Live:
        """Judge and write one move on ``live``; the new position (``live`` itself if the
        move was already played); ``Conflict`` if another writer was first.  ``stand_in``:
        a bot plays a person's seat whose deadline passed (:mod:`tramways.server.clocks`).
        A resignation (``Action.resigns``) only with ``resign``: the Resign control of a game
        whose resignation ends it (docs/async.md), never as a move."""
        game = live.game
        try:
            action = game.parse_action(text)
        except NotationError as exc:
            raise ApiError(422, "illegal", str(exc), rule="notation") from None
        if n != live.n:
            if 0 <= n < live.n and live.actions[n] == action and live.played[n].seat == seat - 1:
                return live
            raise ApiError(
                409,
                "stale",
                f"move {n} is not the next one: {live.n} moves have been played",
                state=self.payload(live, seat),
            )
        if live.row.status == "closed":
            raise ApiError(403, "closed", CLOSED_MESSAGE)
        if (live.seats[seat - 1].kind != "human") != by_bot and not stand_in:
            raise ApiError(403, "not_your_seat", "a bot plays this seat")
        state = live.state.clone()
        revealing = reveals(game, state, action)
        try:
            lines = apply_as(state, action, seat - 1, resign)
        except IllegalAction as exc:
            raise ApiError(422, "illegal", exc.message, rule=exc.rule) from None
        # the end of a game reveals everything (its record becomes public): never taken back
        revealing = revealing or state.is_over()
        log_id = self.store.append(
            live.row.id,
            live.rev,
            ActionRow(n, game.format_action(action), seat, revealing),
            lines,
            status(state),
        )
        row = GameRow(**{**live.row.__dict__, "n": n + 1, "rev": live.rev + 1,
                         "status": status(state)})
        return Live(
            row,
            game,
            state,
            [*live.actions, action],
            [*live.played, Played(seat - 1, revealing)],
            [*live.log, *lines],
            live.seats,
            live.log_id if log_id is None else log_id,
            (*live.line_positions(), *[n + 1] * len(lines)),
        )

    def undo(self, game_id: str, seat: int | None, n: int, count: int = 1,
             since: str | None = None) -> dict[str, Any]:
        """Take back ``seat``'s last ``count`` moves, if the undo policy allows it."""
        if seat is None:
            raise ApiError(403, "spectator", "spectators cannot act: use your seat's link")
        with self._lock(game_id):
            live = self.live(game_id)
            if n != live.n:
                raise ApiError(
                    409,
                    "stale",
                    f"move {n} is not the next one: {live.n} moves have been played",
                    state=self.payload(live, seat),
                )
            if live.row.status == "closed":
                raise ApiError(403, "closed", CLOSED_MESSAGE)
            if live.seats[seat - 1].kind != "human":
                raise ApiError(403, "not_your_seat", "a bot plays this seat")
            try:
                check_undo(live.played, seat - 1, count)
            except IllegalAction as exc:
                raise ApiError(422, "illegal", exc.message, rule=exc.rule) from None
            keep = live.n - count
            taken = [public_notation(live.game, a, None) for a in live.actions[keep:]]
            name = live.seats[seat - 1].name
            lines = [f"{name} takes back {len(taken)} move(s): {'; '.join(taken)}"]
            try:
                self.store.truncate(game_id, live.rev, live.n, keep, lines)
            except Conflict:
                self.forget(game_id)
                raise ApiError(
                    409,
                    "stale",
                    "another move was played first",
                    state=self.payload(self.live(game_id), seat),
                ) from None
            self.forget(game_id)
            new = self.live(game_id)
        self._announce(game_id, new.rev)
        self._turns(live, new, seat)
        self.kick_bots(game_id)
        return self.payload(new, seat, since=since)

    # -- the record -------------------------------------------------------------------------

    def record(self, game_id: str) -> dict[str, Any]:
        live = self.live(game_id)
        if not record_is_public(live.game, live.state):
            raise ApiError(
                403,
                "hidden",
                "the record holds hidden cards: it is shown once the game is over",
            )
        record = GameRecord(
            game=live.row.game,
            version=live.row.version,
            settings=live.row.settings,
            seed=live.row.seed,
            setup=live.row.setup,
            actions=[live.game.format_action(a) for a in live.actions],
            meta={"id": game_id, "seats": [s.kind for s in live.seats]},
        )
        return record.model_dump()

    # -- notification settings ----------------------------------------------------------------

    def notify_settings(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """What ``seat`` has set: its own e-mail address, and the host of the game's webhook
        (a webhook's path is often its secret: it is never shown back)."""
        if seat is None:
            raise ApiError(403, "spectator", "notifications are set by a seat: use your link")
        self.live(game_id)
        targets = self.store.notify_targets(game_id)
        email = targets.emails.get(seat)
        return {"email": email[0] if email else None,
                "webhook": safe_host(targets.webhook) if targets.webhook else None}

    def set_notify(self, game_id: str, seat: int | None, changes: dict[str, str | None],
                   allow_loopback: bool = False, lang: str | None = None) -> dict[str, Any]:
        """Set or clear (``None`` or empty) this seat's e-mail address and the game's webhook,
        to be written to in ``lang``; a webhook to a non-public address is refused (422)."""
        if seat is None:
            raise ApiError(403, "spectator", "notifications are set by a seat: use your link")
        self.live(game_id)
        email = webhook = None
        try:
            if changes.get("email"):
                email = check_email(str(changes["email"]))
            if changes.get("webhook"):
                webhook = check_webhook(str(changes["webhook"]),
                                        allow_loopback=allow_loopback).url
        except NotifyRefused as exc:
            raise ApiError(422, "bad_notify", str(exc)) from None
        if "email" in changes:
            self.store.set_email(game_id, seat, email, lang)
        if "webhook" in changes:
            self.store.set_webhook(game_id, webhook, lang)
        return self.notify_settings(game_id, seat)

    def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games the holder of ``tokens`` sits in, those where it is their turn first."""
        out = []
        for game_id, seat in self.store.seats_for_tokens(tokens[:200]):
            live = self.live(game_id)
            closed = live.row.status == "closed"  # by an admin: nobody's turn
            to_act = [] if closed else [p + 1 for p in live.state.current_players()]
            out.append(
                {
                    "id": game_id,
                    "game": live.row.game,
                    "seat": seat,
                    "status": "closed" if closed else status(live.state),
                    "n": live.n,
                    "your_turn": seat in to_act,
                    "seats": seats_json(live.seats),
                }
            )
        out.sort(key=lambda g: (not g["your_turn"], g["status"] != "active", g["id"]))
        return out

    # -- bots -------------------------------------------------------------------------------

    def close_game(self, game_id: str) -> bool:
        """An admin closes the game: no move or undo is taken afterwards (403 ``closed``),
        the log says so, every watcher is told (docs/accounts.md); ``False``: not active."""
        with self._lock(game_id):
            rev = self.store.close_game(game_id, CLOSED_LINE)
            self.forget(game_id)
        if rev is None:
            return False
        self._announce(game_id, rev)
        return True

    def kick_bots(self, game_id: str, live: Live | None = None) -> None:
        """Let ``game_id``'s bots play if one is to act (:class:`~.botplay.BotPlayer`)."""
        self.bots.kick(game_id, live)

    def _bot_plays(self, game_id: str, seat: int, n: int, text: str) -> None:
        self._move(game_id, seat, n, text, by_bot=True)

    def resume_bots(self, idle_for: float | None = None) -> None:
        """After a (re)start: let every unfinished game's bots continue (with ``idle_for``:
        only those of games not written for that long seconds)."""
        self.bots.resume(idle_for)

    def wait_for_bots(self, timeout: float = 30.0, game_id: str | None = None) -> bool:
        """Wait until no bot is thinking or queued (tests, benchmarks), with ``game_id``: none
        of that game's (on a shared PostgreSQL database the process also plays the other
        games it resumed); ``False`` on time-out."""
        return self.bots.wait(timeout, game_id)
