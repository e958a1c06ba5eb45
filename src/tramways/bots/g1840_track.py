"""How the economy bots (``normal``, ``easy``) order a Line Round turn's construction so that
a Stadtbahn tile's bonus tile gets laid, as people do (IX.3, IX.4, R-LR-1).

The bonus action printed on a light-orange hex is taken right after its Stadtbahn tile, and a
tile-laying bonus needs a hex within reach of the line's markers (R-LR-3).  The weighing of
:class:`~.g1840_rule_line.LineTurn` (with ``Budget.use_bonus``) marks the Stadtbahn tiles whose
bonus tile could not be laid now; :func:`own_lay_first` then lays the line's own tile first
(IX.3: the construction actions in any order), which often brings one within reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from tramways.bots.g1840_rule_line import Choice, LineTurn
from tramways.core import Action
from tramways.g1840.actions import LayTile


def own_lay_first(turn: LineTurn, action: Action, weighed: Sequence[tuple[float, Action]]
                  ) -> Choice | None:
    """When ``action`` is a Stadtbahn tile whose tile-laying bonus could not be taken now
    (R-LR-1), the line's own lay or upgrade that gains most (IX.4, IX.5), to be laid first;
    ``None`` when ``action`` is anything else or no own lay gains anything."""
    if action not in turn.unusable:
        return None
    own = [(s, a) for s, a in weighed
           if s > 0 and isinstance(a, LayTile) and not turn.stadtbahn_lay(a)]
    if not own:
        return None
    _, lay = max(own, key=lambda t: t[0])
    assert isinstance(lay, LayTile)
    return lay, (f"lay {lay.tile} on {lay.hex} first: the Stadtbahn tile's bonus needs more "
                 "track within reach")
