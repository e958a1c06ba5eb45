"""A rule-of-thumb Trambahn player.

Each legal action gets a priority; the bot plays the highest.  Priorities follow the steps of
a turn (a second passenger > stations > income > trams > end) so the plan reads like a
player's: trigger scorings that favour me and avoid setting up rows that favour the opponent;
extend tram columns with small gaps; start a new column only when a tram is affordable this
turn; bank cards that no column wants; buy the best tram the money allows.

The policy reads only what its player may know: its own hand, the face-up table and pile
sizes (it is given a position sampled by the engine's ``determinize``, or, in play-outs, a
simulated position, and never looks at hidden cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.core import Action
from tramways.trambahn.actions import Buy, Income, Passenger, Station
from tramways.trambahn.cards import (
    CARD_FACE,
    COLOURS,
    FACE_COLOUR,
    FACE_VALUE,
    REGULAR_SCORINGS,
    TRAMS,
    face_points,
)
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.position import Column
from tramways.trambahn.view_types import TrambahnView

SECOND_PASSENGER, STATION, INCOME, BUY, END = 1000.0, 800.0, 600.0, 400.0, 0.0
"""Priority bands: an action is wanted when its priority is above its band's floor."""

GUESSED_MULTIPLIER = 2.5
"""What a column started this turn is expected to get as tram value."""


def colour_scores(state: TrambahnState) -> list[list[int]]:
    """Per player, per colour: what a scoring of that colour would give now."""
    out = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for p in (0, 1):
        for col in state.columns[p]:
            if col.tram is not None:
                out[p][col.colour] += col.score
    return out


class Evaluator:
    """Rule-of-thumb values of cards and actions for the player to move.

    Every constant is a class attribute, so a variant is a subclass that changes some (the
    new search's planner, :class:`tramways.bots.trambahn_policy.Planner`, does); the values
    here are the rule bot's, frozen (``tests/bots/test_trambahn_legacy_pin.py``)."""

    guessed_multiplier = GUESSED_MULTIPLIER
    """Tram value expected for a column started this turn (no tram yet)."""
    lone_keep = 0.8
    """Keep value of a low card that no column wants, while few columns exist ..."""
    lone_top = 4
    """... a card up to this value ..."""
    lone_columns = 4
    """... and fewer columns than this."""
    other_keep = 0.2
    """Keep value of any other card that no column wants."""
    gap_factors = (1.0, 0.5, 0.2)
    """A card's keep value for a column, by the gap it leaves: up to 2 values, 4, more."""
    future_extra = 0.5
    """Scorings expected beyond ``remaining / 4`` for a card added to a column."""
    conductor_keep = 1.0
    """Share of (column points x tram x size / 8) a conductor is worth kept."""
    row_three_against = 0.7
    """Weight of the opponent's lead in a colour when a passenger makes its row 3."""
    row_three_for = 0.2
    """Weight of my own lead in a colour when a passenger makes its row 3."""
    row_four = 1.0
    """Weight of the score difference of a scoring a passenger triggers."""
    second_passenger = 0.5
    """A second passenger is played when it is worth more than this."""
    conductor_size = 4
    """A conductor joins a column with a tram, not yet toured, from this size on."""
    extend_gap = 2
    """A station extends a column over a gap of up to this many values ..."""
    extend_gap_long = 3
    """... or up to this many in a column of 4 cards or more ..."""
    extend_high = 8
    """... or whatever the gap from this value on ..."""
    extend_late = 3
    """... or whatever the gap when this few regular scorings remain."""
    new_column_remaining = 3
    """New columns start while at least this many regular scorings remain ..."""
    new_column_low = 4
    """... with a card up to this value ..."""
    new_column_mid = 6
    """... or up to this value with a higher card of its colour in hand ..."""
    new_column_columns = 5
    """... while the player has fewer columns than this ..."""
    new_column_with_higher = False
    """... or (when true) with any card that has a higher card of its colour in hand, however
    many columns there are (two stations at once)."""
    income_keep = 0.9
    """A card worth less than this kept is banked ..."""
    income_money = 5
    """... and while the money pile is below this ..."""
    income_keep_poor = 3.0
    """... a card worth less than this."""

    def __init__(self, state: TrambahnState) -> None:
        self.state = state
        self.me = me = state.turn
        self.opp = 1 - me
        self.remaining = REGULAR_SCORINGS - state.regular
        self.future = max(0.25, self.remaining / 4)
        self.cs = colour_scores(state)
        self.cols = state.columns[me]
        self.money = len(state.money[me])
        self.hand = [CARD_FACE[c] for c in state.hands[me]]
        self.pending = sum(1 for c in self.cols if c.tram is None)
        self.points = [c.points for c in self.cols]
        self._keep: dict[str, float] = {}

    # -- values ----------------------------------------------------------------------------

    def multiplier(self, col: Column) -> float:
        return float(TRAMS[col.tram][0]) if col.tram else self.guessed_multiplier

    def keep_value(self, face: str) -> float:
        """What a hand card is worth kept for a column (T-R-1: columns ascend; T-R-3: a
        conductor counts toward the 8 cards of an Extra Tour)."""
        known = self._keep.get(face)
        if known is not None:
            return known
        if face == "C":
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
                    v = (face_points(face) * self.multiplier(col)
                         * (self.future + self.future_extra) * factor)
                    best = max(best, v)
        self._keep[face] = best
        return best

    def row_value(self, colour: int, added: int = 1) -> float:
        """What adding passengers to a row is worth to me (T-R-2: the 4th scores the colour
        for both players; a row of 3 lets the next player score it)."""
        n = len(self.state.rows[colour]) + added
        diff = self.cs[self.me][colour] - self.cs[self.opp][colour]
        if n >= 4:
            return self.row_four * diff
        if n == 3:
            return -self.row_three_against * max(0, -diff) + self.row_three_for * max(0, diff)
        return 0.0

    def passenger(self, a: Passenger) -> float:
        return self.row_value(COLOURS.index(a.row)) - self.keep_value(a.card)

    def station(self, a: Station) -> float:
        """Step 2 (T-R-1): extend a column, start one that a tram can be bought for this
        turn (T-R-6), or add a conductor toward an Extra Tour (T-R-3)."""
        face = a.card
        if face == "C":
            assert a.column is not None
            col = self.cols[a.column]
            if col.tram and not col.toured and col.size >= self.conductor_size:
                return STATION + col.size
            return -1.0
        value = FACE_VALUE[face]
        if a.column is not None:
            col = self.cols[a.column]
            gap = value - col.top - 1
            if (gap <= self.extend_gap or value >= self.extend_high
                    or self.remaining <= self.extend_late
                    or (gap <= self.extend_gap_long and col.size >= 4)):
                return STATION + 20 - value - 0.5 * gap
            return -1.0
        # a new column: only if a tram can be bought for it this turn
        colour = FACE_COLOUR[face]
        higher = any(
            f != "C" and FACE_COLOUR[f] == colour and FACE_VALUE[f] > value for f in self.hand
        )
        costs = sorted(TRAMS[k][1] for k in self.state.display)
        affordable = (
            len(costs) > self.pending and sum(costs[: self.pending + 1]) <= self.money
        )
        good_start = value <= self.new_column_low or (value <= self.new_column_mid and higher)
        wanted = ((good_start and len(self.cols) < self.new_column_columns)
                  or (self.new_column_with_higher and higher))
        if affordable and wanted and self.remaining >= self.new_column_remaining:
            return STATION - 100 + 10 - value
        return -1.0

    def income(self, a: Income) -> float:
        """Step 3: bank the cards worth least kept."""
        keep = self.keep_value(a.card)
        if a.card != "C":
            colour = FACE_COLOUR[a.card]
            if len(self.state.rows[colour]) == 3:
                keep += max(0.0, self.row_value(colour))
        if keep < self.income_keep or (self.money < self.income_money
                                        and keep < self.income_keep_poor):
            return INCOME + 5 - keep
        return -1.0

    def buy(self, a: Buy) -> float:
        others = self.pending - 1
        cost = TRAMS[a.kind][1]
        cheapest = sorted(TRAMS[k][1] for k in self.state.display)
        reserve = sum(cheapest[:others])  # what the other tram-less columns need at least
        fits_all = self.money - cost >= reserve
        best_cost = max(
            (TRAMS[k][1] for k in self.state.display if TRAMS[k][1] <= self.money - reserve),
            default=5,
        )
        score = BUY + self.points[a.column] + TRAMS[a.kind][0] * 10
        if not fits_all or cost != best_cost:
            score -= 50
        return score

    def score(self, a: Action) -> float:
        if isinstance(a, Passenger):
            value = self.passenger(a)
            if self.state.passengers == 0:
                return SECOND_PASSENGER + 100 + value
            return SECOND_PASSENGER + value if value > self.second_passenger else -2.0
        if isinstance(a, Station):
            return self.station(a)
        if isinstance(a, Income):
            return self.income(a)
        if isinstance(a, Buy):
            return self.buy(a)
        return END


