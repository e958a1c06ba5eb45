"""Post-game analysis: the strong bot rates every decision of a finished
game, as chess sites do.

:func:`analyse` replays a finished game's record.  At every decision where the mover had a
choice (more than one legal move) it asks the strong bot's own evaluation for the value of
the move played and of the moves the strong bot considers, from the mover's point of view:

* **before**: the value of the best of them (the position's worth to the mover, had it played
  well), **after**: the value of the move played, **loss** = before - after (>= 0, since the
  played move is always among the moves rated);
* **best**: the move the strong bot rates highest there.

How a move is valued, per game:

* Trambahn: the flat search's value estimate (``search`` with ``flat=True``, the ``strong``
  bot before the race search; :func:`tramways.bots.search.evaluate` after the tuned
  planner's play-out to the end of the mover's next turn), averaged over
  :data:`TRAMBAHN_SAMPLES` deals of the hidden cards drawn from the mover's own view (the
  engine's ``determinize``: the bot knows what the player knew); the moves rated: the
  planner's best :data:`TRAMBAHN_CANDIDATES` and the move played.
* 1840: the ``strong`` bot's projected wealth margin
  (:func:`tramways.bots.g1840_search.projected_margin`, the mover's projected wealth against
  the best opponent) after a play-out by the rule bot in every seat (weighing 2 lays, as the
  search's play-outs) of at most :data:`G1840_PLAYOUT` actions, to the end of the round (in
  a Line Round: to the end of the mover's own turns), on a copy of the position with the line
  deck reshuffled (what a player knows); the moves rated: the ``normal`` policy's choice
  (which ``strong`` starts from; weighing :data:`G1840_RATED_LAYS` lays and
  :data:`G1840_AMOUNTS` amounts of a bid), its next best and the move played (at most
  :data:`G1840_CANDIDATES`).  Only decisions with more than one move beside those allowed at
  any time (IV.2, VIII.5.3) are rated.

A game that ends within a play-out is valued by its result (the score or wealth margin) without
the search's bonus of 1,000 for a win, so that a loss reads in the game's own points or
Gulden.  The work per decision is counted in samples and play-out actions, never in seconds, so the
figures are the same under the same ``seed`` on any machine (a test checks it).  The chart's
curve is the static part of the same evaluation (no play-out) for every seat after each rated
decision: ``evaluate(state, seat)`` (Trambahn) and ``projected_margin(state, seat)`` (1840).
Turning points are the decisions with the largest losses (the swings the mover gave away).

A finished game's record is public (``core.visibility.record_is_public``), so the analysis,
which reads the whole record, reveals nothing hidden once the game is over: a host shows it
only for a finished game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tramways.core import Action
from tramways.core.actions import moves
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.core.rng import derive_rng

TRAMBAHN_SAMPLES = 4
"""Deals of the hidden cards each Trambahn decision is rated over."""
TRAMBAHN_CANDIDATES = 4
"""The planner's best moves rated beside the move played (Trambahn)."""
G1840_CANDIDATES = 3
"""Moves rated per 1840 decision, the played one included."""
G1840_PLAYOUT = 12
"""Most actions an 1840 play-out plays after the rated move (or to the end of its round)."""
G1840_RATED_LAYS = 6
"""Tile lays the ``normal`` policy weighs when it names its move (drawn with the seeded rng;
the played lay is always rated)."""
G1840_AMOUNTS = 5
"""Amounts of a bid or dividend the policy weighs (evenly spread, the played one added)."""
G1840_LAYS = 2
"""Tile lays the 1840 play-out's rule bot weighs per decision (as the search's play-outs)."""
LOG_LINES = 3
"""The engine's log lines kept of each move (the move's own line and what it set off)."""
TURNING_POINTS = 5
"""Turning points kept: the decisions with the largest losses."""
WORST = 3
"""Worst decisions shown per seat."""


@dataclass(frozen=True)
class Decision:
    """One rated decision: the position before it is ``at=index`` (``index`` actions played),
    the move played is the record's action ``index``."""

    index: int
    seat: int
    played: str
    best: str
    before: float
    after: float
    loss: float
    choices: int
    played_log: tuple[str, ...] = ()
    """The engine's first log lines of the move played (pages word it in their language)."""
    best_log: tuple[str, ...] = ()
    """The engine's first log lines of the strong bot's move, played in the same position."""


@dataclass(frozen=True)
class Point:
    """Each seat's static evaluation after the record's first ``index`` actions."""

    index: int
    values: tuple[float, ...]


