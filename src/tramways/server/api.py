"""The JSON API (mounted under ``/api``), documented by FastAPI's OpenAPI page at ``/docs``:
every route declares its body (:mod:`tramways.server.bodies`), its answer
(:mod:`tramways.server.replies`) and its refusals (:class:`ErrorBody`); what it needs (the
service, the seat, the limits) comes from the dependencies of :mod:`tramways.server.deps`.

A seat token is sent as ``Authorization: Bearer <token>`` or as ``?token=<token>``; without
one the request is a spectator's.  Every game payload is built from the viewer's own view.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from tramways.server.bodies import Mine, Move, Notify, Undo
from tramways.server.clocks.store import Pace
from tramways.server.database import DATABASE_DOWN
from tramways.server.deps import (
    ActingSeatDep,
    HeavyLaneDep,
    LoopbackWebhooksDep,
    NewGameDep,
    PastPositionDep,
    SeatDep,
    ServiceDep,
)
from tramways.server.errors import ApiError
from tramways.server.frames import frame, frame_on_loop
from tramways.server.replies import Created, GamePayload, GameRecord, MyGame, NotifySettings
from tramways.server.service import GameService


class ErrorBody(BaseModel):
    """Every refusal of the API: a stable code and a sentence; some carry more (``rule`` of
    an illegal move, ``state``: the fresh payload of a stale move, ``retry_after`` seconds,
    ``detail``: the places and reasons of a malformed request)."""

    model_config = ConfigDict(extra="allow")
    error: str = Field(examples=["illegal"])
    message: str = Field(examples=["R-LR-2: in its first turn line 12 must lay its tile on "
                                   "its home base E11"])


_ERRORS: dict[int, str] = {
    400: "malformed request: the body is not JSON (``bad_json``) or not UTF-8",
    403: "not your seat: a spectator, a bot's seat, another player's action, a token that "
         "holds no seat (``bad_token``), a hidden record",
    404: "no such game (``not_found``)",
    409: "``n`` is stale: another move came first (``state``: the fresh payload)",
    413: "the body is over 64 KB (``too_large``)",
    422: "an illegal move (``illegal``, with ``rule``) or invalid fields (``bad_request``, "
         "``bad_game``, ``bad_seats``, ``bad_settings``, ...)",
    429: "too fast: ``rate_limited``, with ``retry_after`` and a ``Retry-After`` header",
    503: "the database is not answering (``unavailable``), the costly reads' workers are all "
         "busy (``busy``) or one stopped (``read_failed``); ``Retry-After``",
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these refusals, each with the :class:`ErrorBody` model."""
    return {code: {"model": ErrorBody, "description": _ERRORS[code]} for code in codes}


error_responses = _errors
"""The OpenAPI ``responses`` of refusals (for the API's other routers)."""

router = APIRouter(tags=["games"], responses=_errors(400, 413, 429, 503))


SinceQuery = Annotated[str | None, Query(
    description="the `cursor` of the payload the client holds: then `log` and `moves` hold "
    "only what came after it (from `log_from` and `moves_from`); none: the whole log and moves",
    max_length=40, examples=["12.11.30"])]


@router.post("/games", status_code=201, response_model=Created, responses=_errors(422))
def create_game(body: NewGameDep, service: ServiceDep, request: Request) -> JSONResponse:
    """Create a game: one secret link (token) per human seat, and a spectator link; with a
    ``pace``, the game's pace from the start and what a resignation does (``on_resign``,
    docs/async.md).  429 (with ``Retry-After``) when this address creates games too fast."""
    created = service.start(body, body.seed)
    seconds = body.pace.pace_seconds() if body.pace is not None else None
    deadlines = request.app.state.deadlines
    if body.pace is not None and body.pace.on_resign != "bot":
        deadlines.store.set_on_resign(str(created["id"]), body.pace.on_resign)
    if body.pace is not None and seconds is not None:
        deadlines.store.set_pace(str(created["id"]), Pace(seconds, body.pace.on_deadline,
                                                         body.pace.bot))
        deadlines.on_write(str(created["id"]), 0)
    return JSONResponse(created, 201)


@router.post("/games/mine", response_model=list[MyGame], responses=_errors(422))
def my_games(body: Mine, service: ServiceDep) -> JSONResponse:
    """The games these seat tokens sit in, those where it is the holder's turn first."""
    return JSONResponse(service.mine(body.tokens))


@router.get("/games/{game_id}", response_model=GamePayload,
            responses=_errors(403, 404, 422))
