"""A search bot for Trambahn: flat Monte Carlo over determinizations, with rule-of-thumb
play-outs.

For a decision with several legal actions, the bot samples positions consistent with its view
(the engine's ``determinize``: the hidden cards dealt at random), up to ``determinizations``
samples and no new one once ``seconds`` are spent.  With information-set sampling that
remembers what it has seen (:class:`Memory`: the faces of the passengers and tram-less columns
that went to the discard pile, and its own money cards, which it put there itself), no sample
deals a card it knows is elsewhere.  In each sample it plays every candidate action followed by
the planner's play (:mod:`trambahn_policy`) for both players until ``horizon`` turns have ended
(:data:`HORIZON`: the end of its own turn, the other player's reply and its own next turn), and
scores each candidate by the average of a static evaluation (score difference plus the expected
value of the columns still to be scored, see :func:`evaluate`) and the scoring the player to
move then can make at once with the passengers of its sampled hand (:func:`leaf_value`: the
10th, T-R-4, when it would win by it); the best one is played.  The
same samples serve every candidate (common random numbers), so differences come from the
choice and not from the luck of the deal.

``searched`` names the decisions it searches: ``"passenger"`` (the default: which passengers
to place, and whether to place a second one, which decide the timing of scorings that a short
horizon judges well), ``"buy"`` (which tram), ``"all"`` (every decision among the planner's
best ``candidates`` and one action of each kind), ``"build"`` (an experiment: after the
passengers, the rest of the turn as one plan, :mod:`trambahn_builder`).  Elsewhere it plays the
planner's choice.

``legacy=True`` is the previous bot, kept to measure against (``benchmarks/bots.py``): no
memory, 6 samples, play-outs to the end of the opponent's reply (2 turns), and the frozen rule
of thumb of :mod:`trambahn_rule` for its play-outs and unsearched moves (the games of
``tests/bots/test_trambahn_legacy_pin.py`` pin it).  It searches the passenger decisions only
(``passengers_only``); with ``passengers_only=False`` it searches every decision among the
rule's ``candidates`` best actions.  The budget per searched decision is
``determinizations x candidates`` play-outs.

The experiments that chose these settings, with their win rates: ``docs/bots.md``,
"Experiment records".
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.trambahn_builder import build_turn
from tramways.bots.trambahn_policy import Planner, plan_action, ranked_plan, variant
from tramways.bots.trambahn_rule import ranked_actions, rule_action
from tramways.core import Action
from tramways.trambahn.actions import Buy, Income, Passenger
from tramways.trambahn.cards import (
    CARD_FACE,
    COLOURS,
    CONDUCTOR,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAMS,
)
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.view_types import TrambahnView

HORIZON = 3
"""Turns the new search plays out after a candidate: the end of its own turn, the other
player's reply and its own next turn (the legacy search: 2)."""

MONEY_VALUE = 0.4
"""Points a money card is worth while trams can still be bought."""

THREAT = 0.75
"""Weight of the scoring the player to move at the end of a play-out can make at once with
its first passengers (:func:`leaf_value`)."""


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


def next_scoring(state: TrambahnState) -> tuple[int, int] | None:
    """The best scoring the player to move can make with the passengers of its hand before
    anything else (Step 1 comes first; T-R-2): a row at 3 and one card of its colour or a
    conductor, or a row at 2 and two.  Returns (colour, gain for the mover) for the scoring
    that favours the mover most, or ``None`` when none does.  With one regular scoring left
    (T-R-4) the mover takes it only when it is ahead afterwards, and the gain is then the
    final margin."""
    if state.over or state.step > 1 or state.passengers:
        return None
    p = state.turn
    o = 1 - p
    faces = [CARD_FACE[c] for c in state.hands[p]]
    conductors = faces.count(CONDUCTOR)
    last = state.regular + 1 >= REGULAR_SCORINGS
    best: tuple[int, int] | None = None
    for c, colour in enumerate(COLOURS):
        n = len(state.rows[c])
        if n < 2 or sum(1 for f in faces if f[-1] == colour) + conductors < ROW_SIZE - n:
            continue
        gain = (sum(col.score for col in state.columns[p] if col.colour == c)
                - sum(col.score for col in state.columns[o] if col.colour == c))
        if last:
            gain += state.scores[p] - state.scores[o]
        if gain > 0 and (best is None or gain > best[1]):
            best = (c, gain)
    return best


def leaf_value(state: TrambahnState, me: int, threat: float = THREAT) -> float:
    """:func:`evaluate` at the end of a play-out, and the player to move's best scoring with
    its own next passengers (:func:`next_scoring`, the hand being that of the sample): the
    10th scoring it would win by ends the game (T-R-4); another counts ``threat`` times its
    gain, for that player."""
    value = evaluate(state, me)
    if not threat:
        return value
    found = next_scoring(state)
    if found is None:
        return value
    sign = 1.0 if state.turn == me else -1.0
    if state.regular + 1 >= REGULAR_SCORINGS:
        return sign * (1000.0 + found[1])
    return value + sign * threat * found[1]