@dataclass(frozen=True)
class Analysis:
    """A finished game's analysis (JSON: :meth:`to_json` / :meth:`from_json`)."""

    game: str
    seed: int
    seats: int
    actions: int
    decisions: tuple[Decision, ...]
    curve: tuple[Point, ...]
    turning_points: tuple[int, ...] = field(default=())
    """Indexes (record positions) of the decisions with the largest losses, largest first."""
    seconds: float = 0.0
    """Time the analysis took (not part of its figures: :meth:`figures` leaves it out)."""

    def worst(self, seat: int, k: int = WORST) -> list[Decision]:
        """``seat``'s ``k`` decisions with the largest losses (a loss above 0 only), largest
        first, ties by the earlier move."""
        mine = [d for d in self.decisions if d.seat == seat and d.loss > 0]
        return sorted(mine, key=lambda d: (-d.loss, d.index))[:k]

    def figures(self) -> dict[str, Any]:
        """Everything but the time taken: equal for two runs under the same seed."""
        data = self.to_json()
        data.pop("seconds")
        return data

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        return cls(
            game=str(data["game"]), seed=int(data["seed"]), seats=int(data["seats"]),
            actions=int(data["actions"]),
            decisions=tuple(Decision(**{**d, "played_log": tuple(d.get("played_log", ())),
                                        "best_log": tuple(d.get("best_log", ()))})
                            for d in data["decisions"]),
            curve=tuple(Point(index=int(p["index"]), values=tuple(p["values"]))
                        for p in data["curve"]),
            turning_points=tuple(int(i) for i in data.get("turning_points", ())),
            seconds=float(data.get("seconds", 0.0)),
        )


def _r(x: float) -> float:
    return round(float(x), 1)


class _Rater:
    """Rates one decision of one game and evaluates a position statically."""

    def __init__(self, game: Any, seats: int) -> None:
        self.game = game
        self.seats = seats

    def rate(self, state: Any, seat: int, legal: list[Action], played: Action,
             rng: random.Random) -> tuple[Action, float, float]:
        """(best move, its value, the played move's value) for ``seat``."""
        raise NotImplementedError

    def static(self, state: Any, seat: int) -> float:
        raise NotImplementedError

    def statics(self, state: Any) -> list[float]:
        """Every seat's static evaluation (the chart's curve)."""
        return [self.static(state, s) for s in range(self.seats)]

    def has_choice(self, legal: list[Action]) -> bool:
        return len(legal) > 1


class _TrambahnRater(_Rater):
    def rate(self, state: Any, seat: int, legal: list[Action], played: Action,
             rng: random.Random) -> tuple[Action, float, float]:
        from tramways.bots.search import HORIZON
        from tramways.bots.trambahn_policy import plan_action, ranked_plan

        view = state.view(seat)
        samples = [self.game.determinize(view, rng) for _ in range(TRAMBAHN_SAMPLES)]
        ranked = ranked_plan(samples[0], legal)
        cands = list(dict.fromkeys([*ranked[:TRAMBAHN_CANDIDATES], played]))
        totals = [0.0] * len(cands)
        for sample in samples:
            for i, action in enumerate(cands):
                s = sample.clone()
                s.apply(action)
                start = s.turn_number
                while not s.over and s.turn_number - start < HORIZON:
                    s.apply(plan_action(s))
                totals[i] += self.static(s, seat)
        return _pick(cands, totals, played, len(samples))

    def static(self, state: Any, seat: int) -> float:
        from tramways.bots.search import evaluate

        if state.over:  # the score difference, without the search's bonus for a win
            return float(state.scores[seat] - state.scores[1 - seat])
        return evaluate(state, seat)


class _G1840Rater(_Rater):
    def __init__(self, game: Any, seats: int) -> None:
        super().__init__(game, seats)
        self.tastes: dict[str, float] = {}

    def has_choice(self, legal: list[Action]) -> bool:
        """More than one move beside those allowed at any time (IV.2, VIII.5.3)."""
        from tramways.bots.g1840_rule import ANYTIME

        return sum(not isinstance(a, ANYTIME) for a in legal) > 1

    def rate(self, state: Any, seat: int, legal: list[Action], played: Action,
             rng: random.Random) -> tuple[Action, float, float]:
        from tramways.bots.g1840_economy import Economy1840
        from tramways.bots.g1840_search import public_position

        view = state.view(seat)
        if not self.tastes:
            self.tastes = {p: 1.3 for p in sorted(view.privates)}
        rules = Economy1840(view, _thinned(legal, played), rng, self.tastes)
        rules.max_lays = G1840_RATED_LAYS
        choice, _ = rules.decide()
        ranked = [a for _, a in sorted(rules.scored, key=lambda t: -t[0]) if a in legal]
        cands = list(dict.fromkeys([choice, *ranked]))[: G1840_CANDIDATES - 1]
        cands = list(dict.fromkeys([*cands, played]))
        seed = rng.randrange(2**32)
        totals = []
        for action in cands:
            sample_rng = random.Random(seed)  # common random numbers for every move
            sample = public_position(state, sample_rng)
            sample.apply(action, seat)
            _playout(sample, seat, sample_rng, state.round_index)
            totals.append(self.static(sample, seat))
        return _pick(cands, totals, played, 1)

    def statics(self, state: Any) -> list[float]:
        """Every seat's projected margin from one view (the 1840 view is public)."""
        from tramways.bots.g1840_model import ViewModel
        from tramways.bots.g1840_search import projected_wealth

        if state.is_over():
            return [self.static(state, s) for s in range(self.seats)]
        model = ViewModel(state.view(0), me=0)
        wealth = [projected_wealth(model, s) for s in range(self.seats)]
        return [w - max(x for t, x in enumerate(wealth) if t != s)
                for s, w in enumerate(wealth)]

    def static(self, state: Any, seat: int) -> float:
        from tramways.bots.g1840_search import projected_margin

        if state.is_over():  # the wealth margin, without the search's bonus for a win
            wealth = state.result()["wealth"]
            return float(wealth[seat] - max(w for s, w in enumerate(wealth) if s != seat))
        return projected_margin(state, seat)