async def get_game(
    game_id: str,
    service: ServiceDep,
    seat: SeatDep,
    at: PastPositionDep,
    heavy: HeavyLaneDep,
    since: SinceQuery = None,
) -> JSONResponse:
    """The game as the viewer may see it: ``n``, ``to_act``, ``view``, ``legal`` (that
    seat's moves only), ``seat``, ``status``, ``seats``, ``log`` (from line ``log_from`` of
    ``log_length``), ``moves`` (from ``moves_from``) and ``cursor``.  With ``since`` (a
    ``cursor`` held), only the log lines and moves added after it.  ``at``: a past position
    (429 when this address asks for them too fast)."""

    def read() -> dict[str, Any]:
        return service.state(game_id, seat, at, since)

    # a past position may be replayed: in the lane of the costly reads
    lane = heavy if at is not None else None
    return JSONResponse(await anyio.to_thread.run_sync(read, limiter=lane))


@router.post("/games/{game_id}/moves", response_model=GamePayload,
             responses=_errors(403, 404, 409, 422))
def play_move(game_id: str, body: Move, service: ServiceDep, seat: ActingSeatDep,
              since: SinceQuery = None) -> JSONResponse:
    """Play one move as move number ``n`` (the reply: only what is new after ``since``, if
    given).  200: the new payload; 403: not your seat; 409:
    ``n`` is stale (the body's ``state`` is the fresh payload); 422: illegal (``rule``,
    ``message``); 429: this seat moves too fast (``Retry-After``).  The same move sent
    twice counts once."""
    return JSONResponse(service.move(game_id, seat, body.n, body.action, since))


@router.post("/games/{game_id}/undo", response_model=GamePayload,
             responses=_errors(403, 404, 409, 422))
def undo(game_id: str, body: Undo, service: ServiceDep, seat: ActingSeatDep,
         since: SinceQuery = None) -> JSONResponse:
    """Take back your own last move(s): allowed until another seat has acted or hidden
    information was revealed (a card drawn, a reshuffle); 422 otherwise."""
    return JSONResponse(service.undo(game_id, seat, body.n, body.count, since))


@router.get("/games/{game_id}/notify", response_model=NotifySettings,
            responses=_errors(403, 404))
def get_notify(game_id: str, service: ServiceDep, seat: SeatDep) -> JSONResponse:
    """This seat's "your turn" settings: its e-mail address, and the host of the game's
    webhook (never its path: chat servers keep their secret there)."""
    return JSONResponse(service.notify_settings(game_id, seat))


@router.put("/games/{game_id}/notify", response_model=NotifySettings,
            responses=_errors(403, 404, 422))
def put_notify(game_id: str, body: Notify, request: Request, service: ServiceDep,
               seat: ActingSeatDep, allow_loopback: LoopbackWebhooksDep) -> JSONResponse:
    """Set (or clear) this seat's e-mail address and the game's webhook; only the fields
    sent change.  422 for a webhook whose host resolves to a private, loopback or link-local
    address."""
    from tramways.server.web.i18n import negotiate

    changes = body.model_dump(exclude_unset=True, exclude={"lang"})
    lang = negotiate(body.lang, None, request.headers.get("accept-language"))
    return JSONResponse(service.set_notify(
        game_id, seat, changes,
        allow_loopback=allow_loopback, lang=lang))


@router.get("/games/{game_id}/record", response_model=GameRecord,
            responses=_errors(403, 404))
def get_record(game_id: str, service: ServiceDep) -> JSONResponse:
    """The whole record (seed, set-up, actions): for a game with hidden cards (Trambahn)
    only once it is over (403 before); for 1840 at any time."""
    return JSONResponse(service.record(game_id))


CLOSE_UNAVAILABLE = 1013
"""WebSocket close code "try again later" (RFC 6455's registry): the database did not answer;
the client reconnects after a pause (the pages do, with a growing delay)."""
CLOSE_TOO_BIG = 1009
"""WebSocket close code "message too big": a client message over
``ServerSettings.ws_max_message_bytes`` (the server reads nothing from clients)."""
CLOSE_REFUSED_BASE = 4000
"""A refused socket is accepted and closed at once with 4000 + the HTTP status the same
request would get: 4403 (a token that holds no seat), 4404 (no such game), 4429 (too many
live connections)."""