def _seat(view: TrambahnView) -> int:
    """The seat a bot plays (its view is a player's, never a spectator's)."""
    assert view.you is not None
    return view.you


class Memory:
    """What one player has seen leave the table, by face (T-R-2 scorings discard the row;
    tram-less columns are discarded at the end of a turn; money paid for a tram is discarded),
    and the top of its own money pile, which only it knows (it put those cards there)."""

    def __init__(self) -> None:
        self.discard: Counter[str] = Counter()
        self.money: list[str] = []  # the known top of the own money pile, bottom first
        self.last: TrambahnView | None = None

    def observe(self, view: TrambahnView) -> None:
        """Compare with the last view this player saw (a new game resets the memory)."""
        last = self.last
        self.last = view
        if last is None or not self._continues(last, view):
            self.discard.clear()
            self.money.clear()
            return
        if view.reshuffles != last.reshuffles:  # T-R-5: the discard pile is the deck now
            self.discard.clear()
            self.money.clear()  # half of each money pile went at random
            return
        for colour, row in last.rows.items():
            now = view.rows[colour]
            if now[: len(row)] != row:  # the row scored: its passengers are discarded
                self.discard.update(row)
        for p in (0, 1):
            after = {(c.colour, tuple(c.stations[:1])) for c in view.columns[p]}
            for cards in last.columns[p]:
                if (cards.colour, tuple(cards.stations[:1])) not in after:
                    self.discard.update(cards.stations)  # a tram-less column discarded
                    self.discard.update(cards.conductors)

    @staticmethod
    def _continues(last: TrambahnView, view: TrambahnView) -> bool:
        """Whether ``view`` can follow ``last`` in one game for one player (a bot object
        shared between games or seats, as a server may do, then starts afresh)."""
        h = len(last.history)
        return (view.you == last.you and view.names == last.names
                and view.turn_number >= last.turn_number
                and view.reshuffles >= last.reshuffles
                and view.history[:h] == last.history
                and all(a >= b for a, b in zip(view.scores, last.scores, strict=True)))

    def played(self, view: TrambahnView, action: Action) -> None:
        """Remember where my own cards go (income: my money pile; a tram: its top cards)."""
        if isinstance(action, Income):
            self.money.append(action.card)
        elif isinstance(action, Buy):
            cost = TRAMS[action.kind][1]
            paid = self.money[max(0, len(self.money) - cost):]
            del self.money[max(0, len(self.money) - cost):]
            self.discard.update(paid)

    def sample(self, state: TrambahnState, me: int) -> TrambahnState:
        """Move the remembered faces into place in a determinized ``state`` (swapping with
        unremembered hidden cards), so the sample agrees with everything seen."""
        known = Counter(self.money)
        self._place(state.money[me], known,
                    [(state.hands[1 - me], None), (state.deck, None),
                     (state.money[1 - me], None), (state.discard, self.discard)])
        self._place(state.discard, self.discard,
                    [(state.hands[1 - me], None), (state.deck, None),
                     (state.money[1 - me], None), (state.money[me], known)])
        return state

    @staticmethod
    def _place(target: list[int], wanted: Counter[str],
               sources: list[tuple[list[int], Counter[str] | None]]) -> None:
        """Swap cards into ``target`` until it holds ``wanted`` (as a sub-multiset); a source
        with a counter only gives cards beyond the faces that counter keeps there."""
        have = Counter(CARD_FACE[c] for c in target)
        missing = wanted - have
        if not missing:
            return
        surplus = have - wanted
        free: list[int] = []
        for i, c in enumerate(target):
            if surplus[CARD_FACE[c]] > 0:
                surplus[CARD_FACE[c]] -= 1
                free.append(i)
        for face, n in missing.items():
            for _ in range(n):
                for pile, keep in sources:
                    if not free:
                        return
                    if keep is not None:
                        there = sum(1 for c in pile if CARD_FACE[c] == face)
                        if there <= keep[face]:
                            continue
                    j = next((k for k, c in enumerate(pile) if CARD_FACE[c] == face), None)
                    if j is not None:
                        i = free.pop()
                        target[i], pile[j] = pile[j], target[i]
                        break


