"""The links the server hands out: a seat's secret link and a game's spectator link.

A link is a path (``/g/ID?token=T``) unless a ``base`` (the site's address as people reach
it: ``https://tramways.example``) is given.  A seat link carries the seat's token: it is given
to that seat's holder only (the reply that created the game), never in a message to others.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode


def spectator_url(game_id: str, base: str = "") -> str:
    """The game's page for anyone: the spectator's view."""
    return f"{base.rstrip('/')}/g/{game_id}"


def seat_url(game_id: str, tokens: str | Sequence[str], base: str = "") -> str:
    """The game's page for the holder of ``tokens`` (two: both seats at one screen)."""
    held = [tokens] if isinstance(tokens, str) else list(tokens)
    return f"{spectator_url(game_id, base)}?{urlencode([('token', t) for t in held])}"
