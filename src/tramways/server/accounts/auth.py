"""Passwords, sessions, CSRF tokens and the seat links of accounts.

- **Passwords** are hashed with argon2id (``argon2-cffi``'s defaults); the password itself is
  never stored, logged or sent back.  A user name is 3-24 letters, digits, ``_`` or ``-``
  (unique in any case); a password 8-200 characters.
- **Sessions**: the cookie ``tw_session`` holds a random session id and its HMAC-SHA256
  signature under the site's secret (``HttpOnly``, ``SameSite=Lax``, ``Path=/``, and
  ``Secure`` when the site is reached over HTTPS: ``--public-url https://...`` or a proxy's
  ``X-Forwarded-Proto``, which uvicorn honours from loopback).  The database keeps the
  SHA-256 of the id only; logging out deletes it, "log out everywhere" deletes every session
  of the account.  A forged or tampered cookie is no session.
- **CSRF**: every form posted with a session carries ``csrf`` = HMAC(secret, the session id),
  and the API's writes made with the cookie carry it in ``X-CSRF-Token``.  Forms without a
  session (sign up, log in) use a random ``tw_csrf`` cookie in place of the session id.  A
  token from another session (or from before logging in or out) is refused with 403
  ``bad_csrf``.  ``SameSite=Lax`` and :class:`~tramways.server.headers.SameOriginForms`
  stand in front of this.
- **Seat links of accounts**: an account's seat token is HMAC(secret, game, seat, account),
  so the account's link can be made again on any device while the database keeps only its
  hash, like every seat token.  When the secret changes (``$TRAMWAYS_SECRET_KEY`` set or
  changed), the first process to start gives every account's seat its new token (a
  fingerprint of the secret in ``site_keys`` tells it changed): the links in "my games" keep
  working, the old ones stop.  Claiming a seat link gives the seat this token (the old link
  then opens the seat no more, once the server has forgotten it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, Request
from fastapi.responses import Response

from tramways.server.accounts.tables import Account, AccountStore
from tramways.server.errors import ApiError

SESSION_COOKIE = "tw_session"
CSRF_COOKIE = "tw_csrf"
CSRF_HEADER = "x-csrf-token"
SECRET_ENV = "TRAMWAYS_SECRET_KEY"
SESSION_DAYS = 30
NAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
PASSWORD_MIN, PASSWORD_MAX = 8, 200

_hasher = PasswordHasher()
_DUMMY = _hasher.hash("not a password of anyone")


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a user name (``None``: it can)."""
    if not NAME.fullmatch(name):
        return "name"
    return None


