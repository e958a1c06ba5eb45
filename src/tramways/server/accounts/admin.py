"""The admin's view: the site's games and accounts; close a game, ban
and unban an account.

Who is an admin: the accounts named in the setting ``ServerSettings.admins``
(``$TRAMWAYS_ADMINS``, names separated by commas, any case), read when the site starts;
nothing in the database makes an admin, so a stolen database grants nobody.  Every route
here takes :data:`AdminAccount`, the one dependency that checks it: no session → 401
``login_required``, a session of another account → 403 ``not_admin``.  Every form posts its
CSRF token (``checked_form``: 403 ``bad_csrf``) and redirects after the post (303).

- ``GET /admin``: the 100 games changed last and the 200 accounts created last;
- ``POST /admin/games/{id}/close``: the game ends for everyone (``status`` ``closed``): its
  log says so, its watchers are told at once, every later move or undo is refused (403
  ``closed``, "the site's admins closed this game"), its bots stop; 404 for a game not
  active;
- ``POST /admin/accounts/{id}/ban``: the account can no longer log in, and its sessions end
  (every browser is logged out); an admin cannot ban their own account (422 ``own_account``);
- ``POST /admin/accounts/{id}/unban``: it may log in again (old sessions stay ended).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import CurrentAccount
from tramways.server.accounts.common import checked_form, render, see_other
from tramways.server.accounts.schema import accounts as accounts_table
from tramways.server.accounts.tables import Account
from tramways.server.errors import ApiError
from tramways.server.tables import games as games_table

router = APIRouter(include_in_schema=False)


def admin_names(setting: str) -> frozenset[str]:
    """The lower-cased names of ``ServerSettings.admins`` (``"anna, Bert"``)."""
    return frozenset(n.strip().lower() for n in setting.split(",") if n.strip())


def require_admin(request: Request, account: CurrentAccount) -> Account:
    """The one check of every admin route: 401 without a session, 403 unless the session's
    account is named in ``ServerSettings.admins``."""
    if account is None:
        raise ApiError(401, "login_required", "log in first")
    if account.name.lower() not in request.app.state.admins:
        raise ApiError(403, "not_admin", "only the site's admins see this")
    return account


AdminAccount = Annotated[Account, Depends(require_admin)]


@dataclass(frozen=True)
class GameLine:
    id: str
    game: str
    status: str
    n: int
    updated: datetime


@dataclass(frozen=True)
class AccountLine:
    id: str
    name: str
    banned: bool
    created: datetime


def _overview(request: Request) -> tuple[list[GameLine], list[AccountLine]]:
    store = request.app.state.store
    g, a = games_table.c, accounts_table.c
    with store._read() as conn:
        games = conn.execute(sa.select(g.id, g.game, g.status, g.n, g.updated)
                             .order_by(g.updated.desc()).limit(100)).all()
        people = conn.execute(sa.select(a.id, a.name, a.banned, a.created)
                              .order_by(a.created.desc()).limit(200)).all()
    return ([GameLine(r.id, r.game, r.status, r.n, r.updated) for r in games],
            [AccountLine(r.id, r.name, bool(r.banned), r.created) for r in people])


def _set_banned(request: Request, account_id: str, banned: bool) -> bool:
    store = request.app.state.store
    with store._write() as conn:
        done = conn.execute(accounts_table.update().where(accounts_table.c.id == account_id)
                            .values(banned=banned))
    if done.rowcount != 1:
        return False
    if banned:
        request.app.state.accounts.drop_sessions(account_id)
    return True


@router.get("/admin")
def admin_page(request: Request, admin: AdminAccount) -> Response:
    games, people = _overview(request)
    return render(request, "admin.html", games=games, people=people, me=admin.id)


async def _ban(request: Request, admin: Account, account_id: str, banned: bool) -> Response:
    await checked_form(request)
    if account_id == admin.id:
        raise ApiError(422, "own_account", "an admin cannot ban their own account")
    if not await run_in_threadpool(_set_banned, request, account_id[:32], banned):
        raise ApiError(404, "not_found", "no such account")
    return see_other("/admin")


@router.post("/admin/accounts/{account_id}/ban")
async def ban(request: Request, account_id: str, admin: AdminAccount) -> Response:
    return await _ban(request, admin, account_id, True)


@router.post("/admin/accounts/{account_id}/unban")
async def unban(request: Request, account_id: str, admin: AdminAccount) -> Response:
    return await _ban(request, admin, account_id, False)


@router.post("/admin/games/{game_id}/close")
async def close_game(request: Request, game_id: str, admin: AdminAccount) -> Response:
    await checked_form(request)
    service = request.app.state.service
    if not await run_in_threadpool(service.close_game, game_id[:32]):
        raise ApiError(404, "not_found", "no such active game")
    return see_other("/admin")
