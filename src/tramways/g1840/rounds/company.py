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
over to the next step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import (
    Arrange,
    BuyTram,
    CompanyAction,
    CompanyPass,
    CompanyReturnPrivate,
    Dividend,
    Done,
    LineBid,
    OpenAuction,
    ScrapTram,
)
from tramways.g1840.mechanics import privates, trams
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.stadtbahn_runs import stadtbahn_run


@dataclass
class LineAuction:
    """A line being auctioned (VIII.6)."""

    line: int
    high: int
    high_company: str
    turn: str
    bidders: list[str]  # in CRc order
    passed: set[str] = field(default_factory=set)


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
            return [Dividend(company=company.id, amount=a, player=company.director)
                    for a in range(0, company.revenue + 1, pos.ent.shares)]
        return _buying_actions(pos, company)

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if not self.paid:
            if not isinstance(action, Dividend):
                raise IllegalAction("VIII.5.1", f"{company.id} must first decide its dividend")
            _pay_dividend(pos, company, action.amount, log)
            self.paid = True
        elif _buying_turn(pos, company, action, log):
            self._next_company(pos)

    def _next_company(self, pos: Position) -> None:
        self.idx += 1
        self.paid = pos.rules.dividends_first and self.buying_phase

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        rules = pos.rules
        if self.idx >= len(cr.order):
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
        company = pos.companies[cr.order[self.idx]]
        if not self.paid:
            if company.revenue == 0:
                _pay_dividend(pos, company, 0, log)
                self.paid = True
                return self
            return None
        if rules.dividends_first and not self.buying_phase:  # every dividend first
            self.idx, self.paid = self.idx + 1, False
            return self
        if cr.number == 6 or not trams.has_turn(pos, company):
            self._next_company(pos)
            return self
        return None


@dataclass
class LineAuctions(Step):
    """CRe (VIII.6, R-CR-7): the leftmost eligible company chooses a line and opens its auction
    or passes; the winner pays and has a tram-buying turn at once."""

    name: ClassVar[str] = "e"
    rule: ClassVar[str] = "VIII.6"

    def company(self, cr: CompanyRound, pos: Position) -> str:
        if cr.buying is not None:
            return cr.buying
        if cr.auction is not None:
            return cr.auction.turn
        chooser = _chooser(cr, pos)
        assert chooser is not None
        return chooser

    def buying_turn(self, cr: CompanyRound) -> bool:
        return cr.buying is not None

    def legal(self, cr: CompanyRound, pos: Position, company: TramCompany) -> list[Action]:
        cid, seat, step = company.id, company.director, pos.ent.bid_step
        if cr.buying is not None:
            return _buying_actions(pos, company)
        if cr.auction is None:
            out: list[Action] = [
                OpenAuction(company=cid, line=line, amount=a, player=seat)
                for line in sorted(pos.line_display)
                for a in _bids(pos.ent.line_min_bid, company.treasury, step)]
            out.append(CompanyPass(company=cid, player=seat))
            return out
        return [*(LineBid(company=cid, amount=a, player=seat)
                  for a in _bids(cr.auction.high + step, company.treasury, step)),
                CompanyPass(company=cid, player=seat)]

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if cr.buying is not None:
            if _buying_turn(pos, company, action, log):
                cr.buying = None
            return
        _auction_action(cr, pos, company, action, log)

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
                _next_bidder(cr, pos, log)
                return self
            return None
        chooser = _chooser(cr, pos)
        if chooser is None:
            if pos.rules.lines_drawn_after_auctions:
                _draw_lines(cr, pos, log)
            return AfterAuctions([c for c in cr.order if _extra_turn(cr, pos, c)])
        company = pos.companies[chooser]
        if company.treasury + trams.private_funds(pos, company) < pos.ent.line_min_bid:
            cr.out.add(chooser)
            log.append(f"{chooser} cannot open an auction and passes")
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
        return _buying_actions(pos, company)

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if _buying_turn(pos, company, action, log):
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
        return [BuyTram(company=company.id, colour=c, player=company.director)
                for c in trams.buyable_colours(pos)]

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if not isinstance(action, BuyTram):
            raise IllegalAction("VIII.5.3", f"{company.id} has no tram and must buy one")
        self._buy(cr, pos, company, action.colour, log)

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
        return [*(Arrange(company=cid, colours=p, player=seat)
                  for p in trams.arrangements(company)), Done(company=cid, player=seat)]

    def apply(self, cr: CompanyRound, pos: Position, company: TramCompany, action: Action,
              log: list[str]) -> None:
        if isinstance(action, Arrange):
            trams.arrange(pos, company, action.colours, log)
        elif isinstance(action, Done):
            self.queue.pop(0)
        else:
            raise IllegalAction("VIII.6", f"{company.id} may only rearrange its trams now")

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        while self.queue and not trams.arrangements(pos.companies[self.queue[0]]):
            self.queue.pop(0)
        if self.queue:
            return None
        _draw_lines(cr, pos, log)  # CRf
        return Over()


