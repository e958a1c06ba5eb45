"""A search bot for Trambahn: whole turns checked by play-outs to the end of the game (the
default); or flat Monte Carlo over determinizations with rule-of-thumb play-outs; or whole
turns checked against the other player's reply.

With ``whole_turn=True`` (an experiment, not the default: see
``docs/bots.md``) the bot plans its **whole turn** at its first
decision of the turn (:mod:`trambahn_turns`: every passenger placement, stations, trams and
banking, weighed by a static value that models the other player's next passengers and the race
for the last scorings, T-R-2 / T-R-4) and follows the plan.  From the ``lookahead_from``-th
regular scoring on, the ``top`` best turns are each played on the same ``determinizations``
samples of the hidden cards, followed by the other player's whole turn planned the same way
from its view of the sample, and valued by :func:`leaf_value` (our own next scoring
included); the static value plus ``lookahead`` times the play-out's difference from the
candidates' mean decides.  Without ``memory`` (its default in this mode) the samples and the
unseen-card model use the view alone.

**The default** is :class:`~tramways.bots.trambahn_race.RaceBot` with the options
:data:`RACE`: whole turns, the other player's next passengers weighed 0.4 and an Extra
Tour's share 0.6 (T-R-3), checked from the 5th regular scoring on by play-outs to the end of
the game, valued by the win (T-R-4).
``race={...}`` gives the race other options (``race={}``: its own defaults, checks from the
7th scoring, the planner's weights).

With ``flat=True`` the bot is the previous default, flat Monte Carlo, the rest of this
docstring (the options below apply to it alone).

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

import copy
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.trambahn_builder import build_turn
from tramways.bots.trambahn_memory import Memory
from tramways.bots.trambahn_policy import Planner, plan_action, ranked_plan, variant
from tramways.bots.trambahn_race import RaceBot
from tramways.bots.trambahn_rule import ranked_actions, rule_action
from tramways.bots.trambahn_turns import Draft, TurnPlanner, variant_of
from tramways.core import Action
from tramways.trambahn.actions import Buy, Passenger
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

TOP = 3
"""Whole turns the default search checks against the other player's reply (the best by the
static value of :mod:`trambahn_turns`)."""

LOOKAHEAD = 1.0
"""Weight of that check (the play-outs' difference from the candidates' mean) beside the
static value; 0 plays the static value's best turn."""

LOOKAHEAD_FROM = 5
"""Regular scorings before which the check is skipped (the race for the last scorings,
T-R-4, is where it counts; earlier the static value decides alone)."""

RACE: dict[str, Any] = {"start": 5, "weights": {"danger": 0.4, "tour": 0.6}}
"""The default search's race options (:class:`RaceBot`): chosen on the development seeds
1000 / 1001 and confirmed on the fresh seed 2027; an Extra Tour's share ``tour`` 0.6 (the
planner's 0.9, T-R-3) screened on the development seeds 3007, 3010 and 3011 and confirmed on
the fresh seeds 2032-2034 pooled (``docs/bots.md``)."""

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


