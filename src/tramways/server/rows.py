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


@dataclass(frozen=True)
class Loaded:
    """A game read in one snapshot (``Store.load_lines``): its row, its actions from a number
    on, its log lines after a line id with the number (``seq``) of the move that wrote each
    (``None``: a line no move wrote, an undo's or a closing's), and the id of its last line."""

    row: GameRow
    actions: list[ActionRow]
    lines: list[str]
    seqs: list[int | None]
    log_id: int


@dataclass(frozen=True)
class Written:
    """A committed write as announced to every server process (PostgreSQL ``NOTIFY``): the
    game and its new ``rev``; for an appended move also the move itself (``action``), the id
    of its last log line (``log_id``; ``None``: it logged nothing) and its count of log lines,
    so that a process holding the position just before it can play the move on its cached
    position instead of reading it back (``Positions.follow``).  An undo carries no move.

    ``settings``: not a revision but a change of what processes remember of the game (its
    pace, its notification targets: :mod:`tramways.server.facts`); ``rev`` is then 0."""

    game_id: str
    rev: int
    action: ActionRow | None = None
    log_id: int | None = None
    lines: int = 0
    settings: bool = False

    SETTINGS = "settings"
    """The second word of a settings change's payload (``GAME settings``): no number, so a
    process of an older version skips it as not its own."""

    @classmethod
    def settings_of(cls, game_id: str) -> Written:
        return cls(game_id, 0, settings=True)

    NOTIFY_LIMIT = 7000
    """A payload longer than this is sent without the move (PostgreSQL's limit is 8000 bytes)."""

    def payload(self) -> str:
        """``GAME REV`` or ``GAME REV SEQ SEAT REVEALS LOG_ID LINES NOTATION`` (``-`` for no
        seat or no log line; the notation last, since it may hold spaces); ``GAME settings``
        for a settings change."""
        if self.settings:
            return f"{self.game_id} {self.SETTINGS}"
        short = f"{self.game_id} {self.rev}"
        a = self.action
        if a is None:
            return short
        seat = "-" if a.seat is None else str(a.seat)
        log_id = "-" if self.log_id is None else str(self.log_id)
        text = f"{short} {a.seq} {seat} {int(a.reveals)} {log_id} {self.lines} {a.notation}"
        return short if len(text.encode()) > self.NOTIFY_LIMIT else text

    @classmethod
    def parse(cls, payload: str) -> Written:
        parts = payload.split(" ", 7)
        if len(parts) == 2 and parts[1] == cls.SETTINGS:
            return cls.settings_of(parts[0])
        game_id, rev = parts[0], int(parts[1])
        if len(parts) < 8:
            return cls(game_id, rev)
        seq, seat, reveals, log_id, lines, notation = parts[2:]
        action = ActionRow(int(seq), notation, None if seat == "-" else int(seat),
                           reveals == "1")
        return cls(game_id, rev, action, None if log_id == "-" else int(log_id), int(lines))
