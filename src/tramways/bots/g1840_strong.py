"""The 1840 ``strong`` bot: the ``normal`` bot (:class:`~.g1840_economy.Economy1840`) with
the end of the game seen: no cash kept for trams nobody sells any more, and look-ahead to the
end of the game from the last tram-buying round on.

**Policy** (:class:`StrongPolicy1840`): ``normal``'s rules, except that once no Company Round
sells trams (after CR5, R-CR-4) a director keeps no cash for the tram of a line without one:
``normal`` keeps it and passes in the last Share Round, where a share pays CR6's dividend and
keeps its price (XI).  Measured with ``benchmarks/strong_paired.py`` (``docs/bots.md``).

**Search.**  From :data:`SEARCH_FROM` (CR5) on, the decisions of the kinds in ``searched`` (by
default its Share Round turns, VII, dividends, VIII.5.1, and tram purchases and scraps,
VIII.5.3: :data:`SEARCHED`) are searched:
``normal``'s choice and its alternatives are each played to the end of the game on a copy of
the position (the hidden line deck reshuffled, :func:`~.g1840_search.public_position`) by
``normal`` bots in every seat, weighing at most ``lays`` lays a Line Round decision (0: none,
so a play-out from CR5 takes about 0.03 s of CPU), and kept by the final wealth margin against
the best other player (XI).  Samples go round the candidates with common random numbers while
the ``budget`` (seconds a decision) lasts; a play-out the time cuts short counts for nothing
(the sampling stops there), and play-outs that draw nothing at random are played once.
``normal``'s choice is left only for a mean gain of ``margin`` Gulden (``exact_margin`` when
the play-outs drew nothing at random).  Before CR5, and for a host that hands it no position
(:func:`tramways.bots.match.give_position`), it plays ``normal``'s move (its deck reshuffles
draw from a generator of its own, so its choices match ``normal``'s).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.g1840_economy import PRIVATE_TASTE, Economy1840
from tramways.bots.g1840_search import (
    candidate_moves,
    clear_best,
    decision_kind,
    public_position,
    sample_candidates,
)
from tramways.core import Action
from tramways.core.actions import moves
from tramways.g1840.actions import (
    BuyTram,
    CompanyPass,
    Done,
    Pass,
    Run,
    ScrapTram,
    SellShares,
    SkipBonus,
)
from tramways.g1840.entities import entities
from tramways.g1840.view_types import View1840

SEARCH_FROM = "CR5"
"""The first round whose decisions the ``strong`` bot searches (play-outs to the end)."""

SEARCHED = ("share", "dividend", "tram")
"""The kinds of decision it searches by default (:func:`~.g1840_search.decision_kind`): from
CR5 on, its Share Round turns (candidates: its next best shares, passing, selling one share of
another company), dividends (lowest, middle, highest) and trams.  Measured on 6 deals of the
paired benchmark (``benchmarks/strong_paired.py``'s design, 12 games): mean gain over
``normal``'s own result +528 a game, trams only +276, trams and shares +508.  Measured
before this policy's change and while a play-out the time cut short still counted (its
present values compared with finished games), these kinds did worse than ``normal`` (280
Gulden lower a game on 12 deals); which of the two made the difference is not measured.  With ``("tram", "lay")`` (the Line Rounds after CR5 searched too, 4 deals):
within -375..+58 of ``normal``'s result; play-outs that lay no tiles prefer to skip a lay
that pays only later."""


class StrongPolicy1840(Economy1840):
    """``normal``'s rules with Stadtbahn shares weighed ``stadtbahn_weight`` times (their runs
    grow with the track laid, and CR6 pays x10, VIII.5.2: the search bot's policy measured
    stronger so, :class:`~.g1840_search.Policy1840`)."""

    def __init__(self, view: View1840, legal: Sequence[Action], rng: random.Random,
                 tastes: dict[str, float], stadtbahn_weight: float = 1.0) -> None:
        super().__init__(view, legal, rng, tastes)
        self.stadtbahn_weight = stadtbahn_weight

    def share_score(self, cid: str) -> float:
        score = super().share_score(cid)
        return score * self.stadtbahn_weight if cid in self.view.stadtbahn else score

    def tram_need(self, cid: str) -> int:
        """``normal``'s tram need, but nothing once no Company Round sells trams any more
        (after CR5: CR6 sells none, R-CR-4): ``normal`` still keeps a director's cash for
        the tram of a line left without one in the last Share Round, where it cannot buy one
        and a share would pay CR6's dividend and keep its price (XI)."""
        if self.m.rounds_left("CR") <= 1 and not self.last_buying_round():
            return 0
        return super().tram_need(cid)


def final_margin(state: Any, me: int) -> float:
    """My final wealth minus the best other player's (XI, R-END-1)."""
    wealth = list(state.outcome().wealth)
    return float(wealth[me] - max(w for s, w in enumerate(wealth) if s != me))


