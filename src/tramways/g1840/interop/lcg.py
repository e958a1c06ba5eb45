"""The random generator of 18xx.games (X-1, R-SETUP-2) and the seed of an export.

The generator itself lives with the rules (:mod:`tramways.g1840.site_draw`: games of ours under
the 18xx.games ruleset are set up with it); this module re-exports it for the importer and reads
the seed the site uses for an export.
"""

from __future__ import annotations

import re
from typing import Any

from tramways.g1840.site_draw import A, C, Lcg18xx, M

__all__ = ["A", "C", "M", "Lcg18xx", "seed_of_export"]


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
