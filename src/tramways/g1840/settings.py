"""The settings of a game of 1840 as a typed model, and their one JSON form (the record's).

``players`` (2-6, III.1), ``small_map`` (3 players only, XII), ``names``, ``ruleset``
(``"18xx.games"`` for imported records: RULINGS.md X-1..X-20), ``edition`` (the rulings'
edition the game is played under, R-VERSION-1; not stated: the first) and ``programs``
(programmed actions, :mod:`tramways.g1840.program_actions`).  :meth:`Settings1840.from_json`
validates a record's settings (one ``RecordError`` line naming the field) and
:meth:`Settings1840.to_json` writes them back as every record stores them:
``from_json(to_json())`` gives the settings back unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tramways.core.errors import RecordError
from tramways.g1840.edition import Edition
from tramways.g1840.ruleset import NAMES, RULES_NAME

KEYS = frozenset({"players", "small_map", "names", "ruleset", "edition", "programs"})


def default_names(players: int) -> tuple[str, ...]:
    """The names of seats nobody named: ``Player 1``, ``Player 2``, ..."""
    return tuple(f"Player {i + 1}" for i in range(players))


def _flag(settings: Mapping[str, Any], key: str, what: str) -> bool:
    value = settings.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"1840: {what} must be true or false")
    return value


@dataclass(frozen=True, slots=True)
class Settings1840:
    """A game's settings (III.1, XII, R-VERSION-1)."""

    players: int
    names: tuple[str, ...]
    small_map: bool = False
    ruleset: str = RULES_NAME
    edition: Edition | None = None  # None: not stated (the first edition)
    programs: bool = False

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> Settings1840:
        """The settings of a record (missing ones take their defaults), checked."""
        players = settings.get("players", 4)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
            raise RecordError("1840: players must be 2 to 6")
        small = _flag(settings, "small_map", "small_map")
        if small and players != 3:
            raise RecordError("1840: the small map (XII) is for 3 players only")
        names = settings.get("names") or list(default_names(players))
        if (not isinstance(names, list) or len(names) != players
                or not all(isinstance(n, str) and n for n in names)):
            raise RecordError(f"1840: names must be {players} non-empty strings")
        ruleset = settings.get("ruleset", RULES_NAME)
        if ruleset not in NAMES:
            raise RecordError(f"1840: ruleset must be one of {', '.join(NAMES)}")
        edition = Edition.of(settings)  # R-VERSION-1
        programs = _flag(settings, "programs", "programs")
        unknown = set(settings) - KEYS
        if unknown:
            raise RecordError(f"1840: unknown settings {', '.join(sorted(unknown))}")
        return cls(players=players, names=tuple(names), small_map=small, ruleset=ruleset,
                   edition=edition if "edition" in settings else None, programs=programs)

    def to_json(self) -> dict[str, Any]:
        """The settings as a record stores them: ``ruleset``, ``edition`` and ``programs``
        only where they are not the default."""
        out: dict[str, Any] = {"players": self.players, "small_map": self.small_map,
                               "names": list(self.names)}
        if self.ruleset != RULES_NAME:
            out["ruleset"] = self.ruleset
        if self.edition is not None:
            out["edition"] = int(self.edition)
        if self.programs:
            out["programs"] = True
        return out


__all__ = ["KEYS", "Settings1840", "default_names"]
