"""The lobby of open games and "my games".

Pages: ``GET /lobby`` (the open games, filtered by ``?game=``, ``?lang_filter=`` and
``?pace=none|live|async``; the form to open one; the account's games), ``POST /lobby/new``
(:class:`~tramways.server.accounts.new_table.NewTable`: ``game``, ``seats``, ``lang``, for
1840 the ``ruleset``, and the pace; the creator takes seat 1; ``POST /api/lobby`` takes the
same body as JSON), ``GET /lobby/{id}`` (a table), ``POST /lobby/{id}/join`` (the first free seat;
the game starts when the last seat is taken), ``POST /lobby/{id}/leave`` (before the start;
the creator leaving closes the table), ``GET /mine`` (every game of the account, on any
device: the seat links are made again from the site's secret, your turn first).  JSON:
``GET /api/lobby`` and ``GET /api/account/games``; ``WS /api/lobby/live`` says ``{"lobby":
"changed"}`` whenever a table opens, fills, starts or closes, in any server process
(PostgreSQL ``NOTIFY``; on SQLite every 3 s), and at once when ``?since=`` (the mark a page
was rendered with, ``data-mark``) is no longer the lobby's: a change made between the page's
read and the socket's first look is not lost.  Playing without an account stays as it was
(``/`` and seat links).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import CurrentAccount, RequiredAccount, api_csrf, auth_of
from tramways.server.accounts.common import checked_form, drain, render, see_other, take_socket
from tramways.server.accounts.new_table import SEATS, NewTable
from tramways.server.accounts.replies import AccountGame, OpenTable, refusals
from tramways.server.accounts.tables import LOBBY_KEY, Account, OpenGame, SeatTaken
from tramways.server.deps import AddressDep, LimitsDep
from tramways.server.errors import ApiError
from tramways.server.web.i18n import LANGUAGE_NAMES

router = APIRouter(include_in_schema=False)
api_router = APIRouter(tags=["lobby"])

PACE_KINDS = ("none", "live", "async")


def _table_json(table: OpenGame) -> dict[str, Any]:
    pace = table.pace
    return {"id": table.id, "game": table.game, "seats": table.seats, "lang": table.lang,
            "ruleset": table.settings.get("ruleset", "rules"),
            "status": table.status, "game_id": table.game_id,
            "players": [{"seat": s, "name": n} for s, _a, n in table.players],
            "pace": None if pace is None else {
                "kind": table.pace_kind, "seconds": pace.seconds,
                "on_deadline": pace.on_deadline, "bot": pace.bot},
            "on_resign": table.on_resign}


def start(app_state: Any, table: OpenGame) -> str | None:
    """Start a full table: a game of people's seats named after the accounts, each seat
    given to its account (compare-and-set: one request starts it); the game's id."""
    accounts = app_state.accounts
    if not table.full or not accounts.begin_start(table.id):
        return None
    auth = app_state.auth
    try:
        players = sorted(table.players)
        settings: dict[str, Any] = dict(table.settings)
        if table.game == "1840":
            settings["players"] = table.seats
        created = app_state.service.create(
            table.game, settings, ["human"] * table.seats, [n for _s, _a, n in players])
        game_id = str(created["id"])
        accounts.bind_seats(game_id, [(s, a, auth.seat_token(game_id, s, a))
                                      for s, a, _n in players])
        if table.on_resign != "bot":  # and what a resignation does
            app_state.deadlines.store.set_on_resign(game_id, table.on_resign)
        if table.pace is not None:  # the table's pace is the game's (docs/async.md)
            app_state.deadlines.store.set_pace(game_id, table.pace)
            app_state.deadlines.on_write(game_id, 0)
    except Exception:
        accounts.finish_start(table.id, None)
        raise
    accounts.finish_start(table.id, game_id)
    return game_id


def my_games(app_state: Any, account: Account) -> list[dict[str, Any]]:
    """The account's games, its turn first, each with its seat link."""
    auth = app_state.auth
    seats = app_state.accounts.seats_of(account.id)
    tokens = {gid: auth.seat_token(gid, seat, account.id) for gid, seat in seats}
    games = app_state.service.mine(list(tokens.values()))
    for g in games:
        g["link"] = f"/g/{g['id']}?token={tokens[g['id']]}"
        if g["status"] != "active":
            app_state.rater.catch_up(g["id"])
    return games


def _filters(request: Request) -> tuple[str | None, str | None, str | None]:
    game = request.query_params.get("game") or None
    lang = request.query_params.get("lang_filter") or None
    pace = request.query_params.get("pace") or None
    return (game if game in SEATS else None, lang if lang in LANGUAGE_NAMES else None,
            pace if pace in PACE_KINDS else None)


@router.get("/lobby")
def lobby(request: Request, account: CurrentAccount) -> Response:
    state = request.app.state
    game, lang, pace = _filters(request)
    from tramways.server.accounts.ratings import bot_ratings

    mark = state.accounts.lobby_mark()  # before the tables: a change between is sent again
    return render(request, "open_lobby.html", mark=mark,
                  tables=state.accounts.open_list(game, lang, pace_kind=pace),
                  mine=my_games(state, account) if account else [], game_filter=game or "",
                  lang_filter=lang or "", pace_filter=pace or "", games=list(SEATS),
                  bots=bot_ratings(state.accounts))


