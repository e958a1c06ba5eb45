"""What the account pages share: rendering a template in the request's language (with the
account and the CSRF token in the context), reading a posted form, a redirect after a post."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlencode

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.concurrency import run_in_threadpool

from tramways.server.accounts.auth import auth_of, current_account
from tramways.server.web.i18n import environment, negotiate, translations


def lang_of(request: Request) -> str:
    return negotiate(request.query_params.get("lang"), request.cookies.get("lang"),
                     request.headers.get("accept-language"))


def gettext(request: Request) -> Any:
    return translations(lang_of(request)).gettext


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The page in the request's language; ``account`` and ``csrf`` (this browser's form
    token) are in every context.  Call it from a worker thread (it may read the session)."""
    lang = lang_of(request)
    auth = auth_of(request)
    account = current_account(request)
    csrf = auth.csrf_token(request)

    def lang_url(code: str) -> str:
        if request.method != "GET":
            return f"{request.url.path}?{urlencode([('lang', code)])}"
        pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        return f"{request.url.path}?{urlencode([*pairs, ('lang', code)])}"

    html = environment(lang).get_template(template).render(
        request=request, lang_url=lang_url, account=account, csrf=csrf,
        is_admin=account is not None and account.name.lower() in request.app.state.admins,
        **context)
    response = HTMLResponse(html, status_code=status,
                            headers={"Cache-Control": "no-store"})
    fresh = getattr(request.state, "new_csrf_cookie", None)
    if fresh:
        auth.csrf_token(request, response)
    asked = request.query_params.get("lang")
    if asked and asked == lang:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


async def render_async(request: Request, template: str, status: int = 200,
                       **context: Any) -> HTMLResponse:
    return await run_in_threadpool(render, request, template, status, **context)


async def read_form(request: Request) -> dict[str, str]:
    """The posted form (urlencoded), first value of each field."""
    raw = parse_qs((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in raw.items()}


async def checked_form(request: Request) -> dict[str, str]:
    """The posted form, after its CSRF token was checked (403 ``bad_csrf``)."""
    form = await read_form(request)
    auth = auth_of(request)
    await run_in_threadpool(auth.check_csrf, request, form.get("csrf"))
    return form


def see_other(path: str) -> RedirectResponse:
    """Redirect after a post (303: a reload does not post again)."""
    return RedirectResponse(path, status_code=303)


CLOSE_TOO_BIG = 1009
CLOSE_TOO_MANY = 4429


async def take_socket(websocket: WebSocket) -> tuple[str, str | None] | None:
    """A slot of the process's live connections (the same caps as the game sockets: in all
    and per address), or ``None`` after closing the socket with 4429."""
    slot = websocket.app.state.socket_limit.take(
        websocket.client.host if websocket.client else "-", None)
    if isinstance(slot, str):
        await websocket.accept()
        await websocket.close(code=CLOSE_TOO_MANY, reason=slot[:120])
        return None
    return slot


async def drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it goes; a message over the site's cap
    (``ws_max_message_bytes``) closes the socket with 1009."""
    cap: int = websocket.app.state.settings.ws_max_message_bytes
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text, data = message.get("text"), message.get("bytes")
        size = len(data) if data is not None else len(text.encode()) if text else 0
        if cap and size > cap:
            await websocket.close(code=CLOSE_TOO_BIG, reason=f"messages are at most {cap} bytes")
            return
