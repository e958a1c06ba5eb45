"""The games a server holds: create, view, move, undo, record, and the bots in seats.

The service knows no HTTP.  It keeps a bounded cache of live positions keyed by
``(game, rev)``; every request compares the cached ``rev`` with the database's, and when the
database is ahead (another process wrote) reads the moves made since and plays them on a copy
(after an undo: replays the whole record), so the cache is never trusted across processes.  A move is checked on a clone of the position, written in one
transaction (compare-and-set on ``games.rev`` plus the unique ``(game, seq)`` of
``actions``), and only then installed in the cache and announced to listeners.

Everything that leaves the service is built from views: ``state.view(player)``, the legal
notations of that player, and the public log (engine log lines and redacted notation).
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tramways.core import Action, GameRecord, IllegalAction, NotationError, TramwaysError
from tramways.core.actions import moves
from tramways.core.game import Game, GameState, settings_for_new_game, view_json
from tramways.core.rng import derive_rng, draw_seed
from tramways.core.undo import Played, check_undo, reveals, undoable
from tramways.core.visibility import public_notation, record_is_public
from tramways.games import game_names, get_game
from tramways.server.bots import BotScheduler, Tier
from tramways.server.cache import LRU, position_bytes
from tramways.server.errors import ApiError
from tramways.server.history import HISTORY_POSITIONS, History
from tramways.server.notify import NotifyRefused, TurnEvent, check_email, check_webhook
from tramways.server.storage import ActionRow, Conflict, GameRow, SeatRow, Store
from tramways.server.text import TextRefused, clean_name

logger = logging.getLogger("tramways.server")

MAX_SEATS = 6
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _check_id(game_id: str) -> None:
    """404 for a text that cannot be a game id, before the database sees it (a NUL byte, for
    one, is refused by PostgreSQL with an error, not with 'no such row')."""
    if not _GAME_ID.fullmatch(game_id):
        raise ApiError(404, "not_found", "no such game")


@dataclass(frozen=True)
class Live:
    """One game's current position, as replayed from its record at ``rev``."""

    row: GameRow
    game: Game
    state: GameState
    actions: list[Action]
    played: list[Played]
    log: list[str]
    seats: list[SeatRow]
    log_id: int = 0
    """The id of the last log line read or written (a catch-up reads the lines after it)."""

    @property
    def n(self) -> int:
        return len(self.actions)

    @property
    def rev(self) -> int:
        return self.row.rev


def _tier(seats: list[SeatRow]) -> Tier:
    """People's games go first (:mod:`tramways.server.bots`)."""
    return Tier.PEOPLE if any(s.kind == "human" for s in seats) else Tier.BOTS


def _status(state: GameState) -> str:
    return "over" if state.is_over() else "active"


def cursor(live: Live) -> str:
    """What a payload of ``live`` holds, as ``REV.N.LOG``: its revision, its number of moves
    and of log lines.  A client sends it back as ``since`` to be sent only what is new."""
    return f"{live.rev}.{live.n}.{len(live.log)}"


_CURSOR = re.compile(r"(\d{1,12})\.(\d{1,9})\.(\d{1,9})")


def _delta(live: Live, since: str | None) -> tuple[int, int]:
    """``(log_from, moves_from)``: where the log and the moves sent to a client holding the
    payload of cursor ``since`` start.  The log only grows (an undo adds a line), so it
    restarts at 0 only for a cursor that cannot be this game's; the moves restart at 0 when
    an undo came after the cursor (a move adds one to both ``rev`` and ``n``, an undo adds one
    to ``rev`` and takes from ``n``).  A text that is no cursor: 422."""
    if since is None or since == "":
        return 0, 0
    m = _CURSOR.fullmatch(since)
    if m is None:
        raise ApiError(422, "bad_since", "since is the 'cursor' of a payload: REV.N.LOG")
    rev, n, lines = (int(g) for g in m.groups())
    if rev > live.rev or lines > len(live.log):
        return 0, 0  # not a cursor of this game as it is: everything
    appended = live.rev - rev
    moves_from = n if n + appended == live.n else 0
    return lines, moves_from


