"""The chat of a game: its players and its spectators with an account.

Messages are kept beside the game (the ``chat`` table), never in its record: the record's
download and every export hold none.  A seat's message carries the seat's name (sent with
the seat's token, or with the session of the account that holds the seat); a spectator's
the account's name, and a spectator needs an account (nobody else can be muted).  A
message is 1-500 printable characters (``text.clean_message``); each writer may send 20 a
minute, bursts of 5 (429 beyond); the pages show the text as text (``textContent``: nothing
in it is ever markup).  Any seat of the game may mute a spectator (by one of their
messages): the spectator's messages are refused (403 ``muted``) from then on.

- ``GET /api/games/{id}/chat?after=N``: the messages after id N (the last 200);
- ``POST /api/games/{id}/chat`` ``{"text": "..."}``: with a seat token, or the session
  cookie and ``X-CSRF-Token``;
- ``POST /api/games/{id}/chat/mute`` ``{"message": ID}``: a seat mutes that message's writer;
- ``WS /api/games/{id}/chat/live?after=N``: ``{"chat": [messages]}`` at once and after
  every new message, from any server process (PostgreSQL ``NOTIFY``; SQLite: the socket
  looks every 3 s).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import api_csrf
from tramways.server.accounts.common import drain, take_socket
from tramways.server.accounts.replies import ChatMessages, Muted, Said, refusals
from tramways.server.accounts.tables import Account, chat_key
from tramways.server.deps import TokenDep
from tramways.server.errors import ApiError
from tramways.server.text import TextRefused, clean_message

router = APIRouter(tags=["chat"])


class Say(BaseModel):
    text: str = Field(min_length=1, max_length=2000, examples=["good luck!"])


class Mute(BaseModel):
    message: int = Field(ge=1, description="a message of the spectator to mute")


def _speaker(request: Request, game_id: str, token: str | None,
             account: Account | None) -> tuple[int | None, Account | None, str]:
    """Who writes: ``(seat, account, name)``; 401 for nobody, 403 for a bot's seat."""
    service = request.app.state.service
    accounts = request.app.state.accounts
    live = service.live(game_id)
    seat = service.seat_for(game_id, token) if token else None
    holders = accounts.holders(game_id)
    if seat is None and account is not None:
        seat = next((s for s, a in holders.items() if a == account.id), None)
    if seat is not None:
        row = live.seats[seat - 1]
        if row.kind != "human":
            raise ApiError(403, "not_a_person", "a bot's seat does not chat")
        holder = accounts.account(holders[seat]) if seat in holders else None
        return seat, holder or account, row.name
    if account is None:
        raise ApiError(401, "login_required", "spectators chat with an account: log in")
    return None, account, account.name


SessionAccount = Annotated[Account | None, Depends(api_csrf)]


@router.get("/games/{game_id}/chat", response_model=ChatMessages, responses=refusals(404))
def read_chat(request: Request, game_id: str, after: int = 0) -> JSONResponse:
    """The game's messages after id ``after`` (the last 200), oldest first."""
    request.app.state.service.live(game_id[:32])  # 404 for no such game
    messages = request.app.state.accounts.messages(game_id, max(0, after))
    return JSONResponse({"messages": [m.to_json() for m in messages]})


@router.post("/games/{game_id}/chat", status_code=201, response_model=Said,
             responses=refusals(401, 403, 404, 422))
def say(request: Request, game_id: str, body: Say, account: SessionAccount,
        token: TokenDep) -> JSONResponse:
    """Write a message as a seat (its token, or the account that holds it) or as a
    spectator with an account; 403 ``muted``; 422 ``bad_text``; 429 too fast."""
    seat, writer, name = _speaker(request, game_id[:32], token, account)
    accounts = request.app.state.accounts
    if seat is None and writer is not None and accounts.muted(game_id, writer.id):
        raise ApiError(403, "muted", "the players of this game have muted you")
    try:
        text = clean_message(body.text)
    except TextRefused as exc:
        raise ApiError(422, "bad_text", str(exc)) from None
    writer_key = f"{game_id}/{seat}" if seat else f"a/{writer.id if writer else '-'}"
    request.app.state.chat_limiter.hit(writer_key)
    new_id = accounts.add_message(game_id, seat, writer.id if writer else None, name, text)
    return JSONResponse({"id": new_id, "seat": seat, "name": name, "text": text}, 201)


