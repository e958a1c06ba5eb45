"""The typed rows the store reads and writes, and the store's own refusal
(:class:`Conflict`)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


class Conflict(Exception):
    """Another writer changed the game first (the compare-and-set or the unique key failed)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class GameRow:
    id: str
    game: str
    version: int
    settings: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    status: str
    n: int
    rev: int


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str


@dataclass
class NotifyTargets:
    """Where a game's "your turn" messages go: its webhook, and each seat's e-mail address
    (``{seat: (address, language)}``), with the language each was set in."""

    webhook: str | None = None
    webhook_lang: str | None = None
    emails: dict[int, tuple[str, str | None]] = field(default_factory=dict)


@dataclass
class ActionRow:
    seq: int
    notation: str
    seat: int | None
    reveals: bool