def economy_playout(state: Any, rng: random.Random, tastes: dict[str, float],
                    lays: int, until: float) -> None:
    """``normal`` bots (weighing ``lays`` lays a decision) play every seat of ``state`` to the
    end of the game, or until ``until`` (a ``time.perf_counter()`` value)."""
    while not state.is_over() and time.perf_counter() < until:
        seat = state.current_players()[0]
        legal = moves(state.legal_actions(seat))
        if len(legal) == 1:
            action = legal[0]
        else:
            action = Economy1840(state.view(seat), legal, rng, tastes, max_lays=lays).decide()[0]
        state.apply(action, seat)


class StrongBot1840(BotBase):
    """``strong`` (see the module docstring)."""

    name = "strong"

    def __init__(self, game: Any = None, budget: float = 1.5, lays: int = 0,
                 candidates: int = 4, margin: float = 100.0, max_samples: int = 16,
                 search_from: str = SEARCH_FROM, stadtbahn_weight: float = 1.0,
                 searched: Sequence[str] = SEARCHED, exact_margin: float = 1.0) -> None:
        self.game = game
        self.budget = budget
        self.lays = lays
        self.candidates = candidates
        self.margin = margin
        self.max_samples = max_samples
        self.search_from = search_from
        self.stadtbahn_weight = stadtbahn_weight
        self.searched = tuple(searched)
        self.exact_margin = exact_margin
        self.tastes: dict[str, float] = {}
        self.shuffler = random.Random(0)
        self.position: Any = None
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> StrongBot1840:
        return cls(game, **options)

    def see_position(self, position: Any, rng: random.Random) -> None:
        """Take the host's copy of the position; the hidden deck order is reshuffled at once
        (with the bot's own generator, so its choices before the search draw what
        ``normal``'s would), so the bot never reads it."""
        self.position = public_position(position, self.shuffler)

    def choose(self, view: View1840, legal_actions: Sequence[Action], rng: random.Random
               ) -> Action:
        started = time.perf_counter()
        if not self.tastes:
            low, high = PRIVATE_TASTE
            self.tastes = {p: rng.uniform(low, high) for p in sorted(view.privates)}
        legal = list(legal_actions)
        position, self.position = self.position, None
        rules = StrongPolicy1840(view, legal, rng, self.tastes, self.stadtbahn_weight)
        action, why = rules.decide()
        self.explanation = why
        if position is None or not self._searched(view, legal):
            return action
        cands = self._candidates(rules, legal, action)
        if len(cands) < 2:
            return action
        me = rules.me
        deadline = started + self.budget
        totals = [0.0] * len(cands)
        samples = 0
        share = 0.0

        def play(sample: Any, sample_rng: random.Random) -> float:
            economy_playout(sample, sample_rng, self.tastes, self.lays,
                            time.perf_counter() + share)
            return final_margin(sample, me) if sample.is_over() else math.nan

        last: list[float] = []
        exact = False
        while samples < self.max_samples:
            began = time.perf_counter()
            share = max(0.0, deadline - began) / len(cands)
            scores = sample_candidates(position, cands, me, rng.randrange(2**32), play)
            if any(math.isnan(v) for v in scores):
                break  # a play-out the time cut short: its position is no result (XI)
            totals = [t + v for t, v in zip(totals, scores, strict=True)]
            samples += 1
            exact, last = scores == last, scores
            if exact:
                break  # play-outs that draw nothing at random: another sample repeats them
            now = time.perf_counter()
            if now + (now - began) > deadline:
                break
        if samples == 0:
            self.explanation = f"{why} (no play-out finished in time)"
            return action
        best, mean = clear_best(totals, samples, self.exact_margin if exact else self.margin)
        fmt = self.game.format_action if self.game is not None else str
        if best == 0:
            self.explanation = f"{why} (search agrees: {mean[0]:+.0f}, {samples} samples)"
            return action
        self.explanation = (f"{fmt(cands[best])}: final margin {mean[best]:+.0f} against "
                            f"{mean[0]:+.0f} for {fmt(action)} ({samples} samples)")
        return cands[best]

    def _searched(self, view: View1840, legal: list[Action]) -> bool:
        names = [r.name for r in entities().round_bar]
        at = names.index(view.round) if view.round in names else 0
        start = names.index(self.search_from) if self.search_from in names else len(names)
        return at >= start and decision_kind(view.round_info.type, legal) in self.searched

    def _candidates(self, rules: Economy1840, legal: list[Action], chosen: Action
                    ) -> list[Action]:
        def more(a: Action) -> bool:
            return isinstance(a, (BuyTram, ScrapTram)) or (
                isinstance(a, SellShares) and a.count == 1
                and a.company != rules.my_company())

        return candidate_moves(rules, legal, chosen, self.candidates - 1,
                               (Pass, CompanyPass, Done, Run, SkipBonus),
                               ("lowest", "middle", "highest"), more)
