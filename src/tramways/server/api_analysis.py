"""The JSON API of post-game analysis (mounted under ``/api``;
docs/bots.md "Post-game analysis"): ``GET /api/games/ID/analysis``."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from tramways.server.analyses import Analyser
from tramways.server.api import error_responses
from tramways.server.deps import ServiceDep
from tramways.server.errors import ApiError

router = APIRouter(tags=["post-game analysis"], responses={
    **error_responses(404, 429),
    409: {"description": "the game is not over (``not_over``)"}})


class RatedDecision(BaseModel):
    """One decision rated by the strong bot, from the mover's point of view."""

    index: int = Field(description="the record's action number (0-based); the position "
                       "before it is the game page's ?at=INDEX")
    seat: int = Field(description="0-based")
    played: str = Field(description="the move played (notation)")
    best: str = Field(description="the strong bot's move there (notation)")
    before: float = Field(description="the value of the best move (the position's worth)")
    after: float = Field(description="the value of the move played")
    loss: float = Field(description="before - after")
    choices: int = Field(description="the legal moves there")
    played_log: list[str] = Field(description="the engine's log line of the move played")
    best_log: list[str] = Field(description="the engine's log line of the strong bot's move")


class CurvePoint(BaseModel):
    """Every seat's static evaluation after the record's first ``index`` actions."""

    index: int
    values: list[float]


class AnalysisData(BaseModel):
    """A finished game's analysis (tramways.bots.analysis.Analysis)."""

    game: str
    seed: int
    seats: int
    actions: int
    decisions: list[RatedDecision]
    curve: list[CurvePoint]
    turning_points: list[int] = Field(description="the action numbers of the largest losses")
    seconds: float = Field(description="the time the analysis took")


class AnalysisReply(BaseModel):
    """``pending`` (HTTP 202: queued or running; ask again), ``done`` or ``failed``."""

    status: Literal["pending", "done", "failed"]
    analysis: AnalysisData | None = None


def analyser(request: Request) -> Analyser:
    found: Analyser = request.app.state.analyser
    return found


@router.get("/games/{game_id}/analysis", response_model=AnalysisReply,
            responses={202: {"model": AnalysisReply, "description": "pending"}})
async def get_analysis(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    """The strong bot's rating of every decision of a finished game (409 ``not_over`` before
    its end: a game in play is never analysed)."""
    live = await run_in_threadpool(service.live, game_id)
    if not live.state.is_over():
        raise ApiError(409, "not_over", "the game is not over: it is analysed once it ends")
    status, data = await run_in_threadpool(analyser(request).result, live.row.id)
    reply = AnalysisReply(status=status,
                          analysis=AnalysisData.model_validate(data) if data else None)
    return JSONResponse(reply.model_dump(), status_code=202 if status == "pending" else 200)
