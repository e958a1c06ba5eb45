"""1840 bots that play the economy as people do: ``normal`` and ``easy``.

The rule bot (:mod:`tramways.bots.g1840_rule`, pinned, and the ``search`` bot's measured
opponent) with the changes that make its games look like the games people play on
18xx.games:

* Pre-Share Round (VI): a private is worth its face value times a taste drawn once per game
  (1.0-1.6), so the prices vary from game to game as people's do.
* Line auctions (VIII.6): a line is worth what it will earn net of the tram it needs, and only
  its promise above the other lines on display is worth more than the opening bid of 20
  (at most 80); a company stops at as many lines as it may run trams (three).
* Trams (VIII.5.3, Table 7): a company with a tram on every line modernises: it scraps the tram
  that gains most from a newer colour over the Line Rounds left (the new maintenance of Table 7
  counted for both) and buys that colour; a spare tram no line needs is scrapped.
* Line Rounds (IX): the track weight (lays toward revenue, :data:`~.g1840_rule.TRACK_WEIGHT`),
  and a Stadtbahn tile (IX.4) is worth its bonus action (R-LR-1), so W and G get built; the
  bonus tile is laid whenever it can be (:data:`USE_BONUS`).
* Varied play: among choices whose scores lie within :data:`NEAR_EQUAL` of the best, the bot
  picks one with its seeded ``rng``.
* ``easy``: the same, with human mistakes: now and then (``slip``) it takes the second-best
  lay or share, skips a lay worth little, or forgets to modernise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.g1840_fleet import (
    Upgrade,
    best_upgrade,
    last_round_plan,
    maintenance_sum,
    newest_path,
    purchase_harm,
    rank,
    runs_with,
    tram_need,
)
from tramways.bots.g1840_rule import TRACK_WEIGHT, Rules1840
from tramways.bots.g1840_rule_line import Budget, Choice, LineTurn, all_of, first_of
from tramways.bots.g1840_track import own_lay_first
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
    PlaceStation,
    RemoveMarker,
    ScrapTram,
)
from tramways.g1840.entities import TRAM_COLOURS
from tramways.g1840.view_types import View1840

PRIVATE_TASTE = (1.0, 1.6)
"""A private's worth as a multiple of its face value, drawn once per game and private (VI)."""

OPENING_BID = 20
"""A line's opening bid (VIII.6): what people pay for nearly every line."""

LINE_PREMIUM_PER_STOP = 5
"""Gulden a line is worth above the opening bid per stop near its home more than the average
line on display (VIII.6)."""

LINE_PREMIUM_MAX = 60
"""The most a line is worth above the opening bid (people's highest price: 80)."""

CONTEST_THRESHOLD = 30
"""Against another company's opening bid a line is worth more than 20 only by half its
promise beyond this (people let nearly every line go for 20)."""

STADTBAHN_BONUS = 45.0
"""What a Stadtbahn tile's bonus action (R-LR-1) is worth, before the tile's cost."""

NEAR_EQUAL = 0.1
"""Choices scoring within this fraction of the best are near-equal: the bot picks at random."""

KEEP_FOR_UPGRADES = True
"""Keep dividends for the newer trams that pay (:meth:`Economy1840.dividend`): the best
upgrade and the replacements it forces, or the trams the lines will need at the newest colour
expected (:mod:`.g1840_fleet`), or, in the last tram-buying round, the best fleet's cost."""

NEW_LINE_RUN = 40
"""What a line without track yet is expected to run per Line Round (VIII.6, IX.8)."""

MODERNISE_MARGIN = 300
"""A newer tram must gain this much over the rounds left, after its price and what the
company's other trams lose, to be bought before the last tram-buying round (2-player games,
seed 5, 8 games: at 100, mean run 120-131 and runs earning 0 15-17%, the early red and pink
trams costing runs; at 300, 145 and 16.5%)."""

