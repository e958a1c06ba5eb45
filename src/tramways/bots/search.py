"""A search bot: flat Monte Carlo over determinizations, with rule-of-thumb play-outs.

For a decision with several legal actions, the bot samples ``determinizations`` positions
consistent with its view (the engine's ``determinize``: hidden cards dealt at random), and in
each sample plays every candidate action followed by rule-of-thumb play for both players
until ``horizon`` turns have ended (by default: the end of its own turn and of the
opponent's reply).  Each candidate is scored by the average of a static evaluation (score
difference plus the expected value of the columns still to be scored, see :func:`evaluate`);
the best one is played.  The same samples serve every candidate (common random numbers), so
differences come from the choice and not from the luck of the deal.

By default (``passengers_only``) the bot searches the decisions that decide the timing of
scorings -- which passengers to place, and whether to place a second one -- and plays the
rule of thumb elsewhere: a short horizon judges those well, while building columns pays off
only over many turns.  With ``passengers_only=False`` it searches every decision among the
rule's ``candidates`` best actions.  The budget per searched decision is
``determinizations x candidates`` play-outs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.trambahn_rule import ranked_actions, rule_action
from tramways.core import Action
from tramways.trambahn.actions import Passenger
from tramways.trambahn.cards import REGULAR_SCORINGS, TRAMS
from tramways.trambahn.state import TrambahnState

MONEY_VALUE = 0.4
"""Points a money card is worth while trams can still be bought."""


def evaluate(state: TrambahnState, me: int) -> float:
    """Score difference plus the expected future scorings of the columns (for ``me``).

    A column of colour c is expected to score once per four remaining regular scorings,
    weighted by how full the row of c is; an unused Extra Tour adds in proportion to the
    column's size; money counts a little while scorings remain.
    """
    if state.over:
        diff = state.scores[me] - state.scores[1 - me]
        return diff + (1000.0 if diff > 0 else -1000.0 if diff < 0 else 0.0)
    remaining = REGULAR_SCORINGS - state.regular
    value = 0.0
    for p in (0, 1):
        sign = 1.0 if p == me else -1.0
        total = float(state.scores[p])
        for col in state.columns[p]:
            if col.tram is None:
                continue
            score = col.points * TRAMS[col.tram][0]
            fill = len(state.rows[col.colour])
            expected = remaining / 4 + 0.15 * fill
            if remaining <= 0:
                expected = 0.0
            total += score * min(expected, remaining)
            if not col.toured and not col.complete:
                total += score * (col.size / 8) ** 3
        total += MONEY_VALUE * len(state.money[p]) * min(1.0, remaining / 5)
        value += sign * total
    return value


class SearchBot:
    """Flat Monte Carlo over determinizations (see the module docstring)."""

    name = "search"

    def __init__(
        self,
        game: Any,
        determinizations: int = 6,
        candidates: int = 5,
        horizon: int = 2,
        passengers_only: bool = True,
    ) -> None:
        self.passengers_only = passengers_only
        self.game = game
        self.determinizations = determinizations
        self.candidates = candidates
        self.horizon = horizon

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> SearchBot:
        return cls(game, **options)

    @property
    def budget(self) -> dict[str, int]:
        return {
            "determinizations": self.determinizations,
            "candidates": self.candidates,
            "horizon_turns": self.horizon,
        }

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        me = view["you"]
        if self.passengers_only and not isinstance(legal[0], Passenger):
            return rule_action(self.game.determinize(view, rng), legal)
        samples = [self.game.determinize(view, rng) for _ in range(self.determinizations)]
        ranked = ranked_actions(samples[0], legal)
        candidates = self._candidates(ranked)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        for sample in samples:
            for i, action in enumerate(candidates):
                state = sample.clone()
                state.apply(action)
                self._playout(state)
                totals[i] += evaluate(state, me)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _candidates(self, ranked: list[Action]) -> list[Action]:
        """The actions worth a play-out: every passenger (plus the rule's best other move)
        when searching passengers only, else the rule's best and one action of each kind."""
        if self.passengers_only:
            passengers: list[Action] = [a for a in ranked if isinstance(a, Passenger)]
            rest = [a for a in ranked if not isinstance(a, Passenger)]
            return passengers + rest[:1]
        out: list[Action] = ranked[: self.candidates]
        kinds: set[type] = {type(a) for a in out}
        for a in ranked[self.candidates :]:
            if type(a) not in kinds and not isinstance(a, Passenger):
                out.append(a)
                kinds.add(type(a))
        return out

    def _playout(self, state: TrambahnState) -> None:
        turns = 0
        start_turn = state.turn_number
        while not state.over and turns < self.horizon:
            state.apply(rule_action(state))
            turns = state.turn_number - start_turn
