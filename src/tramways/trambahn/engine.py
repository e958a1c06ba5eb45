"""The Trambahn engine: the position that plays actions (the ``GameState`` of the core).

:class:`TrambahnState` is a :class:`~tramways.trambahn.position.TrambahnPosition` that answers
the core's contract (:class:`tramways.core.game.GameState`): its legal actions and their
effect come from :mod:`tramways.trambahn.rules` (Course of Play, T-R-1..6), what a seat may
know from :mod:`tramways.trambahn.views`.  It adds no data: a position and its engine hold the
same fields, as 1840's ``engine.State1840`` is its ``position.Position`` that plays actions.
"""

from __future__ import annotations

from tramways.core import Action
from tramways.trambahn import rules, views
from tramways.trambahn.position import TrambahnPosition
from tramways.trambahn.view_types import TrambahnResult, TrambahnResultJSON, TrambahnView


class TrambahnState(TrambahnPosition):
    """A whole position that plays actions (see :class:`TrambahnPosition` for its data)."""

    __slots__ = ()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        return rules.legal_actions(self, player)

    def apply(self, action: Action, seat: int | None = None) -> list[str]:
        """Play ``action`` for ``seat`` (``None``: the player the action names)."""
        return rules.apply_action(self, action, seat)

    def outcome(self) -> TrambahnResult:
        """T-R-4: points, their parts, the money tie-break and the winner (the core's
        ``Outcome``)."""
        return rules.result(self)

    def result(self) -> TrambahnResultJSON:
        """The final result's JSON (``outcome().to_json()``, as records and tests read it)."""
        return self.outcome().to_json()

    def view(self, player: int | None) -> TrambahnView:
        return views.build_view(self, player)
