"""Actions: small immutable typed values with a short text notation.

Every game's actions subclass :class:`Action` as frozen dataclasses.  ``player`` is who acts
(a 0-based seat index).  The game provides ``format_action`` / ``parse_action`` so that
``parse(format(a)) == a`` for every action the engine can list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``player`` is the acting seat (0-based)."""

    player: int
