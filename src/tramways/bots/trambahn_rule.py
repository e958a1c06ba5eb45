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
from tramways.trambahn.state import Column, TrambahnState

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
    """Rule-of-thumb values of cards and actions for the player to move."""

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
        return float(TRAMS[col.tram][0]) if col.tram else GUESSED_MULTIPLIER

    def keep_value(self, face: str) -> float:
        """What a hand card is worth kept for a column."""
        known = self._keep.get(face)
        if known is not None:
            return known
        if face == "C":
            best = 0.0
            for i, col in enumerate(self.cols):
                if col.tram and not col.toured and not col.complete:
                    best = max(best, self.points[i] * self.multiplier(col) * col.size / 8)
        else:
            colour, value = FACE_COLOUR[face], FACE_VALUE[face]
            best = 0.8 if value <= 4 and len(self.cols) < 4 else 0.2
            for col in self.cols:
                if col.colour == colour and col.top < value:
                    gap = value - col.top - 1
                    factor = 1.0 if gap <= 2 else 0.5 if gap <= 4 else 0.2
                    v = face_points(face) * self.multiplier(col) * (self.future + 0.5) * factor
                    best = max(best, v)
        self._keep[face] = best
        return best

    def row_value(self, colour: int, added: int = 1) -> float:
        """What adding passengers to a row is worth to me (scoring now, or a row of 3)."""
        n = len(self.state.rows[colour]) + added
        diff = self.cs[self.me][colour] - self.cs[self.opp][colour]
        if n >= 4:
            return float(diff)
        if n == 3:
            return -0.7 * max(0, -diff) + 0.2 * max(0, diff)
        return 0.0

    def passenger(self, a: Passenger) -> float:
        return self.row_value(COLOURS.index(a.row)) - self.keep_value(a.card)

    def station(self, a: Station) -> float:
        face = a.card
        if face == "C":
            assert a.column is not None
            col = self.cols[a.column]
            if col.tram and not col.toured and col.size >= 4:
                return STATION + col.size
            return -1.0
        value = FACE_VALUE[face]
        if a.column is not None:
            col = self.cols[a.column]
            gap = value - col.top - 1
            if gap <= 2 or value >= 8 or self.remaining <= 3 or (gap <= 3 and col.size >= 4):
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
        good_start = value <= 4 or (value <= 6 and higher)
        if affordable and good_start and self.remaining >= 3 and len(self.cols) < 5:
            return STATION - 100 + 10 - value
        return -1.0

    def income(self, a: Income) -> float:
        keep = self.keep_value(a.card)
        if a.card != "C":
            colour = FACE_COLOUR[a.card]
            if len(self.state.rows[colour]) == 3:
                keep += max(0.0, self.row_value(colour))
        if keep < 0.9 or (self.money < 5 and keep < 3):
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
            return SECOND_PASSENGER + value if value > 0.5 else -2.0
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


class RuleBot:
    """The rule-of-thumb bot: sees its view, plays :func:`rule_action`."""

    name = "rule"

    def __init__(self, game: Any) -> None:
        self.game = game

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> RuleBot:
        return cls(game)

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        # a position with the hidden cards dealt at random: the policy reads only the public
        # part and the bot's own hand, which are exactly the view's
        state = self.game.determinize(view, rng)
        choice = rule_action(state, list(legal_actions))
        return choice

