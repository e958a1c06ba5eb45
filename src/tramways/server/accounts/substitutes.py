"""A substitute through an invite link (docs/async.md).

A seat whose deadline passed, or that was handed to the computer (by its deadline, a vote of
the other players or its owner's resignation), can be given to a substitute:

- ``POST /api/games/ID/substitute {"seat": 2}`` (another person's seat): the server makes a
  one-use invitation ``/g/ID/substitute/TOKEN`` (only its hash is stored);
- whoever opens it (an account or anybody) and confirms (``POST``, so that a link preview
  takes nothing) becomes the seat's holder: the seat gets a new token (an account's: its
  seat token, the seat is then in its "my games"), the seat is a person's again, and the
  game's log says so; the old token opens the seat no more (every process forgets the
  game's tokens when the change is announced);
- ``POST /api/games/ID/substitute/take-back`` with the owner's old token (or the form the
  game page shows where that token opens no seat, ``POST /g/ID/take-back``) gives the seat
  back to its owner and revokes the substitute (and any unused invitation).

Each change is one write like a move: the seat, the log line, the game's revision, the
announcement to every process and socket.  Refusals: a spectator (403 ``spectator``), a
seat neither late nor handed over (422 ``not_late``), one's own seat (422 ``own_seat``), an
invitation used already (410 ``used``), an unknown one (404 ``not_found``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import CurrentAccount, auth_of
from tramways.server.accounts.common import checked_form, read_form, render, see_other
from tramways.server.accounts.replies import refusals
from tramways.server.accounts.schema import account_seats, seat_invites, seat_substitutes
from tramways.server.clocks import seats as ask
from tramways.server.clocks.deadlines import Deadlines
from tramways.server.clocks.schema import seat_clocks
from tramways.server.deps import ActingSeatDep, TokenDep
from tramways.server.errors import ApiError
from tramways.server.rows import Written, hash_token, now
from tramways.server.tables import games, seats

router = APIRouter(include_in_schema=False)
api_router = APIRouter(tags=["play over days"])


class SubstituteBody(BaseModel):
    seat: int = Field(ge=1, le=6, description="the late or handed-over seat (1-based)")


class Invitation(BaseModel):
    """A one-use invitation to play a seat."""

    seat: int
    link: str = Field(description="/g/ID/substitute/TOKEN: whoever opens it takes the seat")


class TakenBack(BaseModel):
    """The seat its owner plays again."""

    seat: int


@dataclass(frozen=True)
class Invite:
    game_id: str
    seat: int
    used: bool
    invited_by: int


def _deadlines(request: Request) -> Deadlines:
    deadlines: Deadlines = request.app.state.deadlines
    return deadlines


def _eligible(d: Deadlines, game_id: str, target: int) -> bool:
    """A seat may go to a substitute once its deadline passed or while the computer holds
    it for its owner (a deadline, a vote, a resignation)."""
    clock = d.store.clocks(game_id).get(target)
    handed = clock is not None and clock.owner_kind == "human"
    return handed or ask._late(d, game_id, target)


def invite(d: Deadlines, game_id: str, seat: int | None, target: int) -> str:
    """A new invitation to ``target`` (asked by ``seat``, another person's); its token."""
    ask._person(d, game_id, seat, "invite a substitute")
    live = d.service.live(game_id)
    if not 1 <= target <= len(live.seats):
        raise ApiError(422, "bad_seat", f"no seat {target} in this game")
    if target == seat:
        raise ApiError(422, "own_seat", "that is your own seat")
    if live.state.is_over() or live.row.status != "active":
        raise ApiError(422, "over", "the game is over")
    name = live.seats[target - 1].name
    if not _eligible(d, game_id, target):
        raise ApiError(422, "not_late", f"{name} is not late: a substitute is invited only "
                       "after the seat's deadline, or once it was handed to the computer")
    token = secrets.token_urlsafe(24)
    with d.store._write() as conn:
        conn.execute(seat_invites.insert().values(
            token_hash=hash_token(token), game_id=game_id, seat=target, invited_by=seat,
            created=now()))
    return token


def invitation(d: Deadlines, token: str) -> Invite | None:
    with d.store.store._read() as conn:
        row = conn.execute(sa.select(seat_invites).where(
            seat_invites.c.token_hash == hash_token(token[:64]))).first()
    return None if row is None else Invite(str(row.game_id), int(row.seat), row.used is not None,
                                           int(row.invited_by))


def _bind(conn: Any, game_id: str, seat: int, account: str | None) -> None:
    conn.execute(account_seats.delete().where(account_seats.c.game_id == game_id,
                                              account_seats.c.seat == seat))
    if account is not None:
        conn.execute(account_seats.insert().values(game_id=game_id, seat=seat,
                                                   account_id=account))


def _changed(d: Deadlines, conn: Any, game_id: str, line: str) -> int:
    """The game's revision moved, the log line written, every process told (one write)."""
    conn.execute(games.update().where(games.c.id == game_id)
                 .values(rev=games.c.rev + 1, updated=now()))
    rev = int(conn.execute(sa.select(games.c.rev).where(games.c.id == game_id)).scalar_one())
    d.store.store._log(conn, game_id, None, [line], now())
    d.store.store._notify(conn, Written(game_id, rev))
    return rev


def _after(d: Deadlines, game_id: str, rev: int) -> None:
    service = d.service
    service.forget(game_id)
    service.forget_token(game_id)
    service._announce(game_id, rev)
    service.kick_bots(game_id)
    d.on_write(game_id, rev)


def take(d: Deadlines, token: str, account: tuple[str, str] | None,
         seat_token: Any) -> tuple[str, str]:
    """The invitation's seat to its opener (``account``: ``(id, name)``, or anybody); the
    game's id and the seat's new token."""
    found = invitation(d, token)
    if found is None:
        raise ApiError(404, "not_found", "no such invitation")
    game_id, seat = found.game_id, found.seat
    if found.used:
        raise ApiError(410, "used", "this invitation was used already: ask for a new one")
    live = d.service.live(game_id)
    if not _eligible(d, game_id, seat) and live.seats[seat - 1].kind == "human":
        raise ApiError(409, "owner_back", "the seat's owner is playing again")
    new = seat_token(game_id, seat, account[0]) if account else secrets.token_urlsafe(24)
    name, inviter = live.seats[seat - 1].name, live.seats[found.invited_by - 1].name
    who = f"{account[1]}, a substitute invited by {inviter}," if account \
        else f"a substitute invited by {inviter}"
    with d.store._write() as conn:
        used = conn.execute(seat_invites.update().where(
            seat_invites.c.token_hash == hash_token(token), seat_invites.c.used.is_(None))
            .values(used=now())).rowcount
        if used != 1:
            raise ApiError(410, "used", "this invitation was used already: ask for a new one")
        row = conn.execute(sa.select(seats.c.token_hash).where(
            seats.c.game_id == game_id, seats.c.seat == seat)).one()
        kept = conn.execute(sa.select(seat_substitutes.c.seat).where(
            seat_substitutes.c.game_id == game_id, seat_substitutes.c.seat == seat)).first()
        if kept is None:  # the first substitute: the owner's token and account are kept
            owner = conn.execute(sa.select(account_seats.c.account_id).where(
                account_seats.c.game_id == game_id, account_seats.c.seat == seat)
            ).scalar_one_or_none()
            conn.execute(seat_substitutes.insert().values(
                game_id=game_id, seat=seat, owner_hash=row.token_hash, owner_account=owner))
        conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                     .values(token_hash=hash_token(new), kind="human"))
        conn.execute(seat_clocks.update().where(
            seat_clocks.c.game_id == game_id, seat_clocks.c.seat == seat)
            .values(owner_kind=None, resigned=False))
        _bind(conn, game_id, seat, account[0] if account else None)
        rev = _changed(d, conn, game_id, f"{name}'s seat goes to {who} until its owner "
                       "takes it back")
    _after(d, game_id, rev)
    return game_id, new


