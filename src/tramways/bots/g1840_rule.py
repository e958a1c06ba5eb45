"""A rule-of-thumb 1840 player: a sensible beginner, from its view only.

Every decision looks at the legal actions of the moment and picks one by a rule a beginner
would follow, with a one-line reason (``explanation``):

* Pre-Share Round (VI): bid on a private up to a little more than twice its face value (it
  pays half its face value in every Company Round, IV.2), while keeping the cash to par its
  company; take the first playing order card.
* First Share Round (VII.5): par at the highest price it can pay from the Pre-emptive Right
  and cash (a higher par starts on a longer row of the market).
* Share Rounds (VII): buy the share with the best expected dividends per Gulden (its own
  company first, up to 60 %); Stadtbahn shares are valued by their present run times the
  multipliers still to come (VIII.5.2, x10 in CR6); sell only a share that will pay nothing.
* Company Rounds (VIII.5): keep in the treasury what the trams and lines still needed cost
  and pay out the rest (everything in the last Company Round); buy a tram for every line up to
  three, the colour that earns most over the rounds left after its price and maintenance
  (Table 7); arrange trams onto the best lines; open or bid for lines it can afford.
* Line Rounds (IX): lay the tile that raises the line's best run most (the exact router on a
  copy of the board, IX.8), counting the runs of the Stadtbahn companies it holds shares of;
  place a station marker or remove a Stadtbahn marker when the run gains more than it costs;
  skip a Stadtbahn bonus that gains nothing; scrap a tram that would run at a loss (Table 7).
* Never returns a private, never takes a loan unless a mandatory tram forces it (VIII.5.3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.bots.g1840_model import ViewModel
from tramways.bots.g1840_rule_line import Budget, Choice, Firsts, LineTurn, all_of, first_of
from tramways.core import Action
from tramways.g1840.actions import (
    Accept,
    Arrange,
    Bid,
    BuyPrivate,
    BuyShare,
    BuyTram,
    ChooseOrder,
    CompanyPass,
    CompanyReturnPrivate,
    Decline,
    Dividend,
    Done,
    EndTurn,
    LayTile,
    LineBid,
    OpenAuction,
    Par,
    Pass,
    PlaceStation,
    RemoveMarker,
    ReturnPrivate,
    Run,
    ScrapTram,
    SellShares,
    SkipBonus,
)
from tramways.g1840.entities import TRAM_COLOURS
from tramways.g1840.view_types import View1840

ANYTIME = (ReturnPrivate, CompanyReturnPrivate, ScrapTram)
"""Actions the rules allow at any time (IV.2, VIII.5.3): never the default choice."""

TRACK_WEIGHT = 0.5
"""What the ``search`` bot's policy (and the ``rule`` bot with ``track_weight``) scores a lay
per hex side its line's track newly arrives at, beside revenue and stops (see
:class:`RuleBot1840`)."""


class Rules1840:
    """The rule bot's decisions for one position (see the module docstring)."""

    def __init__(self, view: View1840, legal: Sequence[Action], max_lays: int | None = None,
                 rng: random.Random | None = None, deadline: float | None = None,
                 track_weight: float = 0.0, model: ViewModel | None = None) -> None:
        """``max_lays``: weigh at most this many tile lays, drawn with ``rng``, and no station
        markers but a home circle (fast play-outs for the search bot); ``None``: weigh all.
        ``deadline``: a ``time.perf_counter()`` value after which a Line Round turn stops
        weighing further lays and takes the best so far (the search bot's time budget);
        ``None`` (the rule bot): weigh them all.
        ``track_weight``: a lay also scores this much per hex side its line's track newly
        arrives at (IX.2; :data:`TRACK_WEIGHT` for the search's policy).  At 0 (the rule bot's
        default) a lay counts only the revenue it adds and the stops
        it reaches, so a line whose home reaches no other stop never lays a first tile.
        ``model``: the questions about ``view`` answered by this model (a search's play-out
        passes one that reads the position's own board); ``None``: a :class:`ViewModel`."""
        self.track_weight = track_weight
        self.view = view
        self.legal = list(legal)
        self.max_lays = max_lays
        self.deadline = deadline
        self.rng = rng or random.Random(0)
        self.m = model if model is not None else ViewModel(view)
        self.me = self.m.me
        self.scored: list[tuple[float, Action]] = []
        """Alternatives the last decision weighed, with their scores (for the search bot)."""

    # ------------------------------------------------------------------ dispatch
    def decide(self) -> Choice:
        legal = self.legal
        main = [a for a in legal if not isinstance(a, ANYTIME)]
        if not main:
            return legal[0], "only action"
        if len(main) == 1 and not all_of(legal, ScrapTram):
            return main[0], "only action"
        first = Firsts(main).first
        if first((Accept, Decline)):
            return self.offer()
        if first(Bid):
            return self.private_auction()
        if first(ChooseOrder):
            card = min(all_of(main, ChooseOrder), key=lambda a: a.card)  # type: ignore[attr-defined]
            return card, f"take playing order card {card.card}"  # type: ignore[attr-defined]
        if first(Par):
            return self.par()
        if first((BuyShare, SellShares)) or (first(Pass) and self.view.round_info.type == "SR"):
            return self.share_turn(main)
        if first(Dividend):
            return self.dividend(main)
        if first((OpenAuction, LineBid)):
            return self.line_auction(main)
        if first((BuyTram, Arrange, Done)):
            return self.trams(main)
        if first((LayTile, PlaceStation, RemoveMarker, Run, SkipBonus, BuyPrivate, EndTurn)):
            return self.line_turn(main)
        passing = first((Pass, CompanyPass))
        if passing:
            return passing, "pass"
        return main[0], "first choice"

    # ------------------------------------------------------------------ helpers
    @property
    def cash(self) -> int:
        return self.m.player().cash

    def my_company(self) -> str | None:
        for cid, c in self.view.companies.items():
            if c.director == self.me:
                return cid
        return None

    def acting_company(self) -> str | None:
        turn = self.view.turn
        if turn is not None and turn.company is not None:
            return turn.company
        if turn is not None and turn.line is not None:
            return self.m.company_of_line(turn.line)
        for a in self.legal:
            cid = getattr(a, "company", None)
            if cid in self.view.companies and not isinstance(a, ANYTIME):
                return str(cid)
        return None

    def tram_need(self, cid: str) -> int:
        """What the company still needs for trams (lines without a useful tram, up to 3)."""
        c = self.m.company(cid)
        owned = [t for t in c.trams if t]
        lines = len(c.lines)
        missing = max(0, min(3, lines) - len(owned))
        if missing == 0:
            return 0
        cheapest = min((self.m.tram_price(col) for col in TRAM_COLOURS), default=10**6)
        return missing * (cheapest if cheapest < 10**6 else 0)

    # ------------------------------------------------------------------ Pre-Share Round
    def private_value(self, private: str) -> int:
        face = self.m.ent.privates[private].face_value
        return int(face * 2.2)

    def private_auction(self) -> Choice:
        bids = all_of(self.legal, Bid)
        reserve = 150  # par 100 costs 500: 350 from the Pre-emptive Right, 150 cash (VII.5)
        budget = self.cash - reserve
        best: Bid | None = None
        best_margin = 0
        for b in bids:
            assert isinstance(b, Bid)
            worth = self.private_value(b.private)
            margin = worth - b.amount
            if b.amount <= budget and margin > best_margin:
                best, best_margin = b, margin
            elif b.amount <= budget and margin == best_margin and best is not None \
                    and b.amount < best.amount:
                best = b
        if best is not None and best_margin > 0:
            return best, (f"bid {best.amount} for {best.private}: worth about "
                          f"{self.private_value(best.private)} in dividends")
        passing = first_of(self.legal, Pass)
        if passing is not None:
            return passing, "pass: the private costs more than it pays"
        cheapest = min(bids, key=lambda b: b.amount)  # type: ignore[attr-defined]
        return cheapest, "the lowest bid (passing is not allowed)"

    # ------------------------------------------------------------------ Share Rounds
    def par(self) -> Choice:
        pars = all_of(self.legal, Par)
        pre = self.m.player().pre_emptive_right
        affordable = [p for p in pars if 5 * p.price - pre <= self.cash - 20]  # type: ignore[attr-defined]
        pool = affordable or pars
        best = max(pool, key=lambda p: (p.price, -pars.index(p)))  # type: ignore[attr-defined]
        return best, f"par {best.company} at {best.price}: the highest price it can pay"  # type: ignore[attr-defined]

    def share_score(self, cid: str) -> float:
        price = max(1, self.m.price(cid))
        income = self.m.share_income(cid)
        score = income / price
        mine = self.my_company()
        if cid == mine:
            score += 0.3 + 0.2 * self.m.rounds_left("CR")
        return score

    def share_turn(self, main: list[Action]) -> Choice:
        # sell a share that will pay nothing (not of the company it directs)
        for a in all_of(main, SellShares):
            assert isinstance(a, SellShares)
            if a.count != 1 or a.company == self.my_company():
                continue
            if a.company in self.view.companies and self.m.share_income(a.company) <= 0 \
                    and self.m.rounds_left("CR") >= 1:
                return a, f"sell a share of {a.company}: it has no run to pay from"
        buys = all_of(main, BuyShare)
        reserve = 0
        mine = self.my_company()
        if mine is not None:
            c = self.m.company(mine)
            need = self.tram_need(mine)
            reserve = max(0, need - c.treasury)
        best, best_score = None, 0.0
        for a in buys:
            assert isinstance(a, BuyShare)
            if self.m.price(a.company) > self.cash - reserve:
                continue
            s = self.share_score(a.company)
            self.scored.append((s, a))
            if s > best_score:
                best, best_score = a, s
        if best is not None:
            assert isinstance(best, BuyShare)
            return best, (f"buy {best.company} at {self.m.price(best.company)}: about "
                          f"{self.m.share_income(best.company):.0f} in dividends to come")
        passing = first_of(main, Pass)
        if passing is not None:
            return passing, "pass: no share worth its price"
        return main[0], "first choice"

    # ------------------------------------------------------------------ Company Rounds
    def dividend(self, main: list[Action]) -> Choice:
        divs = sorted(all_of(main, Dividend), key=lambda d: d.amount)  # type: ignore[attr-defined]
        cid = divs[0].company  # type: ignore[attr-defined]
        c = self.m.company(cid)
        revenue = c.revenue
        last = self.m.rounds_left("CR") == 0
        keep = 0
        if not last:
            keep = self.tram_need(cid) + (60 if len(c.lines) < 3 else 0)
            keep = max(0, keep - c.treasury)
        target = revenue - keep
        pick = divs[0]
        for d in divs:
            if d.amount <= target:  # type: ignore[attr-defined]
                pick = d
        amount = pick.amount  # type: ignore[attr-defined]
        if last:
            why = "the last Company Round: pay out everything"
        elif amount == revenue:
            why = "nothing needed in the treasury"
        else:
            why = f"keep {revenue - amount} for trams and lines"
        return pick, f"pay {amount} of {revenue}: {why}"

    def tram_value(self, cid: str, colour: str) -> float:
        """What a tram of ``colour`` earns over the Line Rounds left on the company's best line
        that would get it, minus its price."""
        c = self.m.company(cid)
        lrs = self.m.rounds_left("LR")
        best = 0
        for line in c.lines:
            best = max(best, self.m.run_value(line, colour=colour, with_maintenance=False))
        maint = self.m.maintenance(colour)
        return (best + maint) * lrs - self.m.tram_price(colour)

    def trams(self, main: list[Action]) -> Choice:
        buys = all_of(main, BuyTram)
        cid = (buys or all_of(main, (Arrange, Done)))[0].company  # type: ignore[attr-defined]
        c = self.m.company(cid)
        owned = [t for t in c.trams if t]
        done = first_of(main, Done)
        if buys and (done is None or len(owned) < min(3, len(c.lines))):
            treasury = c.treasury
            scored = []
            for b in buys:
                colour = b.colour  # type: ignore[attr-defined]
                price = self.m.tram_price(colour)
                scored.append((self.tram_value(cid, colour), -price, b))
            if done is None:  # mandatory (VIII.5.3): the cheapest, to spare the director
                pick = min(buys, key=lambda b: self.m.tram_price(b.colour))  # type: ignore[attr-defined]
                return pick, (f"must buy a tram: the cheapest, "
                              f"{pick.colour} for {self.m.tram_price(pick.colour)}")  # type: ignore[attr-defined]
            affordable = [s for s in scored if -s[1] <= treasury and s[0] > 0]
            if affordable:
                value, neg, pick = max(affordable, key=lambda s: (s[0], s[1]))
                return pick, (f"buy a {pick.colour} tram for {-neg}: earns about "  # type: ignore[attr-defined]
                              f"{value - neg:.0f} in the rounds left")
        arranges = all_of(main, Arrange)
        if arranges:
            current = self.arrangement_value(cid, tuple(c.trams))
            best, best_value = None, current
            for a in arranges:
                v = self.arrangement_value(cid, a.colours)  # type: ignore[attr-defined]
                if v > best_value:
                    best, best_value = a, v
            if best is not None:
                return best, (f"arrange trams {','.join(best.colours)}: runs "  # type: ignore[attr-defined]
                              f"{current} -> {best_value}")
        if done is not None:
            return done, "done buying trams"
        return main[0], "first choice"

    def arrangement_value(self, cid: str, colours: Sequence[str | None]) -> int:
        lines = self.m.company(cid).lines
        total = 0
        for i, line in enumerate(lines):
            colour = colours[i] if i < len(colours) else None
            if colour and colour != "none":
                total += self.m.run_value(line, colour=colour)
        return total

    def line_potential(self, line: int) -> int:
        """A line's promise: revenue of the stops within two hexes of its home."""
        home = self.m.ent.lines[line].home_hex
        board = self.m.board
        seen = {home}
        frontier = [home]
        for _ in range(2):
            nxt = []
            for coord in frontier:
                for edge in range(6):
                    other = board.neighbour(coord, edge)
                    if other is not None and other not in seen:
                        seen.add(other)
                        nxt.append(other)
            frontier = nxt
        value = 0
        for coord in seen:
            try:
                value += len(board.locations(coord))
            except (KeyError, ValueError):
                continue
        return value

    def line_auction(self, main: list[Action]) -> Choice:
        cid = main[0].company  # type: ignore[attr-defined]
        c = self.m.company(cid)
        treasury = c.treasury
        reserve = self.tram_need(cid) if len(c.lines) else 0
        lrs = self.m.rounds_left("LR")
        limit = min(treasury - reserve, 20 + 15 * lrs)
        opens = all_of(main, OpenAuction)
        if opens:
            lines = {a.line for a in opens}  # type: ignore[attr-defined]
            ranked = sorted(lines, key=lambda ln: (-self.line_potential(ln), ln))
            for line in ranked:
                bid = min((a for a in opens if a.line == line), key=lambda a: a.amount)  # type: ignore[attr-defined]
                if bid.amount <= limit:  # type: ignore[attr-defined]
                    return bid, (f"auction line {line} at {bid.amount}: "  # type: ignore[attr-defined]
                                 f"{self.line_potential(line)} stops near its home")
        bids = all_of(main, LineBid)
        if bids:
            low = min(bids, key=lambda a: a.amount)  # type: ignore[attr-defined]
            if low.amount <= limit:  # type: ignore[attr-defined]
                return low, f"bid {low.amount}: a line is worth up to {limit} to {cid}"  # type: ignore[attr-defined]
        passing = first_of(main, CompanyPass)
        if passing is not None:
            return passing, f"pass: no line worth it (limit {limit})"
        return main[0], "first choice"

    # ------------------------------------------------------------------ offers
    def offer(self) -> Choice:
        lt = self.view.round_info.line_turn
        offer = lt.offer if lt is not None else None
        accept, decline = first_of(self.legal, Accept), first_of(self.legal, Decline)
        if offer and accept is not None:
            private, price = offer[0], int(offer[1])
            face = self.m.ent.privates[private].face_value
            div = self.m.ent.privates[private].dividend
            keep = div * self.m.rounds_left("CR")
            if price >= face and keep <= price:
                return accept, f"accept {price} for {private}: more than it still pays"
        return decline or accept, "decline: the private pays more kept"  # type: ignore[return-value]

    # ------------------------------------------------------------------ Line Rounds
    def line_turn(self, main: list[Action]) -> Choice:
        """A line's turn (IX): :class:`~tramways.bots.g1840_rule_line.LineTurn`."""
        budget = Budget(self.max_lays, self.rng, self.deadline, self.track_weight)
        return LineTurn(self.view, self.m, self.legal, main, self.scored, budget).decide()


class RuleBot1840(BotBase):
    """The 1840 rule bot (see the module docstring); ``explanation`` holds the last reason.

    ``track_weight``: 0 by default (the rule of thumb the ``search`` bot was tuned against);
    :data:`TRACK_WEIGHT` makes it build from lines far from any stop.  Without it, in 2-player
    games most lines run for 0 all game (their homes reach no other stop, so no lay scores).
    Its measurements, and why it is not the default: ``docs/bots.md``, "Experiment records"."""

    name = "rule"

    def __init__(self, game: Any = None, track_weight: float = 0.0) -> None:
        self.game = game
        self.track_weight = track_weight
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> RuleBot1840:
        return cls(game, **options)

    def choose(self, view: View1840, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        action, why = Rules1840(view, legal_actions, track_weight=self.track_weight).decide()
        self.explanation = why
        return action