def ranked_actions(state: TrambahnState, actions: Sequence[Action] | None = None,
                   evaluator: type[Evaluator] | None = None) -> list[Action]:
    """The legal actions from the most to the least wanted (the first is the rule's choice);
    ``evaluator`` replaces the rule's :class:`Evaluator` (the search's planner does)."""
    if actions is None:
        actions = state.legal_actions()
    ev = (evaluator or Evaluator)(state)
    scored = sorted(((ev.score(a), i) for i, a in enumerate(actions)), reverse=True)
    return [actions[i] for _, i in scored]


def rule_action(state: TrambahnState, actions: Sequence[Action] | None = None,
                evaluator: type[Evaluator] | None = None) -> Action:
    """The rule-of-thumb choice for the player to move (``evaluator``: as for
    :func:`ranked_actions`)."""
    if actions is None:
        actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    ev = (evaluator or Evaluator)(state)
    best, best_score = actions[0], float("-inf")
    for a in actions:
        s = ev.score(a)
        if s > best_score:
            best, best_score = a, s
    return best


def rule_policy(state: TrambahnState, player: int, rng: random.Random) -> Action:
    """The rule bot as a self-play policy (it reads only public fields and its own hand)."""
    return rule_action(state)


class RuleBot(BotBase):
    """The rule-of-thumb bot: sees its view, plays :func:`rule_action`."""

    name = "rule"

    def __init__(self, game: Any) -> None:
        self.game = game

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> RuleBot:
        return cls(game)

    def choose(self, view: TrambahnView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        # a position with the hidden cards dealt at random: the policy reads only the public
        # part and the bot's own hand, which are exactly the view's
        state = self.game.determinize(view, rng)
        choice = rule_action(state, list(legal_actions))
        return choice

