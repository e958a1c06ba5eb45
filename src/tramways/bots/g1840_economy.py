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
  and a Stadtbahn tile (IX.4) is worth its bonus action (R-LR-1), so W and G get built.
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
from tramways.bots.g1840_rule import TRACK_WEIGHT, Rules1840
from tramways.bots.g1840_rule_line import Budget, Choice, LineTurn, all_of, first_of
from tramways.bots.g1840_search import SearchBot1840
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

FIRST_TRAM = False
"""Buy the first tram before the first line, as people do (:meth:`Economy1840._first_tram`):
off, it measured worse (2-player seeds 1-4: lowest wealth 2,620-3,543, runs earning 0 40-60%,
against 7,135-7,893 and 4-13% without): the dearer first tram starves the later lines."""

KEEP_FOR_UPGRADES = True
"""Keep dividends for a newer tram that pays (:meth:`Economy1840.dividend`).  Measured with
:data:`FIRST_TRAM` and an upgrade rule that ignored what the company's other trams lose to
the new maintenance (Table 7), it left lines without trams (runs earning 0: 30-42%); with
that loss counted (:meth:`Economy1840._harm`) an upgrade rarely pays at the bots' run sizes,
so it keeps little."""

NEW_LINE_RUN = 40
"""What a line without track yet is expected to run per Line Round (VIII.6, IX.8)."""

MODERNISE_MARGIN = 100

HARM_WEIGHT = 0.5
"""How much of what its other trams lose to a newer newest colour (Table 7) a company counts
against an upgrade: another company would soon buy that colour anyway."""
"""A newer tram must gain this much over the rounds left, after its price, to be bought."""


