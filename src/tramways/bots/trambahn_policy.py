"""The new search's own rule of thumb, kept apart from :mod:`trambahn_rule`.

The ``rule`` bot and the legacy search play :mod:`tramways.bots.trambahn_rule`, frozen as it
was before the new search (pinned by ``tests/bots/test_trambahn_legacy_pin.py``); this module
is the policy the new search plays where it does not search, and in its play-outs.

The :class:`Planner` is the rule's :class:`~tramways.bots.trambahn_rule.Evaluator` (a
priority per action, every constant a class attribute) with other values for some constants;
:func:`variant` makes further subclasses (``benchmarks/tune_trambahn_planner.py`` tries
them).  The values are the rule's where tuning found nothing better, and otherwise the ones
the coordinate search of that script found (policy against policy, 4 ms a game, the same
deals for every variant; the figures: ``docs/bots.md``, "Experiment records").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tramways.bots.trambahn_rule import Evaluator, ranked_actions, rule_action
from tramways.core import Action
from tramways.trambahn.engine import TrambahnState


class Planner(Evaluator):
    """The rule of thumb (:class:`~tramways.bots.trambahn_rule.Evaluator`) with tuned constants.

    Each constant the tuning changed is in :data:`TUNED`; :data:`RULE_CONSTANTS` holds the
    rule's values of them.
    """

    lone_columns = 3
    conductor_keep = 0.5
    row_three_for = 0.5
    row_four = 0.5
    extend_gap = 4
    """T-R-1: a column only ever ascends, so a card that skips values wastes them; the rule
    skips at most 2, the planner up to 4: a card in a column scores at every scoring of its
    colour, a card banked scores nothing."""
    new_column_remaining = 1
    new_column_columns = 3
    new_column_with_higher = True
    """Step 2 and 4 (T-R-6): a new column needs a tram bought this turn or it goes to the
    money pile; the planner also starts one with any card when a higher card of its colour
    is in hand (two stations at once) and the tram is affordable."""
    income_keep = 2.5
    income_money = 12
    endgame = 200.0
    """T-R-4: the 10th regular scoring ends the game at once.  A passenger that makes it is
    worth this much when the player is ahead after it and costs this much when behind; a
    passenger that leaves the last row at 3 while the other player would be ahead after its
    scoring costs ``endgame_three`` (0: the rule's view, which knows no end)."""
    endgame_three = 60.0

    def row_value(self, colour: int, added: int = 1) -> float:
        """The rule's value of a row (T-R-2), and with one regular scoring left the game's
        end itself (T-R-4): filling the row ends it, leaving it at 3 lets the other player
        end it."""
        n = len(self.state.rows[colour]) + added
        if self.endgame and self.remaining == 1 and n >= 3:
            mine = self.state.scores[self.me] + self.cs[self.me][colour]
            theirs = self.state.scores[self.opp] + self.cs[self.opp][colour]
            if n >= 4:
                return self.endgame if mine > theirs else -self.endgame
            if theirs > mine:
                return -self.endgame_three
        return super().row_value(colour, added)


TUNED = ("lone_columns", "conductor_keep", "row_three_for", "row_four", "new_column_remaining",
         "new_column_columns", "income_keep", "income_money")
"""The attributes the tuning (``benchmarks/tune_trambahn_planner.py``) changed."""

RULE_CONSTANTS: dict[str, Any] = {name: getattr(Evaluator, name) for name in TUNED}
"""The rule of thumb's values of the attributes the tuning changed: ``variant(RULE_CONSTANTS)``
is the planner as it was before the tuning (the rule with wider gaps and two-card columns)."""


def variant(changes: dict[str, Any]) -> type[Planner]:
    """A :class:`Planner` subclass with ``changes`` to its attributes (names are checked)."""
    unknown = [name for name in changes if not hasattr(Planner, name)]
    if unknown:
        raise ValueError(f"Planner has no attribute {', '.join(unknown)}")
    return type("PlannerVariant", (Planner,), dict(changes))


def ranked_plan(state: TrambahnState, actions: Sequence[Action] | None = None,
                planner: type[Planner] = Planner) -> list[Action]:
    """The legal actions from the most to the least wanted by :class:`Planner`."""
    return ranked_actions(state, actions, planner)


def plan_action(state: TrambahnState, actions: Sequence[Action] | None = None,
                planner: type[Planner] = Planner) -> Action:
    """The :class:`Planner`'s choice for the player to move."""
    return rule_action(state, actions, planner)
