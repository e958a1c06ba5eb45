"""The structured access log: one JSON line per request or live connection, never a secret.

Seat tokens travel in query strings (``?token=``), e-mail links carry a MAC in their path
(``/account/reset/{account_id}/{expiry}/{mac}``), sessions and tokens in headers.  So the log
names a request by its **route** (the path template, ``/g/{game_id}/table``), not its path; it
keeps the game's id (``game``), which is public, and of the query only the parameters' names.
No header, no body, no cookie is read.

A line, on the logger ``tramways.access`` at level INFO::

    {"ts": "2026-11-27T02:58:01.5Z", "type": "http", "client": "127.0.0.1", "method": "GET",
     "route": "/api/games/{game_id}", "game": "eoVo0JBRZG5J", "query": ["token"],
     "status": 200, "ms": 3.1}

``type`` is ``http`` or ``ws`` (a live connection: logged when it ends, ``status`` 101 once
accepted, else the HTTP status it was refused with, and ``ms`` how long it lasted).  A path
that no route matched is logged as ``route: null`` (a static file: its path under
``/static/``, which holds no secret).  ``tramways serve --access-log`` turns it on.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOGGER = logging.getLogger("tramways.access")


def _route(scope: Scope) -> str | None:
    """The path with each path parameter's value put back as ``{name}`` (a route matched), the
    path of a static file, or None."""
    raw = scope.get("path", "")
    if not isinstance(raw, str):
        return None
    if scope.get("route") is None:
        return raw if raw.startswith("/static/") else None
    parts = raw.split("/")
    for name, value in (scope.get("path_params") or {}).items():
        parts = [f"{{{name}}}" if part == str(value) else part for part in parts]
    return "/".join(parts)


def _query_names(scope: Scope) -> list[str]:
    raw = scope.get("query_string", b"")
    if not raw:
        return []
    names = set()
    for part in raw.decode("latin-1").split("&"):
        name = part.split("=", 1)[0]
        if name:
            names.add(name[:40])
    return sorted(names)[:20]


def access_line(scope: Scope, status: int, seconds: float) -> dict[str, Any]:
    """The record of one request (what :class:`AccessLog` writes as JSON)."""
    client = scope.get("client")
    params = scope.get("path_params") or {}
    game = params.get("game_id")
    return {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "type": "ws" if scope["type"] == "websocket" else "http",
        "client": client[0] if client else None,
        "method": scope.get("method", "GET"),
        "route": _route(scope),
        **({"game": str(game)} if game is not None else {}),
        "query": _query_names(scope),
        "status": status,
        "ms": round(seconds * 1000, 1),
    }


class AccessLog:
    """ASGI middleware writing :func:`access_line` for every request and live connection
    (nothing when ``tramways.access`` is not enabled for INFO)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not LOGGER.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = [500 if scope["type"] == "http" else 403]

        async def watch(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                status[0] = int(message["status"])
            elif kind == "websocket.accept":
                status[0] = 101
            elif kind == "websocket.http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            LOGGER.info(json.dumps(access_line(scope, status[0], time.perf_counter() - start),
                                   separators=(",", ":")))


def log_to_stderr() -> None:
    """Send ``tramways.access`` lines to standard error, bare (``tramways serve
    --access-log``)."""
    if any(getattr(h, "_tramways_access", False) for h in LOGGER.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler._tramways_access = True  # type: ignore[attr-defined]
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False
