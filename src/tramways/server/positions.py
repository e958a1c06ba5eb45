"""The live positions of a server process: a bounded cache and its catch-up.

Positions are cached per game with the ``rev`` they were built at; every request compares the
cached ``rev`` with the database's, and when the database is ahead (another process wrote)
reads the moves made since and plays them on a copy (after an undo: replays the whole record),
so the cache is never trusted across processes.  On PostgreSQL another process's move also
arrives with its ``NOTIFY`` (:class:`~tramways.server.rows.Written`) and is played on the
cached position at once (:meth:`Positions.follow`), so that with moves spread over the
processes the cache is usually current: no failed compare-and-set, no catch-up read, frames
from the cache.  Each game also has a write lock in this process (weakly kept: it goes when
nobody holds it).
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tramways.core import Action
from tramways.core.game import Game, GameState
from tramways.core.undo import Played
from tramways.games import get_game
from tramways.server.cache import LRU, position_bytes
from tramways.server.errors import ApiError
from tramways.server.rows import ActionRow, GameRow, SeatRow, Written
from tramways.server.storage import Store

logger = logging.getLogger("tramways.server")

CACHE_GAMES = 2000
"""Positions kept per server process by default (``ServerSettings.cache_games``)."""
CACHE_BYTES = 200 * 1024 * 1024
"""The approximate memory of the positions kept per server process by default
(``ServerSettings.cache_bytes``; each weighed by ``cache.position_bytes``)."""

RESIGN_MESSAGE = "a resignation is not a move: use Resign (POST /api/games/ID/resign)"


def apply_as(state: GameState, action: Action, player: int, resign: bool = False) -> list[str]:
    """Apply ``action`` for seat ``player`` (0-based); ``ApiError(403)`` if it is not theirs.

    The engine decides authority (``seats_for``; ``apply(action, seat)`` checks it again): an
    action of another player, or of a company or line this seat does not direct (1840 IV.1.2),
    is refused with 403 before its legality is looked at.  A resignation
    (``Action.resigns``) is played only with ``resign``: the Resign control of a game whose
    resignation ends it (docs/async.md), never sent as a move (422, rule ``resign``).
    """
    seats = state.seats_for(action)
    if seats and player not in seats:
        raise ApiError(403, "not_your_seat", "that action is not yours to take")
    if action.resigns and not resign:
        raise ApiError(422, "illegal", RESIGN_MESSAGE, rule="resign")
    return state.apply(action, player)


_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def check_id(game_id: str) -> None:
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
    log_at: tuple[int | None, ...] = ()
    """For each line of ``log``, the position it links to: the number of moves just after
    the move that wrote it (``None``: an undo's or a closing's line, or a line of a move
    taken back); see :func:`line_positions`."""

    def line_positions(self, start: int = 0) -> list[int | None]:
        """``log_at`` from line ``start`` on, as long as ``log`` (``None`` for lines it does
        not cover)."""
        marks = list(self.log_at[start:len(self.log)])
        return marks + [None] * (len(self.log) - max(start, len(self.log_at)))

    @property
    def n(self) -> int:
        return len(self.actions)

    @property
    def rev(self) -> int:
        return self.row.rev


@dataclass(frozen=True)
class LogIndex:
    """A game's whole log as it stands and where each line links to (``Live.log_at``)."""

    n: int
    lines: tuple[str, ...]
    at: tuple[int | None, ...]

    @classmethod
    def of(cls, live: Live) -> LogIndex:
        return cls(live.n, tuple(live.log), tuple(live.line_positions()))


def status(state: GameState) -> str:
    """A game's ``status`` as stored and sent: ``active`` or ``over``."""
    return "over" if state.is_over() else "active"


def _position_bytes(live: Live) -> int:
    return position_bytes(live.row.game, live.n)


