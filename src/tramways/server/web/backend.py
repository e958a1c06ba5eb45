"""The pages use the same game service as the JSON API (``app.state.service``).

Every call goes through the service's own checks (``seat_for`` for the token, then
``state`` / ``move`` / ``undo`` / ``record``), so a page can never show or do more than the
API allows the token it carries; moves, undos and new games count against the same rate
limits as the API's (``limits.limit_moves``, ``limits.limit_games``).  Refusals come back as an :class:`ApiReply` with the API's
status and JSON body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio.to_thread
from fastapi import Request
from starlette.concurrency import run_in_threadpool

from tramways.server.errors import ApiError
from tramways.server.limits import limit_games, limit_moves
from tramways.server.service import GameService


class ApiReply:
    def __init__(self, status: int, data: Any) -> None:
        self.status = status
        self.data = data

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def _run(fn: Callable[[], Any], ok: int = 200, limiter: Any = None) -> ApiReply:
    try:
        if limiter is None:
            return ApiReply(ok, await run_in_threadpool(fn))
        return ApiReply(ok, await anyio.to_thread.run_sync(fn, limiter=limiter))
    except ApiError as exc:
        return ApiReply(exc.status, exc.body)


async def state(request: Request, gid: str, token: str | None, at: int | None) -> ApiReply:
    """The payload; a past position (``at``) in the lane of the costly reads."""
    service = _service(request)
    return await _run(lambda: service.state(gid, service.seat_for(gid, token), at),
                      limiter=request.app.state.heavy if at is not None else None)


async def create(
    request: Request,
    seats: list[str],
    names: list[str | None],
    game: str = "trambahn",
    settings: dict[str, Any] | None = None,
    seed: int | None = None,
) -> ApiReply:
    service = _service(request)
    address = request.client.host if request.client else "-"

    def create() -> Any:
        limit_games(request.app.state, address, seats)
        return service.create(game, dict(settings or {}), seats, names, seed=seed)

    return await _run(create, ok=201)


async def move(request: Request, gid: str, token: str | None, n: int, action: str) -> ApiReply:
    service = _service(request)

    def move() -> Any:
        seat = service.seat_for(gid, token)
        limit_moves(request.app.state, gid, seat)
        return service.move(gid, seat, n, action)

    return await _run(move)


async def undo(request: Request, gid: str, token: str | None, n: int) -> ApiReply:
    service = _service(request)

    def undo() -> Any:
        seat = service.seat_for(gid, token)
        limit_moves(request.app.state, gid, seat)
        return service.undo(gid, seat, n)

    return await _run(undo)


async def record(request: Request, gid: str, token: str | None) -> ApiReply:
    service = _service(request)

    def fetch() -> Any:
        service.seat_for(gid, token)  # a wrong token is refused, as by the API
        return service.record(gid)

    return await _run(fetch)


async def notify_settings(request: Request, gid: str, token: str | None) -> ApiReply:
    service = _service(request)
    return await _run(lambda: service.notify_settings(gid, service.seat_for(gid, token)))


async def set_notify(request: Request, gid: str, token: str | None,
                     changes: dict[str, str | None], lang: str | None = None) -> ApiReply:
    service = _service(request)
    allow = bool(request.app.state.settings.allow_loopback_webhooks)

    def set_notify() -> Any:
        seat = service.seat_for(gid, token)
        limit_moves(request.app.state, gid, seat)  # as PUT /api/games/ID/notify
        return service.set_notify(gid, seat, changes, allow_loopback=allow, lang=lang)

    return await _run(set_notify)