@dataclass
class Over(Step):
    """The round is over (after CRf, or the game after CR6's Stadtbahn runs, R-CR-4)."""

    name: ClassVar[str] = "over"
    rule: ClassVar[str] = "VIII.5.3"

    def advance(self, cr: CompanyRound, pos: Position, log: list[str]) -> Step | None:
        return None


@dataclass
class CompanyRound:
    """A Company Round's progress: the current step and what the steps share."""

    number: int
    order: list[str]  # CRc (VIII.4)
    step: Step = field(default_factory=Dividends)
    buying: str | None = None  # the company in its buying turn after winning a line (CRe)
    out: set[str] = field(default_factory=set)  # passed on choosing (VIII.6)
    bought: set[str] = field(default_factory=set)  # bought a line this CR
    auction: LineAuction | None = None
    lines_drawn: bool = False  # CRf done (early with the 18xx.games ruleset)
    final: list[str] = field(default_factory=list)  # to rearrange after a mandatory tram

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        return pos.companies[self.step.company(self, pos)].director

    def legal(self, pos: Position) -> list[Action]:
        return self.step.legal(self, pos, pos.companies[self.step.company(self, pos)])

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

    def view(self, pos: Position) -> dict[str, Any]:
        out: dict[str, Any] = {"company_order": list(self.order), "step": self.step.name}
        if self.auction is not None:
            out["auction"] = {k: v for k, v in vars(self.auction).items()
                              if isinstance(v, int | str)}
        return out

    def turn_view(self, pos: Position) -> dict[str, Any]:
        return {"company": self.step.company(self, pos), "step": self.step.name}


def begin(pos: Position, log: list[str]) -> CompanyRound:
    """CRa-CRc: the privates pay (R-CR-3), the tram stacks move (VIII.3), the company order."""
    number = int(pos.round.name[2:])
    log.append(f"{pos.round.name} begins")
    privates.pay_dividends(pos, log)  # CRa
    trams.move_stacks(pos, log)  # CRb
    order = pos.market.order(list(pos.companies))  # CRc
    log.append("Company order: " + ", ".join(order))
    cr = pos.sub = CompanyRound(number=number, order=order)
    return cr


# --- shared by the steps -----------------------------------------------------------------


def _buying_actions(pos: Position, company: TramCompany) -> list[Action]:
    if trams.must_buy_in_turn(pos, company):  # X-18 (proposed, 18xx.games)
        return trams.turn_actions(pos, company, company.director)
    return [*trams.turn_actions(pos, company, company.director),
            Done(company=company.id, player=company.director)]


