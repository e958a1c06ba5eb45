"""uvicorn's HTTP protocols with a deadline for a request's headers.

uvicorn times out an idle keep-alive connection (``--timeout-keep-alive``), but a client that
opens a connection, or starts a request, and then sends its headers a byte at a time holds
the connection for as long as it likes (a test held some for 75 s and more; enough of them
fill the server).  These subclasses close the connection when a request's headers are not
complete ``TRAMWAYS_HEADER_TIMEOUT`` seconds (``tramways serve --timeout-headers``, default
``HEADER_TIMEOUT``) after the connection opened or the request's first byte came; trickling
bytes does not move the deadline.  The deadline ends with the headers: a slow body is the
request handler's business (bodies are small: ``limits.BodyLimit``), and a WebSocket, once
upgraded, is no longer an HTTP connection.

``tramways serve`` passes them to uvicorn as ``http="tramways.server.protocol:..."``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
HEADER_TIMEOUT_ENV = "TRAMWAYS_HEADER_TIMEOUT"


class _HeaderDeadline:
    """The deadline's bookkeeping, shared by both protocols (``transport`` and ``loop`` are
    the protocol's own)."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    _deadline: asyncio.TimerHandle | None = None

    def _header_timeout(self) -> float:
        try:
            return float(os.environ.get(HEADER_TIMEOUT_ENV, HEADER_TIMEOUT))
        except ValueError:
            return HEADER_TIMEOUT

    def _arm(self) -> None:
        if self._deadline is None:
            timeout = self._header_timeout()
            if timeout > 0:
                self._deadline = self.loop.call_later(timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class H11HeaderDeadline(_HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with the header deadline."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        import h11

        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # waiting for (the rest of) a request's headers
            if self.conn.trailing_data[0]:
                self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools is not installed: h11 only
    HttpToolsHeaderDeadline: type | None = None
else:

    class _HttpTools(_HeaderDeadline, HttpToolsProtocol):
        """uvicorn's httptools protocol with the header deadline."""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    HttpToolsHeaderDeadline = _HttpTools


def protocol_path(http: str) -> str:
    """The ``http=`` value for uvicorn: ``"httptools"`` (the default when installed) or
    ``"h11"``."""
    if http == "httptools" and HttpToolsHeaderDeadline is not None:
        return "tramways.server.protocol:HttpToolsHeaderDeadline"
    return "tramways.server.protocol:H11HeaderDeadline"