class SearchBot(BotBase):
    """The race search by default, else flat Monte Carlo or whole turns (see the module
    docstring)."""

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
        memory: bool | None = None,
        searched: Sequence[str] = ("passenger",),
        threat: float = THREAT,
        planner: dict[str, Any] | None = None,
        whole_turn: bool = False,
        weights: dict[str, Any] | None = None,
        top: int = TOP,
        lookahead: float = LOOKAHEAD,
        reply: str = "turns",
        lookahead_from: int = LOOKAHEAD_FROM,
        race: dict[str, Any] | None = None,
        flat: bool = False,
    ) -> None:
        self.legacy = legacy
        self.passengers_only = legacy if passengers_only is None else passengers_only
        self.game = game
        whole_turn = whole_turn and not legacy
        self.determinizations = determinizations or (6 if legacy else 4 if whole_turn else 8)
        self.candidates = candidates
        self.horizon = horizon if horizon is not None else 2 if legacy else HORIZON
        self.seconds = seconds
        self.searched = tuple(searched)
        if memory is None:
            memory = not whole_turn
        self.memory = Memory() if memory and not legacy else None
        self.threat = threat
        self.build: tuple[TrambahnView | None, Counter[str], list[Action]] = (None, Counter(), [])
        """The rest of the building plan: the view it was last followed at, the hand expected
        at its next action, the actions."""
        self.planner: type[Planner] = variant(planner) if planner else Planner
        self.whole_turn = whole_turn
        self.turn_planner: type[TurnPlanner] = variant_of(weights) if weights else TurnPlanner
        self.top = top
        self.lookahead = lookahead
        self.reply = reply
        self.lookahead_from = lookahead_from
        if race is None and not (flat or whole_turn or legacy):
            race = copy.deepcopy(RACE)
        self.race = RaceBot(game, **race) if race is not None and not legacy else None
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
        if self.race is not None:
            action = self.race.choose(view, legal_actions, rng)
            self.explanation = self.race.explanation
            return action
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
        if self.whole_turn:
            return self._whole_turn(view, legal, rng)
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

    def _reply(self, view: TrambahnView, best: list[tuple[float, Draft]], rng: random.Random
               ) -> tuple[float, Draft]:
        """The best whole turns checked against the other player's reply: each played on the
        same ``determinizations`` samples, the reply by the planner, and valued by
        :func:`leaf_value` (our own next scoring included); the static value plus
        ``lookahead`` times the play-out's difference from the candidates' mean."""
        me = _seat(view)
        totals = [0.0] * len(best)
        for _ in range(self.determinizations):
            sample = self._sample(view, rng)
            for i, (_, draft) in enumerate(best):
                state = sample.clone()
                for action in draft.actions:
                    state.apply(action)
                if self.reply == "turns":
                    self._reply_turn(state)
                else:
                    self._playout(state, self._plan, 1)
                totals[i] += leaf_value(state, me, self.threat)
        mean = sum(totals) / len(totals)
        scored = [(v + self.lookahead * (t - mean) / self.determinizations, -i, d)
                  for i, ((v, d), t) in enumerate(zip(best, totals, strict=True))]
        value, _, draft = max(scored, key=lambda s: (s[0], s[1]))
        return value, draft

    def _reply_turn(self, state: TrambahnState) -> None:
        """The other player's turn in a sample, planned whole from its view of the sample."""
        if state.over:
            return
        planner = self.turn_planner(state.view(state.turn), Counter())
        for action in planner.best()[0][1].actions:
            state.apply(action)

    def _whole_turn(self, view: TrambahnView, legal: list[Action], rng: random.Random) -> Action:
        """The best whole turn by :class:`~tramways.bots.trambahn_turns.TurnPlanner`, then
        followed action by action (:meth:`_planned`)."""
        known: Counter[str] = Counter()
        if self.memory is not None:
            known = self.memory.discard + Counter(self.memory.money)
        planner = self.turn_planner(view, known)
        best = planner.best(self.top)
        value, draft = best[0]
        if len(best) > 1 and self.lookahead and view.regular_scorings >= self.lookahead_from:
            value, draft = self._reply(view, best, rng)
        plan = draft.actions
        if not plan or plan[0] not in legal:
            self.explanation = "no whole turn fits: the planner's first legal action"
            return legal[0]
        self._follow(view, plan)
        self.explanation = f"whole turn of {len(plan)} actions, worth {value:+.1f}"
        return plan.pop(0)

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
                 policy: Callable[[TrambahnState], Action] = rule_action,
                 horizon: int | None = None) -> None:
        turns = 0
        start_turn = state.turn_number
        horizon = self.horizon if horizon is None else horizon
        while not state.over and turns < horizon:
            state.apply(policy(state))
            turns = state.turn_number - start_turn