def _buying_turn(pos: Position, company: TramCompany, action: Action, log: list[str]) -> bool:
    """VIII.5.3: buy, scrap or rearrange trams, return a private; ``True`` when the turn ends
    (Done)."""
    if isinstance(action, BuyTram):
        trams.buy(pos, company, action.colour, log,
                  mandatory=trams.must_buy_in_turn(pos, company))  # X-18 (proposed)
    elif isinstance(action, ScrapTram):
        trams.scrap(pos, company, action.colour, log, line=action.line)
    elif isinstance(action, Arrange):
        trams.arrange(pos, company, action.colours, log)
    elif isinstance(action, CompanyReturnPrivate):
        privates.return_to_bank(pos, company, action.private, log)
    elif isinstance(action, Done):
        if trams.must_buy_in_turn(pos, company):
            raise IllegalAction("VIII.5.3", f"{company.id} has no tram and must buy one in its "
                                "turn (18xx.games ruleset, X-18 proposed)")
        return True
    else:
        raise IllegalAction("VIII.5.3", f"{company.id} may buy, scrap or arrange trams, or end")
    return False


def _eligible(cr: CompanyRound, pos: Position, company: str) -> bool:
    """R-CR-7: fewer than three lines, no line bought this CR, not passed on choosing."""
    return (len(pos.companies[company].lines) < 3 and company not in cr.bought
            and company not in cr.out)


def _chooser(cr: CompanyRound, pos: Position) -> str | None:
    if not pos.line_display:
        return None
    for company in cr.order:
        if _eligible(cr, pos, company):
            return company
    return None


def _bids(low: int, treasury: int, step: int) -> range:
    return range(low, treasury + 1, step)


def _mandatory(cr: CompanyRound, pos: Position, log: list[str]) -> MandatoryPurchase:
    """R-CR-5: after the last buying chance, companies without a tram must buy one."""
    if not trams.buyable_colours(pos):
        return MandatoryPurchase([])
    queue = [c for c in cr.order if not pos.companies[c].owned()]
    for c in queue:
        log.append(f"{c} has no tram and must buy one (VIII.5.3)")
    return MandatoryPurchase(queue)