@router.post("/games/{game_id}/chat/mute", response_model=Muted,
             responses=refusals(401, 403, 404, 422))
def mute(request: Request, game_id: str, body: Mute, account: SessionAccount,
         token: TokenDep) -> JSONResponse:
    """A seat of the game mutes the spectator who wrote message ``message``."""
    seat, _writer, _name = _speaker(request, game_id[:32], token, account)
    if seat is None:
        raise ApiError(403, "not_a_player", "only the players of this game mute spectators")
    accounts = request.app.state.accounts
    target = accounts.chat_account(game_id, body.message)
    if target is None:
        raise ApiError(404, "not_found", "no such message in this game")
    if target in accounts.holders(game_id).values():
        raise ApiError(422, "a_player", "a player of this game cannot be muted")
    accounts.mute(game_id, target)
    return JSONResponse({"muted": True})


@router.websocket("/games/{game_id}/chat/live")
async def chat_live(websocket: WebSocket, game_id: str, after: int = 0) -> None:
    """``{"chat": [messages]}`` at once (after id ``after``) and after every new message.
    The sockets count against the process's caps of live connections (4429 beyond them),
    and a client message over the size cap closes one with 1009."""
    game_id = game_id[:32]
    if await run_in_threadpool(websocket.app.state.store.rev, game_id) is None:
        await websocket.accept()
        await websocket.close(code=4404, reason="no such game")
        return
    slot = await take_socket(websocket)
    if slot is None:
        return
    try:
        await websocket.accept()
        await _chat_stream(websocket, game_id, after)
    finally:
        websocket.app.state.socket_limit.give_back(slot)


async def _chat_stream(websocket: WebSocket, game_id: str, after: int) -> None:
    accounts = websocket.app.state.accounts
    sub = websocket.app.state.hub.subscribe(chat_key(game_id))

    task = asyncio.create_task(drain(websocket))
    last = max(0, after)
    try:
        while not task.done():
            fresh: list[Any] = await run_in_threadpool(accounts.messages, game_id, last)
            if fresh or last == after:
                await websocket.send_json({"chat": [m.to_json() for m in fresh]})
                last = fresh[-1].id if fresh else last
                after = -1  # the first frame is sent even when empty
            waiter = asyncio.create_task(sub.wait())
            await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                waiter.cancel()
                break
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        sub.close()
        task.cancel()


class ChatFeed:
    """The chat of one game on the game's own live socket (``WS /api/games/ID/live``):
    ``create_app`` hands :func:`chat_feed` to the socket through ``app.state.chat_feed``.
    The socket sends ``{"chat": [messages]}`` when it opens (if the game has messages) and
    after every new message; its game frames are unchanged.  On PostgreSQL it waits for the
    ``NOTIFY`` of a message (or a wake after a lost ``LISTEN``); on SQLite it also looks
    every ``POLL_SECONDS`` (other processes cannot wake it)."""

    POLL_SECONDS = 10.0

    def __init__(self, hub: Any, accounts: Any, game_id: str, poll: bool) -> None:
        self.accounts = accounts
        self.game_id = game_id
        self.sub = hub.subscribe(chat_key(game_id))
        self.last = 0
        self.timeout = self.POLL_SECONDS if poll else 3600.0

    async def wait(self) -> None:
        await self.sub.wait(self.timeout)

    async def send_new(self, websocket: WebSocket) -> None:
        try:
            fresh = await run_in_threadpool(self.accounts.messages, self.game_id, self.last)
        except Exception:  # the database is away: the game's frames close the socket
            return
        if fresh:
            self.last = fresh[-1].id
            await websocket.send_json({"chat": [m.to_json() for m in fresh]})

    def close(self) -> None:
        self.sub.close()


def chat_feed(app_state: Any) -> Any:
    """The factory the game's socket calls: ``factory(game_id) -> ChatFeed``."""
    return lambda game_id: ChatFeed(app_state.hub, app_state.accounts, game_id,
                                    poll=not app_state.store.is_postgres)
