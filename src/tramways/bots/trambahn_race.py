"""A Trambahn search that checks the race for the last scorings by playing it to the end.

At the first decision of its turn the bot lists its **whole turns** with
:class:`~tramways.bots.trambahn_turns.TurnPlanner` (every passenger placement, stations, trams
and banking, weighed by the planner's static value) and keeps the best turn of each distinct
passenger placement, the ``top`` best of those (Step 1 decides which rows score and when:
T-R-2, T-R-4).  Before the ``start``-th regular scoring it plays the planner's best turn.
From then on it checks the candidates by **perfect-information Monte Carlo to the end of the
game**: ``samples`` positions consistent with its view (the engine's ``determinize``, with
the faces it saw go to the discard pile and its own money cards put back in place,
:class:`~tramways.bots.trambahn_memory.Memory`), the same samples for every candidate (common
random numbers); in each, the candidate turn is played and then both players play to the end
of the game (:func:`play_out`), and the candidate scores 1 for a win, 1/2 for a draw and 0
for a loss (T-R-4: the most points win; a tie goes to the bigger money pile), plus
``margin`` times the final points difference.  Another turn replaces the planner's best only
when it scores ``switch`` a sample more (with ``confidence`` above 0, also that many standard
errors of the paired differences more, :func:`switch_verdict`; while only that test fails,
``samples`` more play-outs of every candidate are drawn, up to ``most_samples``); the chosen
turn is played action by action.

The play-outs model a player who punishes a row left open (:func:`punish`): at the start of
its turn a player whose hand fills a row whose scoring favours it (a row at 3 and one card of
its colour or a conductor, at 2 and two; with one scoring left only when it ends the game
ahead, T-R-4) places those passengers; the rest of each turn is the rule-of-thumb planner of
:mod:`tramways.bots.trambahn_policy`.  With ``double`` a player who filled a row at 3 with
its first passenger fills another row at 3 whose scoring favours it with its second (two
scorings in one turn, as a player who kept two such rows open does).  Within ``exact_from`` regular scorings of the end the
other player's first reply is instead its whole turn planned from its view of the sample
(:class:`TurnPlanner`).  ``leaf="turn"`` replaces the play-out to the end by the other
player's planned whole turn and the planner's value of our best turn after it
(:func:`reply_value`).

With ``infer=True`` the bot reads the other player's last turn
(:mod:`~tramways.bots.trambahn_infer`): a row at 3 whose scoring favoured it and that it left
open says its hand held no card of that colour and no conductor, so the cards it kept hold
none; the planner's chance of the other player's next passengers and the samples of its hand
are conditioned on that.  With ``seen=True`` the planner's chances leave out the faces the
memory saw go to the discard pile (a scored row's passengers, T-R-2) and its own money cards.
``weights`` changes the planner's weights (:func:`~tramways.bots.trambahn_turns.variant_of`).
With ``habit`` above 0 the planner's ``danger`` (the weight of the other player's next
passengers) is ``habit`` times the share of the rows at 3 favouring the other player that it
filled when it could (:class:`~tramways.bots.trambahn_habit.FillRate`, read from its past
turns): a player who leaves such rows open is less of a danger than the unseen cards say.
With ``punish_habit`` above 0 the play-outs' other player punishes a row left open with the
chance ``punish_habit`` times that share (at most 1), drawn from a seed a sample (the same for
every candidate); the bot's own side always does.  With ``hold`` as well, in a turn drawn as
not punishing the other player fills no row at all (the rule of thumb's own passengers, which
fill most rows at 3 it can, leave them open too, :func:`held_back`): the play-outs' other
player then fills about as often as it was seen to, not only punishes less.  ``own_fill``
below 1 does the same for the bot's own side in the play-outs (it punishes with that chance
and otherwise fills no row), for a bot whose real turns fill fewer of the rows favouring it
than ``punish`` does.  With ``fill_first``, from the ``start``-th regular scoring the
planner's best turn that fills the row :func:`punish` would fill becomes the reference
candidate (the turn the others must beat by ``switch``): the real play then does what the
play-outs assume its own side does.

The bot reads its own view alone; the hidden cards are sampled (a test checks that the real
deck and the other hand do not change its choices).  Every random choice comes from the
``rng`` it is given, so a seed reproduces its play.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.trambahn_habit import FillRate
from tramways.bots.trambahn_infer import HandClue, Inference
from tramways.bots.trambahn_memory import Memory
from tramways.bots.trambahn_policy import Planner, plan_action
from tramways.bots.trambahn_turns import GAME_WON, Draft, TurnPlanner, variant_of
from tramways.core import Action
from tramways.trambahn.actions import Passenger
from tramways.trambahn.cards import (
    CARD_FACE,
    CARD_VALUE,
    COLOURS,
    CONDUCTOR,
    REGULAR_SCORINGS,
    ROW_SIZE,
)
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.view_types import TrambahnView

TOP = 5
"""Distinct passenger placements checked (each with the planner's best rest of the turn)."""

SAMPLES = 16
"""Samples of the hidden cards a checked turn is played out on."""

START = 7
"""Regular scorings before which the planner's best turn is played unchecked."""

EXACT_FROM = 0
"""Regular scorings left at most for the other player's first reply to be planned whole (0:
never; it costs a whole-turn plan a play-out)."""

MARGIN = 0.002
"""Weight of the final points difference beside the win (1), draw (1/2) or loss (0)."""

SWITCH = 0.06
"""How much better (in wins a sample) another turn must play out than the planner's best to
be played instead: the play-outs are noisy, the planner's value is not."""


def outcome(state: TrambahnState, me: int) -> float:
    """1, 1/2 or 0 for ``me`` at the end of a game (T-R-4: points, then the money pile)."""
    diff = state.scores[me] - state.scores[1 - me]
    if diff == 0:
        diff = len(state.money[me]) - len(state.money[1 - me])
    return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5


def scoring_gain(state: TrambahnState, colour: int) -> int:
    """What a scoring of ``colour`` now gives the player to move over the other (Scoring);
    with one regular scoring left, the final margin (T-R-4)."""
    p, o = state.turn, 1 - state.turn
    gain = (sum(c.score for c in state.columns[p] if c.colour == colour)
            - sum(c.score for c in state.columns[o] if c.colour == colour))
    if state.regular + 1 >= REGULAR_SCORINGS:
        gain += state.scores[p] - state.scores[o]
    return gain


def punish(state: TrambahnState, double: bool = False) -> None:
    """At the start of a turn in a play-out: fill the row whose scoring favours the player to
    move most, when its hand can (Step 1, T-R-2): cards of the row's colour, lowest first,
    then conductors.  With ``double``, a passenger left after filling a row at 3 fills the
    best other row at 3 whose scoring (after the first) favours the player too: two
    scorings in one turn."""
    if state.over or state.step > 1 or state.passengers:
        return
    choice = punish_choice(state)
    if choice is None:
        return
    c, cards = choice
    for card in cards:
        state.apply(Passenger(state.turn, CARD_FACE[card], COLOURS[c]))
    if not double or len(cards) > 1 or state.over or state.step > 1:
        return
    second = punish_choice(state, most=1)
    if second is None:
        return
    action = Passenger(state.turn, CARD_FACE[second[1][0]], COLOURS[second[0]])
    if action in state.legal_actions():
        state.apply(action)


def punish_choice(state: TrambahnState, most: int = 2) -> tuple[int, list[int]] | None:
    """The row :func:`punish` fills (the one whose scoring favours the player to move most,
    T-R-2) with at most ``most`` passengers, and the hand cards it places there, or None when
    no such row can be filled."""
    p = state.turn
    hand = state.hands[p]
    best: tuple[int, int, list[int]] | None = None
    for c, colour in enumerate(COLOURS):
        need = ROW_SIZE - len(state.rows[c])
        if need > most:
            continue
        fitting = sorted((CARD_VALUE[card], card) for card in hand
                         if CARD_FACE[card][-1] == colour)
        conductors = [card for card in hand if CARD_FACE[card] == CONDUCTOR]
        cards = [card for _, card in fitting][:need]
        cards += conductors[: need - len(cards)]
        if len(cards) < need:
            continue
        gain = scoring_gain(state, c)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, c, cards)
    if best is None:
        return None
    return best[1], best[2]


