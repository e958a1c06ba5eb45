"""What the other Trambahn player's hand is likely not to hold, read from the rows it left open.

At the start of its turn a player holds 6 cards (Step 5 of the turn before).  A row at 3 whose
scoring would favour it (its columns of that colour score more than ours; with one regular
scoring left, only when the 10th scoring would leave it ahead, T-R-4) is filled by one card of
the row's colour or a conductor (Step 1, T-R-2).  A player who leaves such a row open most
likely held **no card of that colour and no conductor**.  The cards it kept through its turn
(the hand less the cards it played, which it replaced by fresh draws at Step 5) still hold
none; the fresh cards are any of the unseen.

:class:`Inference` follows one player's views (its own decisions only: public information
and its own hand), and after each turn of the other player keeps :class:`HandClue`: the rows
it left open, and how many of its present cards it kept from that turn's start.  The search
uses the clue in two places:

* :meth:`HandClue.condition` deals the other hand of a determinized sample again: the kept
  cards from the hidden cards that are neither of those colours nor conductors, the fresh
  ones from all of them (the rest stays in the draw pile);
* :meth:`HandClue.chances` gives the planner's chance that the other hand holds what a row at
  3 (one card) or at 2 (two) needs, the kept and the fresh cards counted apart
  (hypergeometric, :func:`tramways.bots.trambahn_turns.chance_of`'s model).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from math import comb

from tramways.trambahn.cards import (
    CARD_FACE,
    COLOURS,
    CONDUCTOR,
    FACE_COLOUR,
    HAND_SIZE,
    REGULAR_SCORINGS,
    ROW_SIZE,
)
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.view_types import TrambahnView


@dataclass(frozen=True, slots=True)
class HandClue:
    """The other player left the rows ``rows`` (colour indices) at 3 though their scoring
    favoured it; ``kept`` of its present cards were in its hand then (T-R-2)."""

    rows: frozenset[int]
    kept: int

    def excludes(self, face: str) -> bool:
        """Whether a kept card cannot have this face (a conductor fills any row)."""
        return face == CONDUCTOR or FACE_COLOUR[face] in self.rows

    def condition(self, state: TrambahnState, other: int, rng: random.Random) -> None:
        """Deal the other hand of a sample again from itself and the draw pile: ``kept``
        cards among those the clue allows, the rest among all (see the module docstring)."""
        hand = state.hands[other]
        if not self.rows or self.kept <= 0 or not hand:
            return
        pool = hand + state.deck
        rng.shuffle(pool)
        kept: list[int] = []
        rest: list[int] = []
        for card in pool:
            if len(kept) < self.kept and not self.excludes(CARD_FACE[card]):
                kept.append(card)
            else:
                rest.append(card)
        fresh = len(hand) - len(kept)
        state.hands[other] = kept + rest[:fresh]
        state.deck = rest[fresh:]

    def chances(self, unseen: Counter[str], hand: int) -> tuple[list[float], list[float]]:
        """Per row: the chance that the other ``hand`` holds one card that joins it (a card
        of its colour or a conductor), and two; ``unseen``: the faces the planner has not
        seen, the other hand among them."""
        total = sum(unseen.values())
        allowed = sum(n for face, n in unseen.items() if not self.excludes(face))
        kept = min(self.kept, hand, allowed)
        fresh = hand - kept
        one, two = [], []
        for c in range(len(COLOURS)):
            fitting = sum(n for face, n in unseen.items()
                          if face == CONDUCTOR or FACE_COLOUR[face] == c)
            fitting_kept = sum(n for face, n in unseen.items()
                               if face != CONDUCTOR and FACE_COLOUR[face] == c
                               and c not in self.rows)
            a = _counts(kept, fitting_kept, allowed)
            b = _counts(fresh, fitting, total)
            p = [0.0, 0.0, 0.0]
            for i, pa in enumerate(a):
                for j, pb in enumerate(b):
                    p[min(2, i + j)] += pa * pb
            one.append(p[1] + p[2])
            two.append(p[2])
        return one, two


def _counts(drawn: int, fitting: int, pool: int) -> list[float]:
    """Hypergeometric: the chance of 0, 1, and 2 or more fitting cards among ``drawn`` from
    ``pool`` holding ``fitting``."""
    drawn = max(0, min(drawn, pool))
    fitting = min(fitting, pool)
    if drawn == 0 or pool == 0:
        return [1.0, 0.0, 0.0]
    total = comb(pool, drawn)
    p0 = comb(pool - fitting, drawn) / total
    p1 = fitting * comb(pool - fitting, drawn - 1) / total
    return [p0, p1, max(0.0, 1.0 - p0 - p1)]


def favours(view: TrambahnView, player: int, colour: str) -> bool:
    """Whether scoring ``colour`` now would favour ``player`` (Scoring; T-R-4 with one
    regular scoring left: only when it leaves ``player`` ahead)."""
    other = 1 - player
    gain = (sum(c.points * c.multiplier for c in view.columns[player] if c.colour == colour)
            - sum(c.points * c.multiplier for c in view.columns[other] if c.colour == colour))
    if view.regular_scorings + 1 >= REGULAR_SCORINGS:
        return view.scores[player] - view.scores[other] + gain > 0
    return gain > 0


class Inference:
    """Follows one player's own views and keeps the latest :class:`HandClue` about the other
    player's hand (see the module docstring)."""

    def __init__(self) -> None:
        self.last: TrambahnView | None = None
        self.kept_hand = 0  # my hand's size after my last action
        self.clue: HandClue | None = None

    def observe(self, view: TrambahnView) -> None:
        """A new view of mine: at the first one after the other player's turn, read it."""
        last, self.last = self.last, view
        if view.you is None:
            return
        if last is None or last.you != view.you or view.turn_number < last.turn_number:
            self.clue = None
            return
        if view.turn_number == last.turn_number:
            return
        self.clue = self._read(last, view)

    def played(self, hand_after: int) -> None:
        """My hand's size after my action (my Step 5 draw refills it)."""
        self.kept_hand = hand_after

    def _read(self, last: TrambahnView, view: TrambahnView) -> HandClue | None:
        """``last``: my view before I ended my turn (the rows the other player found);
        ``view``: mine at the start of my next turn."""
        assert view.you is not None
        other = 1 - view.you
        if (view.turn_number != last.turn_number + 2 or view.reshuffles != last.reshuffles
                or view.over):
            return None
        mine = HAND_SIZE - self.kept_hand
        theirs = last.deck_size - mine - view.deck_size
        if theirs < 0 or theirs > HAND_SIZE:
            return None
        scored = {h.colour for h in view.history[len(last.history):] if h.kind == "regular"}
        rows = frozenset(
            c for c, colour in enumerate(COLOURS)
            if len(last.rows[colour]) == ROW_SIZE - 1 and colour not in scored
            and favours(last, other, colour))
        kept = view.hand_sizes[other] - theirs
        return HandClue(rows, kept) if rows and kept > 0 else None
