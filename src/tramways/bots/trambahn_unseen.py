"""What a Trambahn player has not seen, and the chance that the other hand holds what a row
needs: the unseen-card model of the whole-turn planner (:mod:`tramways.bots.trambahn_turns`)
and of the readers of the other player's play (:mod:`tramways.bots.trambahn_habit`).

The other player's hand is drawn from the cards the mover has not seen (its own hand, the
table, its own money cards and the faces it saw discarded are out, T-R-2: a scored row's
passengers go to the discard pile), so the chance that it holds ``needed`` cards that fit a
row is hypergeometric."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from tramways.trambahn.cards import CONDUCTOR, FACE_COLOUR, IDS_BY_FACE
from tramways.trambahn.view_types import TrambahnView


def chance_of(needed: int, fitting: int, unseen: int, drawn: int) -> float:
    """Hypergeometric: the chance that ``drawn`` cards taken from ``unseen`` hold at least
    ``needed`` of the ``fitting`` ones."""
    if needed <= 0:
        return 1.0
    drawn = min(drawn, unseen)
    if fitting < needed or drawn < needed:
        return 0.0
    total = comb(unseen, drawn)
    miss = 0
    for i in range(needed):
        miss += comb(fitting, i) * comb(unseen - fitting, drawn - i)
    return max(0.0, 1.0 - miss / total)


@dataclass(frozen=True, slots=True)
class Unseen:
    """What the mover has not seen, as counts: all cards, and those that can join each row
    (a station of its colour, or a conductor)."""

    total: int
    per_row: tuple[int, int, int, int]

    @classmethod
    def from_view(cls, view: TrambahnView, known: Counter[str]) -> Unseen:
        """``known``: faces the mover knows are elsewhere beyond the view (discarded since the
        last reshuffle, its own money cards)."""
        left = cls.faces(view, known)
        per = [left[CONDUCTOR]] * 4
        for face, n in left.items():
            if face != CONDUCTOR:
                per[FACE_COLOUR[face]] += n
        return cls(sum(left.values()), (per[0], per[1], per[2], per[3]))

    @staticmethod
    def faces(view: TrambahnView, known: Counter[str]) -> Counter[str]:
        """The faces the mover has not seen, with their counts."""
        seen: Counter[str] = Counter(view.hand or ())
        for row in view.rows.values():
            seen.update(row)
        for cols in view.columns:
            for col in cols:
                seen.update(col.stations)
                seen.update(col.conductors)
        seen.update(known)
        return Counter({face: max(0, len(ids) - seen[face]) for face, ids in IDS_BY_FACE.items()})