def take_back(d: Deadlines, game_id: str, token: str | None) -> int:
    """The owner's old token takes the seat back from its substitute (whose token and
    unused invitations stop working); the seat."""
    if not token:
        raise ApiError(403, "spectator", "spectators cannot take a seat back: use your "
                       "seat's link")
    with d.store._write() as conn:
        row = conn.execute(sa.select(seat_substitutes).where(
            seat_substitutes.c.game_id == game_id,
            seat_substitutes.c.owner_hash == hash_token(token))).first()
        if row is None:
            raise ApiError(422, "not_substituted", "no substitute holds a seat of this token")
        seat = int(row.seat)
        conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                     .values(token_hash=row.owner_hash, kind="human"))
        conn.execute(seat_substitutes.delete().where(seat_substitutes.c.game_id == game_id,
                                                     seat_substitutes.c.seat == seat))
        conn.execute(seat_invites.update().where(
            seat_invites.c.game_id == game_id, seat_invites.c.seat == seat,
            seat_invites.c.used.is_(None)).values(used=now()))
        _bind(conn, game_id, seat, row.owner_account)
        name = str(conn.execute(sa.select(seats.c.name).where(
            seats.c.game_id == game_id, seats.c.seat == seat)).scalar_one())
        rev = _changed(d, conn, game_id, f"{name} takes the seat back from the substitute")
    _after(d, game_id, rev)
    return seat