def _playout(state: Any, seat: int, rng: random.Random, start: int) -> None:
    """The rule bot (weighing :data:`G1840_LAYS` lays) in every seat for at most
    :data:`G1840_PLAYOUT` actions, to the end of the round; in a Line Round only to the end
    of the mover's own turns (the other players' lays and runs cost most and answer least)."""
    from tramways.bots.g1840_rule import Rules1840

    for _ in range(G1840_PLAYOUT):
        if state.is_over() or state.round_index != start:
            return
        p = state.current_players()[0]
        if p != seat and state.round.type == "LR":
            return
        legal = moves(state.legal_actions(p))
        action = legal[0] if len(legal) == 1 else Rules1840(
            state.view(p), legal, G1840_LAYS, rng).decide()[0]
        state.apply(action, p)


def _thinned(legal: list[Action], played: Action) -> list[Action]:
    """``legal`` with at most :data:`G1840_AMOUNTS` amounts of each kind of bid or dividend
    (evenly spread, the lowest and highest kept) and the played action."""
    by_kind: dict[type, list[Action]] = {}
    for a in legal:
        if isinstance(getattr(a, "amount", None), int):
            by_kind.setdefault(type(a), []).append(a)
    dropped: set[int] = set()
    for group in by_kind.values():
        if len(group) <= G1840_AMOUNTS:
            continue
        group = sorted(group, key=lambda a: int(getattr(a, "amount", 0)))
        step = (len(group) - 1) / (G1840_AMOUNTS - 1)
        keep = {round(i * step) for i in range(G1840_AMOUNTS)}
        dropped |= {id(a) for i, a in enumerate(group) if i not in keep and a != played}
    return [a for a in legal if id(a) not in dropped]


def _pick(cands: list[Action], totals: list[float], played: Action, samples: int
          ) -> tuple[Action, float, float]:
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best], totals[best] / samples, totals[cands.index(played)] / samples


def _rater(game: Any, seats: int) -> _Rater:
    if game.name == "trambahn":
        return _TrambahnRater(game, seats)
    if game.name == "1840":
        return _G1840Rater(game, seats)
    raise ValueError(f"no analysis for {game.name}")


def _mover(state: Any, action: Action) -> int:
    seats = state.seats_for(action)
    if seats:
        return int(seats[0])
    return int(state.current_players()[0])


def _first_line(state: Any, action: Action, seat: int) -> tuple[str, ...]:
    """The engine's first log lines of ``action`` played on ``state`` (a copy)."""
    return tuple(state.apply(action, seat)[:LOG_LINES])


def analyse(record: GameRecord, seed: int = 0, only: Sequence[int] | None = None) -> Analysis:
    """The analysis of the finished game ``record`` (see the module docstring), its random
    draws from ``derive_rng(seed, "analysis", index)`` per decision; ``only``: rate just
    these record positions (a test's shortcut; the curve still covers them alone)."""
    started = time.perf_counter()
    session = Session.from_record(record, upto=0)
    game = session.game
    state = session.state
    seats = len(game.player_names(game.normalize_settings(dict(record.settings))))
    rater = _rater(game, seats)
    decisions: list[Decision] = []
    curve: list[Point] = []
    wanted = None if only is None else set(only)
    before = after = 0.0
    best_log: tuple[str, ...] = ()
    for index, text in enumerate(record.actions):
        action = game.parse_action(text)
        seat = _mover(state, action)
        legal = moves(state.legal_actions(seat))
        rated = (rater.has_choice(legal) and action in legal
                 and (wanted is None or index in wanted))
        best: Action | None = None
        if rated:
            rng = derive_rng(seed, "analysis", index)
            best, before, after = rater.rate(state, seat, legal, action, rng)
            best_log = _first_line(state.clone(), best, seat) if best != action else ()
        played_log = tuple(state.apply(action, seat)[:LOG_LINES])
        if rated and best is not None:
            decisions.append(Decision(
                index=index, seat=seat, played=text, best=game.format_action(best),
                before=_r(before), after=_r(after), loss=_r(max(0.0, before - after)),
                choices=len(legal), played_log=played_log,
                best_log=best_log if best != action else played_log))
            curve.append(Point(index + 1, tuple(_r(v) for v in rater.statics(state))))
    turning = sorted(decisions, key=lambda d: (-d.loss, d.index))[:TURNING_POINTS]
    return Analysis(game=game.name, seed=seed, seats=seats, actions=len(record.actions),
                    decisions=tuple(decisions), curve=tuple(curve),
                    turning_points=tuple(d.index for d in turning if d.loss > 0),
                    seconds=round(time.perf_counter() - started, 2))

