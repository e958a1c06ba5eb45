"""The bodies clients send, as pydantic models: the API validates them, and the pages post
the same models from their forms (``web/pages.py``), so both refuse the same things alike.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, JsonValue


def _seat_kinds() -> list[JsonValue]:
    from tramways.bots import bot_names
    from tramways.games import game_names

    bots = sorted({b for g in game_names() for b in bot_names(g)})
    return ["human", *(f"bot:{b}" for b in bots)]


def _game_names() -> list[JsonValue]:
    from tramways.games import game_names

    return list(game_names())


class NewGame(BaseModel):
    game: str = Field(examples=["trambahn"], json_schema_extra={"enum": _game_names()})
    settings: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(
        min_length=1, max_length=6,
        description="'human' or a bot of the game ('bot:random', 'bot:rule', 'bot:search')",
        examples=[["human", "bot:rule"]],
        json_schema_extra={"items": {"type": "string", "enum": _seat_kinds()}},
    )
    names: list[str | None] | None = Field(default=None, description="optional name per seat")


class Move(BaseModel):
    n: int = Field(ge=0, description="the number of moves played so far, as the client saw it")
    action: str = Field(min_length=1, max_length=500, examples=["P1 passenger 7r"])


class Undo(BaseModel):
    n: int = Field(ge=0, description="the number of moves played so far, as the client saw it")
    count: int = Field(default=1, ge=1, le=100, description="how many of your moves to take back")


class Notify(BaseModel):
    email: str | None = Field(default=None, max_length=254,
                              description="this seat's address for 'your turn' e-mails; "
                              "null or empty: none")
    webhook: str | None = Field(default=None, max_length=2000,
                                description="the game's webhook (a chat server's incoming "
                                "URL; public addresses only); null or empty: none")
    lang: str | None = Field(default=None, max_length=8,
                             description="the language of the messages (en, de, ru, es); "
                             "default: the request's Accept-Language")


class Mine(BaseModel):
    tokens: list[str] = Field(max_length=200)