class _GameLock:
    """One game's write lock in this process (weakly kept: it goes when nobody holds it).

    ``missed`` holds the moves another process announced that wait to be followed: the
    ``LISTEN`` thread does not wait for a writer, it leaves them there, and whoever holds the
    lock next takes all of them and hands them to ``on_release`` (under the lock, in the order
    of their revisions), so a move announced during a write or a catch-up is still followed,
    and a move announced just after it is never tried before it."""

    def __init__(self, on_release: Callable[[list[Written]], None]) -> None:
        self.lock = threading.Lock()
        self.missed: list[Written] = []
        self._on_release = on_release

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, *_exc: object) -> None:
        self.lock.release()
        self.hand_over()

    def hand_over(self) -> None:
        """Follow the waiting moves, if the lock is free (else its holder does on release).

        Only a holder of the lock takes moves out, and a holder looks again after releasing
        it: a move appended meanwhile either is seen by that look or was appended after the
        release, and its own ``hand_over`` then finds the lock free (or a newer holder, who
        looks again in turn)."""
        while self.missed:
            if not self.lock.acquire(blocking=False):
                return
            try:
                taken: list[Written] = []
                while self.missed:
                    taken.append(self.missed.pop())
                self._on_release(sorted(taken, key=lambda w: w.rev))
            finally:
                self.lock.release()


