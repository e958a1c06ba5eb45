"""An 1840 search bot: Monte Carlo play-outs of the rule bot over the engine's clone/apply.

For a decision that matters (par, share turns, dividends, trams, line auctions, tile lays and
stations) the bot takes the rule bot's choice and its best few alternatives (plus passing /
running / ending), and, for each sample, plays every candidate followed by rule-bot play for
all seats for ``horizon`` actions on a copy of the position, then scores the end position by
:func:`projected_margin` (projected final wealth against the best opponent).  Samples go round
the candidates, two rounds at least, then while the time ``budget`` per decision (seconds,
default 1.0) leaves room for another round as long as the last one; each play-out stops at
its share of half the budget, so a decision keeps to about its budget (a single slow step of
a play-out, such as a hard route, can still overrun it); all candidates share each sample
(common random numbers).  The bot leaves the rule's choice only
with at least two samples and a mean gain of ``margin`` Gulden (play-outs are few and noisy).
Other decisions are the rule bot's.

**What the bot may know.**  1840 hides only the order of the line-card deck (the view shows its
size).  The bot searches a *position*: a copy of the game with the deck's remaining cards
reshuffled (:func:`public_position`), so it holds nothing a player at the table does not know,
and every sample reshuffles the deck again.  The host that owns the game hands the position
over with ``tramways.bots.match.give_position`` (a copy of the state, which the bot
reshuffles at once: :meth:`SearchBot1840.see_position`) before asking for a move (``play_match``, ``tramways selfplay
--bots`` and ``tramways duel`` do); a host that does not (a bare ``choose(view, legal, rng)``)
gets the rule bot's move, so the bot always works from the view alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from tramways.bots.g1840_model import ViewModel
from tramways.bots.g1840_rule import Rules1840
from tramways.core import Action
from tramways.g1840.actions import (
    BuyShare,
    BuyTram,
    CompanyPass,
    Dividend,
    Done,
    LayTile,
    OpenAuction,
    Par,
    Pass,
    PlaceStation,
    RemoveMarker,
    Run,
    SellShares,
    SkipBonus,
)

SEARCHED = (Par, BuyShare, SellShares, Dividend, BuyTram, OpenAuction, LayTile, PlaceStation,
            RemoveMarker)
"""A decision is searched when one of these is among its legal actions."""


def public_position(state: Any, rng: random.Random) -> Any:
    """A copy of an 1840 position with only public information: the line cards still in the
    deck are reshuffled (their order is hidden in a real game, III.5 / VIII.7)."""
    position = state.clone()
    deck = getattr(position, "line_deck", None)
    if isinstance(deck, list):
        rng.shuffle(deck)
    return position


def projected_wealth(model: ViewModel, seat: int) -> float:
    """R-END-1 wealth now plus the dividends the player's shares and privates should still
    earn (the rule bot's own estimates: present runs, Stadtbahn multipliers to come)."""
    player = model.player(seat)
    value = float(player["value"])
    for cid, pct in player["shares"].items():
        value += pct // 10 * model.share_income(cid)
    crs = model.rounds_left("CR", include_current=model.view["round_info"]["type"] != "CR")
    for p in player["privates"]:
        value += model.ent.privates[p].dividend * crs
    return value


def projected_margin(state: Any, me: int) -> float:
    """My projected wealth minus the best opponent's (the result itself once the game is
    over, with a bonus for winning)."""
    if state.is_over():
        wealth = state.result()["wealth"]
        best_other = max(w for s, w in enumerate(wealth) if s != me)
        margin = float(wealth[me] - best_other)
        return margin + (1000.0 if margin > 0 else 0.0)
    model = ViewModel(state.view(me), me=me)
    mine = projected_wealth(model, me)
    others = [projected_wealth(model, s) for s in range(model.n) if s != me]
    return mine - max(others)


PLAYOUT_LAYS = 2
"""Tile lays the play-out policy weighs per decision (drawn at random): the full rule bot
weighs every legal lay with the exact router, too slow for many play-outs."""


def rule_playout(state: Any, actions: int, rng: random.Random, until: float | None = None
                 ) -> None:
    """Let the rule bot (weighing a few lays) play every seat for ``actions`` actions, or
    until ``until`` (a ``time.perf_counter()`` value)."""
    for _ in range(actions):
        if state.is_over() or (until is not None and time.perf_counter() >= until):
            return
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = Rules1840(state.view(seat), legal, PLAYOUT_LAYS, rng).decide()[0]
        state.apply(action, seat)


class SearchBot1840:
    """Rule-bot play-outs over public positions (see the module docstring)."""

    name = "search"

    def __init__(self, game: Any = None, budget: float = 1.0, horizon: int = 24,
                 candidates: int = 3, max_samples: int = 64, margin: float = 60.0) -> None:
        self.game = game
        self.budget = budget
        self.horizon = horizon
        self.candidates = candidates
        self.max_samples = max_samples
        self.margin = margin
        self.position: Any = None
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> SearchBot1840:
        return cls(game, **options)

    def see_position(self, position: Any, rng: random.Random) -> None:
        """Take the host's copy of the position for the next decision; the hidden deck order
        is reshuffled at once, so the bot never reads it."""
        self.position = public_position(position, rng)

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        position, self.position = self.position, None
        rules = Rules1840(view, legal)
        action, why = rules.decide()
        if position is None or not any(isinstance(a, SEARCHED) for a in legal):
            self.explanation = why
            return action
        cands = self._candidates(rules, legal, action)
        if len(cands) == 1:
            self.explanation = why
            return action
        me = rules.me
        deadline = time.perf_counter() + self.budget
        totals = [0.0] * len(cands)
        samples = 0
        # two rounds of samples fit in the budget: no play-out takes more than its share
        share = self.budget / (2 * len(cands))
        while samples < self.max_samples:
            started = time.perf_counter()
            seed = rng.randrange(2**32)
            for i, cand in enumerate(cands):
                sample_rng = random.Random(seed)
                sample = public_position(position, sample_rng)
                sample.apply(cand, me)
                rule_playout(sample, self.horizon, sample_rng, time.perf_counter() + share)
                totals[i] += projected_margin(sample, me)
            samples += 1
            now = time.perf_counter()
            if samples >= 2 and now + (now - started) > deadline:
                break  # another round like this one would overrun the budget
        mean = [t / samples for t in totals]
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        if samples < 2 or mean[best] < mean[0] + self.margin:
            best = 0  # few, noisy play-outs: leave the rule's choice only for a clear gain
        chosen = cands[best]
        fmt = self.game.format_action if self.game is not None else str
        if best == 0:
            self.explanation = f"{why} (search agrees: {mean[0]:+.0f} over {samples} samples)"
        else:
            self.explanation = (f"{fmt(chosen)}: projected margin {mean[best]:+.0f} against "
                                f"{mean[0]:+.0f} for the rule's {fmt(action)} "
                                f"({samples} samples)")
        return chosen

    def _candidates(self, rules: Rules1840, legal: list[Action], chosen: Action) -> list[Action]:
        out = [chosen]

        def add(a: Action | None) -> None:
            if a is not None and a not in out and a in legal:
                out.append(a)

        ranked = [a for _, a in sorted(rules.scored, key=lambda t: -t[0])]
        for a in ranked[: self.candidates - 1]:
            add(a)
        for kind in (Pass, CompanyPass, Done, Run, SkipBonus):
            add(next((a for a in legal if isinstance(a, kind)), None))
        divs = sorted((a for a in legal if isinstance(a, Dividend)),
                      key=lambda d: d.amount)
        if divs:
            add(divs[0])
            add(divs[-1])
            add(divs[len(divs) // 2])
        for a in legal:
            if isinstance(a, BuyTram):
                add(a)
            if isinstance(a, Par) and isinstance(chosen, Par) and a.company == chosen.company:
                add(a)
        return out
