"""The bodies of the accounts' API answers: declared as ``response_model`` on
the routes of :mod:`~tramways.server.accounts.pages`, :mod:`~tramways.server.accounts.lobby`
and :mod:`~tramways.server.accounts.chat`, so that ``/docs`` shows each success body;
``tests/server/test_replies.py`` checks real answers against them (every key, no key more).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tramways.server.api import ErrorBody
from tramways.server.replies import MyGame

__all__ = ["AccountGame", "ChatMessage", "ChatMessages", "CsrfToken", "Muted", "OpenPace",
           "OpenPlayer", "OpenTable", "Said", "WhoAmI", "refusals"]

_REFUSALS: dict[int, str] = {
    401: "no session: log in (``login_required``)",
    403: "a session without a valid ``X-CSRF-Token`` (``bad_csrf``), a banned account, or "
         "not allowed (``muted``, ``not_a_player``, ``not_a_person``)",
    404: "no such game or message (``not_found``)",
    422: "invalid fields (``bad_request``, ``bad_text``, ``a_player``)",
    429: "too fast: ``rate_limited``, with ``retry_after`` and a ``Retry-After`` header",
    503: "the database is not answering (``unavailable``; ``Retry-After``)",
}


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these refusals (429 and 503 always), each an
    :class:`~tramways.server.api.ErrorBody`."""
    return {code: {"model": ErrorBody, "description": _REFUSALS[code]}
            for code in sorted({*codes, 429, 503})}


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WhoAmI(_Reply):
    """``GET /api/account``: the logged-in account."""

    id: str
    name: str = Field(examples=["anna"])


class CsrfToken(_Reply):
    """``GET /api/account/csrf``: the session's token for ``X-CSRF-Token``."""

    csrf: str


class AccountGame(MyGame):
    """One of the account's games (``GET /api/account/games``), with its seat link."""

    link: str = Field(description="the seat's link /g/ID?token=...")


class OpenPlayer(_Reply):
    seat: int = Field(ge=1)
    name: str


class OpenPace(_Reply):
    """An open game's pace: it becomes the game's when the table starts (docs/async.md)."""

    kind: str = Field(examples=["live", "async"])
    seconds: int = Field(description="per move")
    on_deadline: str = Field(examples=["nothing", "remind", "bot_move", "hand_over"])
    bot: str = Field(examples=["bot:rule"], description="who stands in")


class OpenTable(_Reply):
    """An open game of the lobby (``GET /api/lobby``)."""

    id: str
    game: str = Field(examples=["trambahn", "1840"])
    seats: int = Field(description="the seats to fill")
    lang: str = Field(examples=["en"])
    ruleset: str
    status: str = Field(examples=["open", "started"])
    game_id: str | None = Field(description="the game once started, else null")
    players: list[OpenPlayer]
    pace: OpenPace | None = Field(description="null: no pace (the game waits as long as it "
                                  "takes)")
    on_resign: str = Field(default="bot", examples=["bot", "end"],
                           description="what a resignation does (docs/async.md)")


class ChatMessage(_Reply):
    id: int
    seat: int | None = Field(description="the writer's seat (null: a spectator)")
    name: str
    text: str
    created: str = Field(description="ISO 8601, UTC")


class ChatMessages(_Reply):
    """``GET /api/games/ID/chat``: the messages after ``after``, oldest first."""

    messages: list[ChatMessage]


class Said(_Reply):
    """``POST /api/games/ID/chat``: the message written."""

    id: int
    seat: int | None
    name: str
    text: str


class Muted(_Reply):
    """``POST /api/games/ID/chat/mute``."""

    muted: bool
