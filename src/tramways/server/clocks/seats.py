"""What people ask of the clocks (docs/async.md): a pace, a
vacation, a late seat handed to a bot, a vote to hand a seat over, resigning, taking a seat
back.  Each refusal is one :class:`~tramways.server.errors.ApiError` with one sentence, and a
refused request changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tramways.server.clocks.deadlines import ON_DEADLINE, Deadlines, _bot_words, _due
from tramways.server.clocks.store import Pace
from tramways.server.errors import ApiError

MAX_PACE = 30 * 24 * 3600
"""The slowest pace: 30 days a move."""


def _person(d: Deadlines, game_id: str, seat: int | None, what: str) -> int:
    """``seat`` if it is a person's seat of the game (a seat handed to a bot still is)."""
    if seat is None:
        raise ApiError(403, "spectator", f"spectators cannot {what}: use your seat's link")
    live = d.service.live(game_id)
    clock = d.store.clocks(game_id).get(seat)
    if live.seats[seat - 1].kind != "human" and not (clock and clock.owner_kind == "human"):
        raise ApiError(403, "not_your_seat", "a bot plays this seat")
    return seat


def _bot(d: Deadlines, game_id: str, bot: str) -> str:
    from tramways.bots import bot_names

    live = d.service.live(game_id)
    names = bot_names(live.row.game)
    if not bot.startswith("bot:") or bot.removeprefix("bot:") not in names:
        raise ApiError(422, "bad_bot", "the stand-in is one of "
                       + ", ".join(f"bot:{b}" for b in names))
    return bot


def set_pace(d: Deadlines, game_id: str, seat: int | None, seconds: int, on_deadline: str,
             bot: str) -> None:
    """A person's seat sets the game's pace (every seat's clock from its next move)."""
    _person(d, game_id, seat, "set the pace")
    if not 60 <= seconds <= MAX_PACE:
        raise ApiError(422, "bad_pace", "a pace is between 1 minute and 30 days a move")
    if on_deadline not in ON_DEADLINE:
        raise ApiError(422, "bad_pace", "at the deadline: " + ", ".join(ON_DEADLINE))
    d.store.set_pace(game_id, Pace(seconds, on_deadline, _bot(d, game_id, bot)))
    d.on_write(game_id, 0)


def set_vacation(d: Deadlines, game_id: str, seat: int | None, until: datetime | None) -> None:
    """Pause (until ``until``) or end (``None``) the seat's clock."""
    _person(d, game_id, seat, "take a vacation")
    now = d.clock.now()
    if until is not None:
        if until.tzinfo is None:
            raise ApiError(422, "bad_time", "give the time with its zone (2026-12-01T18:00Z)")
        if until <= now:
            raise ApiError(422, "in_the_past", f"that time is in the past (now: "
                           f"{now.isoformat(timespec='minutes')})")
        if until > now + timedelta(days=60):
            raise ApiError(422, "too_long", "a vacation lasts at most 60 days")
    assert seat is not None
    d.store.set_vacation(game_id, seat, until, d.service.live(game_id).n, now)


def _late(d: Deadlines, game_id: str, target: int) -> bool:
    pace = d.store.pace(game_id)
    live = d.service.live(game_id)
    clock = d.store.clocks(game_id).get(target)
    if pace is None or clock is None or clock.n != live.n or target not in d.waiting(live):
        return False
    return _due(clock, pace, d.clock.now()).late


def _target(d: Deadlines, game_id: str, seat: int | None, target: int, what: str) -> str:
    """The name of ``target``, a person's seat other than ``seat`` (a person's)."""
    _person(d, game_id, seat, what)
    live = d.service.live(game_id)
    if not 1 <= target <= len(live.seats):
        raise ApiError(422, "bad_seat", f"no seat {target} in this game")
    if target == seat:
        raise ApiError(422, "own_seat", "that is your own seat: resign instead")
    if live.seats[target - 1].kind != "human":
        raise ApiError(422, "not_a_person", f"{live.seats[target - 1].name} is played by "
                       "the computer already")
    return live.seats[target - 1].name


def take_over(d: Deadlines, game_id: str, seat: int | None, target: int, bot: str) -> None:
    """Another person hands a late seat to a bot (only once its deadline passed)."""
    name = _target(d, game_id, seat, target, "hand a seat over")
    bot = _bot(d, game_id, bot)
    if not _late(d, game_id, target):
        raise ApiError(422, "not_late", f"{name} is not late: a seat is handed over only after "
                       "its deadline (or by a vote of the other players)")
    live = d.service.live(game_id)
    assert seat is not None
    d.hand_over(game_id, target, bot, f"{live.seats[seat - 1].name} hands {name}'s seat to "
                f"{_bot_words(bot)}: its deadline passed")


def vote(d: Deadlines, game_id: str, seat: int | None, target: int) -> dict[str, object]:
    """A vote to hand ``target`` to the pace's bot (or the rule bot); when every other
    person's seat has voted, it is."""
    name = _target(d, game_id, seat, target, "vote")
    assert seat is not None
    live = d.service.live(game_id)
    voters = d.store.vote(game_id, target, seat)
    electors = {s.seat for s in live.seats if s.kind == "human" and s.seat != target}
    if electors <= voters:
        pace = d.store.pace(game_id)
        bot = pace.bot if pace else "bot:rule"
        d.hand_over(game_id, target, bot, f"The other players voted: {_bot_words(bot)} plays "
                    f"{name}'s seat until its owner takes it back")
        return {"voters": sorted(voters), "needed": sorted(electors), "handed": True}
    return {"voters": sorted(voters), "needed": sorted(electors), "handed": False}


def resign(d: Deadlines, game_id: str, seat: int | None, bot: str) -> None:
    """The seat's owner resigns, as the game's settings say (``on_resign``, chosen when it
    was made): ``bot``, a bot plays the seat to the end (never given back); ``end``, the
    game ends at once, the resigner placed last: the engine's resignation (``P2 resign``,
    ``Game.resignation``) played as the record's next move, so that replay ends it alike."""
    _person(d, game_id, seat, "resign")
    assert seat is not None
    live = d.service.live(game_id)
    if live.state.is_over():
        raise ApiError(422, "over", "the game is over")
    if live.seats[seat - 1].kind != "human":
        raise ApiError(422, "handed", "take your seat back first, then resign")
    if d.store.on_resign(game_id) == "end":
        _resign_ends(d, game_id, seat)
        return
    bot = _bot(d, game_id, bot)
    d.hand_over(game_id, seat, bot, f"{live.seats[seat - 1].name} resigns: "
                f"{_bot_words(bot)} plays the seat to the end", resigned=True)


def _resign_ends(d: Deadlines, game_id: str, seat: int) -> None:
    """Play the seat's resignation as the next move (after a move played meanwhile by
    another, again on the new position); the engine logs "Anna resigns: the game ends"."""
    for attempt in range(3):
        live = d.service.live(game_id)
        action = live.game.resignation(seat - 1)
        if action is None:
            raise ApiError(422, "no_resign", f"a game of {live.row.game} cannot end by a "
                           "resignation")
        try:
            d.service._move(game_id, seat, live.n, live.game.format_action(action),
                            resign=True)
            return
        except ApiError as exc:
            if exc.body["error"] != "stale" or attempt == 2:
                raise
        if d.service.live(game_id).state.is_over():
            raise ApiError(422, "over", "the game is over")


def take_back(d: Deadlines, game_id: str, seat: int | None) -> None:
    _person(d, game_id, seat, "take a seat back")
    assert seat is not None
    d.take_back(game_id, seat)