def _open(request: Request, account: Account, body: NewTable) -> str:
    """Open the table of ``body`` (the creator at seat 1); its id."""
    pace = body.table_pace()
    return str(request.app.state.accounts.create_open(
        body.game, body.settings(), body.seats, body.lang, account.id,
        body.pace if pace else "none", pace, body.on_resign))


@router.post("/lobby/new")
async def new_table(request: Request, account: RequiredAccount, limits: LimitsDep,
                    address: AddressDep) -> Response:
    body = NewTable.from_fields(await checked_form(request))
    limits.new_game(address, ["human"])
    table_id = await run_in_threadpool(_open, request, account, body)
    return see_other(f"/lobby/{table_id}")


@api_router.post("/lobby", status_code=201, response_model=OpenTable,
                 responses=refusals(401, 403, 422))
async def new_table_json(request: Request, body: NewTable, limits: LimitsDep,
                         address: AddressDep,
                         account: Annotated[Account | None, Depends(api_csrf)]) -> JSONResponse:
    """Open a game (the same body as the lobby's form, as JSON; a session and its
    ``X-CSRF-Token``): the creator takes seat 1; the pace becomes the game's at the start."""
    if account is None:
        raise ApiError(401, "login_required", "log in to open a game")
    limits.new_game(address, ["human"])
    table_id = await run_in_threadpool(_open, request, account, body)
    table = request.app.state.accounts.open_game(table_id)
    return JSONResponse(_table_json(table), status_code=201)


def _table_or_404(request: Request, table_id: str) -> OpenGame:
    table = request.app.state.accounts.open_game(table_id[:32])
    if table is None:
        raise ApiError(404, "not_found", "no such table")
    return table


@router.get("/lobby/{table_id}")
def table_page(request: Request, table_id: str, account: CurrentAccount) -> Response:
    mark = request.app.state.accounts.lobby_mark()  # before the table, as the lobby's
    table = _table_or_404(request, table_id)
    sits = account is not None and any(a == account.id for _s, a, _n in table.players)
    link = None
    if table.game_id and account is not None:
        holders = request.app.state.accounts.holders(table.game_id)
        seat = next((s for s, a in holders.items() if a == account.id), None)
        if seat is not None:
            link = f"/g/{table.game_id}?token=" + auth_of(request).seat_token(
                table.game_id, seat, account.id)
    return render(request, "open_table.html", table=table, sits=sits, link=link, mark=mark,
                  spectate=f"/g/{table.game_id}" if table.game_id else None)


@router.post("/lobby/{table_id}/join")
async def join(request: Request, table_id: str, account: RequiredAccount) -> Response:
    await checked_form(request)

    def work() -> Response:
        try:
            table = request.app.state.accounts.join(table_id[:32], account.id)
        except SeatTaken as exc:
            raise ApiError(409, "seat_taken", str(exc)) from None
        start(request.app.state, table)
        return see_other(f"/lobby/{table.id}")

    return await run_in_threadpool(work)


@router.post("/lobby/{table_id}/leave")
async def leave(request: Request, table_id: str, account: RequiredAccount) -> Response:
    await checked_form(request)
    await run_in_threadpool(request.app.state.accounts.leave, table_id[:32], account.id)
    return see_other("/lobby")


@router.get("/mine")
def mine_page(request: Request, account: CurrentAccount) -> Response:
    if account is None:
        return see_other("/account/login?next=/mine")
    return render(request, "my_games.html", mine=my_games(request.app.state, account))


@api_router.get("/lobby", response_model=list[OpenTable], responses=refusals())
def lobby_json(request: Request) -> JSONResponse:
    """The open games (``?game=trambahn|1840``, ``?lang_filter=de``,
    ``?pace=none|live|async``), oldest first."""
    game, lang, pace = _filters(request)
    return JSONResponse([_table_json(t) for t in request.app.state.accounts.open_list(
        game, lang, pace_kind=pace)])


@api_router.get("/account/games", response_model=list[AccountGame],
                 responses=refusals(401, 403))
def games_json(request: Request, account: RequiredAccount) -> JSONResponse:
    """The account's games with their seat links, its turn first (401 without a session)."""
    return JSONResponse(my_games(request.app.state, account))


@api_router.websocket("/lobby/live")
async def lobby_live(websocket: WebSocket) -> None:
    """``{"lobby": "changed"}`` after every change of the open games (any process), and at
    once when ``?since=`` differs from the lobby's mark when the socket first looks."""
    slot = await take_socket(websocket)
    if slot is None:
        return
    try:
        await websocket.accept()
        await _lobby_stream(websocket)
    finally:
        websocket.app.state.socket_limit.give_back(slot)


async def _lobby_stream(websocket: WebSocket) -> None:
    sub = websocket.app.state.hub.subscribe(LOBBY_KEY)

    task = asyncio.create_task(drain(websocket))
    accounts = websocket.app.state.accounts
    try:
        mark = await run_in_threadpool(accounts.lobby_mark)
        since = websocket.query_params.get("since")
        if since and since[:64] != mark:  # changed since the page was read
            await websocket.send_json({"lobby": "changed"})
        while not task.done():
            waiter = asyncio.create_task(sub.wait())
            await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                waiter.cancel()
                break
            now = await run_in_threadpool(accounts.lobby_mark)
            if waiter.result() is not None or now != mark:  # woken, or the poll saw a change
                mark = now
                await websocket.send_json({"lobby": "changed"})
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        sub.close()
        task.cancel()
