"""The body of a new open game: one pydantic model for the lobby's form
(``POST /lobby/new``) and the API (``POST /api/lobby``), so both refuse the same things
alike: the game and its seats, the language at the table, 1840's ruleset, and the pace
(:class:`~tramways.server.bodies.PaceChoice`: none, live or over days, what the deadline does,
the stand-in bot).  The pace is stored with the table and becomes the game's pace when the
table starts (docs/async.md)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, model_validator

from tramways.g1840.game import RULESETS
from tramways.server.bodies import PaceChoice, _refuse, refusal
from tramways.server.clocks.store import Pace
from tramways.server.web.i18n import LANGUAGE_NAMES

SEATS = {"trambahn": (2, 2), "1840": (2, 6)}
"""Seats a table of each game may have (Trambahn: two; 1840: 2-6)."""


class NewTable(PaceChoice):
    """A new open game: the creator takes seat 1; the others join from the lobby."""

    game: str = Field(examples=["trambahn", "1840"])
    seats: int = Field(default=2, description="the seats to fill (Trambahn 2; 1840 2-6)")
    lang: str = Field(default="en", max_length=8, description="the language at the table")
    ruleset: str = Field(default="rules", description="1840: rules or 18xx.games")

    @model_validator(mode="after")
    def _whole(self) -> NewTable:
        low, high = SEATS.get(self.game, (0, -1))
        ruleset = self.ruleset if self.game == "1840" else "rules"
        if not low <= self.seats <= high or self.lang not in LANGUAGE_NAMES \
                or ruleset not in RULESETS:
            raise _refuse("bad_table", f"a table of {self.game!r} has {low}-{high} seats, a "
                          f"language of the site and a ruleset of {', '.join(RULESETS)}")
        self.ruleset = ruleset
        self.pace_seconds()
        self.check_bot(self.game)
        return self

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> NewTable:
        """The body from a form or JSON; a refusal as the API's :class:`ApiError` (empty
        form fields count as not given)."""
        try:
            return cls(**{k: v for k, v in fields.items() if v != "" and k != "csrf"})
        except ValidationError as exc:
            raise refusal(exc) from None

    def settings(self) -> dict[str, Any]:
        return {} if self.ruleset == "rules" else {"ruleset": self.ruleset}

    def table_pace(self) -> Pace | None:
        seconds = self.pace_seconds()
        return None if seconds is None else Pace(seconds, self.on_deadline, self.bot)