def check_password(password: str) -> str | None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return "password"
    return None


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; an unknown account costs the same time (a dummy hash)."""
    try:
        return _hasher.verify(password_hash or _DUMMY, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Auth:
    """The site's secret and what it signs; one per application (``app.state.auth``)."""

    accounts: AccountStore
    secret: bytes
    public_https: bool = False

    @classmethod
    def load(cls, accounts: AccountStore, public_url: str = "") -> Auth:
        key = os.environ.get(SECRET_ENV) or accounts.secret()
        auth = cls(accounts, key.encode(), public_url.startswith("https://"))
        changed = accounts.rekey_seats(auth.mac("seat-mark"), auth.seat_token)
        if changed:
            logging.getLogger("tramways.server.accounts").warning(
                "the site's secret changed: %d seats of accounts were given new links", changed)
        return auth

    def mac(self, *parts: str) -> str:
        message = "\x1f".join(parts).encode()
        return _b64(hmac.new(self.secret, message, hashlib.sha256).digest())

    def sign(self, value: str) -> str:
        return f"{value}.{self.mac('session', value)}"

    def unsign(self, cookie: str | None) -> str | None:
        if not cookie or "." not in cookie or len(cookie) > 200:
            return None
        value, _, sig = cookie.rpartition(".")
        return value if hmac.compare_digest(sig, self.mac("session", value)) else None

    def seat_token(self, game_id: str, seat: int, account_id: str) -> str:
        """The seat token of an account's seat (the same on every device)."""
        return self.mac("seat", game_id, str(seat), account_id)[:32]

    # -- sessions ---------------------------------------------------------------------------

    def secure(self, request: Request) -> bool:
        return self.public_https or request.url.scheme == "https"

    def start_session(self, request: Request, response: Response, account: Account) -> None:
        session_id = secrets.token_urlsafe(32)
        self.accounts.add_session(account.id, session_id)
        response.set_cookie(SESSION_COOKIE, self.sign(session_id),
                            max_age=SESSION_DAYS * 24 * 3600, httponly=True, samesite="lax",
                            secure=self.secure(request), path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")

    def end_session(self, request: Request, response: Response) -> None:
        session_id = self.unsign(request.cookies.get(SESSION_COOKIE))
        if session_id:
            self.accounts.drop_session(session_id)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                               secure=self.secure(request))

    def session_id(self, request: Request) -> str | None:
        return self.unsign(request.cookies.get(SESSION_COOKIE))

    # -- CSRF -------------------------------------------------------------------------------

    def csrf_token(self, request: Request, response: Response | None = None) -> str:
        """The token the forms of this page carry; without a session, from the ``tw_csrf``
        cookie (made here and set on ``response`` when the browser has none)."""
        session_id = self.session_id(request)
        if session_id and getattr(request.state, "account", None) is not None:
            return self.mac("csrf", session_id)
        anon = request.cookies.get(CSRF_COOKIE)
        if not anon or len(anon) > 64:
            anon = getattr(request.state, "new_csrf_cookie", None) or secrets.token_urlsafe(24)
            request.state.new_csrf_cookie = anon
            if response is not None:
                response.set_cookie(CSRF_COOKIE, anon, httponly=True, samesite="lax",
                                    secure=self.secure(request), path="/")
        return self.mac("csrf-anon", anon)

    def check_csrf(self, request: Request, sent: str | None) -> None:
        """403 ``bad_csrf`` unless ``sent`` is this browser's token now."""
        session_id = self.session_id(request)
        if session_id and current_account(request) is not None:
            expected = self.mac("csrf", session_id)
        else:
            anon = request.cookies.get(CSRF_COOKIE)
            expected = self.mac("csrf-anon", anon) if anon else ""
        if not sent or not expected or not hmac.compare_digest(sent, expected):
            raise ApiError(403, "bad_csrf", "this form is stale or not from this site: "
                           "reload the page and try again")


def auth_of(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


def current_account(request: Request) -> Account | None:
    """The account of the request's session cookie (``None``: no valid session).  The one
    dependency every account route uses; the answer is kept on ``request.state``."""
    if hasattr(request.state, "account"):
        found: Account | None = request.state.account
        return found
    auth = auth_of(request)
    session_id = auth.session_id(request)
    account = auth.accounts.session_account(session_id) if session_id else None
    request.state.account = account
    return account


CurrentAccount = Annotated[Account | None, Depends(current_account)]


def require_account(account: CurrentAccount) -> Account:
    """401 ``login_required`` without a session."""
    if account is None:
        raise ApiError(401, "login_required", "log in first")
    return account


RequiredAccount = Annotated[Account, Depends(require_account)]


def api_csrf(request: Request, account: CurrentAccount) -> Account | None:
    """For the API's writes made with the session cookie: the ``X-CSRF-Token`` header must
    hold the session's token (a seat token in ``Authorization`` needs none)."""
    if account is not None and not request.headers.get("authorization"):
        auth_of(request).check_csrf(request, request.headers.get(CSRF_HEADER))
    return account


def client_address(request: Request) -> str:
    return request.client.host if request.client else "-"


def redirect_target(value: Any) -> str:
    """A local path to go to after a form (never another site)."""
    text = str(value or "")
    if not text.startswith("/") or text.startswith("//") or "\\" in text or len(text) > 300:
        return "/lobby"
    return text
