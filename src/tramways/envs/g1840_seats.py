"""The seat-relative parts of the :mod:`g1840_v0` tables as index maps.

Seats in the observation are relative to the agent (the agent is seat 0, the next seat in
seat order 1, ...): the actor, "my turn", the private auction's high bidder, the seat blocks,
each company's director and each private's owner seat.  Everything else in the tables is the
same for every seat.  So the tables of seat ``b`` are the tables of seat ``a`` at the same
position with those values moved: ``tables_b = tables_a[between(n, a, b)]``, one numpy
gather instead of a second pass over the position (:class:`tramways.envs.g1840_fast.Observer`
keeps the first seat's tables per position for the others).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from tramways.envs.g1840_layout import COMPANIES, PRIVATES, SEATS, L

_TABLES = L.hexes


@cache
def from_absolute(n: int, seat: int) -> np.ndarray:
    """Index map: the tables of ``seat`` = the tables of seat 0 (the absolute seats) at these
    indices, with ``n`` players."""
    index = np.arange(_TABLES, dtype=np.intp)

    def rotate(first: int, size: int = 1) -> None:
        """The ``n`` slots of ``size`` values from ``first``: relative slot ``r`` is absolute
        slot ``(r + seat) % n`` (the slots past ``n`` are empty in both)."""
        for r in range(n):
            to, frm = first + r * size, first + (r + seat) % n * size
            index[to:to + size] = np.arange(frm, frm + size)

    rotate(L.actor)
    index[L.my_turn] = L.actor + seat  # "my turn" is "the actor is this seat"
    rotate(L.auction_seat)
    rotate(L.seat, L.seat_size)
    for k in range(len(COMPANIES)):
        rotate(L.companies + k * L.company_size + 1)  # the director
    for k in range(len(PRIVATES)):
        rotate(L.privates + k * L.private_size + 1)  # the owner seat
    index.flags.writeable = False
    return index


@cache
def between(n: int, a: int, b: int) -> np.ndarray:
    """Index map: the tables of seat ``b`` = the tables of seat ``a`` at these indices."""
    to_absolute = from_absolute(n, (n - a) % n)  # seat 0 seen from a is seat -a
    index = to_absolute[from_absolute(n, b)]
    index.flags.writeable = False
    return index


assert SEATS >= 2