class SearchBot(BotBase):
    """Flat Monte Carlo over determinizations (see the module docstring)."""

    name = "search"

    def __init__(
        self,
        game: Any,
        determinizations: int | None = None,
        candidates: int = 5,
        horizon: int | None = None,
        passengers_only: bool | None = None,
        legacy: bool = False,
        seconds: float = 1.0,
        memory: bool = True,
        searched: Sequence[str] = ("passenger",),
        threat: float = THREAT,
        planner: dict[str, Any] | None = None,
    ) -> None:
        self.legacy = legacy
        self.passengers_only = legacy if passengers_only is None else passengers_only
        self.game = game
        self.determinizations = determinizations or (6 if legacy else 8)
        self.candidates = candidates
        self.horizon = horizon if horizon is not None else 2 if legacy else HORIZON
        self.seconds = seconds
        self.searched = tuple(searched)
        self.memory = Memory() if memory and not legacy else None
        self.threat = threat
        self.build: tuple[TrambahnView | None, Counter[str], list[Action]] = (None, Counter(), [])
        """The rest of the building plan: the view it was last followed at, the hand expected
        at its next action, the actions."""
        self.planner: type[Planner] = variant(planner) if planner else Planner
        self.explanation = ""

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

    def choose(self, view: TrambahnView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if self.legacy:
            return self._choose_legacy(view, legal_actions, rng)
        memory = self.memory
        if memory is not None:
            memory.observe(view)
        action = self._choose(view, list(legal_actions), rng)
        if memory is not None:
            memory.played(view, action)
        return action

    def _sample(self, view: TrambahnView, rng: random.Random) -> TrambahnState:
        state = self.game.determinize(view, rng)
        if self.memory is not None:
            self.memory.sample(state, _seat(view))
        return state

    def _choose(self, view: TrambahnView, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            self.explanation = "only action"
            return legal[0]
        planned = self._planned(view, legal)
        if planned is not None:
            return planned
        deadline = time.perf_counter() + self.seconds
        first = self._sample(view, rng)
        if "build" in self.searched and not any(isinstance(a, Passenger) for a in legal):
            plan = build_turn(first, evaluate, self.planner)
            if plan[0] in legal:
                self._follow(view, plan)
                self.explanation = f"building plan of {len(plan)} actions"
                return plan.pop(0)
        ranked = ranked_plan(first, legal, self.planner)
        candidates = self._searched(ranked, legal)
        if len(candidates) == 1:
            self.explanation = "the rule's choice"
            return candidates[0]
        return self._monte_carlo(view, candidates, first, rng, deadline)

    def _planned(self, view: TrambahnView, legal: list[Action]) -> Action | None:
        """The next action of the building plan, if this view follows the last one's."""
        last, hand, plan = self.build
        if (last is not None and last != view and last.turn_number == view.turn_number
                and hand == Counter(view.hand or ()) and plan and plan[0] in legal):
            self._follow(view, plan)
            self.explanation = "the rest of the building plan"
            return plan.pop(0)
        return None

    def _searched(self, ranked: list[Action], legal: list[Action]) -> list[Action]:
        """The candidates of a searched decision (``searched``), else the planner's choice."""
        if any(isinstance(a, Passenger) for a in legal) and "passenger" in self.searched:
            candidates: list[Action] = [a for a in ranked if isinstance(a, Passenger)]
            return candidates + [a for a in ranked if not isinstance(a, Passenger)][:1]
        if any(isinstance(a, Buy) for a in legal) and "buy" in self.searched:
            candidates = [ranked[0]] + [a for a in ranked[1:] if isinstance(a, Buy)]
            candidates += [a for a in ranked if not isinstance(a, Buy)][:1]
            return list(dict.fromkeys(candidates))
        if "all" in self.searched:
            return self._candidates(ranked)
        return ranked[:1]

    def _monte_carlo(self, view: TrambahnView, candidates: list[Action], first: TrambahnState,
                     rng: random.Random, deadline: float) -> Action:
        """Every candidate played out on the same samples; the best average leaf value."""
        me = _seat(view)
        totals = [0.0] * len(candidates)
        samples = 0
        sample = first
        while True:
            for i, action in enumerate(candidates):
                state = sample.clone()
                state.apply(action)
                self._playout(state, self._plan)
                totals[i] += leaf_value(state, me, self.threat)
            samples += 1
            if samples >= self.determinizations or time.perf_counter() >= deadline:
                break
            sample = self._sample(view, rng)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        self.explanation = (f"{samples} samples x {len(candidates)} candidates: "
                            f"{totals[best] / samples:+.1f} against the rule's "
                            f"{totals[0] / samples:+.1f}")
        return candidates[best]

    def _follow(self, view: TrambahnView, plan: list[Action]) -> None:
        """Keep the plan after its first action, with the hand that action leaves (a second
        call with the same view, or any other position, plans afresh)."""
        hand = Counter(view.hand or ())
        card = getattr(plan[0], "card", None)
        if card is not None:
            hand[card] -= 1
        self.build = (view, +hand, plan[1:])

    def _plan(self, state: TrambahnState) -> Action:
        return plan_action(state, None, self.planner)

    def _choose_legacy(self, view: TrambahnView, legal_actions: Sequence[Action], rng: random.Random
                       ) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        me = _seat(view)
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

    def _playout(self, state: TrambahnState,
                 policy: Callable[[TrambahnState], Action] = rule_action) -> None:
        turns = 0
        start_turn = state.turn_number
        while not state.over and turns < self.horizon:
            state.apply(policy(state))
            turns = state.turn_number - start_turn
