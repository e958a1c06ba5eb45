"""The new search's own rule of thumb (issue 13), kept apart from :mod:`trambahn_rule`.

The ``rule`` bot and the legacy search play :mod:`tramways.bots.trambahn_rule`, frozen as it
was when issue 13 was filed (``tests/bots/test_trambahn_legacy_pin.py``); this module is the
policy the new search plays where it does not search, and in its play-outs.

The :class:`Planner` has the rule's shape (a priority per action, see
:class:`~tramways.bots.trambahn_rule.Evaluator`) with every constant named as a class
attribute, so a variant is a subclass (``benchmarks/tune_trambahn_planner.py`` makes them).
The values are the rule's where tuning found nothing better, and otherwise the ones the
coordinate search of that script found (policy against policy, 4 ms a game, the same deals
for every variant; the figures are in :class:`Planner`'s docstring).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tramways.bots.trambahn_rule import (
    INCOME,
    SECOND_PASSENGER,
    STATION,
    Evaluator,
    ranked_actions,
    rule_action,
)
from tramways.core import Action
from tramways.trambahn.actions import Income, Passenger, Station
from tramways.trambahn.cards import CONDUCTOR, FACE_COLOUR, FACE_VALUE, TRAMS, face_points
from tramways.trambahn.state import Column, TrambahnState


class Planner(Evaluator):
    """The rule of thumb with named, tuned constants (each attribute says what it weighs).

    Measured with ``benchmarks/tune_trambahn_planner.py`` (1,000 deals from seed 5000, each
    from both seats): with :data:`RULE_CONSTANTS` (the rule's values, with the wider gaps and
    the two-card columns of the third session) the planner beats the ``rule`` bot in 55.4% of
    the games; each change kept by the coordinate search raised that, in this order: fewer
    columns before a lone low card loses its keep value (56.5%), new columns until the last
    scoring (58.3%), own leads weighed in rows of 3 (59.6%), at most 3 columns from lone cards
    (61.1%), conductors kept at half value (65.6%), banking while the pile is below 12
    (69.1%), banking cards worth less than 2.5 (70.8%), a triggered scoring weighed at half
    (72.0%).  A second round and a search with the rule's passengers (building only, other
    deals) found nothing more.  In the new search against the legacy search: 65.6% of the
    1,000 games of ``benchmarks/bots.py`` (with the 3-turn play-outs of
    :data:`~tramways.bots.search.HORIZON`).
    """

    guessed_multiplier = 2.5
    """Tram value expected for a column started this turn (no tram yet)."""
    lone_keep = 0.8
    """Keep value of a low card that no column wants, while few columns exist ..."""
    lone_top = 4
    """... a card up to this value ..."""
    lone_columns = 3
    """... and fewer columns than this (the rule: 4)."""
    other_keep = 0.2
    """Keep value of any other card that no column wants."""
    gap_factors = (1.0, 0.5, 0.2)
    """A card's keep value for a column, by the gap it leaves: up to 2 values, 4, more."""
    future_extra = 0.5
    """Scorings expected beyond ``remaining / 4`` for a card added to a column."""
    conductor_keep = 0.5
    """Share of (column points x tram x size / 8) a conductor is worth kept (the rule: 1)."""
    row_three_against = 0.7
    """Weight of the opponent's lead in a colour when a passenger makes its row 3."""
    row_three_for = 0.5
    """Weight of my own lead in a colour when a passenger makes its row 3 (the rule: 0.2)."""
    row_four = 0.5
    """Weight of the score difference of a scoring a passenger triggers (the rule: 1)."""
    second_passenger = 0.5
    """A second passenger is played when it is worth more than this."""
    conductor_size = 4
    """A conductor joins a toured-to-be column from this size on."""
    extend_gap = 4
    """A station extends a column over a gap of up to this many values (the rule: 2) ..."""
    extend_high = 8
    """... or whatever the gap from this value on ..."""
    extend_late = 3
    """... or whatever the gap when this few regular scorings remain."""
    new_column_remaining = 1
    """New columns start while at least this many regular scorings remain (the rule: 3)."""
    new_column_low = 4
    """A new column starts with a card up to this value ..."""
    new_column_mid = 6
    """... or up to this value with a higher card of its colour in hand ..."""
    new_column_columns = 3
    """... while the player has fewer columns than this (the rule: 5); with a higher card of
    its colour in hand any card starts one, however many columns there are."""
    income_keep = 2.5
    """A card worth less than this kept is banked (the rule: 0.9) ..."""
    income_money = 12
    """... and while the money pile is below this (the rule: 5) ..."""
    income_keep_poor = 3.0
    """... a card worth less than this."""

    def multiplier(self, col: Column) -> float:
        return float(TRAMS[col.tram][0]) if col.tram else self.guessed_multiplier

    def keep_value(self, face: str) -> float:
        """What a hand card is worth kept for a column (T-R-1: columns ascend; T-R-3: a
        conductor counts toward the 8 cards of an Extra Tour)."""
        known = self._keep.get(face)
        if known is not None:
            return known
        if face == CONDUCTOR:
            best = 0.0
            for i, col in enumerate(self.cols):
                if col.tram and not col.toured and not col.complete:
                    best = max(best, self.conductor_keep * self.points[i]
                               * self.multiplier(col) * col.size / 8)
        else:
            colour, value = FACE_COLOUR[face], FACE_VALUE[face]
            lone = value <= self.lone_top and len(self.cols) < self.lone_columns
            best = self.lone_keep if lone else self.other_keep
            near, mid, far = self.gap_factors
            for col in self.cols:
                if col.colour == colour and col.top < value:
                    gap = value - col.top - 1
                    factor = near if gap <= 2 else mid if gap <= 4 else far
                    best = max(best, face_points(face) * self.multiplier(col)
                               * (self.future + self.future_extra) * factor)
        self._keep[face] = best
        return best

    def row_value(self, colour: int, added: int = 1) -> float:
        """T-R-2: the 4th passenger scores the colour for both players; a row of 3 lets the
        next player score it."""
        n = len(self.state.rows[colour]) + added
        diff = self.cs[self.me][colour] - self.cs[self.opp][colour]
        if n >= 4:
            return self.row_four * diff
        if n == 3:
            return -self.row_three_against * max(0, -diff) + self.row_three_for * max(0, diff)
        return 0.0

    def station(self, a: Station) -> float:
        """Step 2 (T-R-1): extend a column, start one that a tram can be bought for this
        turn (T-R-6), or add a conductor toward an Extra Tour (T-R-3)."""
        face = a.card
        if face == CONDUCTOR:
            assert a.column is not None
            col = self.cols[a.column]
            if col.tram and not col.toured and col.size >= self.conductor_size:
                return STATION + col.size
            return -1.0
        value = FACE_VALUE[face]
        if a.column is not None:
            gap = value - self.cols[a.column].top - 1
            if (gap <= self.extend_gap or value >= self.extend_high
                    or self.remaining <= self.extend_late):
                return STATION + 20 - value - 0.5 * gap
            return -1.0
        colour = FACE_COLOUR[face]
        higher = any(f != CONDUCTOR and FACE_COLOUR[f] == colour and FACE_VALUE[f] > value
                     for f in self.hand)
        costs = sorted(TRAMS[k][1] for k in self.state.display)
        affordable = (len(costs) > self.pending
                      and sum(costs[: self.pending + 1]) <= self.money)
        good = value <= self.new_column_low or (value <= self.new_column_mid and higher)
        if (affordable and self.remaining >= self.new_column_remaining
                and (higher or (good and len(self.cols) < self.new_column_columns))):
            return STATION - 100 + 10 - value
        return -1.0

    def income(self, a: Income) -> float:
        """Step 3: bank the cards worth least kept."""
        keep = self.keep_value(a.card)
        if a.card != CONDUCTOR:
            colour = FACE_COLOUR[a.card]
            if len(self.state.rows[colour]) == 3:
                keep += max(0.0, self.row_value(colour))
        if keep < self.income_keep or (self.money < self.income_money
                                        and keep < self.income_keep_poor):
            return INCOME + 5 - keep
        return -1.0

    def score(self, a: Action) -> float:
        if isinstance(a, Passenger):
            value = self.passenger(a)
            if self.state.passengers == 0:
                return SECOND_PASSENGER + 100 + value
            return SECOND_PASSENGER + value if value > self.second_passenger else -2.0
        return super().score(a)


RULE_CONSTANTS: dict[str, Any] = {
    "lone_columns": 4, "conductor_keep": 1.0, "row_three_for": 0.2, "row_four": 1.0,
    "new_column_remaining": 3, "new_column_columns": 5, "income_keep": 0.9, "income_money": 5,
}
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
