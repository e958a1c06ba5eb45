"""Sign up, log in, log out (here or everywhere), claim a seat link, and profiles.

Pages: ``GET/POST /account/signup``, ``GET/POST /account/login``, ``POST /account/logout``,
``POST /account/logout-everywhere``, ``POST /account/claim`` (a seat link of a game becomes
the account's seat), ``GET /account`` (one's own profile), ``GET /u/{name}`` (anyone's:
finished games with results, and ratings).  JSON: ``GET /api/account`` (who is logged in,
401 without a session) and ``GET /api/account/csrf`` (the token for ``X-CSRF-Token``).
Every post carries the CSRF token and answers with a redirect (303) when it succeeds.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import (
    CurrentAccount,
    RequiredAccount,
    auth_of,
    check_name,
    check_password,
    client_address,
    hash_password,
    redirect_target,
    verify_password,
)
from tramways.server.accounts.common import checked_form, render, render_async, see_other
from tramways.server.accounts.replies import CsrfToken, WhoAmI, refusals
from tramways.server.accounts.tables import Account, NameTaken
from tramways.server.errors import ApiError

router = APIRouter(include_in_schema=False)
api_router = APIRouter(tags=["accounts"])
logger = logging.getLogger("tramways.server.accounts")


@router.get("/account/signup")
async def signup_page(request: Request, next: str = "/lobby") -> Response:
    return await render_async(request, "account_form.html", mode="signup",
                              next=redirect_target(next))


@router.get("/account/login")
async def login_page(request: Request, next: str = "/lobby") -> Response:
    return await render_async(request, "account_form.html", mode="login",
                              next=redirect_target(next))


def _limited(request: Request, *keys: tuple[str, str]) -> str | None:
    """The refusal of the first limiter out of tokens (``None``: go on)."""
    for limiter, key in keys:
        try:
            getattr(request.app.state, limiter).hit(key)
        except ApiError as exc:
            return str(exc.body["retry_after"])
    return None


@router.post("/account/signup")
async def signup(request: Request) -> Response:
    form = await checked_form(request)
    name, password = form.get("name", "").strip(), form.get("password", "")
    target = redirect_target(form.get("next"))

    def work() -> Response:
        again = _limited(request, ("signup_limiter", client_address(request)))
        if again:
            return render(request, "account_form.html", 429, mode="signup", next=target,
                          error="rate", name=name, retry=again)
        problem = check_name(name) or check_password(password)
        if problem:
            return render(request, "account_form.html", 422, mode="signup", next=target,
                          error=problem, name=name)
        auth = auth_of(request)
        try:
            account = auth.accounts.create_account(name, hash_password(password))
        except NameTaken:
            return render(request, "account_form.html", 409, mode="signup", next=target,
                          error="taken", name=name)
        logger.info("account created: %s", account.id)
        response = see_other(target)
        auth.start_session(request, response, account)
        return response

    return await run_in_threadpool(work)


@router.post("/account/login")
async def login(request: Request) -> Response:
    form = await checked_form(request)
    name, password = form.get("name", "").strip()[:64], form.get("password", "")
    target = redirect_target(form.get("next"))

    def work() -> Response:
        again = _limited(request, ("login_address_limiter", client_address(request)),
                         ("login_name_limiter", name.lower()))
        if again:
            return render(request, "account_form.html", 429, mode="login", next=target,
                          error="rate", name=name, retry=again)
        auth = auth_of(request)
        found = auth.accounts.login_row(name) if not check_name(name) else None
        ok = verify_password(found[1] if found else None, password[:1000])
        if not found or not ok or found[0].banned:
            logger.info("login refused from %s", client_address(request))
            return render(request, "account_form.html", 401, mode="login", next=target,
                          error="login", name=name)
        response = see_other(target)
        auth.start_session(request, response, found[0])
        return response

    return await run_in_threadpool(work)


@router.post("/account/logout")
async def logout(request: Request) -> Response:
    await checked_form(request)
    response = see_other("/")
    await run_in_threadpool(auth_of(request).end_session, request, response)
    return response


@router.post("/account/logout-everywhere")
async def logout_everywhere(request: Request, account: RequiredAccount) -> Response:
    await checked_form(request)
    auth = auth_of(request)
    response = see_other("/")
    await run_in_threadpool(auth.accounts.drop_sessions, account.id)
    auth.end_session(request, response)
    return response


@router.post("/account/claim")
async def claim(request: Request, account: RequiredAccount) -> Response:
    """Claim a seat link (``game`` and ``token`` of a person's seat): the seat becomes the
    account's (its "my games" on any device); the seat's link becomes the account's."""
    form = await checked_form(request)
    gid, token = form.get("game", ""), form.get("token", "")

    def work() -> Response:
        service = request.app.state.service
        auth = auth_of(request)
        seat = service.seat_for(gid, token or None)
        if seat is None:
            raise ApiError(403, "bad_token", "a seat link is needed to claim its seat")
        live = service.live(gid)
        if live.seats[seat - 1].kind != "human":
            raise ApiError(403, "not_a_person", "a bot's seat cannot be claimed")
        if seat in auth.accounts.holders(gid):
            raise ApiError(409, "claimed", "this seat belongs to an account already")
        new = auth.seat_token(gid, seat, account.id)
        auth.accounts.bind_seats(gid, [(seat, account.id, new)])
        service.forget_token(gid, token)
        return see_other(f"/g/{gid}?token={new}")

    return await run_in_threadpool(work)


def _profile(request: Request, account: Account, own: bool) -> Response:
    from tramways.server.accounts.ratings import profile

    return render(request, "profile.html", who=account, own=own,
                  **profile(request.app.state, account))


@router.get("/account")
def my_profile(request: Request, account: CurrentAccount) -> Response:
    if account is None:
        return see_other("/account/login?next=/account")
    return _profile(request, account, True)


@router.get("/u/{name}")
def public_profile(request: Request, name: str) -> Response:
    found = auth_of(request).accounts.login_row(name[:64]) if not check_name(name) else None
    if found is None:
        return render(request, "profile.html", 404, who=None, own=False)
    return _profile(request, found[0], False)


@api_router.get("/account", response_model=WhoAmI, responses=refusals(401, 403))
def whoami(request: Request, account: RequiredAccount) -> JSONResponse:
    """The logged-in account (401 without a session)."""
    return JSONResponse({"id": account.id, "name": account.name})


@api_router.get("/account/csrf", response_model=CsrfToken, responses=refusals(401, 403))
def csrf(request: Request, account: RequiredAccount) -> JSONResponse:
    """The session's CSRF token, for ``X-CSRF-Token`` on the API's writes made with the
    session cookie (a page of another site cannot read it)."""
    token: Any = auth_of(request).csrf_token(request)
    return JSONResponse({"csrf": token}, headers={"Cache-Control": "no-store"})
