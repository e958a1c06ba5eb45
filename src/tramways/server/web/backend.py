"""The pages use the same game service as the JSON API, through the same dependencies.

A page handler receives a :class:`Backend` (:data:`BackendDep`) built from the API's own
dependencies (:mod:`tramways.server.deps`: the service, the limits, the client's address, the
lane of the costly reads).  Every call goes through the steps the API's routes take: the seat
of the token (``deps.find_seat``), the move limit before a move, an undo or a change of
notification settings (``deps.seat_for_action``), the creation limits before a new game
(``deps.admit_new_game``); so a page can never show or do more, or faster, than the API allows
the token it carries.  Refusals come back as an :class:`ApiReply` with the API's status and
JSON body, for the page to show in its language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import Depends

from tramways.server.bodies import NewGame
from tramways.server.deps import (
    AddressDep,
    HeavyLaneDep,
    LimitsDep,
    LoopbackWebhooksDep,
    ReadPoolDep,
    ServiceDep,
    admit_new_game,
    find_seat,
    seat_for_action,
)
from tramways.server.errors import ApiError
from tramways.server.limits import Limits
from tramways.server.readpool import ReadPool
from tramways.server.service import GameService


class ApiReply:
    def __init__(self, status: int, data: Any) -> None:
        self.status = status
        self.data = data

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass(frozen=True)
class Backend:
    """The game service as one page request may use it (its address, its limits)."""

    service: GameService
    limits: Limits
    address: str
    heavy: anyio.CapacityLimiter
    reads: ReadPool
    """The costly reads' worker processes (the 1840 previews, a past position's table)."""
    allow_loopback: bool = False

    async def _run(self, fn: Callable[[], Any], ok: int = 200, heavy: bool = False) -> ApiReply:
        """``fn()`` in a worker thread (``heavy``: in the lane of the costly reads); an
        :class:`ApiError` becomes the reply the API would give."""
        try:
            return ApiReply(ok, await anyio.to_thread.run_sync(
                fn, limiter=self.heavy if heavy else None))
        except ApiError as exc:
            return ApiReply(exc.status, exc.body)

    async def state(self, gid: str, token: str | None, at: int | None) -> ApiReply:
        """The payload; a past position (``at``) in the lane of the costly reads."""
        service = self.service
        return await self._run(lambda: service.state(gid, find_seat(service, gid, token), at),
                               heavy=at is not None)

    async def log_index(self, gid: str, token: str | None) -> ApiReply:
        """The game's whole log and the position each line links to (``LogIndex``), for any
        viewer (a wrong token is refused, as by the API)."""
        service = self.service

        def fetch() -> Any:
            find_seat(service, gid, token)
            return service.log_index(gid)

        return await self._run(fetch)

    async def create(self, fields: dict[str, Any], seed: int | None = None) -> ApiReply:
        """A new game from the lobby's form: its fields make the API's body
        (:class:`~tramways.server.bodies.NewGame`, validated alike), then the creation
        limits, as ``POST /api/games``."""

        def create() -> Any:
            body = admit_new_game(NewGame.checked(**fields), self.limits, self.address)
            return self.service.start(body, seed)

        return await self._run(create, ok=201)

    async def move(self, gid: str, token: str | None, n: int, action: str) -> ApiReply:
        def move() -> Any:
            seat = seat_for_action(self.service, self.limits, gid, token)
            return self.service.move(gid, seat, n, action)

        return await self._run(move)

    async def undo(self, gid: str, token: str | None, n: int) -> ApiReply:
        def undo() -> Any:
            seat = seat_for_action(self.service, self.limits, gid, token)
            return self.service.undo(gid, seat, n)

        return await self._run(undo)

    async def record(self, gid: str, token: str | None) -> ApiReply:
        def fetch() -> Any:
            find_seat(self.service, gid, token)  # a wrong token is refused, as by the API
            return self.service.record(gid)

        return await self._run(fetch)

    async def notify_settings(self, gid: str, token: str | None) -> ApiReply:
        service = self.service
        return await self._run(
            lambda: service.notify_settings(gid, find_seat(service, gid, token)))

    async def set_notify(self, gid: str, token: str | None, changes: dict[str, str | None],
                         lang: str | None = None) -> ApiReply:
        def set_notify() -> Any:
            seat = seat_for_action(self.service, self.limits, gid, token)  # as PUT .../notify
            return self.service.set_notify(gid, seat, changes,
                                           allow_loopback=self.allow_loopback, lang=lang)

        return await self._run(set_notify)


async def get_backend(service: ServiceDep, limits: LimitsDep, address: AddressDep,
                      heavy: HeavyLaneDep, reads: ReadPoolDep,
                      allow_loopback: LoopbackWebhooksDep) -> Backend:
    return Backend(service, limits, address, heavy, reads, allow_loopback)


BackendDep = Annotated[Backend, Depends(get_backend)]
