"""What one Trambahn player can remember: the public history folded into a few piles.

A player's view (:func:`tramways.trambahn.views.build_view`) is a snapshot: it shows the sizes
of the discard and money piles, not what is in them.  A player at the table remembers more:
every card that ever lay face up and where it went, and the cards they put face down
themselves.  :class:`PublicMemory` is that memory for one seat, built only from

* the public view before and after each action (spectator views: no hand in them), and
* the action itself, with the card of an Income (Step 3, face down) kept only when the seat
  played it: the other player's ``P2 income ?`` is all this seat learns
  (:func:`tramways.trambahn.views.public_notation`).

What it follows (the rules in :mod:`tramways.trambahn.rules`):

* the discard pile: the passengers of a scored row (T-R-2) and the money paid for a tram
  (Step 4: the top cards of the money pile); a reshuffle (T-R-5) turns it into the draw pile;
* each money pile, bottom to top, a face or ``None`` for a card this seat cannot know: the
  dealt money (Setup), the other player's Income cards; tram-less columns go there face up at
  the end of a turn (T-R-6); after a reshuffle half of each pile went at random, so no card of
  it is known any more;
* column slots: every column gets the lowest free slot number of its player when it is
  started and keeps it until it is discarded, so slot ``k`` names the same column for its
  whole life (its position in the player's list shifts when an earlier column goes).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tramways.core.actions import Action
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import COLOURS, IDS_BY_FACE, TRAMS
from tramways.trambahn.view_types import TrambahnView

View = TrambahnView


def lowest_free(taken: list[int]) -> int:
    """The smallest slot number not in ``taken``."""
    k = 0
    used = set(taken)
    while k in used:
        k += 1
    return k


@dataclass
class PublicMemory:
    """What ``seat`` knows of the hidden piles and the column slots (see the module doc)."""

    seat: int
    discard: Counter[str] = field(default_factory=Counter)
    """Faces known to lie in the discard pile now."""
    money: list[list[str | None]] = field(default_factory=lambda: [[], []])
    """Each player's money pile, bottom to top: a face, or ``None`` where it is not known."""
    slots: list[list[int]] = field(default_factory=lambda: [[], []])
    """Each player's column slots, in the order of their columns in the view."""

    @classmethod
    def start(cls, seat: int, view: View) -> PublicMemory:
        """The memory at the deal: the money piles are dealt face down (Setup)."""
        memory = cls(seat)
        memory.money = [[None] * n for n in view.money_sizes]
        memory.slots = [list(range(len(cols))) for cols in view.columns]
        return memory

    def played(self, before: View, action: Action, after: View) -> None:
        """Fold in ``action`` (played between the public views ``before`` and ``after``)."""
        p = action.player
        if isinstance(action, Passenger):
            colour = action.row
            if not after.rows[colour]:
                # the fourth passenger scored the row; the passengers are discarded (T-R-2)
                self.discard.update(before.rows[colour])
                self.discard[action.card] += 1
        elif isinstance(action, Station):
            if action.column is None:
                self.slots[p].append(lowest_free(self.slots[p]))
        elif isinstance(action, Income):
            self.money[p].append(action.card if p == self.seat else None)
        elif isinstance(action, Buy):
            cost = TRAMS[action.kind][1]
            pile = self.money[p]
            paid = pile[len(pile) - cost:]
            del pile[len(pile) - cost:]
            self.discard.update(face for face in paid if face is not None)
        elif isinstance(action, EndTurn):
            kept: list[int] = []
            for slot, col in zip(self.slots[p], before.columns[p], strict=True):
                if col.tram is None:  # T-R-6: to the money pile, face up
                    self.money[p].extend(col.stations)
                    self.money[p].extend(col.conductors)
                else:
                    kept.append(slot)
            self.slots[p] = kept
        if after.reshuffles != before.reshuffles:
            # T-R-5: half of each money pile at random onto the discard, which becomes the deck
            self.discard.clear()
            self.money = [[None] * n for n in after.money_sizes]

    def unseen(self, view: View) -> Counter[str]:
        """Per face, the copies whose place this seat cannot know: in the other hand, the
        draw pile, or among the unknown cards of the discard and money piles."""
        left = Counter({face: len(ids) for face, ids in IDS_BY_FACE.items()})
        if view.hand is not None:
            left.subtract(view.hand)
        for colour in COLOURS:
            left.subtract(view.rows[colour])
        for cols in view.columns:
            for col in cols:
                left.subtract(col.stations)
                left.subtract(col.conductors)
        left.subtract(self.discard)
        for pile in self.money:
            left.subtract(face for face in pile if face is not None)
        return left
