"""Deterministic randomness.

Every random outcome of a game is a pure function of the record's seed: set-up draws are
written into the record's ``setup``; draws that happen during play (a reshuffle) use
:func:`derive_rng` with a label and a counter, so replay reproduces them exactly.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def draw_seed() -> int:
    """A fresh seed for a new game (fits in 63 bits, JSON-safe in every language up to 2**53)."""
    return secrets.randbelow(2**53)


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A ``random.Random`` determined by the seed and the labels (e.g. ``("reshuffle", 2)``).

    The mapping uses SHA-256, so it does not depend on Python's hash randomisation.
    """
    text = ":".join([str(seed), *(str(label) for label in labels)])
    digest = hashlib.sha256(text.encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
