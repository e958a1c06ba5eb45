"""An 1840 search bot: a stronger base policy of its own, and look-ahead over the engine's
clone/apply for the Share Round turns.

**Base policy** (:class:`Policy1840`, used only by this bot; the ``rule`` bot is unchanged and
pinned by a recorded game): the rule bot with the line cap (``line_cap=60``: its line bids,
VIII.6, up to its treasury left it without the money for trams), the double Stadtbahn weight
(``stadtbahn_weight=2.0``), full pay-out (``pay_out=True``) and the track weight
(``track_weight=0.5``: a lay also scores for the hex sides its line's track newly reaches, so
lines whose homes reach no other stop start building; see :class:`Policy1840`).  The
experiments that chose these changes, and the bot's measured strength: ``docs/bots.md``,
"Experiment records".

**Search.**  For a Share Round turn (VII: buy, sell or pass; ``searched=("share",)``, other
kinds: ``"par"``, ``"dividend"``, ``"tram"``, ``"auction"``, ``"lay"``) the bot takes the
policy's choice, its best ``candidates - 1`` alternatives and passing, and plays each on a
copy of the position followed by the rule bot in every other seat and the policy in its own
(``lays`` lays weighed per Line Round decision) until ``rounds`` rounds of the Round Bar have
ended (default 1: the end of the Share Round, so the other players' answers are in), then
scores the position by :func:`projected_margin` (projected final wealth against the best
opponent, Stadtbahn dividends weighed as in the policy).  A play-out that meets no Line or
Company Round plays the same every time (the rule bot draws nothing at random there, the
deck matters only in Company Rounds), so one sample is enough; otherwise samples go round
the candidates (common random numbers) while the time ``budget`` per decision (seconds,
default 1.0) leaves room for another round, each play-out stopping at its share of half the
budget.  The bot leaves the policy's choice only for a mean gain of ``margin`` Gulden.  The
policy's own Line Round weighing stops at 80% of the budget and takes the best lay so far.

**What the bot may know.**  1840 hides only the order of the line-card deck (the view shows its
size).  The bot searches a *position*: a copy of the game with the deck's remaining cards
reshuffled (:func:`public_position`), so it holds nothing a player at the table does not know,
and every sample reshuffles the deck again.  The host that owns the game hands the position
over with ``tramways.bots.match.give_position`` (a copy of the state, which the bot
reshuffles at once: :meth:`SearchBot1840.see_position`) before asking for a move
(``play_match``, ``tramways selfplay --bots`` and ``tramways duel`` do); a host that does not
(a bare ``choose(view, legal, rng)``) gets the policy's move, so the bot always works from the
view alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from tramways.bots import g1840_playout as playout
from tramways.bots.base import BotBase
from tramways.bots.g1840_model import ViewModel
from tramways.bots.g1840_rule import TRACK_WEIGHT, Rules1840
from tramways.bots.g1840_rule_line import Budget, LineTurn
from tramways.core import Action
from tramways.g1840.actions import (
    BuyShare,
    BuyTram,
    CompanyPass,
    Dividend,
    Done,
    LayTile,
    LineBid,
    OpenAuction,
    Par,
    Pass,
    PlaceStation,
    RemoveMarker,
    Run,
    SellShares,
    SkipBonus,
)
from tramways.g1840.engine import State1840
from tramways.g1840.view_types import View1840

KINDS = ("share", "par", "dividend", "tram", "auction", "lay")
"""The kinds of decision the bot can search (``searched=``): a Share Round turn (buy, sell or
pass), par, dividend, tram purchase, line auction, tile lay / station."""


def decision_kind(state_round: str, legal: Sequence[Action]) -> str | None:
    """The kind of decision ``legal`` offers (one of :data:`KINDS`), or None."""
    if any(isinstance(a, Par) for a in legal):
        return "par"
    if state_round == "SR" and any(isinstance(a, (BuyShare, SellShares, Pass)) for a in legal):
        return "share"
    if any(isinstance(a, Dividend) for a in legal):
        return "dividend"
    if any(isinstance(a, BuyTram) for a in legal):
        return "tram"
    if any(isinstance(a, (OpenAuction, LineBid)) for a in legal):
        return "auction"
    if any(isinstance(a, (LayTile, PlaceStation, RemoveMarker)) for a in legal):
        return "lay"
    return None


def public_position(state: Any, rng: random.Random) -> Any:
    """A copy of an 1840 position with only public information: the line cards still in the
    deck are reshuffled (their order is hidden in a real game, III.5 / VIII.7)."""
    position = state.clone()
    deck = getattr(position, "line_deck", None)
    if isinstance(deck, list):
        rng.shuffle(deck)
    return position


class Policy1840(Rules1840):
    """The search bot's own base policy: the rule bot with the changes that measured stronger
    against three rule bots (see the module docstring), used only by ``search``.

    ``line_cap``: bid at most this much for a line (VIII.6; ``None``: as the rule bot);
    ``stadtbahn_weight``: a Stadtbahn share's score (expected dividends per Gulden) is
    multiplied by this (their runs grow with the track laid, and CR6 pays x10, VIII.5.2, so the
    present run undervalues them); ``pay_out``: a company pays out its whole revenue in every
    Company Round (the share price rises with the dividend, Table 6) instead of keeping what
    trams and lines will cost; ``track_weight`` (:data:`TRACK_WEIGHT`; the rule bot: 0): a
    lay also scores this much per hex side its line's track newly arrives at (IX.2).  Without
    it a lay counts only revenue and stops reached, so a line whose home reaches no other stop
    never lays its first tile, never earns, and its company never sees a tram worth buying.
    The weight only breaks ties between lays (its measurements: ``docs/bots.md``)."""

    def __init__(self, view: View1840, legal: Sequence[Action], max_lays: int | None = None,
                 rng: random.Random | None = None, stadtbahn_weight: float = 2.0,
                 pay_out: bool = True, line_cap: int | None = 60,
                 deadline: float | None = None, track_weight: float = TRACK_WEIGHT,
                 stadtbahn_bonus: float = 0.0, model: ViewModel | None = None) -> None:
        super().__init__(view, legal, max_lays, rng, deadline, track_weight, model)
        self.stadtbahn_weight = stadtbahn_weight
        self.pay_out = pay_out
        self.line_cap = line_cap
        self.stadtbahn_bonus = stadtbahn_bonus

    def line_turn(self, main: list[Action]) -> tuple[Action, str]:
        """The rule bot's line turn, a Stadtbahn tile also scoring ``stadtbahn_bonus`` for its
        bonus action (R-LR-1; 0: as the rule bot)."""
        budget = Budget(self.max_lays, self.rng, self.deadline, self.track_weight,
                        self.stadtbahn_bonus)
        return LineTurn(self.view, self.m, self.legal, main, self.scored, budget).decide()

    def line_auction(self, main: list[Action]) -> tuple[Action, str]:
        if self.line_cap is None:
            return super().line_auction(main)
        cap = self.line_cap
        cheap = [a for a in main if not (isinstance(a, (OpenAuction, LineBid))
                                         and a.amount > cap)]
        if not cheap:
            return super().line_auction(main)
        action, why = super().line_auction(cheap)
        if isinstance(action, CompanyPass) and len(cheap) < len(main):
            why = f"pass: a line is worth at most {cap} here (VIII.6)"
        return action, why

    def share_score(self, cid: str) -> float:
        score = super().share_score(cid)
        if cid in self.view.stadtbahn:
            score *= self.stadtbahn_weight
        return score

    def dividend(self, main: list[Action]) -> tuple[Action, str]:
        if not self.pay_out:
            return super().dividend(main)
        divs = sorted((a for a in main if isinstance(a, Dividend)), key=lambda d: d.amount)
        for d in divs:  # every sensible amount is a candidate for the search
            self.scored.append((float(d.amount), d))
        pick = divs[-1]
        return pick, f"pay {pick.amount}: everything (the share price rises with the dividend)"


def projected_wealth(model: ViewModel, seat: int, stadtbahn_weight: float = 1.0) -> float:
    """R-END-1 wealth now plus the dividends the player's shares and privates should still
    earn (the rule bot's own estimates: present runs, Stadtbahn multipliers to come; Stadtbahn
    dividends weighted by ``stadtbahn_weight``)."""
    player = model.player(seat)
    value = float(player.value)
    for cid, pct in player.shares.items():
        income = model.share_income(cid)
        if cid in model.view.stadtbahn:
            income *= stadtbahn_weight
        value += pct // 10 * income
    crs = model.rounds_left("CR", include_current=model.view.round_info.type != "CR")
    for p in player.privates:
        value += model.ent.privates[p].dividend * crs
    return value


def projected_margin(state: State1840, me: int, stadtbahn_weight: float = 1.0) -> float:
    """My projected wealth minus the best opponent's (the result itself once the game is
    over, XI, with a bonus for winning).  Read from the position's own board and the parts
    of its view it needs (:class:`~tramways.bots.g1840_playout.PositionModel`)."""
    if state.is_over():
        wealth = state.outcome().wealth
        best_other = max(w for s, w in enumerate(wealth) if s != me)
        margin = float(wealth[me] - best_other)
        return margin + (1000.0 if margin > 0 else 0.0)
    model = playout.PositionModel(playout.position_view(state, me), state, me=me)
    mine = projected_wealth(model, me, stadtbahn_weight)
    others = [projected_wealth(model, s, stadtbahn_weight) for s in range(model.n) if s != me]
    return mine - max(others)


PLAYOUT_LAYS = 2
"""Tile lays the play-out policy weighs per decision (drawn at random): the full rule bot
weighs every legal lay with the exact router, too slow for many play-outs."""


def rule_playout(state: Any, actions: int, rng: random.Random, until: float | None = None,
                 me: int | None = None, options: dict[str, Any] | None = None,
                 rounds: int | None = None, lays: int = PLAYOUT_LAYS,
                 start: int | None = None) -> bool:
    """:func:`tramways.bots.g1840_playout.rule_playout` with :class:`Policy1840` in seat
    ``me``: the rule bot (weighing ``lays`` lays) in every seat for ``actions`` actions, or
    until ``until``, or until ``rounds`` rounds of the Round Bar have ended (from the round
    index ``start``).  Returns whether it met a Line or Company Round."""
    return playout.rule_playout(state, actions, rng, until, me, options, rounds, lays, start,
                                policy=Policy1840)


def candidate_moves(rules: Rules1840, legal: Sequence[Action], chosen: Action,
                    alternatives: int, passes: Sequence[type],
                    dividends: Sequence[str], more: Callable[[Action], bool]
                    ) -> list[Action]:
    """The moves a search weighs, each once and legal: ``chosen`` (the policy's), the
    policy's ``alternatives`` best other scored moves, the first legal move of each kind in
    ``passes``, the dividends named in ``dividends`` (``"lowest"``, ``"middle"``,
    ``"highest"``, VIII.5.1) in that order, then every legal move ``more`` accepts.  The
    order matters: ties between equal results go to the earlier move."""
    out = [chosen]

    def add(a: Action | None) -> None:
        if a is not None and a not in out and a in legal:
            out.append(a)

    ranked = [a for _, a in sorted(rules.scored, key=lambda t: -t[0])]
    for a in ranked[:alternatives]:
        add(a)
    for kind in passes:
        add(next((a for a in legal if isinstance(a, kind)), None))
    divs = sorted((a for a in legal if isinstance(a, Dividend)), key=lambda d: d.amount)
    if divs:
        pick = {"lowest": divs[0], "middle": divs[len(divs) // 2], "highest": divs[-1]}
        for name in dividends:
            add(pick[name])
    for a in legal:
        if more(a):
            add(a)
    return out


def sample_candidates(position: Any, cands: Sequence[Action], me: int, seed: int,
                      play: Callable[[Any, random.Random], float]) -> list[float]:
    """One sample of every candidate with common random numbers: each is applied for seat
    ``me`` on its own public copy of ``position`` (the line deck reshuffled by a generator
    seeded ``seed``, the same for every candidate, :func:`public_position`), then
    ``play(copy, generator)`` plays it on and returns its score."""
    scores = []
    for cand in cands:
        sample_rng = random.Random(seed)
        sample = public_position(position, sample_rng)
        sample.apply(cand, me)
        scores.append(play(sample, sample_rng))
    return scores


def clear_best(totals: Sequence[float], samples: int, margin: float
               ) -> tuple[int, list[float]]:
    """The candidate with the highest total score (the earlier one on a tie) and the mean
    scores; the first candidate (the policy's choice) is kept unless the best one's mean
    beats it by ``margin`` (play-outs are noisy)."""
    mean = [t / samples for t in totals]
    best = max(range(len(totals)), key=lambda i: (totals[i], -i))
    if mean[best] < mean[0] + margin:
        best = 0
    return best, mean


class SearchBot1840(BotBase):
    """Play-outs over public positions from the stronger base policy (see the module
    docstring)."""

    name = "search"

    def __init__(self, game: Any = None, budget: float = 1.0, horizon: int = 400,
                 rounds: int = 1, candidates: int = 4, max_samples: int = 64,
                 margin: float = 60.0, searched: Sequence[str] = ("share",),
                 stadtbahn_weight: float = 2.0, pay_out: bool = True,
                 line_cap: int | None = 60, lays: int = PLAYOUT_LAYS,
                 track_weight: float = TRACK_WEIGHT, stadtbahn_bonus: float = 0.0) -> None:
        self.game = game
        self.budget = budget
        self.horizon = horizon
        self.rounds = rounds
        self.candidates = candidates
        self.max_samples = max_samples
        self.margin = margin
        self.searched = tuple(searched)
        self.options: dict[str, Any] = {"stadtbahn_weight": stadtbahn_weight,
                                        "pay_out": pay_out, "line_cap": line_cap,
                                        "track_weight": track_weight,
                                        "stadtbahn_bonus": stadtbahn_bonus}
        self.lays = lays
        self.position: Any = None
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> SearchBot1840:
        return cls(game, **options)

    def see_position(self, position: Any, rng: random.Random) -> None:
        """Take the host's copy of the position for the next decision; the hidden deck order
        is reshuffled at once, so the bot never reads it."""
        self.position = public_position(position, rng)

    def choose(self, view: View1840, legal_actions: Sequence[Action], rng: random.Random
               ) -> Action:
        started_at = time.perf_counter()
        deadline = started_at + self.budget
        legal = list(legal_actions)
        position, self.position = self.position, None
        rules = self.policy(view, legal, started_at + 0.8 * self.budget, rng)
        action, why = rules.decide()
        kind = decision_kind(view.round_info.type, legal)
        if position is None or kind not in self.searched:
            self.explanation = why
            return action
        cands = self._candidates(rules, legal, action)
        if len(cands) == 1:
            self.explanation = why
            return action
        me = rules.me
        totals = [0.0] * len(cands)
        samples = 0
        # two rounds of samples fit in the budget: no play-out takes more than its share
        share = max(0.0, deadline - time.perf_counter()) / (2 * len(cands))
        weight = float(self.options["stadtbahn_weight"])
        met_random = [False]

        def play(sample: Any, sample_rng: random.Random) -> float:
            # the rounds are counted from the decision's round
            until = min(time.perf_counter() + share, deadline)
            met_random[0] |= rule_playout(sample, self.horizon, sample_rng, until, me,
                                          self.options, self.rounds, self.lays,
                                          position.round_index)
            return projected_margin(sample, me, weight)

        with playout.gc_paused():  # one collection after the play-outs, not many among them
            while samples < self.max_samples:
                started = time.perf_counter()
                met_random[0] = False
                scores = sample_candidates(position, cands, me, rng.randrange(2**32), play)
                totals = [t + v for t, v in zip(totals, scores, strict=True)]
                samples += 1
                if not met_random[0]:
                    break  # no Line or Company Round met: every sample would play the same
                now = time.perf_counter()
                if samples >= 2 and now + (now - started) > deadline:
                    break  # another round like this one would overrun the budget
        # noisy play-outs: leave the policy's choice only for a clear gain
        best, mean = clear_best(totals, samples, self.margin)
        chosen = cands[best]
        fmt = self.game.format_action if self.game is not None else str
        over = f"{samples} sample" + ("s" if samples != 1 else "")
        if best == 0:
            self.explanation = f"{why} (search agrees: {mean[0]:+.0f} over {over})"
        else:
            self.explanation = (f"{fmt(chosen)}: projected margin {mean[best]:+.0f} against "
                                f"{mean[0]:+.0f} for the policy's {fmt(action)} "
                                f"({over})")
        return chosen

    def policy(self, view: View1840, legal: list[Action], deadline: float,
               rng: random.Random) -> Rules1840:
        """The base policy whose choice the search starts from (:class:`Policy1840`)."""
        return Policy1840(view, legal, deadline=deadline, **self.options)

    def _candidates(self, rules: Rules1840, legal: list[Action], chosen: Action) -> list[Action]:
        def more(a: Action) -> bool:
            return isinstance(a, BuyTram) or (isinstance(a, Par) and isinstance(chosen, Par)
                                              and a.company == chosen.company)

        return candidate_moves(rules, legal, chosen, self.candidates - 1,
                               (Pass, CompanyPass, Done, Run, SkipBonus),
                               ("lowest", "highest", "middle"), more)
