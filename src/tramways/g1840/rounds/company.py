"""Company Rounds (VIII; R-CR-1..8).

a. privates pay dividends (R-CR-3: a company's to its treasury); b. the tram stacks move;
c. the company order is set by share price (VIII.4); d. in that order each tram company pays a
dividend from its revenue space (VIII.5.1, Table 6) and then may buy, scrap and rearrange
trams (VIII.5.3); then the Stadtbahn companies run and pay out (VIII.5.2, R-CR-1); e. the line
auction (VIII.6, R-CR-7) with tram buying after each win and afterwards for the others; the
mandatory tram purchase (R-CR-5); "Finally, each company may rearrange its tram cards" (end of
VIII.6): every company had a buying turn with rearranging after its last change (after its
dividend, after winning a line, or after the auctions), so only a company that has just bought
its mandatory tram gets a further rearranging turn ("final"); f. new line cards (VIII.7,
R-CR-8).  CR6 ends after the Stadtbahn runs (R-CR-4).

Each step is one class (:class:`Dividends`, :class:`LineAuctions`, :class:`AfterAuctions`,
:class:`MandatoryPurchase`, :class:`FinalRearrangement`, :class:`Over`): whose turn it is, what
that company may do, what its action does, and the automatic steps (``advance``), which hand
over to the next step.  A step dispatches an action by a table from action type to handler;
the buying turn's table is :mod:`.buying`'s, the auctions' :mod:`.company_auctions`'.  What
the steps share is :class:`~tramways.g1840.rounds.company_progress.CompanyProgress`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Arrange, BuyTram, CompanyAction, Dividend, Done
from tramways.g1840.mechanics import privates, trams
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.rounds.base import expect, handler
from tramways.g1840.rounds.buying import DONE, buying_actions, play_buying_turn
from tramways.g1840.rounds.company_auctions import (
    auction_actions,
    auction_parts,
    chooser,
    draw_lines,
    next_bidder,
    play_auction,
)
from tramways.g1840.rounds.company_progress import CompanyProgress, LineAuction
from tramways.g1840.shared_actions import Interned, Part
from tramways.g1840.stadtbahn_runs import stadtbahn_run
from tramways.g1840.view_types import LineAuctionView, RoundDetail, TurnDetail

__all__ = ["AfterAuctions", "CompanyRound", "Dividends", "FinalRearrangement", "LineAuction",
           "LineAuctions", "MandatoryPurchase", "Over", "Step", "begin", "stadtbahn_revenue"]

_DIVIDEND = Interned(lambda company, amount, seat: Dividend(company=company, amount=amount,
                                                            player=seat))
"""The dividends, built once per company, amount and director (listed at every payout)."""

# --- the steps ---------------------------------------------------------------------------


class Step:
    """One step of a Company Round."""

    name: ClassVar[str]
    """The step's name in views ("d", "e", "post", "mandatory", "final", "over")."""
    rule: ClassVar[str]
    """The section that fixes whose turn it is in this step (named by refusals)."""

    def company(self, cr: CompanyRound, pos: Position) -> str:
        """The tram company whose turn it is."""
        raise NotImplementedError

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        raise NotImplementedError

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        raise NotImplementedError

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        """Play what needs no decision: the step to go on with (this one again after an
        automatic action, or the next), or ``None`` when the company must decide."""
        raise NotImplementedError

    def buying_turn(self, cr: CompanyRound) -> bool:
        """Whether the acting company is in a tram-buying turn (VIII.5.3)."""
        return False