class Economy1840(Rules1840):
    """The decisions of the ``normal`` bot for one position (see the module docstring);
    ``tastes``: the private's worth multiples of this game (by private); ``slip``: the chance
    of a human mistake at each decision that allows one (``easy``)."""

    def __init__(self, view: View1840, legal: Sequence[Action], rng: random.Random,
                 tastes: dict[str, float], slip: float = 0.0) -> None:
        super().__init__(view, legal, rng=rng, track_weight=TRACK_WEIGHT)
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
        if cid is not None and cid in self.view.companies:
            spare = self._scrap_spare(cid) or self._scrap_lossy(cid)
            if spare is not None:
                return spare
            first = self._first_tram(cid, buys) if FIRST_TRAM else None
            if first is not None:
                return first
            if buys and first_of(main, Done) is None:
                must = self.mandatory_tram(buys, cid)
                if must is not None:
                    return must
            if not self.slips():
                upgrade = self._modernise(cid, buys)
                if upgrade is not None:
                    return upgrade
        return super().trams(main)

    def tram_value(self, cid: str, colour: str) -> float:
        """The rule bot's value of a tram (its run over the Line Rounds left after its price),
        a line without track yet counted at :data:`NEW_LINE_RUN` a run: its track grows."""
        c = self.m.company(cid)
        value = super().tram_value(cid, colour)
        if any(i >= len(c.trams) or c.trams[i] is None for i in range(len(c.lines))):
            lrs = self.m.rounds_left("LR")
            fresh = (NEW_LINE_RUN + self.m.maintenance(colour)) * lrs - self.m.tram_price(colour)
            value = max(value, fresh)
        return value

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

    def _run_with(self, line: int, colour: str, newest: str) -> int:
        """``line``'s run with a ``colour`` tram once ``newest`` is the newest colour (Table 7
        maintenance)."""
        run = self.m.run_value(line, colour=colour, with_maintenance=False)
        return run + self.m.ent.maintenance_for(colour, newest)

    def best_upgrade(self, cid: str, afford: bool = True) -> tuple[float, str, str, int] | None:
        """With a tram on every line, the newer tram that gains most over the Line Rounds left
        after its price (Table 7 maintenance of the new newest colour counted for both):
        (gain, colour, old colour, line); ``afford``: only colours the treasury can pay."""
        c = self.m.company(cid)
        owned = [t for t in c.trams if t]
        if not c.lines or len(owned) < len(c.lines):
            return None
        lrs = self.m.rounds_left("LR")
        newest = self.view.trams.newest or TRAM_COLOURS[0]
        best: tuple[float, str, str, int] | None = None
        for colour in TRAM_COLOURS:
            price = self.m.tram_price(colour)
            if price >= 10**6 or (afford and price > c.treasury):
                continue
            after = max(newest, colour, key=TRAM_COLOURS.index)
            for i, line in enumerate(c.lines):
                old = c.trams[i] if i < len(c.trams) else None
                if old is None or TRAM_COLOURS.index(colour) <= TRAM_COLOURS.index(old):
                    continue
                gain = (self._run_with(line, colour, after) - self._run_with(line, old, newest)
                        - HARM_WEIGHT * self._harm(c, i, newest, after)) * lrs - price
                if gain > MODERNISE_MARGIN and (best is None or gain > best[0]):
                    best = (gain, colour, old, line)
        return best

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

    def _harm(self, c: Any, replaced: int, newest: str, after: str) -> int:
        """What the company's other trams lose per run when ``after`` becomes the newest
        colour (Table 7 maintenance); a tram that would then run at a loss is counted as
        scrapped (it earns nothing)."""
        lost = 0
        for i, line in enumerate(c.lines):
            tram = c.trams[i] if i < len(c.trams) else None
            if i == replaced or not tram:
                continue
            now = self._run_with(line, tram, newest)
            lost += max(0, now) - max(0, self._run_with(line, tram, after))
        return lost

    def _modernise(self, cid: str, buys: list[Action]) -> Choice | None:
        """The best upgrade (:meth:`best_upgrade`): scrap the old tram first when the company
        is at its limit of trams (VIII.5.3), else buy the new one."""
        best = self.best_upgrade(cid)
        if best is None:
            return None
        gain, colour, old, line = best
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
        best = self.best_upgrade(cid, afford=False) if KEEP_FOR_UPGRADES else None
        if best is None or self.m.rounds_left("CR") == 0:
            return super().dividend(main)
        price = self.m.tram_price(best[1])
        keep = max(0, price - c.treasury)
        pick = divs[0]
        for d in divs:
            if d.amount <= c.revenue - keep:  # type: ignore[attr-defined]
                pick = d
        return pick, (f"pay {pick.amount} of {c.revenue}: keep for a {best[1]} tram "  # type: ignore[attr-defined]
                      f"for {price} (gains {best[0]:.0f})")

    def _first_tram(self, cid: str, buys: list[Action]) -> Choice | None:
        """A company without trams or lines buys its first tram before its first line, as
        people do: the dearest that leaves two thirds of the treasury (VIII.5.3)."""
        c = self.m.company(cid)
        if c.lines or any(c.trams) or not buys:
            return None
        fits = [b for b in buys if 3 * self.m.tram_price(b.colour) <= c.treasury]  # type: ignore[attr-defined]
        if not fits:
            return None
        pick = max(fits, key=lambda b: self.m.tram_price(b.colour))  # type: ignore[attr-defined]
        return pick, (f"buy a {pick.colour} tram for {self.m.tram_price(pick.colour)} "  # type: ignore[attr-defined]
                      "before the first line")

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
        budget = Budget(None, self.rng, None, self.track_weight, STADTBAHN_BONUS)
        start = len(self.scored)
        action, why = LineTurn(self.view, self.m, self.legal, main, self.scored, budget).decide()
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


class StrongBot1840(SearchBot1840):
    """``strong``: the search bot's Share Round look-ahead (:mod:`.g1840_search`) starting from
    the ``normal`` bot's choices (:class:`Economy1840`, its tastes drawn once per game)."""

    def __init__(self, game: Any = None, **options: Any) -> None:
        super().__init__(game, **options)
        self.name = "strong"
        self.tastes: dict[str, float] = {}

    def policy(self, view: View1840, legal: list[Action], deadline: float,
               rng: random.Random) -> Rules1840:
        if not self.tastes:
            low, high = PRIVATE_TASTE
            self.tastes = {p: rng.uniform(low, high) for p in sorted(view.privates)}
        return Economy1840(view, legal, rng, self.tastes)
