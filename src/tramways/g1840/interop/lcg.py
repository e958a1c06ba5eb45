"""The random generator of 18xx.games, reproduced exactly (X-1, R-SETUP-2).

18xx.games does not use a language library for its random outcomes but a linear congruential
generator (reference/1840/interpretations.md, "Random set-up on 18xx.games"):

* ``A = 1103515245``, ``C = 12345``, ``M = 2**31``;
* the state starts as ``seed mod M``;
* each draw sets ``state = (A * state + C) mod M`` and returns the new state.

"Sorting by a random key" walks the list in its current order, draws one number per element,
then sorts the elements by their numbers, smallest first (stably).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

A = 1103515245
C = 12345
M = 2**31

T = TypeVar("T")


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


def seed_of_export(settings: dict[str, Any] | None, game_id: Any) -> int:
    """The seed 18xx.games uses: ``settings.seed``, or when empty the digits of the game id.

    A game id without any digit gives 0.  A seed that is neither an integer, nor a string of
    digits, nor empty raises ``ValueError`` (we do not guess how the site would read it).
    """
    seed = (settings or {}).get("seed")
    if isinstance(seed, bool):
        raise ValueError(f"settings.seed: expected an integer, got {seed!r}")
    if isinstance(seed, int):
        return seed
    if isinstance(seed, str) and seed.strip():
        if not re.fullmatch(r"\s*\d+\s*", seed):
            raise ValueError(f"settings.seed: expected an integer, got {seed!r}")
        return int(seed)
    if seed not in (None, ""):
        raise ValueError(f"settings.seed: expected an integer, got {seed!r}")
    digits = re.sub(r"\D", "", str(game_id if game_id is not None else ""))
    return int(digits) if digits else 0
