"""The one refusal every layer of the server raises: an HTTP status and a JSON body.

The application turns it into a response (``app.py``), the pages into a message in the
page's language, the WebSocket into a close code; every body has ``error`` (a stable word)
and ``message`` (a sentence), and may carry more (``rule``, ``retry_after``, ``state``).
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal with its HTTP status and JSON body."""

    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"error": error, "message": message, **extra}