@api_router.post("/games/{game_id}/substitute", response_model=Invitation,
                 responses=refusals(403, 404, 422))
async def new_invitation(game_id: str, body: SubstituteBody, seat: ActingSeatDep,
                         request: Request) -> dict[str, object]:
    """A one-use link that gives a late (or handed-over) seat to whoever opens it."""
    token = await run_in_threadpool(invite, _deadlines(request), game_id, seat, body.seat)
    return {"seat": body.seat, "link": f"/g/{game_id}/substitute/{token}"}


@api_router.post("/games/{game_id}/substitute/take-back", response_model=TakenBack,
                 responses=refusals(403, 422))
async def owner_takes_back(game_id: str, token: TokenDep, request: Request) -> dict[str, int]:
    """The seat's owner (its old token) takes it back from the substitute."""
    seat = await run_in_threadpool(take_back, _deadlines(request), game_id[:32], token)
    return {"seat": seat}


@router.get("/g/{game_id}/substitute/{token}")
def invitation_page(request: Request, game_id: str, token: str,
                    account: CurrentAccount) -> Response:
    d = _deadlines(request)
    found = invitation(d, token)
    if found is None or found.game_id != game_id:
        raise ApiError(404, "not_found", "no such invitation")
    live = d.service.live(game_id)
    return render(request, "substitute.html", gid=game_id, token=token, used=found.used,
                  seat=found.seat, name=live.seats[found.seat - 1].name,
                  game=live.row.game, you=account.name if account else None)


@router.post("/g/{game_id}/substitute/{token}")
async def take_seat(request: Request, game_id: str, token: str,
                    account: CurrentAccount) -> Response:
    await checked_form(request)
    d = _deadlines(request)
    found = await run_in_threadpool(invitation, d, token)
    if found is None or found.game_id != game_id:
        raise ApiError(404, "not_found", "no such invitation")
    who = (account.id, account.name) if account else None
    gid, new = await run_in_threadpool(take, d, token, who, auth_of(request).seat_token)
    return see_other(f"/g/{gid}?token={new}")


@router.post("/g/{game_id}/take-back")
async def owner_takes_back_page(request: Request, game_id: str) -> Response:
    """The page's form of the owner's old link (shown where that link opens no seat any
    more): the seat is the owner's again, and the page opens it.  The token is the
    credential (no session needed); ``SameOriginForms`` refuses other sites' posts."""
    token = (await read_form(request)).get("token") or None
    await run_in_threadpool(take_back, _deadlines(request), game_id[:32], token)
    return see_other(f"/g/{game_id[:32]}?token={token}")
