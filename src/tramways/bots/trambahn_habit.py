"""How often the other Trambahn player fills a row at 3 whose scoring favours it, read from its play.

A row at 3 is scored by one more passenger, a card of its colour or a conductor (Step 1,
T-R-2).  When such a row favours the other player at the start of its turn (its columns of
that colour score more than ours; with one regular scoring left, only when the 10th scoring
would leave it ahead, T-R-4), a player who always fills it when it can fills it with the
chance that its 6 cards hold a fitting one (hypergeometric over the cards we have not seen,
:func:`~tramways.bots.trambahn_turns.chance_of`).  Players differ: one keeps its high cards
for its columns and leaves the row open, another places any fitting card at once.

:class:`FillRate` follows one player's own views (public information and its own hand only)
and counts, over the other player's turns, the rows at 3 that favoured it, the chance that
it could fill each (``expected``) and the ones it filled (``filled``).  Its :meth:`rate` is
the share of the rows it could fill that it did fill, pulled toward ``prior`` while there
are few of them.  The race search (:mod:`~tramways.bots.trambahn_race`, ``habit``) weighs the
planner's danger of the other player's next passengers by it.
"""

from __future__ import annotations

from collections import Counter

from tramways.bots.trambahn_infer import favours
from tramways.bots.trambahn_unseen import Unseen, chance_of
from tramways.trambahn.cards import COLOURS, HAND_SIZE, ROW_SIZE
from tramways.trambahn.view_types import TrambahnView

PRIOR = 0.45
"""The fill rate assumed before any row has been seen (between a player who leaves rows
open more often than not and one who fills every row it can)."""

STRENGTH = 2.0
"""How many expected fills the prior counts as."""


class FillRate:
    """The other player's habit of filling a row at 3 that favours it (see the module
    docstring)."""

    def __init__(self, prior: float = PRIOR, strength: float = STRENGTH) -> None:
        self.prior = prior
        self.strength = strength
        self.last: TrambahnView | None = None
        self.expected = 0.0
        self.filled = 0

    def rate(self) -> float:
        """The filled rows over the ones it could fill, with the prior's weight added."""
        return ((self.filled + self.prior * self.strength)
                / (self.expected + self.strength))

    def observe(self, view: TrambahnView) -> None:
        """A new view of mine: at the first one after the other player's turn, count the
        rows at 3 it found (in my view before I ended my turn) and the ones it scored."""
        last, self.last = self.last, view
        if view.you is None:
            return
        if last is None or last.you != view.you or view.turn_number < last.turn_number:
            self.expected, self.filled = 0.0, 0
            return
        if view.turn_number != last.turn_number + 2 or view.over:
            return
        other = 1 - view.you
        scored = {h.colour for h in view.history[len(last.history):] if h.kind == "regular"}
        unseen = Unseen.from_view(last, Counter())
        hand = last.hand_sizes[other] or HAND_SIZE
        for c, colour in enumerate(COLOURS):
            if len(last.rows[colour]) != ROW_SIZE - 1 or not favours(last, other, colour):
                continue
            self.expected += chance_of(1, unseen.per_row[c], unseen.total, hand)
            self.filled += colour in scored
