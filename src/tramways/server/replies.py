"""The bodies of the API's answers, as pydantic models: declared on every JSON route
(``response_model=``) so that ``/docs`` (OpenAPI) shows each success body.

The routes hand their JSON over as it is built (:mod:`tramways.server.payloads`, the service);
these models describe it, and ``tests/server/test_replies.py`` checks real answers against
them (every key, no key more).  ``view`` is the viewer's own typed view as serialised in one
place (``View1840.to_json``, ``TrambahnView.to_json``: docs/views.md), an object whose keys
depend on the game.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tramways.core.record import GameRecord

__all__ = ["Created", "CreatedSeat", "GamePayload", "GameRecord", "MyGame", "NotifySettings",
           "Seat"]


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Seat(_Reply):
    """A seat as every viewer sees it."""

    seat: int = Field(ge=1, description="1-based")
    kind: str = Field(examples=["human", "bot:rule"])
    name: str = Field(examples=["Anna"])


class CreatedSeat(Seat):
    """A seat of a new game, with its secret link (human seats only)."""

    token: str | None = Field(description="the seat's secret token (null for a bot)")
    url: str | None = Field(description="the seat's secret link /g/ID?token=... (null for a bot)",
                            examples=["/g/Ab3dEf9hIj0K?token=..."])


class Created(_Reply):
    """``POST /api/games``: the new game, a secret link per human seat, the spectator link."""

    id: str = Field(examples=["Ab3dEf9hIj0K"])
    game: str = Field(examples=["trambahn"])
    seats: list[CreatedSeat]
    spectate: str = Field(description="the spectator link", examples=["/g/Ab3dEf9hIj0K"])


class GamePayload(_Reply):
    """A game as one viewer may see it (``GET /api/games/ID``, the answer to a move or an
    undo, every WebSocket frame)."""

    id: str
    game: str
    n: int = Field(description="the moves of the position shown")
    at: int | None = Field(description="the ?at=N asked for (a past position), else null")
    latest: int = Field(description="the moves played so far")
    rev: int = Field(description="the game's revision: +1 for every move and every undo")
    to_act: list[int] = Field(description="the seats (1-based) to act")
    view: dict[str, Any] = Field(description="the viewer's own view (docs/views.md): a "
                                 "spectator's when no seat is held")
    legal: list[str] = Field(description="the legal moves of the viewer's seat, in notation")
    seat: int | None = Field(description="the viewer's seat (null: a spectator)")
    status: str = Field(examples=["active", "over"])
    seats: list[Seat]
    log: list[str] = Field(description="the log lines from number log_from on")
    log_at: list[int | None] = Field(
        default_factory=list,
        description="for each line of log, the position it shows (?at=N): the moves played "
                    "just after the move that wrote it (null: a line of an undo, of a closing "
                    "or of a move taken back)")
    moves: list[str] = Field(description="the moves from number moves_from on, in public "
                             "notation (what the viewer may not see is redacted)")
    undoable: int = Field(description="how many of its moves the viewer's seat may take back")
    record: bool = Field(description="whether GET .../record gives the record now")
    log_from: int
    moves_from: int
    log_length: int
    cursor: str | None = Field(description="REV.N.LOG: send it back as since= to be sent only "
                               "what is new (null for a past position)", examples=["12.11.30"])


class MyGame(_Reply):
    """One of the games a holder's tokens sit in (``POST /api/games/mine``)."""

    id: str
    game: str
    seat: int
    status: str
    n: int
    your_turn: bool
    seats: list[Seat]


class NotifySettings(_Reply):
    """A seat's "your turn" settings: its e-mail address and the host of the game's webhook
    (never its path)."""

    email: str | None
    webhook: str | None = Field(description="the webhook's host only")
