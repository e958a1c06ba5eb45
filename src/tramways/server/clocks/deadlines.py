"""Deadlines of games played over days (docs/async.md).

A game's pace gives each move ``seconds``; a seat's clock starts when it comes to act (at
move ``n``) and stops while the seat is on vacation.  Half-way a seat whose deadline hands it
over or plays for it is reminded ("your move is awaited", through the game's e-mail and
webhook, in the seat's language, with the game's link); at the deadline:

- ``nothing``: nothing (the clock shows who is late);
- ``remind``: the reminder;
- ``bot_move``: the pace's bot plays this one move for the seat, through the move path;
- ``hand_over``: the seat is handed to the pace's bot (logged) until its owner takes it back.

Each stage fires once across server processes: the first process to insert its
``deadline_fired`` row fires it; a row left undone for ``LEASE`` seconds (its process was
killed) is taken over by a conditional ``UPDATE`` of another (``ClockStore.claim``).  Every
process sweeps the paced games every ``sweep`` seconds (``ServerSettings.deadline_sweep_seconds``),
so a deadline never depends on the process that saw the seat come to act.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tramways.core.actions import moves
from tramways.server.clocks.clock import Clock
from tramways.server.clocks.store import ClockStore, Pace, SeatClock
from tramways.server.errors import ApiError
from tramways.server.notify import TurnEvent
from tramways.server.positions import Live
from tramways.server.service import GameService

logger = logging.getLogger("tramways.server.clocks")

ON_DEADLINE = ("nothing", "remind", "bot_move", "hand_over")
LEASE = 60.0
"""Seconds after which a claimed but undone deadline is fired again by another process."""


@dataclass(frozen=True)
class Due:
    """One seat's clock now: since when it waits, its deadline (``None``: no pace, or on
    vacation), and whether that passed."""

    seat: int
    since: datetime
    deadline: datetime | None
    late: bool
    vacation: bool


def _due(clock: SeatClock, pace: Pace | None, now: datetime) -> Due:
    vacation = clock.vacation_until is not None and clock.vacation_until > now
    if pace is None or vacation:
        return Due(clock.seat, clock.since, None, False, vacation)
    start = max(clock.since, clock.vacation_until or clock.since)
    deadline = start + timedelta(seconds=pace.seconds)
    return Due(clock.seat, clock.since, deadline, now >= deadline, False)


class Deadlines:
    """The clocks of one server process: told of every write (``on_write``), sweeping."""

    def __init__(self, service: GameService, clock: Clock,
                 remind: Callable[[TurnEvent], None] | None = None) -> None:
        self.service = service
        self.store = ClockStore(service.store)
        self.clock = clock
        self.remind = remind

    # -- who is to act ----------------------------------------------------------------------

    @staticmethod
    def waiting(live: Live) -> list[int]:
        """The seats (1-based) of people to act now (none in a game an admin closed)."""
        if live.state.is_over() or live.row.status == "closed":
            return []
        return [p + 1 for p in live.state.current_players()
                if 0 <= p < len(live.seats) and live.seats[p].kind == "human"]

    def _touch(self, live: Live) -> None:
        now = self.clock.now()
        for seat in self.waiting(live):
            self.store.touch(live.row.id, seat, live.n, now)

    def on_write(self, game_id: str, _rev: int) -> None:
        """A write was committed in this process: start the clocks of the seats now to act
        (games with a pace only); never fails a move."""
        try:
            if self.store.paced(game_id):
                self._touch(self.service.live(game_id))
        except Exception:
            logger.exception("clocks of game %s not started", game_id)

    # -- the sweep --------------------------------------------------------------------------

    def sweep(self) -> int:
        """Fire what is due in every paced game; how many stages fired here."""
        fired = 0
        for game_id in self.store.paced_games():
            try:
                fired += self.check(game_id)
            except Exception:
                logger.exception("deadlines of game %s", game_id)
        return fired

    def check(self, game_id: str) -> int:
        pace = self.store.pace(game_id)
        if pace is None:
            return 0
        live = self.service.live(game_id)
        self._touch(live)
        clocks = self.store.clocks(game_id)
        now = self.clock.now()
        fired = 0
        for seat in self.waiting(live):
            clock = clocks.get(seat)
            if clock is None or clock.n != live.n:
                continue
            due = _due(clock, pace, now)
            if due.deadline is None or pace.on_deadline == "nothing":
                continue
            half = due.deadline - timedelta(seconds=pace.seconds / 2)
            if pace.on_deadline in ("bot_move", "hand_over") and now >= half:
                fired += self._fire(live, seat, "remind", pace)
            if due.late:
                fired += self._fire(live, seat, "deadline", pace)
        return fired

    def _fire(self, live: Live, seat: int, stage: str, pace: Pace) -> int:
        game_id, n = live.row.id, live.n
        if not self.store.claim(game_id, seat, n, stage, self.clock.now(), LEASE):
            return 0
        if stage == "remind" or pace.on_deadline == "remind":
            self._remind(live, seat)
        elif pace.on_deadline == "bot_move":
            self._stand_in_move(live, seat, pace.bot)
        elif pace.on_deadline == "hand_over":
            name = live.seats[seat - 1].name
            self.hand_over(game_id, seat, pace.bot, f"{name}'s deadline passed: "
                           f"{_bot_words(pace.bot)} plays the seat until its owner takes it back")
        self.store.done(game_id, seat, n, stage)
        return 1

    def _remind(self, live: Live, seat: int) -> None:
        if self.remind is not None:
            self.remind(TurnEvent(live.row.id, live.row.game, live.n,
                                  ((seat, live.seats[seat - 1].name),), reminder=True))

    def _stand_in_move(self, live: Live, seat: int, kind: str) -> None:
        """The pace's bot chooses one move for the late seat, from its view, and plays it
        through the move path (a 409: the seat moved meanwhile, nothing to do)."""
        from tramways.bots import make_bot
        from tramways.bots.match import give_position

        p = seat - 1
        legal = moves(live.state.legal_actions(p))
        if not legal:
            return
        bot = make_bot(kind.removeprefix("bot:"), live.game)
        rng = random.Random(secrets.randbits(64))
        give_position(bot, live.state, rng)
        action = bot.choose(live.state.view(p), legal, rng)
        try:
            self.service._move(live.row.id, seat, live.n, live.game.format_action(action),
                               stand_in=True)
        except ApiError as exc:
            if exc.status != 409:
                logger.error("stand-in move in %s: %s", live.row.id, exc)
        self.service.kick_bots(live.row.id)

    # -- seats changing hands -----------------------------------------------------------------

    def hand_over(self, game_id: str, seat: int, bot: str, line: str,
                  resigned: bool = False) -> None:
        """Seat ``seat`` (a person's) to ``bot``, logged; its owner's kind kept to give back."""
        live = self.service.live(game_id)
        rev = self.store.change_seat(game_id, seat, kind=bot, owner_kind="human",
                                     resigned=resigned, line=line, expect="human",
                                     now=self.clock.now(), n=live.n)
        if rev is not None:
            self._changed(game_id, rev)

    def take_back(self, game_id: str, seat: int) -> None:
        """The owner of a seat handed to a bot takes it back (not after resigning)."""
        live = self.service.live(game_id)
        kind = live.seats[seat - 1].kind
        clock = self.store.clocks(game_id).get(seat)
        if kind == "human" or clock is None or clock.owner_kind != "human":
            raise ApiError(422, "not_handed", "this seat is yours already: nothing to take back")
        if clock.resigned:
            raise ApiError(422, "resigned", "you resigned this seat: it stays with the bot")
        rev = self.store.change_seat(
            game_id, seat, kind="human", owner_kind=None, resigned=False,
            line=f"{live.seats[seat - 1].name} takes the seat back from {_bot_words(kind)}",
            expect=kind, now=self.clock.now(), n=live.n)
        if rev is None:
            raise ApiError(409, "stale", "the seat changed hands meanwhile: try again")
        self._changed(game_id, rev)

    def _changed(self, game_id: str, rev: int) -> None:
        self.service.forget(game_id)
        self.service._announce(game_id, rev)
        self.service.kick_bots(game_id)
        self.on_write(game_id, rev)

    # -- what a page shows ------------------------------------------------------------------

    def status(self, game_id: str) -> dict[str, Any]:
        """Each seat's clock: who holds it, whether it is to act, since when, its deadline."""
        live = self.service.live(game_id)
        pace = self.store.pace(game_id)
        clocks = self.store.clocks(game_id)
        now = self.clock.now()
        waiting = set(self.waiting(live))
        out = []
        for s in live.seats:
            c = clocks.get(s.seat)
            due = _due(c, pace, now) if c is not None and c.n == live.n else None
            out.append({
                "seat": s.seat, "name": s.name, "kind": s.kind,
                "handed": bool(c and c.owner_kind), "resigned": bool(c and c.resigned),
                "to_act": s.seat in waiting,
                "since": due.since.isoformat() if due and s.seat in waiting else None,
                "waiting_seconds": int((now - due.since).total_seconds())
                if due and s.seat in waiting else None,
                "deadline": due.deadline.isoformat() if due and due.deadline and
                s.seat in waiting else None,
                "late": bool(due and due.late and s.seat in waiting),
                "vacation_until": c.vacation_until.isoformat()
                if c and c.vacation_until and c.vacation_until > now else None,
            })
        return {"pace": None if pace is None else {
            "seconds": pace.seconds, "on_deadline": pace.on_deadline, "bot": pace.bot},
            "on_resign": self.store.on_resign(game_id), "over": live.state.is_over(),
            "now": now.isoformat(), "seats": out}


def _bot_words(kind: str) -> str:
    return f"the computer ({kind.removeprefix('bot:')})"


def run_sweeps(deadlines: Deadlines, every: float, stop: threading.Event) -> None:
    """Sweep every ``every`` seconds until ``stop`` (a thread of each server process)."""
    while not stop.wait(every):
        try:
            deadlines.sweep()
        except Exception:  # the database is away: the next sweep tries again
            logger.warning("deadline sweep failed", exc_info=True)