class Positions:
    """The positions of this process: at most ``cache_games``, weighing at most
    ``cache_bytes`` (as estimated by ``cache.position_bytes``; least recently used out first;
    a forgotten game is rebuilt from its record when it is asked for again).  The game
    service is one (:class:`~tramways.server.service.GameService` extends it with the use
    cases)."""

    def __init__(self, store: Store, cache_games: int = CACHE_GAMES,
                 cache_bytes: int = CACHE_BYTES) -> None:
        self.store = store
        self._cache = LRU(cache_games, budget=cache_bytes, weigh=_position_bytes)
        self._locks: weakref.WeakValueDictionary[str, _GameLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self.follows: Counter[str] = Counter()
        """How each move announced by a ``NOTIFY`` went (:meth:`follow`): ``followed``,
        ``current`` (the cache had it), ``behind`` (the cache missed a write before it),
        ``not cached``, ``no move`` (an undo, a closing, a payload without the move),
        ``lines differ``, ``failed``."""
        self._follows_guard = threading.Lock()

    def _lock(self, game_id: str) -> _GameLock:
        """The write lock of ``game_id`` in this process."""
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = _GameLock(self._follow_held)
            return lock

    def cached(self, game_id: str) -> Live | None:
        """The cached position, whatever its ``rev`` (moves trust it: their compare-and-set
        notices another process's write)."""
        found: Live | None = self._cache.get(game_id)
        return found

    def put(self, live: Live) -> None:
        self._cache.put(live.row.id, live)

    def forget(self, game_id: str) -> None:
        self._cache.pop(game_id)

    def live(self, game_id: str) -> Live:
        """The current position (from the cache if the database's ``rev`` still matches)."""
        check_id(game_id)
        cached = self.cached(game_id)
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
        loaded = self.store.load_lines(game_id, cached.n, cached.log_id)
        if loaded is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        row, rows, lines, log_id = loaded.row, loaded.actions, loaded.lines, loaded.log_id
        appended = row.n - cached.n
        if (appended < 0 or row.rev - cached.rev != appended or len(rows) != appended
                or any(a.seq != cached.n + i for i, a in enumerate(rows))):
            return self._rebuild(game_id)  # an undo came between: replay the record
        state = cached.state.clone()
        acts, played = list(cached.actions), list(cached.played)
        _replay(cached.game, state, rows, acts, played)
        # only moves came between (checked above): every new line is a current move's
        marks = (*cached.line_positions(), *(None if q is None else q + 1 for q in loaded.seqs))
        live = Live(row, cached.game, state, acts, played, [*cached.log, *lines], cached.seats,
                    log_id, marks)
        self._install(live)
        return live

    def follow(self, written: Written) -> None:
        """Play another process's move, as its ``NOTIFY`` announced it, on the cached position
        when that is the position just before it (``rev - 1``, the same move number): the
        cache is then current before this process's next write (whose compare-and-set would
        otherwise fail once and catch up) and before the sockets' frames (which would read
        the database).  The result equals a replay of the record: the engine is
        deterministic, and the move's log lines are counted against the writer's.  Anything
        else (no cached position, another revision, an undo, a count that differs) leaves the
        cache as it is, and the next request catches up from the database as before; each
        outcome is counted in :attr:`follows`.

        The move waits in the game's lock (``_GameLock.missed``) and is played under it, with
        any move announced before it that waits there too, in the order of their revisions:
        while this process writes the game (this very move, or a catch-up that may have read
        the record just before this move) the writer follows them on release.  Never raises
        (it runs in the ``LISTEN`` thread)."""
        if written.action is None:
            self._count("no move")
            return
        if self.cached(written.game_id) is None:
            self._count("not cached")
            return
        guard = self._lock(written.game_id)  # held here: the lock lives while it is kept
        guard.missed.append(written)
        guard.hand_over()

    def _count(self, outcome: str) -> None:
        with self._follows_guard:
            self.follows[outcome] += 1

    def _follow_held(self, moves: list[Written]) -> None:
        """Follow ``moves`` (in the order of their revisions) with the game's lock held."""
        for written in moves:
            a = written.action
            assert a is not None  # follow() keeps only moves
            try:
                cached = self.cached(written.game_id)
                if cached is None:
                    self._count("not cached")
                elif cached.rev >= written.rev:
                    self._count("current")  # this process's own move, or already caught up
                elif cached.rev != written.rev - 1 or cached.n != a.seq:
                    # a move (or an undo) was missed: the next request catches up
                    self._count("behind")
                    logger.debug("the move of game %s at rev %d not followed: the cache is at "
                                 "rev %d", written.game_id, written.rev, cached.rev)
                else:
                    live = _played(cached, written, a)
                    if live is None:
                        self._count("lines differ")
                        logger.warning("the move of game %s at rev %d not followed: it wrote "
                                       "another count of log lines than its writer's (%d)",
                                       written.game_id, written.rev, written.lines)
                    else:
                        self._install(live)
                        self._count("followed")
            except Exception:  # e.g. a move a newer engine wrote: leave it to the catch-up
                self._count("failed")
                logger.warning("the move of game %s at rev %d could not be followed",
                               written.game_id, written.rev)

    def _install(self, live: Live) -> None:
        current = self.cached(live.row.id)
        if current is None or current.rev <= live.rev:  # a slow rebuild never goes back
            self.put(live)

    def _rebuild(self, game_id: str) -> Live:
        loaded = self.store.load_lines(game_id, 0, 0)
        if loaded is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        row, rows = loaded.row, loaded.actions
        game = get_game(row.game)
        state = game.new_state(row.settings, row.setup, row.seed)
        acts: list[Action] = []
        played: list[Played] = []
        counts = _replay(game, state, rows, acts, played)
        live = Live(row, game, state, acts, played, loaded.lines, self.store.seats(game_id),
                    loaded.log_id, line_positions(loaded.seqs, counts))
        self._install(live)
        return live


def _played(cached: Live, written: Written, a: ActionRow) -> Live | None:
    """``cached`` with the written move ``a`` played on a copy (``None``: its log lines are
    not the writer's count)."""
    action = cached.game.parse_action(a.notation)
    state = cached.state.clone()
    player = a.seat - 1 if a.seat is not None else None
    lines = state.apply(action, player)
    if len(lines) != written.lines:
        return None
    row = replace(cached.row, n=a.seq + 1, rev=written.rev, status=status(state))
    log_id = cached.log_id if written.log_id is None else written.log_id
    return Live(row, cached.game, state, [*cached.actions, action],
                [*cached.played, Played(player, a.reveals)], [*cached.log, *lines],
                cached.seats, log_id, (*cached.line_positions(), *[a.seq + 1] * len(lines)))


def _replay(game: Game, state: GameState, rows: list[ActionRow], acts: list[Action],
            played: list[Played]) -> list[int]:
    """Play ``rows`` on ``state``; how many log lines each move wrote."""
    counts = []
    for a in rows:
        action = game.parse_action(a.notation)
        counts.append(len(state.apply(action, a.seat - 1 if a.seat is not None else None)))
        acts.append(action)
        played.append(Played(a.seat - 1 if a.seat is not None else None, a.reveals))
    return counts


def line_positions(seqs: Sequence[int | None], counts: Sequence[int]) -> tuple[int | None, ...]:
    """Where each stored log line links to (the log's lines link to the
    position after the move that wrote them, ``?at=N``), from the move number each line was
    stored with (``seqs``) and how many lines each move of the current line of play writes
    (``counts``, from the replay).

    The lines of move ``k`` are the last ``counts[k]`` lines stored with number ``k``: a
    move's lines are written together, and a line of the same number written later would be
    a move played after an undo took move ``k`` back.  They link to ``k + 1``.  Every other
    line (an undo's, a closing's, a move taken back) links nowhere (``None``)."""
    left = list(counts)
    out: list[int | None] = [None] * len(seqs)
    for i in range(len(seqs) - 1, -1, -1):
        k = seqs[i]
        if k is not None and 0 <= k < len(left) and left[k] > 0:
            left[k] -= 1
            out[i] = k + 1
    return tuple(out)
