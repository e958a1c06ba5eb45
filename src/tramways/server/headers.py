"""Security headers on every HTTP response (an ASGI middleware).

- ``Content-Security-Policy``: scripts, styles, images and connections from the site itself
  only (the pages' scripts are files under ``/static``, never inline), no framing
  (``frame-ancestors 'none'``), no ``<base>``, forms posting to the site only.  The API's
  documentation pages (``/docs``, ``/redoc``) start Swagger UI and ReDoc with one inline
  script each, so there inline scripts are allowed; their assets ship in the package
  (``fastapi-offline``), never from a CDN, because the site's origin keeps seat tokens in
  ``localStorage``.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY`` (for browsers before CSP's ``frame-ancestors``).
- ``Cache-Control: no-store`` on every response to a request that carries a seat token (in
  the query or an ``Authorization`` header) and on every game page, so that no shared or
  browser cache keeps a page with a token or a hand of cards; other responses keep their
  own caching (static files).

:class:`SameOriginForms` refuses a page's form post sent from another site (cross-site
request forgery: a foreign page that makes a visitor's browser create games or play with a
seat link it holds).  Browsers say where a request comes from in ``Sec-Fetch-Site``; a post
to the pages (not ``/api``, whose requests carry their token explicitly) marked
``cross-site`` or ``same-site`` is refused with 403.  (``Origin`` cannot serve: under
``Referrer-Policy: no-referrer`` browsers send ``Origin: null`` for the site's own forms.)
"""

from __future__ import annotations

from typing import Any

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The policy of the pages and the API."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
"""The policy of ``/docs`` and ``/redoc`` (one inline start-up script each)."""

DOCS_PATHS = ("/docs", "/redoc")

_ALWAYS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


def _carries_token(scope: dict[str, Any]) -> bool:
    query = scope.get("query_string", b"")
    if b"token=" in query:
        return True
    if scope.get("path", "").startswith("/g/"):
        return True
    return any(name == b"authorization" for name, _v in scope.get("headers", ()))


class SecurityHeaders:
    """Adds the headers above to every HTTP response of ``app`` (WebSockets pass through)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        policy = DOCS_POLICY if path.startswith(DOCS_PATHS) else PAGE_POLICY
        no_store = _carries_token(scope)

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _v in headers}
                headers += [h for h in _ALWAYS if h[0] not in present]
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", policy.encode()))
                if no_store:
                    headers = [h for h in headers if h[0].lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SameOriginForms:
    """Refuse (403) a form post to the pages that a browser marks as sent from another site."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if (scope["type"] == "http" and scope.get("method") == "POST"
                and not scope.get("path", "").startswith("/api/")):
            site = dict(scope.get("headers", ())).get(b"sec-fetch-site", b"")
            if site in (b"cross-site", b"same-site"):
                body = (b'{"error": "cross_site", "message": "a form of this site is '
                        b'posted from this site only"}')
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
