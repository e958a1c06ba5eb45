"""An account's e-mail address (optional): verification, and the password reset it allows.

The mail goes out through the site's SMTP settings (``tramways serve --smtp-host ...``, the
same as the "your turn" e-mails: :mod:`tramways.server.notify`), from a thread of its own,
never in a request's way; a failure is logged with its class only.  The links carry no
secret of the database: each is ``/account/verify/ACCOUNT/EXPIRY/MAC`` or
``/account/reset/ACCOUNT/EXPIRY/MAC`` with MAC = HMAC(site secret, what, account, expiry, and
the address to verify or the account's current password hash).  A verification link is
good for 3 days and only for the address it was sent to; a reset link for 2 hours and only
until the password changes (using it changes it, so it works once).  Asking for a reset
answers the same whether or not the name or address is known (no probing for accounts), and
counts against the log-in limit of the address.  A new password ends every session.
"""

from __future__ import annotations

import hmac
import logging
import smtplib
import ssl
import threading
import time
from email.message import EmailMessage

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import (
    RequiredAccount,
    auth_of,
    check_name,
    check_password,
    client_address,
    hash_password,
)
from tramways.server.accounts.common import checked_form, lang_of, render, see_other
from tramways.server.accounts.tables import Account
from tramways.server.errors import ApiError
from tramways.server.notify import NotifyRefused, SmtpSettings, check_email
from tramways.server.web.i18n import environment

router = APIRouter(include_in_schema=False)
logger = logging.getLogger("tramways.server.accounts")
VERIFY_SECONDS = 3 * 24 * 3600
RESET_SECONDS = 2 * 3600


def send_mail(smtp: SmtpSettings, to: str, subject: str, body: str) -> threading.Thread:
    """Send one e-mail from a thread of its own (the thread, to wait for in tests)."""

    def run() -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = smtp.sender, to, subject
        msg.set_content(body)
        try:
            if smtp.security == "ssl":
                server: smtplib.SMTP = smtplib.SMTP_SSL(
                    smtp.host, smtp.port, timeout=smtp.timeout, context=ssl.create_default_context())
            else:
                server = smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout)
            with server:
                if smtp.security == "starttls":
                    server.starttls(context=ssl.create_default_context())
                if smtp.user:
                    server.login(smtp.user, smtp.password)
                server.send_message(msg)
        except Exception as exc:
            logger.warning("account e-mail failed: %s", type(exc).__name__)

    thread = threading.Thread(target=run, name="account-mail", daemon=True)
    thread.start()
    return thread


def _link(request: Request, what: str, account: Account, extra: str) -> str:
    seconds = VERIFY_SECONDS if what == "verify" else RESET_SECONDS
    expiry = str(int(time.time()) + seconds)
    mac = auth_of(request).mac(what, account.id, expiry, extra)
    base = request.app.state.settings.public_url.rstrip("/") or str(request.base_url).rstrip("/")
    return f"{base}/account/{what}/{account.id}/{expiry}/{mac}"


def _mail(request: Request, kind: str, account: Account, to: str, link: str) -> None:
    text = environment(lang_of(request)).get_template("account_mail.html").render(
        kind=kind, name=account.name, link=link)
    subject, _, body = text.strip().partition("\n")
    smtp = request.app.state.settings.smtp
    request.app.state.mail_threads = [send_mail(smtp, to, subject.strip(), body.strip() + "\n")]


def _valid(request: Request, what: str, account_id: str, expiry: str, mac: str,
           extra: str) -> bool:
    if not expiry.isdigit() or int(expiry) < time.time() or len(mac) > 64:
        return False
    return hmac.compare_digest(mac, auth_of(request).mac(what, account_id, expiry, extra))


@router.post("/account/email")
async def set_email(request: Request, account: RequiredAccount) -> Response:
    """Set (or, empty, remove) the account's address; a new one is sent a verification link."""
    form = await checked_form(request)
    raw = form.get("email", "").strip()

    def work() -> Response:
        accounts = auth_of(request).accounts
        if not raw:
            accounts.set_email(account.id, None)
            return see_other("/account#email")
        try:
            address = check_email(raw)
        except NotifyRefused:
            raise ApiError(422, "bad_email", "not an e-mail address") from None
        request.app.state.login_address_limiter.hit(client_address(request))
        accounts.set_email(account.id, address)
        if request.app.state.settings.smtp.enabled:
            _mail(request, "verify", account, address, _link(request, "verify", account, address))
        return see_other("/account?mail=sent#email")

    return await run_in_threadpool(work)


@router.get("/account/verify/{account_id}/{expiry}/{mac}")
def verify(request: Request, account_id: str, expiry: str, mac: str) -> Response:
    accounts = auth_of(request).accounts
    found = accounts.account(account_id[:32])
    if found is None or not found.email or not _valid(request, "verify", found.id, expiry, mac,
                                                      found.email):
        return render(request, "account_reset.html", 400, mode="bad")
    accounts.set_email(found.id, found.email, verified=True)
    return see_other("/account?mail=verified#email")


@router.get("/account/reset")
def reset_page(request: Request) -> Response:
    return render(request, "account_reset.html", mode="ask")


@router.post("/account/reset")
async def ask_reset(request: Request) -> Response:
    form = await checked_form(request)
    who = form.get("who", "").strip()[:254]

    def work() -> Response:
        request.app.state.login_address_limiter.hit(client_address(request))
        accounts = auth_of(request).accounts
        found: Account | None = None
        if "@" in who:
            found = accounts.by_email(who)
        elif not check_name(who):
            row = accounts.login_row(who)
            found = row[0] if row and row[0].email_verified else None
        smtp_on = request.app.state.settings.smtp.enabled
        if found is not None and found.email and smtp_on:
            _mail(request, "reset", found, found.email,
                  _link(request, "reset", found, accounts.password_hash(found.id) or ""))
        return render(request, "account_reset.html", mode="sent")

    return await run_in_threadpool(work)


def _reset_account(request: Request, account_id: str, expiry: str, mac: str) -> Account | None:
    accounts = auth_of(request).accounts
    found = accounts.account(account_id[:32])
    if found is None or not _valid(request, "reset", found.id, expiry, mac,
                                   accounts.password_hash(found.id) or ""):
        return None
    return found


@router.get("/account/reset/{account_id}/{expiry}/{mac}")
def reset_form(request: Request, account_id: str, expiry: str, mac: str) -> Response:
    if _reset_account(request, account_id, expiry, mac) is None:
        return render(request, "account_reset.html", 400, mode="bad")
    return render(request, "account_reset.html", mode="new", action=request.url.path)


@router.post("/account/reset/{account_id}/{expiry}/{mac}")
async def reset(request: Request, account_id: str, expiry: str, mac: str) -> Response:
    form = await checked_form(request)
    password = form.get("password", "")

    def work() -> Response:
        found = _reset_account(request, account_id, expiry, mac)
        if found is None:
            return render(request, "account_reset.html", 400, mode="bad")
        if check_password(password):
            return render(request, "account_reset.html", 422, mode="new",
                          action=request.url.path, error="password")
        accounts = auth_of(request).accounts
        accounts.set_password_hash(found.id, hash_password(password))
        accounts.drop_sessions(found.id)
        return see_other("/account/login?reset=1")

    return await run_in_threadpool(work)
