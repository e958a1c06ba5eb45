"""The JSON API of play over days (mounted under ``/api``; docs/async.md): a game's pace,
each seat's clock, vacations, seats handed to a bot, votes, resigning, taking a seat back.
The seat is the token's (``Authorization: Bearer`` or ``?token=``), as for moves."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from tramways.server.api import error_responses
from tramways.server.clocks import seats as ask
from tramways.server.clocks.deadlines import Deadlines
from tramways.server.deps import ActingSeatDep, SeatDep

router = APIRouter(tags=["play over days"],
                   responses=error_responses(400, 403, 404, 413, 422, 429, 503))


class PaceView(BaseModel):
    """A game's pace: seconds per move, what its deadline does, who stands in."""

    seconds: int
    on_deadline: Literal["nothing", "remind", "bot_move", "hand_over"]
    bot: str


class SeatClockView(BaseModel):
    """One seat's clock."""

    seat: int = Field(description="1-based")
    name: str
    kind: str = Field(description="human, or the bot's kind")
    handed: bool = Field(description="handed to a bot (its owner may take it back)")
    resigned: bool
    to_act: bool
    since: str | None = Field(description="when it began to wait (ISO 8601), if to act")
    waiting_seconds: int | None
    deadline: str | None = Field(description="its deadline (ISO 8601), if paced and to act")
    late: bool
    vacation_until: str | None


class Clocks(BaseModel):
    """The game's pace (null: none) and every seat's clock."""

    pace: PaceView | None
    on_resign: Literal["bot", "end"] = Field(
        default="bot", description="what a resignation does, chosen when the game was made: "
        "bot (the computer plays the seat to the end) or end (the game ends at once)")
    over: bool = Field(default=False, description="the game is over: no control applies")
    now: str = Field(description="the server's time (ISO 8601)")
    seats: list[SeatClockView]
    you: int | None = Field(default=None, description="the token's seat (null: a spectator); "
                            "only on GET .../clocks")


class Vote(BaseModel):
    """Who voted to hand a seat over, whose votes it needs, and whether it was handed."""

    voters: list[int]
    needed: list[int]
    handed: bool

def get_deadlines(request: Request) -> Deadlines:
    deadlines: Deadlines = request.app.state.deadlines
    return deadlines

DeadlinesDep = Annotated[Deadlines, Depends(get_deadlines)]

class PaceBody(BaseModel):
    minutes: int | None = Field(default=None, description="live: minutes per move")
    hours: int | None = Field(default=None, description="over days: hours per move (24)")
    on_deadline: Literal["nothing", "remind", "bot_move", "hand_over"] = "remind"
    bot: str = Field(default="bot:rule", max_length=32,
                     description="who stands in: a bot of the game")

class VacationBody(BaseModel):
    until: datetime | None = Field(default=None, description="the end of the vacation, with "
                                   "its time zone; null: back now")

class SeatBody(BaseModel):
    seat: int = Field(ge=1, le=6, description="the seat (1-based)")
    bot: str = Field(default="bot:rule", max_length=32)

class ResignBody(BaseModel):
    bot: str = Field(default="bot:rule", max_length=32, description="who plays the seat on "
                     "(a game whose resignation ends it takes none)")

@router.get("/games/{game_id}/clocks", response_model=Clocks)
async def clocks(game_id: str, d: DeadlinesDep, seat: SeatDep) -> dict[str, object]:
    """The game's pace and every seat's clock: to act, since when, its deadline, late, on
    vacation, handed to a bot; ``you``: the token's seat (``null``: a spectator)."""
    status = await run_in_threadpool(d.status, game_id)
    return {**status, "you": seat}

@router.post("/games/{game_id}/pace", response_model=Clocks)
async def pace(game_id: str, body: PaceBody, seat: ActingSeatDep,
               d: DeadlinesDep) -> dict[str, object]:
    seconds = (body.minutes or 0) * 60 + (body.hours or 0) * 3600
    await run_in_threadpool(ask.set_pace, d, game_id, seat, seconds, body.on_deadline,
                            body.bot)
    return await run_in_threadpool(d.status, game_id)

@router.post("/games/{game_id}/vacation", response_model=Clocks)
async def vacation(game_id: str, body: VacationBody, seat: ActingSeatDep,
                   d: DeadlinesDep) -> dict[str, object]:
    await run_in_threadpool(ask.set_vacation, d, game_id, seat, body.until)
    return await run_in_threadpool(d.status, game_id)

@router.post("/games/{game_id}/takeover", response_model=Clocks)
async def takeover(game_id: str, body: SeatBody, seat: ActingSeatDep,
                   d: DeadlinesDep) -> dict[str, object]:
    """Hand a late seat (its deadline passed) to a bot."""
    await run_in_threadpool(ask.take_over, d, game_id, seat, body.seat, body.bot)
    return await run_in_threadpool(d.status, game_id)

@router.post("/games/{game_id}/vote", response_model=Vote)
async def vote(game_id: str, body: SeatBody, seat: ActingSeatDep,
               d: DeadlinesDep) -> dict[str, object]:
    """Vote to hand a seat to a bot: when every other person's seat voted, it is."""
    return await run_in_threadpool(ask.vote, d, game_id, seat, body.seat)

@router.post("/games/{game_id}/resign", response_model=Clocks)
async def resign(game_id: str, body: ResignBody, seat: ActingSeatDep,
                 d: DeadlinesDep) -> dict[str, object]:
    """The seat resigns, as the game's ``on_resign`` says: the bot plays it to the end, or
    the game ends at once with the resigner placed last (docs/async.md)."""
    await run_in_threadpool(ask.resign, d, game_id, seat, body.bot)
    return await run_in_threadpool(d.status, game_id)

@router.post("/games/{game_id}/take-back", response_model=Clocks)
async def take_back(game_id: str, seat: ActingSeatDep, d: DeadlinesDep) -> dict[str, object]:
    """The owner of a seat handed to a bot plays it again."""
    await run_in_threadpool(ask.take_back, d, game_id, seat)
    return await run_in_threadpool(d.status, game_id)
