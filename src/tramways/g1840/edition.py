"""The editions of RULINGS.md a record can be played under (R-VERSION-1).

A record states the edition of the rulings it was played under (``settings["edition"]``); a
record without one was played under the first edition, which is what every record written
before the field existed was.  New games use :data:`LATEST`.  When a ruling changes how a
position comes out, the old behaviour stays selectable by the older edition, so an old record
replays as it was played.

The engine reads the edition in one place: :class:`~tramways.g1840.position.Position` builds its
share market with :meth:`Edition.climbs_at_row_end`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any

from tramways.core.errors import RecordError


class Edition(IntEnum):
    """An edition of the 1840 rulings (R-VERSION-1)."""

    FIRST = 1
    """R-CR-2 as first written: a right move that reaches the end of its row goes one space up
    for every remaining space."""
    SECOND = 2
    """R-CR-2 amended: every space goes right if the row goes on, else one up; after going up
    the move goes right again along the longer row (X.2, as 18xx.games plays it)."""

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Edition:
        """The edition a game's settings state (none stated: :attr:`FIRST`)."""
        value = settings.get("edition", cls.FIRST)
        if isinstance(value, bool) or not isinstance(value, int) or value not in set(cls):
            known = ", ".join(str(int(e)) for e in cls)
            raise RecordError(f"1840: edition must be one of {known} (the rulings' editions)")
        return cls(value)

    def climbs_at_row_end(self, site_ruleset: bool = False) -> bool:
        """Whether a dividend move, once it reaches the end of its row, goes up for every
        remaining space (R-CR-2 of the first edition) rather than right again along the longer
        row (amended R-CR-2).  The 18xx.games ruleset always went right again: in the first
        edition that was its switch X-9, since the second it is no longer a difference."""
        return self is Edition.FIRST and not site_ruleset


LATEST = Edition.SECOND
"""The edition new games are played under."""
