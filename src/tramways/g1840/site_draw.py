"""The set-up draws of 18xx.games, for games played under its ruleset (X-1, R-SETUP-2).

18xx.games draws with a linear congruential generator (reference/1840/interpretations.md,
"Random set-up on 18xx.games"): ``A = 1103515245``, ``C = 12345``, ``M = 2**31``, the state
starts as ``seed mod M`` and each draw sets ``state = (A * state + C) mod M``.  "Sorting by a
random key" draws one number per element in list order and sorts stably by them.

In this order it draws the first line display (the lines in play in number order, line 2 left
out; the first ``players + 1``), the tram companies in the game (X-1: WT, DT K&C, SJE, BBG,
WKB, GWStStB; the first ``players``), then at every CRf the lines not yet shown (line 2
included; the first ``players + 1``).  Nothing else is drawn, so the whole line order is fixed
at set-up.  A game of ours under the 18xx.games ruleset is set up with these draws from its
seed (:meth:`tramways.g1840.game.Game1840.setup`), so the site loads its export with the same
seed to the same set-up; :mod:`tramways.g1840.interop.setup18xx` reads them for imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

A = 1103515245
C = 12345
M = 2**31

T = TypeVar("T")

SITE_COMPANY_ORDER: tuple[str, ...] = ("WT", "DT", "SJE", "BBG", "WKB", "GW")
"""The six tram companies (our ids) in the order 18xx.games sorts them (X-1)."""

SET_ASIDE_LINE = 2
"""Line 2 is never in the first display (III.5)."""


class Lcg18xx:
    """The 18xx.games generator; ``draw()`` advances it and returns the new state."""

    __slots__ = ("state", "draws")

    def __init__(self, seed: int) -> None:
        self.state = seed % M
        self.draws = 0  # how many numbers have been drawn (for diagnostics)

    def draw(self) -> int:
        """Advance once and return the new state (an int in ``[0, 2**31)``)."""
        self.state = (A * self.state + C) % M
        self.draws += 1
        return self.state

    def sort_by_random_key(self, items: Iterable[T]) -> list[T]:
        """One draw per element in list order, then a stable sort by the drawn numbers."""
        keyed = [(self.draw(), position, item) for position, item in enumerate(items)]
        keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [item for _, _, item in keyed]


@dataclass(frozen=True)
class SiteDraw:
    """What the site draws at set-up: the display, the companies (our ids), every refill."""

    display: tuple[int, ...]
    companies: tuple[str, ...]
    refills: tuple[tuple[int, ...], ...]

    @property
    def deck(self) -> tuple[int, ...]:
        """The lines not in the first display, in the order the CRf refills show them."""
        return tuple(line for batch in self.refills for line in batch)


def site_draw(seed: int, players: int, lines: Sequence[int]) -> SiteDraw:
    """The site's draws for a seed, a player count and the lines in play (number order)."""
    rng = Lcg18xx(seed)
    shown = players + 1
    first = rng.sort_by_random_key([n for n in lines if n != SET_ASIDE_LINE])
    display = tuple(first[:shown])
    companies = tuple(rng.sort_by_random_key(SITE_COMPANY_ORDER)[:players])
    batches: list[tuple[int, ...]] = []
    seen = set(display)
    remaining = [n for n in lines if n not in seen]
    while remaining:
        batch = tuple(rng.sort_by_random_key(remaining)[:shown])
        batches.append(batch)
        seen.update(batch)
        remaining = [n for n in lines if n not in seen]
    return SiteDraw(display=display, companies=companies, refills=tuple(batches))