@dataclass
class Dividends(Step):
    """CRd (VIII.5): in company order, each tram company pays its dividend (VIII.5.1) and then
    has its tram-buying turn (VIII.5.3); then the Stadtbahn companies run (VIII.5.2, R-CR-1).
    X-2: every dividend first, then the Stadtbahn runs, then the buying turns."""

    name: ClassVar[str] = "d"
    rule: ClassVar[str] = "VIII.4"
    idx: int = 0
    paid: bool = False
    buying_phase: bool = False  # the separate round of buying turns

    def company(self, cr: CompanyRound, pos: Position) -> str:
        return cr.order[self.idx]

    def buying_turn(self, cr: CompanyRound) -> bool:
        return self.paid

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        if not self.paid:
            cid, seat = company.id, company.director
            return [_DIVIDEND(cid, a, seat) for a in range(0, company.revenue + 1, pos.ent.shares)]
        return buying_actions(pos, company)

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if not self.paid:
            dividend = expect(Dividend, action, "VIII.5.1",
                              f"{company.id} must first decide its dividend")
            pay_dividend(pos, company, dividend.amount, log)
            self.paid = True
        elif play_buying_turn(pos, company, action, log):
            self._next_company(pos)

    def _next_company(self, pos: Position) -> None:
        self.idx += 1
        self.paid = pos.rules.dividends_first and self.buying_phase

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        if self.idx >= len(cr.order):
            return self._after_last(cr, pos, log)
        company = pos.companies[cr.order[self.idx]]
        if not self.paid:
            if company.revenue == 0:
                pay_dividend(pos, company, 0, log)
                self.paid = True
                return self
            return None
        if pos.rules.dividends_first and not self.buying_phase:  # every dividend first
            self.idx, self.paid = self.idx + 1, False
            return self
        if cr.number == 6 or not trams.has_turn(pos, company):
            self._next_company(pos)
            return self
        return None

    def _after_last(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        """After the last company: the Stadtbahn runs (VIII.5.2), the end of the game after
        CR6 (R-CR-4), X-2's buying turns, then the auctions (or, with no room, R-CR-5)."""
        rules = pos.rules
        if not rules.dividends_first or not self.buying_phase:
            _stadtbahn_runs(pos, log)
            if cr.number == 6:
                pos.finished = True
                log.append("The game ends after CR6 (XI, R-CR-4)")
                return Over()
            if rules.dividends_first:  # now a tram buying turn per company
                self.buying_phase, self.idx, self.paid = True, 0, True
                return self
        if all(len(c.lines) >= 3 for c in pos.companies.values()):
            return _mandatory(cr, pos, log)
        return LineAuctions()


@dataclass
class LineAuctions(Step):
    """CRe (VIII.6, R-CR-7): the leftmost eligible company chooses a line and opens its auction
    or passes; the winner pays and has a tram-buying turn at once
    (:mod:`.company_auctions`)."""

    name: ClassVar[str] = "e"
    rule: ClassVar[str] = "VIII.6"

    def company(self, cr: CompanyRound, pos: Position) -> str:
        if cr.buying is not None:
            return cr.buying
        if cr.auction is not None:
            return cr.auction.turn
        choosing = chooser(cr, pos)
        assert choosing is not None
        return choosing

    def buying_turn(self, cr: CompanyRound) -> bool:
        return cr.buying is not None

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        if cr.buying is not None:
            return buying_actions(pos, company)
        return auction_actions(cr, pos, company)

    def legal_parts(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Part]:
        """:meth:`legal` with the auction amounts as blocks (:func:`auction_parts`)."""
        if cr.buying is not None:
            return list(buying_actions(pos, company))
        return auction_parts(cr, pos, company)

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if cr.buying is None:
            play_auction(cr, pos, company, action, log)
        elif play_buying_turn(pos, company, action, log):
            cr.buying = None

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        if cr.buying is not None:
            if trams.has_turn(pos, pos.companies[cr.buying]):
                return None
            cr.buying = None
            return self
        if cr.auction is not None:
            company = pos.companies[cr.auction.turn]
            funds = company.treasury + trams.private_funds(pos, company)
            if funds < cr.auction.high + pos.ent.bid_step:
                cr.auction.passed.add(company.id)
                log.append(f"{company.id} cannot raise and passes")
                next_bidder(cr, pos, log)
                return self
            return None
        choosing = chooser(cr, pos)
        if choosing is None:
            if pos.rules.lines_drawn_after_auctions:
                draw_lines(cr, pos, log)
            return AfterAuctions([c for c in cr.order if _extra_turn(cr, pos, c)])
        company = pos.companies[choosing]
        if company.treasury + trams.private_funds(pos, company) < pos.ent.line_min_bid:
            cr.out.add(choosing)
            log.append(f"{choosing} cannot open an auction and passes")
            return self
        return None


def _extra_turn(cr: CompanyRound, pos: Position, company: str) -> bool:
    """R-CR-7: the buying turn after the auctions goes to a company that bought no line; the
    18xx.games ruleset gives it only to those with fewer than three lines (X-11 as the 24
    site-engine games show it: fz2027_0_2p action 148, WT with three lines has no turn)."""
    if pos.rules.extra_turn_below_three_lines and len(pos.companies[company].lines) >= 3:
        return False
    return company not in cr.bought


@dataclass
class AfterAuctions(Step):
    """After the auctions (R-CR-7): a tram-buying turn for each company that bought no line."""

    queue: list[str]
    name: ClassVar[str] = "post"
    rule: ClassVar[str] = "VIII.5.3"

    def company(self, cr: CompanyRound, pos: Position) -> str:
        return self.queue[0]

    def buying_turn(self, cr: CompanyRound) -> bool:
        return True

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        return buying_actions(pos, company)

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if play_buying_turn(pos, company, action, log):
            self.queue.pop(0)

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        while self.queue and not trams.has_turn(pos, pos.companies[self.queue[0]]):
            self.queue.pop(0)
        if self.queue:
            return None
        return _mandatory(cr, pos, log)


@dataclass
class MandatoryPurchase(Step):
    """R-CR-5 (VIII.5.3): after the last buying chance, each company without a tram must buy
    one, the director paying what the treasury lacks (with loans).  When the trams on sale run
    out before every such company has bought, the others' obligation waits (R-CR-5)."""

    queue: list[str]
    name: ClassVar[str] = "mandatory"
    rule: ClassVar[str] = "VIII.5.3"

    def company(self, cr: CompanyRound, pos: Position) -> str:
        return self.queue[0]

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        cid, seat = company.id, company.director
        return [trams.BUY_TRAM(cid, c, seat) for c in trams.buyable_colours(pos)]

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        purchase = expect(BuyTram, action, "VIII.5.3", f"{company.id} has no tram and must buy one")
        self._buy(cr, pos, company, purchase.colour, log)

    def _buy(self, cr: CompanyRound, pos: Position, company: TramCompany, colour: str,
             log: list[str]) -> None:
        """The purchase; then the company may still place the new tram (end of VIII.6)."""
        trams.buy(pos, company, colour, log, mandatory=True)
        self.queue.pop(0)
        if not pos.rules.no_rearrange_after_mandatory and trams.arrangements(company):
            cr.final.append(company.id)

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        colours = trams.buyable_colours(pos)
        if self.queue and not colours:
            # the last trams on sale went to companies earlier in the queue: "It may choose any
            # tram on the buying spaces" (VIII.5.3) leaves nothing to choose, and R-CR-5 rules
            # "If no tram is on sale the obligation waits" (to the next CR's check, or for good
            # once the stacks are spent: the game still ends after CR6, XI)
            log.append(f"No tram is on sale: {', '.join(self.queue)} cannot buy the tram "
                       f"it must buy; the obligation waits (R-CR-5)")
            self.queue.clear()
        if not self.queue:
            return FinalRearrangement(list(cr.final))
        company = pos.companies[self.queue[0]]
        director = pos.players[company.director]
        price = trams.price_of(pos, colours[0]) or 0
        # one choice and no loan to avoid by returning a private first (the director's or,
        # in our ruleset, the company's, IV.2): automatic
        returnable = director.privates or trams.private_funds(pos, company)
        if len(colours) == 1 and (price <= company.treasury + director.cash or not returnable):
            self._buy(cr, pos, company, colours[0], log)
            return self
        return None


@dataclass
class FinalRearrangement(Step):
    """End of VIII.6, "Finally, each company may rearrange its tram cards": a company that has
    just bought its mandatory tram may place it (the others rearranged in their last turn)."""

    queue: list[str]
    name: ClassVar[str] = "final"
    rule: ClassVar[str] = "VIII.6"

    def company(self, cr: CompanyRound, pos: Position) -> str:
        return self.queue[0]

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        cid, seat = company.id, company.director
        out: list[Action] = [trams.ARRANGE(cid, p, seat) for p in trams.arrangements(company)]
        out.append(DONE(cid, seat))
        return out

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        play = handler(self.HANDLERS, action, "VIII.6",
                       f"{company.id} may only rearrange its trams now")
        play(self, pos, company, action, log)

    def _arrange(self, pos: Position, company: TramCompany, action: Arrange,
                 log: list[str]) -> None:
        trams.arrange(pos, company, action.colours, log)

    def _done(self, pos: Position, company: TramCompany, action: Done, log: list[str]) -> None:
        self.queue.pop(0)

    HANDLERS: ClassVar[dict[type[Action], Any]] = {Arrange: _arrange, Done: _done}

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        while self.queue and not trams.arrangements(pos.companies[self.queue[0]]):
            self.queue.pop(0)
        if self.queue:
            return None
        draw_lines(cr, pos, log)  # CRf
        return Over()


@dataclass
class Over(Step):
    """The round is over (after CRf, or the game after CR6's Stadtbahn runs, R-CR-4)."""

    name: ClassVar[str] = "over"
    rule: ClassVar[str] = "VIII.5.3"

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        return None


@dataclass
class CompanyRound(CompanyProgress):
    """A Company Round's progress: the current step and what the steps share
    (:class:`CompanyProgress`)."""

    step: Step = field(default_factory=Dividends)

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        return pos.companies[self.step.company(self, pos)].director

    def legal(self, pos: Position) -> list[Action]:
        return self.step.legal(self, pos, pos.companies[self.step.company(self, pos)])

    def legal_parts(self, pos: Position) -> list[Part]:
        """:meth:`legal` with runs of amounts left as blocks (the line auctions)."""
        company = pos.companies[self.step.company(self, pos)]
        step = self.step
        if isinstance(step, LineAuctions):
            return step.legal_parts(self, pos, company)
        return list(step.legal(self, pos, company))

    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        cid = self.step.company(self, pos)
        if not isinstance(action, CompanyAction) or action.company != cid:
            raise IllegalAction(self.step.rule, f"it is {cid}'s turn")
        self.step.apply(self, pos, pos.companies[cid], action, log)

    def settle(self, pos: Position, log: list[str]) -> bool:
        """Play the automatic steps; ``True`` when the round (or the game) is over."""
        while not isinstance(self.step, Over):
            step = self.step.advance(self, pos, log)
            if step is None:
                return False
            self.step = step
        return True

    def turn_rule(self) -> str:
        return self.step.rule

    def takes_in_turn(self, pos: Position, company: str) -> bool:
        """A return or scrap of the company in its own buying turn is part of that turn."""
        return self.step.buying_turn(self) and self.step.company(self, pos) == company

    def line_auctions_ahead(self) -> bool:
        return isinstance(self.step, Dividends | LineAuctions)

    def offered_private(self) -> str | None:
        return None

    def view(self, pos: Position) -> RoundDetail:
        a = self.auction
        auction = None if a is None else LineAuctionView(
            line=a.line, high=a.high, high_company=a.high_company, turn=a.turn)
        return RoundDetail(company_order=tuple(self.order), step=self.step.name,
                           auction=auction)

    def turn_view(self, pos: Position) -> TurnDetail:
        return TurnDetail(company=self.step.company(self, pos), step=self.step.name)


def begin(pos: Position, log: list[str]) -> CompanyRound:
    """CRa-CRc: the privates pay (R-CR-3), the tram stacks move (VIII.3), the company order."""
    number = int(pos.round.name[2:])
    log.append(f"{pos.round.name} begins")
    privates.pay_dividends(pos, log)  # CRa
    trams.move_stacks(pos, log)  # CRb
    order = pos.market.order(list(pos.companies))  # CRc
    log.append("Company order: " + ", ".join(order))
    company_round = pos.current_round = CompanyRound(number=number, order=order)
    return company_round


# --- the payouts and the mandatory purchase ------------------------------------------------


def _mandatory(cr: CompanyRound, pos: Position, log: list[str]) -> MandatoryPurchase:
    """R-CR-5: after the last buying chance, companies without a tram must buy one."""
    if not trams.buyable_colours(pos):
        return MandatoryPurchase([])
    queue = [c for c in cr.order if not pos.companies[c].owned()]
    for c in queue:
        log.append(f"{c} has no tram and must buy one (VIII.5.3)")
    return MandatoryPurchase(queue)


def pay_dividend(pos: Position, company: TramCompany, amount: int, log: list[str]) -> None:
    """VIII.5.1: any multiple of 10 up to the revenue space; shares in the pool earn nothing."""
    shares = pos.ent.shares  # paid per share: a multiple of the number of shares
    if amount < 0 or amount > company.revenue or amount % shares:
        raise IllegalAction("VIII.5.1", f"pay a multiple of {shares} from 0 to {company.revenue}")
    per_share = amount // shares
    for player in pos.players:
        pct = player.shares.get(company.id, 0)
        if pct and per_share:
            player.cash += per_share * (pct // pos.ent.share_percent)
    company.treasury += company.revenue - amount
    company.revenue = 0
    before = pos.price(company.id)
    pos.market.move_dividend(company.id, pos.ent.dividend_move(amount))
    log.append(f"{company.id} pays {amount} ({per_share} per share), retains the rest; "
               f"price {before} -> {pos.price(company.id)}")


def stadtbahn_revenue(pos: Position, company: str, multiplier: int) -> int:
    """VIII.5.2: the Stadtbahn company's run, multiplied (:mod:`tramways.g1840.stadtbahn_runs`)."""
    return stadtbahn_run(pos.board, company, pos.phase, multiplier).revenue


def _stadtbahn_runs(pos: Position, log: list[str]) -> None:
    """VIII.5.2 / R-CR-1: after the tram companies, every Stadtbahn company runs and pays all."""
    multiplier = pos.ent.stadtbahn_multiplier[pos.round.name]
    for company in pos.market.order(list(pos.stadtbahn)):
        total = stadtbahn_revenue(pos, company, multiplier)
        total -= total % pos.ent.shares  # paid per 10% share
        sb = pos.stadtbahn[company]
        sb.last_run = total
        per_share = total // pos.ent.shares
        for player in pos.players:
            pct = player.shares.get(company, 0)
            player.cash += per_share * (pct // pos.ent.share_percent)
        before = pos.price(company)
        pos.market.move_dividend(company, pos.ent.dividend_move(total))
        log.append(f"Stadtbahn {company} runs for {total} (x{multiplier}), {per_share} per "
                   f"share; price {before} -> {pos.price(company)}")