def _database_down(exc: BaseException) -> bool:
    return isinstance(exc, DATABASE_DOWN)


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept, then close with ``code``: a close before the handshake would reach the client
    as a bare HTTP 403, without the code that tells it why (and whether to retry)."""
    try:
        await websocket.accept()
        await websocket.close(code=code, reason=reason[:120])
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went first


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str, service: ServiceDep, token: str | None = None,
               since: str | None = None, full: bool = False) -> None:
    """Sends the viewer's payload (as ``GET /api/games/{id}``) at once and after every move.
    The first frame holds the whole log and moves (or, with ``since``, what came after that
    cursor); every later frame only the log lines and moves new since the frame before
    (``log_from``, ``moves_from``), unless ``full=true`` (every frame whole).

    Close codes: 4403 (the token holds no seat), 4404 (no such game), 4429 (this process
    holds too many live connections: in all, from the client's address, or for the seat),
    1009 (a client message over the size cap), 1013 (the database does not answer: try again
    later).  A refusal is sent after the handshake, so the client sees the code."""
    try:  # the seat as SeatDep finds it, here so that a refusal becomes a close code
        seat = await run_in_threadpool(service.seat_for, game_id, token)
    except ApiError as exc:
        await _refuse(websocket, CLOSE_REFUSED_BASE + exc.status, exc.body["message"])
        return
    except Exception as exc:
        if not _database_down(exc):
            raise
        await _refuse(websocket, CLOSE_UNAVAILABLE, "the database is not answering; try again")
        return
    limit = websocket.app.state.socket_limit
    slot = limit.take(websocket.client.host if websocket.client else "-",
                      f"{game_id}/{seat}" if seat is not None else None)
    if isinstance(slot, str):
        await _refuse(websocket, CLOSE_REFUSED_BASE + 429, slot)
        return
    try:
        try:
            first = await run_in_threadpool(service.state, game_id, seat, None,
                                            (since or "")[:40] or None)
        except ApiError as exc:
            await _refuse(websocket, CLOSE_REFUSED_BASE + exc.status, exc.body["message"])
            return
        except Exception as exc:
            if not _database_down(exc):
                raise
            await _refuse(websocket, CLOSE_UNAVAILABLE, "the database is not answering")
            return
        await _stream(websocket, service, game_id, seat, first, full)
    finally:
        limit.give_back(slot)


async def _stream(websocket: WebSocket, service: GameService, game_id: str, seat: int | None,
                  first: dict[str, Any], full: bool = False) -> None:
    await websocket.accept()
    sub = websocket.app.state.hub.subscribe(game_id)
    cap: int = websocket.app.state.settings.ws_max_message_bytes

    async def receive() -> None:
        """Read (and ignore) what the client says, closing with 1009 over the size cap."""
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text, data = message.get("text"), message.get("bytes")
            size = len(data) if data is not None else len(text.encode()) if text else 0
            if cap and size > cap:
                await websocket.close(code=CLOSE_TOO_BIG,
                                      reason=f"messages are at most {cap} bytes")
                return

    reader = asyncio.create_task(receive())
    # the game's chat on the same socket (``accounts.chat.ChatFeed``: ``{"chat": [...]}``)
    feed = getattr(websocket.app.state, "chat_feed", None)
    chat = feed(game_id) if feed is not None else None
    talk: asyncio.Task[None] | None = None
    try:
        await websocket.send_json(first)
        if chat is not None:
            await chat.send_new(websocket)
        last = first["rev"]
        held = first["cursor"]
        while not reader.done():
            waiter = asyncio.create_task(sub.wait())
            if chat is not None and talk is None:
                # kept across the game's wakes: on SQLite the game's poll (every 3 s) would
                # otherwise cancel the chat's own poll before it ever looked (a message
                # written by another process never came)
                talk = asyncio.create_task(chat.wait())
            await asyncio.wait({t for t in (waiter, reader, talk) if t is not None},
                               return_when=asyncio.FIRST_COMPLETED)
            if talk is not None and chat is not None and talk.done():
                talk = None
                await chat.send_new(websocket)
            if reader.done() or not waiter.done():
                waiter.cancel()
                continue
            announced = waiter.result()
            if announced is not None and announced <= last:
                # sent already: on PostgreSQL a move of this process is announced twice
                # (at once, and again by its own NOTIFY); no frame is built for nothing
                continue
            try:
                quick = frame_on_loop(service, game_id, seat, None if full else held,
                                      announced)
                payload = quick if quick is not None else await run_in_threadpool(
                    frame, service, game_id, seat, None if full else held, announced)
            except ApiError as exc:  # the game is gone
                await websocket.close(code=CLOSE_REFUSED_BASE + exc.status,
                                      reason=exc.body["message"][:120])
                break
            except Exception as exc:
                if not _database_down(exc):
                    raise
                # woken while the database is away: a clean close; the client comes back
                await websocket.close(code=CLOSE_UNAVAILABLE,
                                      reason="the database is not answering; try again")
                break
            if payload["rev"] != last:
                last = payload["rev"]
                held = payload["cursor"]
                await websocket.send_json(payload)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        sub.close()
        if talk is not None:
            talk.cancel()
        if chat is not None:
            chat.close()
        reader.cancel()
