"""Trambahn's action catalogue: every action a player can ever take, as a fixed index.

The acting seat is never part of an index (an agent only acts for itself); card faces are
the 41 faces of :data:`tramways.trambahn.cards.FACES` (40 station faces by colour then value,
then the conductor ``C``).  In this order:

============================  =========  ==================================================
notation                      count      what
============================  =========  ==================================================
``passenger 7r``              40 + 4     a station card into its own row; a conductor into
                                         each of the four rows (``passenger C b``, ...)
``station 7r new``            40         start a new column (stations only, T-R-1)
``station 7r K``              41 x 21    add to column K = 1..21 (stations and conductors)
``income 7r``                 41         a hand card onto the money pile
``buy horse K``               3 x 21     buy a horse / steam / electric tram for column K
``end``                       1          end the turn
============================  =========  ==================================================

1,050 actions.  Why 21 columns are enough: a column survives the end of a turn only with a
tram (T-R-6), and there are 16 tramway cards (T-FACT-1), so a player starts a turn with at
most 16 columns; in a turn at most 5 cards of the 6 in hand become stations (at least one is
a passenger first), so at most 5 new columns.
"""

from __future__ import annotations

from collections.abc import Hashable

from tramways.core.actions import Action
from tramways.envs.base import Catalogue
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station, format_action
from tramways.trambahn.cards import COLOURS, CONDUCTOR, FACES, TRAMS

MAX_COLUMNS = 21
"""At most 16 columns kept with a tram + 5 started in one turn (see the module docstring)."""


def _actions(player: int) -> list[Action]:
    out: list[Action] = []
    for face in FACES:
        if face == CONDUCTOR:
            out.extend(Passenger(player, face, row) for row in COLOURS)
        else:
            out.append(Passenger(player, face, face[-1]))
    for face in FACES:
        if face != CONDUCTOR:
            out.append(Station(player, face, None))
        out.extend(Station(player, face, k) for k in range(MAX_COLUMNS))
    out.extend(Income(player, face) for face in FACES)
    for kind in TRAMS:
        out.extend(Buy(player, kind, k) for k in range(MAX_COLUMNS))
    out.append(EndTurn(player))
    return out


def build() -> Catalogue:
    """The catalogue: seat 0's actions are the keys, seat 1's the same indices."""
    first = _actions(0)
    names = [format_action(a).split(" ", 1)[1] for a in first]
    aliases: dict[Hashable, int] = {a: i for i, a in enumerate(_actions(1))}
    return Catalogue(first, None, names, aliases)


CATALOGUE = build()