def planned_turn(state: TrambahnState) -> None:
    """The player to move's whole turn planned from its view of ``state``."""
    planner = TurnPlanner(state.view(state.turn), Counter())
    for action in planner.best()[0][1].actions:
        state.apply(action)


def held_back(state: TrambahnState) -> list[Action]:
    """The legal actions without the passengers that fill a row (its 4th card, T-R-2), when
    another action is left: a turn in which the player leaves every row open."""
    actions = state.legal_actions()
    kept = [a for a in actions if not (isinstance(a, Passenger) and len(
        state.rows[COLOURS.index(a.row)]) >= ROW_SIZE - 1)]
    return kept or actions


def play_out(state: TrambahnState, me: int, exact: bool,
             planner: type[Planner] = Planner, rate: float = 1.0,
             rng: random.Random | None = None, hold: bool = False,
             own_rate: float = 1.0, double: bool = False) -> None:
    """Both players to the end of the game (see the module docstring); ``exact``: the other
    player's first turn planned whole; the other player punishes a row left open at the start
    of a turn with the chance ``rate`` (drawn from ``rng``), ``me`` with the chance
    ``own_rate`` (always at 1).  With ``hold``, a turn of the other player drawn as not
    punishing fills no row at all (:func:`held_back`): the rule of thumb's own passengers
    leave the rows open too; a turn of ``me`` drawn as not punishing always does.  With
    ``double``, punishing may fill two rows at 3 (:func:`punish`)."""
    if exact and not state.over and state.turn != me:
        planned_turn(state)
    holding = False
    while not state.over:
        if state.step == 1 and not state.passengers:
            holding = False
            chance = own_rate if state.turn == me else rate
            if rng is None or chance >= 1.0 or rng.random() < chance:
                punish(state, double)
            else:
                holding = hold or state.turn == me
            if state.over:
                return
        if holding and state.step == 1:
            state.apply(plan_action(state, held_back(state), planner))
            continue
        state.apply(plan_action(state, None, planner))