def _apply_as(state: GameState, action: Action, player: int) -> list[str]:
    """Apply ``action`` for seat ``player`` (0-based); ``ApiError(403)`` if it is not theirs.

    The engine decides authority (``seats_for``; ``apply(action, seat)`` checks it again): an
    action of another player, or of a company or line this seat does not direct (1840 IV.1.2),
    is refused with 403 before its legality is looked at.
    """
    seats = state.seats_for(action)
    if seats and player not in seats:
        raise ApiError(403, "not_your_seat", "that action is not yours to take")
    return state.apply(action, player)


SEATS_KEPT = 10_000
"""Seat tokens whose seat a process remembers (each some hundred bytes)."""

CACHE_GAMES = 2000
"""Positions kept per server process by default (``ServerSettings.cache_games``)."""
CACHE_BYTES = 200 * 1024 * 1024
"""The approximate memory of the positions kept per server process by default
(``ServerSettings.cache_bytes``; each weighed by ``cache.position_bytes``)."""


def _position_bytes(live: Live) -> int:
    return position_bytes(live.row.game, live.n)


class _GameLock:
    """One game's write lock in this process (weakly kept: it goes when nobody holds it)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, *_exc: object) -> None:
        self.lock.release()


class GameService:
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
        self.store = store
        self._bot_seed = bot_seed
        self._cache = LRU(cache_games, budget=cache_bytes, weigh=_position_bytes)
        self._history = History(history_positions)
        self._seats = LRU(SEATS_KEPT)
        """``(game, token) -> seat`` of the tokens seen (a seat keeps its token for good)."""
        self._locks: weakref.WeakValueDictionary[str, _GameLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self.turn_listener: Callable[[TurnEvent], None] | None = None
        """Told of the human seats that have just come to act (the "your turn" notifier);
        called after the commit, never allowed to fail or slow a move."""
        self._bots = LRU(cache_games)
        """One bot object per (game, seat, kind): a bot may remember what it saw in its own game
        (the Trambahn search's discards) and is never shared between games played at once.
        The least recently used are forgotten (a forgotten bot starts afresh)."""
        self._scheduler = BotScheduler(self._bot_step, workers=bot_workers)
        self._closed = False
        self._closing = threading.Event()
        self.bot_delay = bot_delay
        """Seconds a bot waits, its move chosen, before playing it (0: none): a table paced
        for people; the tests use it to catch a bot in the middle of its decision."""

    def close(self) -> None:
        self._closed = True
        self._closing.set()
        self._scheduler.close()

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

    # -- positions --------------------------------------------------------------------------

    def _lock(self, game_id: str) -> _GameLock:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = _GameLock()
            return lock

    def live(self, game_id: str) -> Live:
        """The current position (from the cache if the database's ``rev`` still matches)."""
        _check_id(game_id)
        cached = self._cache.get(game_id)
        rev = self.store.rev(game_id)
        if rev is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        if cached is not None and cached.rev == rev:
            return cached
        if cached is not None and rev > cached.rev:
            return self._catch_up(cached)
        return self._rebuild(game_id)

    def _catch_up(self, cached: Live) -> Live:
        """The cached position brought up to the database's: when the writes since it were
        only moves (another process's), they are read and played on a copy (some ms less than
        a whole replay of a long game); after an undo, the game is rebuilt."""
        game_id = cached.row.id
        loaded = self.store.load_since(game_id, cached.n, cached.log_id)
        if loaded is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        row, rows, lines, log_id = loaded
        appended = row.n - cached.n
        if (appended < 0 or row.rev - cached.rev != appended or len(rows) != appended
                or any(a.seq != cached.n + i for i, a in enumerate(rows))):
            return self._rebuild(game_id)  # an undo came between: replay the record
        state = cached.state.clone()
        acts, played = list(cached.actions), list(cached.played)
        self._replay(cached.game, state, rows, acts, played)
        live = Live(row, cached.game, state, acts, played, [*cached.log, *lines], cached.seats,
                    log_id)
        self._install(live)
        return live

    @staticmethod
    def _replay(game: Game, state: GameState, rows: list[ActionRow], acts: list[Action],
                played: list[Played]) -> None:
        for a in rows:
            action = game.parse_action(a.notation)
            state.apply(action, a.seat - 1 if a.seat is not None else None)
            acts.append(action)
            played.append(Played(a.seat - 1 if a.seat is not None else None, a.reveals))

    def _install(self, live: Live) -> None:
        current = self._cache.get(live.row.id)
        if current is None or current.rev <= live.rev:  # a slow rebuild never goes back
            self._cache.put(live.row.id, live)

    def _rebuild(self, game_id: str) -> Live:
        loaded = self.store.load_since(game_id, 0, 0)
        if loaded is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        row, rows, lines, log_id = loaded
        game = get_game(row.game)
        state = game.new_state(row.settings, row.setup, row.seed)
        acts: list[Action] = []
        played: list[Played] = []
        self._replay(game, state, rows, acts, played)
        live = Live(row, game, state, acts, played, lines, self.store.seats(game_id), log_id)
        self._install(live)
        return live

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat (1-based) of ``token`` in this game; ``None`` for no token (a spectator).

        An unknown token is refused (403), so that a mistyped link never looks like a seat.
        """
        if not token:
            return None
        _check_id(game_id)
        key = (game_id, token)
        known = self._seats.get(key)
        if known is not None:  # a token's seat never changes: no database read
            return int(known)
        seat = self.store.seat_for_token(game_id, token)
        if seat is not None:
            self._seats.put(key, int(seat))
        if seat is None:
            if self.store.rev(game_id) is None:
                raise ApiError(404, "not_found", f"no game {game_id!r}")
            raise ApiError(403, "bad_token", "this token holds no seat in this game")
        return int(seat)

    def forget_token(self, game_id: str, token: str) -> None:
        """Forget a seat token this process has seen (its seat was given a new one: a seat
        link claimed by an account, :mod:`tramways.server.accounts`)."""
        self._seats.pop((game_id, token))

    # -- payloads ---------------------------------------------------------------------------

    def payload(self, live: Live, seat: int | None, at: int | None = None,
                since: str | None = None) -> dict[str, Any]:
        """What ``seat`` (1-based; ``None``: a spectator) may see, now or after ``at`` moves.

        ``log`` holds the log lines from number ``log_from`` on and ``moves`` the moves from
        number ``moves_from`` on: all of them (0) unless ``since`` is the ``cursor`` of a
        payload the client holds, and then only what was added after it (the moves again
        from the first when an undo came between; the log only grows).  A past position
        (``at``) always carries its whole log; it is replayed from the nearest kept one
        (:class:`~tramways.server.history.History`)."""
        player = seat - 1 if seat is not None else None
        seats = [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in live.seats]
        if at is not None and at != live.n:
            if not 0 <= at <= live.n:
                raise ApiError(422, "bad_position", f"?at must be between 0 and {live.n}")
            game = live.game
            row = live.row
            past = self._history.position(
                (row.id, live.rev - live.n), at,
                lambda: game.new_state(row.settings, row.setup, row.seed),
                live.actions, live.played)
            state = past.state
            return {
                "id": live.row.id,
                "game": live.row.game,
                "n": at,
                "at": at,
                "latest": live.n,
                "rev": live.rev,
                "to_act": [p + 1 for p in state.current_players()],
                "view": view_json(state.view(player)),
                "legal": [],
                "seat": seat,
                "status": _status(state),
                "seats": seats,
                "log": list(past.lines),
                "moves": [public_notation(game, a, player) for a in live.actions[:at]],
                "undoable": 0,
                "record": False,
                "log_from": 0,
                "moves_from": 0,
                "log_length": len(past.lines),
                "cursor": None,
            }
        state = live.state
        human = seat is not None and live.seats[seat - 1].kind == "human"
        log_from, moves_from = _delta(live, since)
        return {
            "id": live.row.id,
            "game": live.row.game,
            "n": live.n,
            "at": None,
            "latest": live.n,
            "rev": live.rev,
            "to_act": [p + 1 for p in state.current_players()],
            "view": view_json(state.view(player)),
            "legal": [live.game.format_action(a) for a in state.legal_actions(player)]
            if human and player is not None
            else [],
            "seat": seat,
            "status": _status(state),
            "seats": seats,
            "log": live.log[log_from:],
            "moves": [public_notation(live.game, a, player) for a in live.actions[moves_from:]],
            "undoable": undoable(live.played, player) if human and player is not None else 0,
            "record": record_is_public(live.game, state),
            "log_from": log_from,
            "moves_from": moves_from,
            "log_length": len(live.log),
            "cursor": cursor(live),
        }

    def state(self, game_id: str, seat: int | None, at: int | None = None,
              since: str | None = None) -> dict[str, Any]:
        live = self.live(game_id)
        self.kick_bots(game_id, live)
        return self.payload(live, seat, at, since)

    def frame(self, game_id: str, seat: int | None, since: str | None,
              rev: int | None) -> dict[str, Any]:
        """A live frame after a write of revision ``rev`` was announced: from the cached
        position when it is that revision or a later one (a move of this process: no
        database read for each watcher), else as :meth:`state` (``rev`` ``None``: ask the
        database)."""
        if rev is not None:
            cached = self._cache.get(game_id)
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
        """Create a game; ``seed`` (1840 only: its record is public anyway) fixes the set-up,
        else one is drawn."""
        if game_name not in game_names():
            raise ApiError(422, "bad_game", f"unknown game {game_name!r} ({', '.join(game_names())})")
        game = get_game(game_name)
        if not 1 <= len(seat_kinds) <= MAX_SEATS:
            raise ApiError(422, "bad_seats", f"1 to {MAX_SEATS} seats")
        names = list(names or [])
        if len(names) > len(seat_kinds):
            raise ApiError(422, "bad_names", "more names than seats")
        names += [None] * (len(seat_kinds) - len(names))
        from tramways.bots import bot_names

        for kind in seat_kinds:
            if kind == "human":
                continue
            bot = kind.removeprefix("bot:")
            if not kind.startswith("bot:") or bot not in bot_names(game_name):
                choices = ", ".join(f"bot:{b}" for b in bot_names(game_name))
                raise ApiError(
                    422, "bad_seats", f"a seat is 'human' or one of {choices}, not {kind!r}"
                )
        settings = dict(settings)
        settings.setdefault("players", len(seat_kinds))
        try:
            cleaned = [clean_name(name) for name in names]
            if "names" in settings:  # the settings' names obey the same rules
                given = settings["names"]
                if not isinstance(given, list) or len(given) > MAX_SEATS:
                    raise TextRefused(f"settings.names is a list of at most {MAX_SEATS} names")
                settings["names"] = [clean_name(n) for n in given]
                if not all(settings["names"]):
                    raise TextRefused("settings.names holds an empty name")
        except TextRefused as exc:
            raise ApiError(422, "bad_names", str(exc)) from None
        if any(cleaned) and "names" not in settings:
            try:
                defaults = list(game.player_names(game.normalize_settings(dict(settings))))
            except (TramwaysError, TypeError, ValueError, KeyError, AttributeError) as exc:
                raise ApiError(422, "bad_settings", str(exc)) from None
            if len(defaults) != len(seat_kinds):
                defaults = [f"P{i + 1}" for i in range(len(seat_kinds))]
            settings["names"] = [c or d for c, d in zip(cleaned, defaults, strict=True)]
        try:
            settings = settings_for_new_game(game, settings)  # 1840: the newest rulings edition
        except (TramwaysError, TypeError, ValueError, KeyError, AttributeError) as exc:
            # settings are any JSON: a wrong type is the client's mistake, never a 500
            raise ApiError(422, "bad_settings", str(exc) or type(exc).__name__) from None
        if settings.get("players", len(seat_kinds)) != len(seat_kinds):
            raise ApiError(
                422, "bad_seats", f"{settings['players']} players need {settings['players']} seats"
            )
        if seed is None or game.info.hidden_information:
            seed = draw_seed()  # a game with hidden cards never takes a chosen seed
        try:
            setup = game.setup(settings, seed)
        except (TramwaysError, TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ApiError(422, "bad_settings", str(exc) or type(exc).__name__) from None
        shown = list(game.player_names(settings))
        rows = [(kind, shown[i] if i < len(shown) else f"P{i + 1}") for i, kind in enumerate(seat_kinds)]
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
                    "url": f"/g/{game_id}?token={tokens[i]}" if kind == "human" else None,
                }
                for i, (kind, name) in enumerate(rows)
            ],
            "spectate": f"/g/{game_id}",
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
        since: str | None = None,
    ) -> dict[str, Any]:
        if seat is None:
            raise ApiError(403, "spectator", "spectators cannot act: use your seat's link")
        with self._lock(game_id):
            # Moves trust the cache: the compare-and-set of the write notices another
            # process's move, and then the position is rebuilt and the move judged again.
            live = self._cache.get(game_id) or self.live(game_id)
            if n != live.n:
                live = self.live(game_id)
            for attempt in range(3):
                try:
                    new = self._try_move(live, seat, n, text, by_bot)
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
            self._cache.put(game_id, new)
        self._announce(game_id, new.rev)
        self._turns(live, new, seat)
        return self.payload(new, seat, since=since)

    def _try_move(self, live: Live, seat: int, n: int, text: str, by_bot: bool) -> Live:
        """Judge and write one move on ``live``; the new position (``live`` itself if the
        move was already played); ``Conflict`` if another writer was first."""
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
        if (live.seats[seat - 1].kind != "human") != by_bot:
            raise ApiError(403, "not_your_seat", "a bot plays this seat")
        state = live.state.clone()
        revealing = reveals(game, state, action)
        try:
            lines = _apply_as(state, action, seat - 1)
        except IllegalAction as exc:
            raise ApiError(422, "illegal", exc.message, rule=exc.rule) from None
        # the end of a game reveals everything (its record becomes public): never taken back
        revealing = revealing or state.is_over()
        log_id = self.store.append(
            live.row.id,
            live.rev,
            ActionRow(n, game.format_action(action), seat, revealing),
            lines,
            _status(state),
        )
        row = GameRow(**{**live.row.__dict__, "n": n + 1, "rev": live.rev + 1,
                         "status": _status(state)})
        return Live(
            row,
            game,
            state,
            [*live.actions, action],
            [*live.played, Played(seat - 1, revealing)],
            [*live.log, *lines],
            live.seats,
            live.log_id if log_id is None else log_id,
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
                self._cache.pop(game_id)
                raise ApiError(
                    409,
                    "stale",
                    "another move was played first",
                    state=self.payload(self.live(game_id), seat),
                ) from None
            self._cache.pop(game_id)
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
        from tramways.server.notify import safe_host

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
            to_act = [p + 1 for p in live.state.current_players()]
            out.append(
                {
                    "id": game_id,
                    "game": live.row.game,
                    "seat": seat,
                    "status": _status(live.state),
                    "n": live.n,
                    "your_turn": seat in to_act,
                    "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in live.seats],
                }
            )
        out.sort(key=lambda g: (not g["your_turn"], g["status"] != "active", g["id"]))
        return out

    # -- bots -------------------------------------------------------------------------------

    def kick_bots(self, game_id: str, live: Live | None = None) -> None:
        """Queue ``game_id`` with the bot scheduler if one of its bots is to act (or, with no
        position at hand, to look): its decisions are played one at a time, in turn with
        every other game's, people's games first (:mod:`tramways.server.bots`)."""
        if self._closed:
            return
        if live is None:
            live = self._cache.get(game_id)
        if live is not None:
            if self._bot_to_act(live) is None:
                return
            seats = live.seats
        else:
            try:
                seats = self.store.seats(game_id)
            except Exception:  # the database is away: the next request or sweep kicks again
                logger.warning("bots of game %s not queued: no seats read", game_id)
                return
        self._scheduler.kick(game_id, _tier(seats))

    def _bot_to_act(self, live: Live) -> int | None:
        for p in live.state.current_players():
            if 0 <= p < len(live.seats) and live.seats[p].kind.startswith("bot:"):
                return p
        return None

    def _bot(self, game_id: str, seat: int, game: Game, kind: str) -> Any:
        key = (game_id, seat, kind)
        bot = self._bots.get(key)
        if bot is None:
            from tramways.bots import make_bot

            bot = make_bot(kind.removeprefix("bot:"), game)
            self._bots.put(key, bot)
        return bot

    def _bot_step(self, game_id: str) -> Tier | None:
        """One bot decision of ``game_id`` (the scheduler's step): the tier to queue the game
        again in, or ``None`` when no bot is to act.

        On PostgreSQL the decision is made under the game's bot lease, so that one server
        process plays it; a process that finds the lease taken leaves the game to its holder.
        """
        seen: int | None = None
        with self.store.bot_lease(game_id) as leased:
            if not leased or self._closed:
                return None
            live = self.live(game_id)
            seen = live.rev
            p = self._bot_to_act(live)
            if p is not None:
                return _tier(live.seats) if self._bot_move(game_id, live, p) else None
        # A move made elsewhere while we held the lease found it taken: look again.
        if self.store.rev(game_id) != seen:
            return _tier(live.seats)
        return None

    def _bot_move(self, game_id: str, live: Live, p: int) -> bool:
        """Seat ``p``'s bot chooses from its own view and plays through the move path;
        ``False`` when it cannot (its move was refused: logged, the game's bots stop)."""
        from tramways.bots.match import give_position

        legal = moves(live.state.legal_actions(p))  # bots set no programs
        if not legal:
            return False
        bot = self._bot(game_id, p, live.game, live.seats[p].kind)
        view = live.state.view(p)
        rng = (random.Random(secrets.randbits(64)) if self._bot_seed is None
               else derive_rng(self._bot_seed, live.row.seed, "bot", p, live.n))
        # A searching 1840 bot looks ahead on a copy of the position; it re-samples the
        # hidden line deck itself (bots.match.give_position), so it learns nothing hidden.
        give_position(bot, live.state, rng)
        action = bot.choose(view, legal, rng)
        if self.bot_delay > 0 and self._closing.wait(self.bot_delay):
            return False
        try:
            self._move(game_id, p + 1, live.n, live.game.format_action(action), by_bot=True)
        except ApiError as exc:
            if exc.status != 409:  # 409: another process moved first; the next step looks
                logger.error("bot %s in %s: %s", live.seats[p].kind, game_id, exc)
                return False
        return True

    def resume_bots(self, idle_for: float | None = None) -> None:
        """After a (re)start: let every unfinished game's bots continue.  With ``idle_for``
        (seconds), only games not written for that long: the sweep that takes over the bots
        of a server process that died (its lease went with its connection)."""
        since = None
        if idle_for is not None:
            from datetime import UTC, datetime, timedelta

            since = datetime.now(UTC) - timedelta(seconds=idle_for)
        for game_id in self.store.active_bot_games(since):
            self.kick_bots(game_id)

    def wait_for_bots(self, timeout: float = 30.0) -> bool:
        """Wait until no bot is thinking or queued (tests, benchmarks); ``False`` on time-out."""
        return self._scheduler.wait_idle(timeout)