HARM_WEIGHT = 0.5
"""How much of what its other trams lose to a newer newest colour (Table 7) a company counts
against an upgrade it can pay with the replacements it forces: other companies would buy that
colour soon anyway (:func:`~.g1840_fleet.purchase_harm`)."""


NO_ROUTE_BEST_LAY = True
"""A line that has no route yet (its run is 0, IX.7) takes the best lay, never one of the
near-equal ones at random: the best leads towards the stops (the track weight), so the line
runs sooner (people's lines run from their first Line Round)."""

USE_BONUS = True
"""Lay the Stadtbahn tiles' bonus tiles as people do (R-LR-1, ``Budget.use_bonus``): a pending
bonus tile before the line's own lay (which would forfeit it), the Stadtbahn tile whose bonus
the line can take preferred, and the line's own lay first when it cannot yet
(:func:`~.g1840_track.own_lay_first`).  2-player games, seed 26, 20 games: tiles per line run
1.48 -> 1.53 (bonus tiles laid 7.3 -> about 10 of the 15 a game offers)."""


class Economy1840(Rules1840):
    """The decisions of the ``normal`` bot for one position (see the module docstring);
    ``tastes``: the private's worth multiples of this game (by private); ``slip``: the chance
    of a human mistake at each decision that allows one (``easy``); ``max_lays``: weigh at
    most this many lays a Line Round decision (the ``strong`` bot's play-outs)."""

    def __init__(self, view: View1840, legal: Sequence[Action], rng: random.Random,
                 tastes: dict[str, float], slip: float = 0.0, max_lays: int | None = None
                 ) -> None:
        super().__init__(view, legal, max_lays=max_lays, rng=rng, track_weight=TRACK_WEIGHT)
        self.tastes = tastes
        self.slip = slip

    def slips(self) -> bool:
        return self.slip > 0 and self.rng.random() < self.slip

    # --------------------------------------------------------------- privates (VI)
    def private_value(self, private: str) -> int:
        face = self.m.ent.privates[private].face_value
        return int(face * self.tastes.get(private, 1.0))

    # --------------------------------------------------------------- shares (VII)
    def share_turn(self, main: list[Action]) -> Choice:
        action, why = super().share_turn(main)
        if not isinstance(action, BuyShare):
            return action, why
        pick = self._near_best([(s, a) for s, a in self.scored if isinstance(a, BuyShare)])
        if pick is None or pick == action:
            return action, why
        assert isinstance(pick, BuyShare)
        return pick, (f"buy {pick.company} at {self.m.price(pick.company)}: about as good as "
                      "the best share")

    def _near_best(self, scored: list[tuple[float, Action]]) -> Action | None:
        """One of the near-equal best of ``scored`` (positive scores only), at random; with a
        slip, the second best."""
        good = sorted((t for t in scored if t[0] > 0), key=lambda t: -t[0])
        if not good:
            return None
        if len(good) > 1 and self.slips():
            return good[1][1]
        top = good[0][0]
        near = [a for s, a in good if s >= top * (1 - NEAR_EQUAL)]
        return near[self.rng.randrange(len(near))]

    # --------------------------------------------------------------- line auctions (VIII.6)
    def line_worth(self, cid: str, line: int, contest: bool = False) -> tuple[int, str]:
        """The most ``cid`` pays for ``line`` and why: the opening bid plus its promise above
        the other lines on display (against another company's opening bid only half of what
        exceeds :data:`CONTEST_THRESHOLD`: the next line will do), no more than it earns net of its tram, and never money the
        company's trams need."""
        c = self.m.company(cid)
        lrs = self.m.rounds_left("LR")
        owned = [t for t in c.trams if t]
        tram = 0 if len(owned) > len(c.lines) else self.cheapest_tram()
        spare = c.treasury - self.tram_need(cid) - tram
        others = [ln for ln in self.view.line_display if ln != line]
        mean = (sum(self.line_potential(ln) for ln in others) / len(others)) if others else 0
        premium = LINE_PREMIUM_PER_STOP * (self.line_potential(line) - mean)
        if contest:  # another company opened: the next line will do unless this one stands out
            premium = (premium - CONTEST_THRESHOLD) / 2
        limit = OPENING_BID + int(min(LINE_PREMIUM_MAX, max(0.0, premium)))
        earns = NEW_LINE_RUN * lrs - tram  # a new line's run is small at first
        limit = min(limit, earns, spare)
        return limit, (f"worth up to {limit}: {lrs} Line Rounds left, a tram for {tram}, "
                       f"{self.line_potential(line)} stops near its home")

    def cheapest_tram(self) -> int:
        price = min((self.m.tram_price(col) for col in TRAM_COLOURS), default=10**6)
        return price if price < 10**6 else 0

    def line_auction(self, main: list[Action]) -> Choice:
        cid = main[0].company  # type: ignore[attr-defined]
        c = self.m.company(cid)
        passing = first_of(main, CompanyPass)
        if len(c.lines) >= self.m.ent.max_trams and passing is not None:
            return passing, f"pass: {cid} runs at most {self.m.ent.max_trams} trams"
        opens = all_of(main, OpenAuction)
        best: tuple[int, Action, str] | None = None
        for a in opens:
            assert isinstance(a, OpenAuction)
            limit, why = self.line_worth(cid, a.line)
            if a.amount <= limit and (best is None or limit - a.amount > best[0]):
                best = (limit - a.amount, a, f"auction line {a.line} at {a.amount}: {why}")
        bids = all_of(main, LineBid)
        if bids:
            low = min(bids, key=lambda b: b.amount)  # type: ignore[attr-defined]
            line = self._auctioned_line()
            limit, why = self.line_worth(cid, line, contest=True) if line is not None \
                else (OPENING_BID, "")
            if low.amount <= limit:  # type: ignore[attr-defined]
                best = (limit - low.amount, low, f"bid {low.amount}: {why}")  # type: ignore[attr-defined]
        if best is not None:
            return best[1], best[2]
        if passing is not None:
            return passing, "pass: no line worth its price and its tram"
        return main[0], "first choice"

    def _auctioned_line(self) -> int | None:
        auction = self.view.round_info.detail.auction
        return getattr(auction, "line", None)

    # --------------------------------------------------------------- trams (VIII.5.3)
    def trams(self, main: list[Action]) -> Choice:
        buys = all_of(main, BuyTram)
        cid = self.acting_company()
        if cid is not None and cid in self.view.companies and self.last_buying_round():
            return self._last_fleet(cid, main)
        if cid is not None and cid in self.view.companies:
            spare = self._scrap_spare(cid) or self._scrap_lossy(cid)
            if spare is not None:
                return spare
            fill = self._fill_line(cid, buys)
            if fill is not None:
                return fill
            if buys and first_of(main, Done) is None:
                must = self.mandatory_tram(buys, cid)
                if must is not None:
                    return must
            if not self.slips():
                upgrade = self._modernise(cid, buys)
                if upgrade is not None:
                    return upgrade
        return super().trams(main)

    def last_buying_round(self) -> bool:
        """The last Company Round with trams on sale (CR5: CR6 sells none, R-CR-4)."""
        return self.view.round_info.type == "CR" and self.m.rounds_left("CR") == 1

    def _last_fleet(self, cid: str, main: list[Action]) -> Choice:
        """The last tram-buying turn (VIII.5.3): scrap and buy towards the best fleet for the
        Line Rounds left (:func:`~.g1840_fleet.last_round_plan`), then arrange."""
        c = self.m.company(cid)
        plan = last_round_plan(self.m, cid, c.treasury, c.treasury)
        if plan is not None and (plan.buys or plan.scraps):
            why = (f"the last trams: {', '.join(str(t) for t in plan.colours)} "
                   f"(worth {plan.value:.0f} over {self.m.rounds_left('LR')} Line Rounds)")
            scraps = self._scraps(cid)
            for old in plan.scraps:
                if old in scraps:
                    return scraps[old], f"scrap a {old} tram: {why}"
            for colour in sorted(plan.buys, key=rank, reverse=True):
                buy = next((b for b in all_of(main, BuyTram)
                            if b.colour == colour), None)  # type: ignore[attr-defined]
                if buy is not None:
                    return buy, f"buy a {colour} tram: {why}"
        rest = [a for a in main if not isinstance(a, BuyTram)]
        if not rest:  # a tram must be bought (VIII.5.3): the cheapest
            return self.rule_trams(main)
        return self.rule_trams(rest)

    def rule_trams(self, main: list[Action]) -> Choice:
        return super().trams(main)

    def tram_value(self, cid: str, colour: str) -> float:
        """A tram's worth to ``cid`` over the Line Rounds left, after its price: its best
        line's run at Table 7's amounts of the newest colours expected then
        (:func:`~.g1840_fleet.newest_path`, its own colour included), less what the
        company's other trams lose when it is the first of its colour; a line without track
        yet counted at :data:`NEW_LINE_RUN` a run (its track grows)."""
        c = self.m.company(cid)
        after = newest_path(self.m, bought=colour)
        best = max((runs_with(self.m, line, colour, after) for line in c.lines), default=0)
        if any(i >= len(c.trams) or c.trams[i] is None for i in range(len(c.lines))):
            best = max(best, sum(max(0, NEW_LINE_RUN + maintenance_sum(self.m, colour, [n]))
                                 for n in after))
        harm, _, _ = purchase_harm(self.m, cid, -1, colour, c.treasury, HARM_WEIGHT)
        return best - harm - self.m.tram_price(colour)

    def tram_need(self, cid: str) -> int:
        """What the company needs so that every line runs at a profit next
        (:func:`~.g1840_fleet.tram_need`)."""
        return tram_need(self.m, cid)

    def _scraps(self, cid: str) -> dict[str, Action]:
        return {a.colour: a for a in self.legal
                if isinstance(a, ScrapTram) and a.company == cid and a.line is None}

    def _scrap_spare(self, cid: str) -> Choice | None:
        """A spare tram (more trams than lines) that no line would run better is scrapped
        (VIII.5.3): it only waits for a line the company will not buy."""
        c = self.m.company(cid)
        if len(c.trams) <= len(c.lines) or len(c.lines) < self.m.ent.max_trams:
            return None
        spare = c.trams[len(c.lines):]
        worst = min((t for t in spare if t), key=TRAM_COLOURS.index, default=None)
        running = [t for t in c.trams[:len(c.lines)] if t]
        if worst is None or not running or \
                TRAM_COLOURS.index(worst) > min(TRAM_COLOURS.index(t) for t in running):
            return None
        scrap = self._scraps(cid).get(worst)
        if scrap is None:
            return None
        return scrap, f"scrap the spare {worst} tram: no line of {cid} needs it"

    def best_upgrade(self, cid: str, afford: bool = True) -> Upgrade | None:
        """The newer tram that pays most (:func:`~.g1840_fleet.best_upgrade`);
        ``afford``: only what the treasury pays."""
        treasury = self.m.company(cid).treasury if afford else None
        return best_upgrade(self.m, cid, treasury, MODERNISE_MARGIN, HARM_WEIGHT)

    def _scrap_lossy(self, cid: str) -> Choice | None:
        """A tram that runs at a loss now (Table 7 maintenance) is scrapped in the buying turn,
        so a newer one can take its line at once (VIII.5.3)."""
        c = self.m.company(cid)
        scraps = self._scraps(cid)
        for i, line in enumerate(c.lines):
            tram = c.trams[i] if i < len(c.trams) else None
            if tram and tram in scraps and self.m.run_value(line) < 0:
                return scraps[tram], (f"scrap the {tram} tram of line {line}: it runs "
                                      f"{self.m.run_value(line)} after maintenance")
        return None

    def _modernise(self, cid: str, buys: list[Action]) -> Choice | None:
        """The best upgrade (:meth:`best_upgrade`): scrap the old tram first when the company
        is at its limit of trams (VIII.5.3), else buy the new one."""
        best = self.best_upgrade(cid)
        if best is None:
            return None
        gain, colour, old, line = best.gain, best.colour, best.old, best.line
        lrs = self.m.rounds_left("LR")
        owned = [t for t in self.m.company(cid).trams if t]
        if len(owned) >= self.m.ent.max_trams:
            scrap = self._scraps(cid).get(old)
            if scrap is None:
                return None
            return scrap, (f"scrap a {old} tram for a {colour} one on line {line}: "
                           f"gains {gain:.0f} over {lrs} Line Rounds after its price")
        buy = next((b for b in buys if getattr(b, "colour", None) == colour), None)
        if buy is None:
            return None
        return buy, (f"buy a {colour} tram to replace line {line}'s {old}: gains "
                     f"{gain:.0f} over {lrs} Line Rounds after its price")

    def dividend(self, main: list[Action]) -> Choice:
        """The rule bot's dividend (VIII.5.1), keeping also what an upgrade that pays still
        lacks (:meth:`best_upgrade`), except in the last Company Round."""
        divs = sorted(all_of(main, Dividend), key=lambda d: d.amount)  # type: ignore[attr-defined]
        cid = divs[0].company  # type: ignore[attr-defined]
        c = self.m.company(cid)
        best = best_upgrade(self.m, cid, c.treasury + c.revenue, MODERNISE_MARGIN,
                            HARM_WEIGHT) if KEEP_FOR_UPGRADES else None
        last = self.m.rounds_left("CR") == 0
        if self.last_buying_round():
            plan = last_round_plan(self.m, cid, c.treasury + c.revenue, c.treasury)
            if plan is not None and plan.cost > c.treasury:
                keep = plan.cost - c.treasury
                pick = max((d for d in divs if d.amount <= c.revenue - keep),  # type: ignore[attr-defined]
                           key=lambda d: d.amount, default=divs[0])  # type: ignore[attr-defined]
                return pick, (f"pay {pick.amount} of {c.revenue}: keep {keep} for the "  # type: ignore[attr-defined]
                              f"last trams, {', '.join(str(t) for t in plan.colours)}")
            return super().dividend(main)
        expected = tram_need(self.m, cid, expected=True)
        need = max(best.cost + self.tram_need(cid), expected) if best is not None else 0
        if best is None or need > c.treasury + c.revenue:
            best, need = None, expected
        if last or need <= c.treasury:
            return super().dividend(main)  # nothing to keep for
        keep = min(c.revenue, need - c.treasury)
        pick = divs[0]
        for d in divs:
            if d.amount <= c.revenue - keep:  # type: ignore[attr-defined]
                pick = d
        what = (f"a {best.colour} tram and what it forces, {best.cost} (gains "
                f"{best.gain:.0f})" if best is not None else
                f"the trams its lines will need, {need}")
        return pick, f"pay {pick.amount} of {c.revenue}: keep for {what}"  # type: ignore[attr-defined]

    def _fill_line(self, cid: str, buys: list[Action]) -> Choice | None:
        """For a line without a tram, the tram worth most (:meth:`tram_value`) among those
        that leave the treasury enough for the company's other lines (:meth:`tram_need`)."""
        c = self.m.company(cid)
        if not buys or len([t for t in c.trams if t]) >= min(len(c.lines), 3):
            return None
        need = self.tram_need(cid)
        cheapest = min(self.m.tram_price(b.colour) for b in buys)  # type: ignore[attr-defined]
        scored = [(self.tram_value(cid, b.colour), b) for b in buys  # type: ignore[attr-defined]
                  if self.m.tram_price(b.colour) + need - cheapest <= c.treasury]  # type: ignore[attr-defined]
        good = [t for t in scored if t[0] > 0]
        if not good:  # not enough for every line: the cheapest that pays, to fill the most
            good = sorted(((v, b) for b in buys if (v := self.tram_value(cid, b.colour)) > 0  # type: ignore[attr-defined]
                           and self.m.tram_price(b.colour) <= c.treasury),  # type: ignore[attr-defined]
                          key=lambda t: self.m.tram_price(t[1].colour))[:1]  # type: ignore[attr-defined]
        if not good:
            return None
        value, pick = max(good, key=lambda t: t[0])
        return pick, (f"buy a {pick.colour} tram for a line without one: earns about "  # type: ignore[attr-defined]
                      f"{value:.0f} after its price; {max(0, need - cheapest)} left for the "
                      "other lines")

    def mandatory_tram(self, buys: list[Action], cid: str) -> Choice | None:
        """A tram the company must buy (VIII.5.3): the one that earns most among those its
        treasury pays, so the director pays only when none is affordable."""
        treasury = self.m.company(cid).treasury
        paid = [b for b in buys if self.m.tram_price(b.colour) <= treasury]  # type: ignore[attr-defined]
        if not paid:
            return None
        pick = max(paid, key=lambda b: (self.tram_value(cid, b.colour),  # type: ignore[attr-defined]
                                        -self.m.tram_price(b.colour)))  # type: ignore[attr-defined]
        return pick, (f"must buy a tram: a {pick.colour} for "  # type: ignore[attr-defined]
                      f"{self.m.tram_price(pick.colour)} from the treasury")  # type: ignore[attr-defined]

    # --------------------------------------------------------------- Line Rounds (IX)
    def line_turn(self, main: list[Action]) -> Choice:
        budget = Budget(self.max_lays, self.rng, None, self.track_weight, STADTBAHN_BONUS,
                        use_bonus=USE_BONUS)
        start = len(self.scored)
        turn = LineTurn(self.view, self.m, self.legal, main, self.scored, budget)
        action, why = turn.decide()
        if not isinstance(action, (LayTile, PlaceStation, RemoveMarker)):
            return action, why
        weighed = self.scored[start:]
        if self.slip and len(weighed) and self.slips():
            top = max(s for s, _ in weighed)
            if top < 2 * LINE_PREMIUM_PER_STOP:  # a small gain overlooked
                skip = next((a for a in main if not isinstance(
                    a, (LayTile, PlaceStation, RemoveMarker))), None)
                if skip is not None:
                    return skip, "overlooks a small gain"
        first = own_lay_first(turn, action, weighed) if USE_BONUS else None
        if first is not None:
            return first
        if NO_ROUTE_BEST_LAY and self.m.run_value(turn.line, with_maintenance=False) <= 0:
            return action, why  # no route yet: the lay that leads towards one (IX.7)
        pick = self._near_best(weighed)
        if pick is None or pick == action:
            return action, why
        return pick, f"{why.split(':')[0]}; about as good: {pick}"


class EconomyBot1840(BotBase):
    """``normal`` (``slip=0``) and ``easy`` (``slip`` > 0): see the module docstring."""

    def __init__(self, game: Any = None, slip: float = 0.0, name: str = "normal") -> None:
        self.game = game
        self.slip = slip
        self.name = name
        self.tastes: dict[str, float] = {}
        self.explanation = ""

    @classmethod
    def normal(cls, game: Any, **options: Any) -> EconomyBot1840:
        return cls(game, **options)

    @classmethod
    def easy(cls, game: Any, **options: Any) -> EconomyBot1840:
        options.setdefault("slip", EASY_SLIP)
        return cls(game, name="easy", **options)

    def choose(self, view: View1840, legal_actions: Sequence[Action], rng: random.Random
               ) -> Action:
        if not self.tastes:
            low, high = PRIVATE_TASTE
            self.tastes = {p: rng.uniform(low, high) for p in sorted(view.privates)}
        action, why = Economy1840(view, legal_actions, rng, self.tastes, self.slip).decide()
        self.explanation = why
        return action


EASY_SLIP = 0.2
"""How often the ``easy`` bot makes a human mistake where one is possible."""