def reply_value(state: TrambahnState, me: int) -> float:
    """The other player's whole turn planned from its view of ``state``, then the value of
    our best whole turn after it (the planner's static value, from our view)."""
    if not state.over:
        planned_turn(state)
    if state.over:
        diff = state.scores[me] - state.scores[1 - me]
        return diff + (GAME_WON if diff > 0 else -GAME_WON if diff < 0 else 0.0)
    return TurnPlanner(state.view(me), Counter()).best()[0][0]


def passenger_key(draft: Draft) -> tuple[Action, ...]:
    """The passengers of a whole turn (Step 1), in order."""
    return tuple(a for a in draft.actions if isinstance(a, Passenger))


class RaceBot(BotBase):
    """Whole turns checked by play-outs to the end of the game (see the module docstring)."""

    name = "search"

    def __init__(self, game: Any, top: int = TOP, samples: int = SAMPLES, start: int = START,
                 exact_from: int = EXACT_FROM, margin: float = MARGIN,
                 memory: bool = True, switch: float = SWITCH, leaf: str = "end",
                 infer: bool = False, seen: bool = False,
                 weights: dict[str, float] | None = None, habit: float = 0.0,
                 punish_habit: float = 0.0, hold: bool = False,
                 fill_first: bool = False, own_fill: float = 1.0,
                 confidence: float = 0.0, most_samples: int = 0,
                 double: bool = False) -> None:
        self.game = game
        self.top = top
        self.samples = samples
        self.start = start
        self.exact_from = exact_from
        self.margin = margin
        self.switch = switch
        self.leaf = leaf
        self.memory = Memory() if memory else None
        self.inference = Inference() if infer else None
        self.seen = seen and self.memory is not None
        self.planner = variant_of(weights) if weights else TurnPlanner
        self.habit = FillRate() if habit > 0 else None
        self.habit_scale = habit
        self.punish_habit = punish_habit
        self.hold = hold
        self.fill_first = fill_first
        self.own_fill = own_fill
        self.double = double
        self.confidence = confidence
        self.most_samples = max(samples, most_samples)
        self.fill = (self.habit if self.habit is not None
                     else FillRate() if punish_habit > 0 else None)
        """The other player's fill rate the play-outs' punishing follows (``punish_habit``)."""
        self.plan: list[Action] = []
        self.followed: tuple[TrambahnView | None, Counter[str]] = (None, Counter())
        """The view the plan was last followed at, and the hand expected at its next action
        (another view of the same turn follows the plan; the same view again plans afresh)."""
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> RaceBot:
        return cls(game, **options)

    def choose(self, view: TrambahnView, legal_actions: Sequence[Action], rng: random.Random
               ) -> Action:
        if self.memory is not None:
            self.memory.observe(view)
        if self.inference is not None:
            self.inference.observe(view)
        if self.fill is not None:
            self.fill.observe(view)
        action = self._choose(view, list(legal_actions), rng)
        if self.memory is not None:
            self.memory.played(view, action)
        hand = Counter(view.hand or ())
        card = getattr(action, "card", None)
        if card is not None:
            hand[card] -= 1
        self.followed = (view, +hand)
        if self.inference is not None:
            self.inference.played(sum(hand.values()))
        return action

    def _choose(self, view: TrambahnView, legal: list[Action], rng: random.Random) -> Action:
        last, hand = self.followed
        if (self.plan and last is not None and last != view
                and last.turn_number == view.turn_number and hand == Counter(view.hand or ())
                and self.plan[0] in legal):
            self.explanation = "the rest of the planned turn"
            return self.plan.pop(0)
        self.plan = []
        if len(legal) == 1:
            self.explanation = "only action"
            return legal[0]
        candidates = self.candidates(view)
        value, draft = candidates[0]
        self.explanation = f"the planner's whole turn, worth {value:+.1f}"
        if len(candidates) > 1 and view.regular_scorings >= self.start:
            draft = self._check(view, candidates, rng)
        plan = list(draft.actions)
        if not plan or plan[0] not in legal:
            self.explanation = "no whole turn fits: the first legal action"
            return legal[0]
        self.plan = plan[1:]
        return plan[0]

    def candidates(self, view: TrambahnView) -> list[tuple[float, Draft]]:
        """The best whole turn of each passenger placement, the ``top`` best, best first."""
        planner = self.planner(view, self._known(), self._clue())
        if self.habit is not None:
            planner.danger = self.habit_scale * self.habit.rate()
        best: dict[tuple[Action, ...], tuple[float, int, Draft]] = {}
        for n, draft in enumerate(planner.turns(planner.start())):
            key = passenger_key(draft)
            value = planner.value(draft)
            if key not in best or value > best[key][0]:
                best[key] = (value, -n, draft)
        ranked = sorted(best.values(), key=lambda t: (t[0], t[1]), reverse=True)
        chosen = [(v, d) for v, _, d in ranked]
        if self.fill_first and view.regular_scorings >= self.start:
            chosen = self.filling_first(view, chosen)
        return chosen[: self.top]

    def filling_first(self, view: TrambahnView, ranked: list[tuple[float, Draft]]
                      ) -> list[tuple[float, Draft]]:
        """``ranked`` with the planner's best turn that fills the row :func:`punish` would
        fill (the row whose scoring favours us most, T-R-2) moved first, when the hand can:
        the turn the check must beat by ``switch`` is the one the play-outs' own side plays."""
        if view.step != 1 or view.passengers_placed:
            return ranked
        state: TrambahnState = self.game.determinize(view, random.Random(0))
        choice = punish_choice(state)
        if choice is None:
            return ranked
        c, cards = choice
        filling = [i for i, (_, draft) in enumerate(ranked)
                   if len(passenger_key(draft)) == len(cards) and all(
                       isinstance(a, Passenger) and a.row == COLOURS[c]
                       for a in passenger_key(draft))]
        if not filling:
            return ranked
        i = max(filling, key=lambda j: (ranked[j][0], -j))
        return [ranked[i], *ranked[:i], *ranked[i + 1:]]

    def _sample(self, view: TrambahnView, rng: random.Random) -> TrambahnState:
        state: TrambahnState = self.game.determinize(view, rng)
        if self.memory is not None:
            assert view.you is not None
            self.memory.sample(state, view.you)
        clue = self._clue()
        if clue is not None:
            assert view.you is not None
            clue.condition(state, 1 - view.you, rng)
        return state

    def _known(self) -> Counter[str]:
        """With ``seen``: the faces the memory knows are out of the other hand's reach (the
        discard pile since the last reshuffle, my own money cards), for the planner's chances."""
        if not self.seen or self.memory is None:
            return Counter()
        return self.memory.discard + Counter(self.memory.money)

    def _clue(self) -> HandClue | None:
        return self.inference.clue if self.inference is not None else None

    def _check(self, view: TrambahnView, candidates: list[tuple[float, Draft]],
               rng: random.Random) -> Draft:
        """Each candidate played out to the end on the same samples; the best mean, when it
        beats the planner's turn by ``switch`` a sample (and, with ``confidence``, by that many
        standard errors of the paired differences, more samples drawn while it is close)."""
        assert view.you is not None
        me = view.you
        exact = REGULAR_SCORINGS - view.regular_scorings <= self.exact_from
        rate = 1.0
        if self.fill is not None and self.punish_habit > 0:
            rate = min(1.0, self.punish_habit * self.fill.rate())
        per: list[list[float]] = [[] for _ in candidates]
        while True:
            for _ in range(self.samples):
                self._play_sample(view, candidates, rng, me, exact, rate, per)
            best, close = switch_verdict(per, self.switch, self.confidence)
            if not close or len(per[0]) >= self.most_samples:
                break
        n = len(per[0])
        self.explanation = (f"checked {len(candidates)} whole turns x {n} play-outs "
                            f"to the end: {sum(per[best]) / n:.2f} against the "
                            f"planner's {sum(per[0]) / n:.2f}")
        return candidates[best][1]

    def _play_sample(self, view: TrambahnView, candidates: list[tuple[float, Draft]],
                     rng: random.Random, me: int, exact: bool, rate: float,
                     per: list[list[float]]) -> None:
        """One sample of the hidden cards; each candidate played out on it (the same
        sample and play-out seed for every candidate: common random numbers)."""
        sample = self._sample(view, rng)
        seed = rng.getrandbits(32) if rate < 1.0 or self.own_fill < 1.0 else None
        for i, (_, draft) in enumerate(candidates):
            state = sample.clone()
            for action in draft.actions:
                state.apply(action)
            if self.leaf == "turn":
                per[i].append(reply_value(state, me))
                continue
            play_out(state, me, exact, rate=rate,
                     rng=random.Random(seed) if seed is not None else None,
                     hold=self.hold, own_rate=self.own_fill, double=self.double)
            diff = state.scores[me] - state.scores[1 - me]
            per[i].append(outcome(state, me) + self.margin * diff)


def switch_verdict(per: Sequence[Sequence[float]], switch: float, confidence: float
                   ) -> tuple[int, bool]:
    """Which candidate to play from the play-outs' values ``per[i][s]`` (candidate ``i``,
    sample ``s``; candidate 0 is the planner's turn), and whether the call is close.

    The best mean (the earlier candidate on a tie) replaces candidate 0 only when its mean
    paired difference over candidate 0 is at least ``switch`` and at least ``confidence``
    standard errors of that difference; the call is close when only the second test fails
    (more samples may settle it).  With ``confidence`` 0 this is the plain ``switch`` rule."""
    n = len(per[0])
    totals = [sum(values) for values in per]
    best = max(range(len(per)), key=lambda i: (totals[i], -i))
    if best == 0:
        return 0, False
    if totals[best] - totals[0] < switch * n:
        return 0, False
    if confidence <= 0:
        return best, False
    diffs = [a - b for a, b in zip(per[best], per[0], strict=True)]
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    if mean * mean * n >= confidence * confidence * spread:
        return best, False
    return 0, True