def _pay_dividend(state: Position, company: TramCompany, amount: int, log: list[str]) -> None:
    """VIII.5.1: any multiple of 10 up to the revenue space; shares in the pool earn nothing."""
    shares = state.ent.shares  # paid per share: a multiple of the number of shares
    if amount < 0 or amount > company.revenue or amount % shares:
        raise IllegalAction("VIII.5.1", f"pay a multiple of {shares} from 0 to {company.revenue}")
    per_share = amount // shares
    for player in state.players:
        pct = player.shares.get(company.id, 0)
        if pct and per_share:
            player.cash += per_share * (pct // state.ent.share_percent)
    company.treasury += company.revenue - amount
    company.revenue = 0
    before = state.price(company.id)
    state.market.move_dividend(company.id, state.ent.dividend_move(amount))
    log.append(f"{company.id} pays {amount} ({per_share} per share), retains the rest; "
               f"price {before} -> {state.price(company.id)}")


def _auction_action(sub: CompanyRound, state: Position, company: TramCompany, action: Action,
                    log: list[str]) -> None:
    """VIII.6 / R-CR-7: open a line's auction (or pass on choosing), bid or pass."""
    step = state.ent.bid_step
    a = sub.auction
    if a is None:
        if isinstance(action, CompanyPass):
            sub.out.add(company.id)
            log.append(f"{company.id} passes on choosing a line (out of this CR's auctions)")
            return
        if not isinstance(action, OpenAuction):
            raise IllegalAction("VIII.6", f"{company.id} chooses a line or passes")
        if action.line not in state.line_display:
            raise IllegalAction("VIII.6", f"line {action.line} is not on display")
        low = state.ent.line_min_bid
        if action.amount < low or (action.amount - low) % step:
            raise IllegalAction("R-CR-7", f"open at {low} or more in steps of {step}")
        if action.amount > company.treasury:
            raise IllegalAction("R-CR-7", f"{company.id} has only {company.treasury}")
        bidders = [c for c in sub.order if _eligible(sub, state, c)]
        sub.auction = LineAuction(action.line, action.amount, company.id, company.id, bidders)
        log.append(f"{company.id} opens line {action.line} at {action.amount}")
        _next_bidder(sub, state, log)
        return
    if isinstance(action, CompanyPass):
        a.passed.add(company.id)
        log.append(f"{company.id} passes on line {a.line}")
        _next_bidder(sub, state, log)
        return
    if not isinstance(action, LineBid):
        raise IllegalAction("VIII.6", f"{company.id} bids or passes")
    if action.amount <= a.high or (action.amount - a.high) % step:
        raise IllegalAction("VIII.6", f"raise above {a.high} in steps of {step}")
    if action.amount > company.treasury:
        raise IllegalAction("R-CR-7", f"{company.id} has only {company.treasury}")
    a.high, a.high_company = action.amount, company.id
    log.append(f"{company.id} bids {action.amount} for line {a.line}")
    _next_bidder(sub, state, log)


def _next_bidder(sub: CompanyRound, state: Position, log: list[str]) -> None:
    """The next company in the auction, or the sale to the highest bidder (VIII.6)."""
    a = sub.auction
    assert a is not None
    at = a.bidders.index(a.turn)
    n = len(a.bidders)
    for k in range(1, n + 1):
        c = a.bidders[(at + k) % n]
        if c != a.high_company and c not in a.passed:
            a.turn = c
            return
    winner = state.companies[a.high_company]
    winner.treasury -= a.high
    winner.lines.append(a.line)
    state.line_display.remove(a.line)
    state.line_owner[a.line] = winner.id
    sub.bought.add(winner.id)
    sub.auction = None
    sub.buying = winner.id
    log.append(f"{winner.id} buys line {a.line} for {a.high}")
    if state.rules.lines_drawn_after_auctions and _chooser(sub, state) is None:
        _draw_lines(sub, state, log)  # the site refills the display as soon as the auctions end

def _draw_lines(sub: CompanyRound, state: Position, log: list[str]) -> None:
    """CRf once per Company Round."""
    if not sub.lines_drawn:
        sub.lines_drawn = True
        _new_line_cards(state, log)


def _new_line_cards(state: Position, log: list[str]) -> None:
    """VIII.7, R-CR-8: players + 1 new lines (or all left) while any company has room."""
    if not any(len(c.lines) < 3 for c in state.companies.values()):
        if state.rules.lines_drawn_after_auctions and state.line_display:
            # the site removes the unsold lines once every company has three
            log.append("Unsold lines leave the game: "
                       + ", ".join(str(n) for n in state.line_display))
            state.line_display.clear()
        return
    k = min(state.n + 1, len(state.line_deck))
    if k == 0:
        return
    new = state.line_deck[:k]
    del state.line_deck[:k]
    state.line_display.extend(new)
    log.append("New lines on display: " + ", ".join(str(n) for n in new))


def stadtbahn_revenue(state: Position, company: str, multiplier: int) -> int:
    """VIII.5.2: the Stadtbahn company's run, multiplied (:mod:`tramways.g1840.stadtbahn_runs`)."""
    return stadtbahn_run(state.board, company, state.phase, multiplier).revenue


def _stadtbahn_runs(state: Position, log: list[str]) -> None:
    """VIII.5.2 / R-CR-1: after the tram companies, every Stadtbahn company runs and pays all."""
    multiplier = state.ent.stadtbahn_multiplier[state.round.name]
    for company in state.market.order(list(state.stadtbahn)):
        total = stadtbahn_revenue(state, company, multiplier)
        total -= total % state.ent.shares  # paid per 10% share
        sb = state.stadtbahn[company]
        sb.last_run = total
        per_share = total // state.ent.shares
        for player in state.players:
            pct = player.shares.get(company, 0)
            player.cash += per_share * (pct // state.ent.share_percent)
        before = state.price(company)
        state.market.move_dividend(company, state.ent.dividend_move(total))
        log.append(f"Stadtbahn {company} runs for {total} (x{multiplier}), {per_share} per share; "
                   f"price {before} -> {state.price(company)}")
