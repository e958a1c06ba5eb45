"""FastAPI dependencies shared by the JSON API (``api.py``) and the pages (``web/pages.py``).

A route names what it needs and FastAPI hands it over; no route digs in ``app.state`` or
repeats the steps of finding a seat or asking a limit:

- :data:`ServiceDep`: the :class:`~tramways.server.service.GameService` of the application;
- :data:`LimitsDep`: its :class:`~tramways.server.limits.Limits`; :data:`AddressDep`: the
  client's address (the key of the creation and read limits);
- :data:`TokenDep`: the seat token, from ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``
  (403 ``bad_token`` for another scheme);
- :data:`SeatDep`: the seat (1-based) that token holds in the path's game, ``None`` for a
  spectator (403 for a token that holds no seat, 404 for no such game);
- :data:`ActingSeatDep`: the same seat, counted against the move limit (429 when it acts too
  fast): moves, undos, notification settings;
- :data:`PastPositionDep`: ``?at=N`` (a past position), counted against the read limit;
  :data:`CostlyRead`: the read limit alone (the 1840 map's previews);
- :data:`NewGameDep`: a new game's body, validated (:class:`~tramways.server.bodies.NewGame`)
  and counted against the creation limits.

The pages read the token from a form, not from a header: they call the same steps
(:func:`find_seat`, :func:`seat_for_action`, :func:`admit_new_game`) with it, so a page can
never do more, or faster, than the API allows that token.  The database is never read on the
event loop: the dependencies are coroutines that answer on the loop what needs no database
(the application's state, the header, a seat token this process has seen, the limits kept in
the process) and go to a worker thread for the rest (each trip to a thread costs CPU: with
every dependency a plain function, a move cost a third more of the server's CPU).
"""

from __future__ import annotations

from typing import Annotated

import anyio
from fastapi import Depends, Header, Query
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from tramways.server.bodies import NewGame
from tramways.server.errors import ApiError
from tramways.server.limits import Limits
from tramways.server.readpool import ReadPool
from tramways.server.service import GameService


async def get_service(conn: HTTPConnection) -> GameService:
    """The application's game service (``create_app`` makes one per process)."""
    service: GameService = conn.app.state.service
    return service


async def get_limits(conn: HTTPConnection) -> Limits:
    limits: Limits = conn.app.state.limits
    return limits


async def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "-"


def lane_of(conn: HTTPConnection) -> anyio.CapacityLimiter:
    """The lane of the costly reads (``ServerSettings.heavy_threads`` at once)."""
    lane: anyio.CapacityLimiter = conn.app.state.heavy
    return lane


async def heavy_lane(conn: HTTPConnection) -> anyio.CapacityLimiter:
    return lane_of(conn)


async def read_pool(conn: HTTPConnection) -> ReadPool:
    """The costly reads' worker processes (:mod:`tramways.server.readpool`)."""
    pool: ReadPool = conn.app.state.reads
    return pool


async def loopback_webhooks(conn: HTTPConnection) -> bool:
    """Whether webhooks may go to loopback (``ServerSettings.allow_loopback_webhooks``: the
    tests only)."""
    return bool(conn.app.state.settings.allow_loopback_webhooks)


ServiceDep = Annotated[GameService, Depends(get_service)]
LimitsDep = Annotated[Limits, Depends(get_limits)]
AddressDep = Annotated[str, Depends(client_address)]
HeavyLaneDep = Annotated[anyio.CapacityLimiter, Depends(heavy_lane)]
ReadPoolDep = Annotated[ReadPool, Depends(read_pool)]
LoopbackWebhooksDep = Annotated[bool, Depends(loopback_webhooks)]

AuthHeader = Annotated[str | None, Header(description="Bearer <seat token>")]
TokenQuery = Annotated[str | None, Query(description="the seat token (for plain links)")]
AtQuery = Annotated[int | None, Query(description="a past position: after the first N moves")]


async def seat_token(authorization: AuthHeader = None, token: TokenQuery = None) -> str | None:
    """The seat token of a request: the ``Authorization`` header's (``Bearer``), else the
    ``token`` query parameter; ``None``: a spectator."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(403, "bad_token", "use 'Authorization: Bearer <seat token>'")
        return value.strip()
    return token or None


TokenDep = Annotated[str | None, Depends(seat_token)]


def find_seat(service: GameService, game_id: str, token: str | None) -> int | None:
    """The seat ``token`` holds in ``game_id`` (``GameService.seat_for``: 403 for a token that
    holds none, 404 for no such game; ``None``: no token, a spectator)."""
    return service.seat_for(game_id, token)


def seat_for_action(service: GameService, limits: Limits, game_id: str,
                    token: str | None) -> int | None:
    """The seat of ``token`` in ``game_id``, counted against the move limit: the steps before
    every move, undo and change of notification settings, of the API and the pages."""
    seat = find_seat(service, game_id, token)
    limits.move(game_id, seat)
    return seat


async def viewer_seat(game_id: str, service: ServiceDep, token: TokenDep) -> int | None:
    """:func:`find_seat` as a dependency: on the event loop when the answer needs no
    database (no token, or a token this process has seen), else in a worker thread."""
    if not token:
        return None
    known = service.remembered_seat(game_id, token)
    if known is not None:
        return known
    return await run_in_threadpool(find_seat, service, game_id, token)


SeatDep = Annotated[int | None, Depends(viewer_seat)]


async def acting_seat(game_id: str, seat: SeatDep, limits: LimitsDep) -> int | None:
    """:func:`seat_for_action` as a dependency: the move limit in a worker thread only when
    its buckets are in the database (PostgreSQL, ``ServerSettings.rate_limits``) and it is
    on (a trip to a thread costs CPU: with the limit off it cost some 5% of a move's)."""
    if limits.moves.shared and limits.moves.rate > 0:
        await run_in_threadpool(limits.move, game_id, seat)
    else:
        limits.move(game_id, seat)
    return seat


ActingSeatDep = Annotated[int | None, Depends(acting_seat)]


async def past_position(limits: LimitsDep, address: AddressDep, at: AtQuery = None
                        ) -> int | None:
    """``?at=N``; a past position is replayed, so asking for one counts against the read
    limit of the address."""
    if at is not None:
        limits.read(address)
    return at


PastPositionDep = Annotated[int | None, Depends(past_position)]


async def costly_read(limits: LimitsDep, address: AddressDep) -> None:
    """A read that costs CPU (a board preview, a claimed route, a hex's revenue changes)."""
    limits.read(address)


CostlyRead = Depends(costly_read)


def admit_new_game(body: NewGame, limits: LimitsDep, address: AddressDep) -> NewGame:
    """A new game's body, validated, and allowed by the creation limits of the address (the
    stricter ones for a game of bots only)."""
    limits.new_game(address, body.seats)
    return body


NewGameDep = Annotated[NewGame, Depends(admit_new_game)]
