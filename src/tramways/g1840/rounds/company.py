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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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


@dataclass
class LineAuction:
    """A line being auctioned (VIII.6)."""

    line: int
    high: int
    high_company: str
    turn: str
    bidders: list[str]  # in CRc order
    passed: set[str] = field(default_factory=set)


@dataclass
class CompanyRound:
    """A Company Round's progress."""

    number: int
    order: list[str]
    step: str = "d"  # d, e, post, mandatory, final, over
    idx: int = 0
    paid: bool = False
    buying: str | None = None  # company in a buying turn during e
    out: set[str] = field(default_factory=set)  # passed on choosing (VIII.6)
    bought: set[str] = field(default_factory=set)  # bought a line this CR
    auction: LineAuction | None = None
    queue: list[str] = field(default_factory=list)  # post / mandatory queue
    phase: str = "div"  # 18xx.games ruleset: "div" for every company, then "buy"
    lines_drawn: bool = False  # CRf done (early with the 18xx.games ruleset)
    final: list[str] = field(default_factory=list)  # to rearrange after a mandatory tram

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        return acting(pos)

    def legal(self, pos: Position) -> list[Action]:
        return legal(pos)

    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        apply(pos, action, log)

    def settle(self, pos: Position, log: list[str]) -> bool:
        return settle(pos, log)

    def turn_rule(self) -> str:
        if self.step in ("e", "final"):
            return "VIII.6"
        if self.step == "d":
            return "VIII.4"
        return "VIII.5.3"

    def takes_in_turn(self, pos: Position, company: str) -> bool:
        """A return or scrap of the company in its own buying turn is part of that turn."""
        buying = (self.step == "d" and self.paid) or self.step == "post" or self.buying is not None
        return buying and current_company(pos) == company

    def line_auctions_ahead(self) -> bool:
        return self.step in ("d", "e")

    def offered_private(self) -> str | None:
        return None

    def view(self, pos: Position) -> dict[str, Any]:
        out: dict[str, Any] = {"company_order": list(self.order), "step": self.step}
        if self.auction is not None:
            out["auction"] = {k: v for k, v in vars(self.auction).items()
                              if isinstance(v, int | str)}
        return out

    def turn_view(self, pos: Position) -> dict[str, Any]:
        return {"company": current_company(pos), "step": self.step}


def begin(state: Position, log: list[str]) -> CompanyRound:
    number = int(state.round.name[2:])
    log.append(f"{state.round.name} begins")
    privates.pay_dividends(state, log)  # CRa
    trams.move_stacks(state, log)  # CRb
    order = state.market.order(list(state.companies))  # CRc
    log.append("Company order: " + ", ".join(order))
    sub = state.sub = CompanyRound(number=number, order=order)
    return sub


def last(state: Position) -> bool:
    return _progress(state).number == 6


def current_company(state: Position) -> str:
    sub = _progress(state)
    if sub.step == "d":
        return sub.order[sub.idx]
    if sub.step == "e":
        if sub.buying is not None:
            return sub.buying
        if sub.auction is not None:
            return sub.auction.turn
        chooser = _chooser(state)
        assert chooser is not None
        return chooser
    return sub.queue[0]


def acting(state: Position) -> int:
    return state.companies[current_company(state)].director


def _eligible(state: Position, company: str) -> bool:
    """R-CR-7: fewer than three lines, no line bought this CR, not passed on choosing."""
    sub = _progress(state)
    return (len(state.companies[company].lines) < 3 and company not in sub.bought
            and company not in sub.out)


def _chooser(state: Position) -> str | None:
    if not state.line_display:
        return None
    for company in _progress(state).order:
        if _eligible(state, company):
            return company
    return None


def _bids(low: int, treasury: int, step: int) -> range:
    return range(low, treasury + 1, step)


def legal(state: Position) -> list[Action]:
    sub = _progress(state)
    cid = current_company(state)
    company = state.companies[cid]
    seat = company.director
    step = state.ent.bid_step
    if sub.step == "d" and not sub.paid:
        return [Dividend(company=cid, amount=a, player=seat)
                for a in range(0, company.revenue + 1, 10)]
    if (sub.step == "d" and sub.paid) or sub.step == "post" or sub.buying is not None:
        return [*trams.turn_actions(state, company, seat), Done(company=cid, player=seat)]
    if sub.step == "final":
        return [*(Arrange(company=cid, colours=p, player=seat)
                  for p in trams.arrangements(company)), Done(company=cid, player=seat)]
    if sub.step == "mandatory":
        out: list[Action] = [BuyTram(company=cid, colour=c, player=seat)
                             for c in trams.buyable_colours(state)]
        return out
    # step e
    if sub.auction is None:
        out = [OpenAuction(company=cid, line=line, amount=a, player=seat)
               for line in sorted(state.line_display)
               for a in _bids(state.ent.line_min_bid, company.treasury, step)]
        out.append(CompanyPass(company=cid, player=seat))
        return out
    return [*(LineBid(company=cid, amount=a, player=seat)
              for a in _bids(sub.auction.high + step, company.treasury, step)),
            CompanyPass(company=cid, player=seat)]


def apply(state: Position, action: Action, log: list[str]) -> None:
    sub = _progress(state)
    cid = current_company(state)
    company = state.companies[cid]
    if not isinstance(action, CompanyAction) or action.company != cid:
        raise IllegalAction(sub.turn_rule(), f"it is {cid}'s turn")
    if sub.step == "d" and not sub.paid:
        if not isinstance(action, Dividend):
            raise IllegalAction("VIII.5.1", f"{cid} must first decide its dividend")
        _pay_dividend(state, company, action.amount, log)
        sub.paid = True
        return
    if (sub.step == "d" and sub.paid) or sub.step == "post" or sub.buying is not None:
        _buying_turn(state, company, action, log)
        return
    if sub.step == "final":
        if isinstance(action, Arrange):
            trams.arrange(state, company, action.colours, log)
        elif isinstance(action, Done):
            sub.queue.pop(0)
        else:
            raise IllegalAction("VIII.6", f"{cid} may only rearrange its trams now")
        return
    if sub.step == "mandatory":
        if not isinstance(action, BuyTram):
            raise IllegalAction("VIII.5.3", f"{cid} has no tram and must buy one")
        _mandatory_buy(state, company, action.colour, log)
        return
    _auction_action(state, company, action, log)


def _pay_dividend(state: Position, company: TramCompany, amount: int, log: list[str]) -> None:
    """VIII.5.1: any multiple of 10 up to the revenue space; shares in the pool earn nothing."""
    if amount < 0 or amount > company.revenue or amount % 10:
        raise IllegalAction("VIII.5.1", f"pay a multiple of 10 from 0 to {company.revenue}")
    per_share = amount // 10
    for player in state.players:
        pct = player.shares.get(company.id, 0)
        if pct and per_share:
            player.cash += per_share * (pct // 10)
    company.treasury += company.revenue - amount
    company.revenue = 0
    before = state.price(company.id)
    state.market.move_dividend(company.id, state.ent.dividend_move(amount))
    log.append(f"{company.id} pays {amount} ({per_share} per share), retains the rest; "
               f"price {before} -> {state.price(company.id)}")


def _buying_turn(state: Position, company: TramCompany, action: Action,
                 log: list[str]) -> None:
    """VIII.5.3: buy, scrap or rearrange trams (the turn goes on until Done)."""
    if isinstance(action, BuyTram):
        trams.buy(state, company, action.colour, log)
    elif isinstance(action, ScrapTram):
        trams.scrap(state, company, action.colour, log)
    elif isinstance(action, Arrange):
        trams.arrange(state, company, action.colours, log)
    elif isinstance(action, CompanyReturnPrivate):
        privates.return_to_bank(state, company, action.private, log)
    elif isinstance(action, Done):
        _end_buying(state)
    else:
        raise IllegalAction("VIII.5.3", f"{company.id} may buy, scrap or arrange trams, or end")


def _end_buying(state: Position) -> None:
    sub = _progress(state)
    if sub.step == "d":
        sub.idx += 1
        sub.paid = state.rules.dividends_first and sub.phase == "buy"
    elif sub.step == "post":
        sub.queue.pop(0)
    else:
        sub.buying = None


def _auction_action(state: Position, company: TramCompany, action: Action,
                    log: list[str]) -> None:
    sub = _progress(state)
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
        bidders = [c for c in sub.order if _eligible(state, c)]
        sub.auction = LineAuction(action.line, action.amount, company.id, company.id, bidders)
        log.append(f"{company.id} opens line {action.line} at {action.amount}")
        _next_bidder(state, log)
        return
    if isinstance(action, CompanyPass):
        a.passed.add(company.id)
        log.append(f"{company.id} passes on line {a.line}")
        _next_bidder(state, log)
        return
    if not isinstance(action, LineBid):
        raise IllegalAction("VIII.6", f"{company.id} bids or passes")
    if action.amount <= a.high or (action.amount - a.high) % step:
        raise IllegalAction("VIII.6", f"raise above {a.high} in steps of {step}")
    if action.amount > company.treasury:
        raise IllegalAction("R-CR-7", f"{company.id} has only {company.treasury}")
    a.high, a.high_company = action.amount, company.id
    log.append(f"{company.id} bids {action.amount} for line {a.line}")
    _next_bidder(state, log)


def _next_bidder(state: Position, log: list[str]) -> None:
    sub = _progress(state)
    a = sub.auction
    assert a is not None
    pos = a.bidders.index(a.turn)
    n = len(a.bidders)
    for k in range(1, n + 1):
        c = a.bidders[(pos + k) % n]
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
    if state.rules.lines_drawn_after_auctions and _chooser(state) is None:
        _draw_lines(state, log)  # the site refills the display as soon as the auctions end


def settle(state: Position, log: list[str]) -> bool:
    """Automatic steps; True when the round is over."""
    sub = _progress(state)
    while True:
        if sub.step == "d":
            if sub.idx >= len(sub.order):
                if not state.rules.dividends_first or sub.phase == "div":
                    _stadtbahn_runs(state, log)
                    if last(state):
                        state.finished = True
                        log.append("The game ends after CR6 (XI, R-CR-4)")
                        return True
                    if state.rules.dividends_first:  # now a tram buying turn per company
                        sub.phase, sub.idx, sub.paid = "buy", 0, True
                        continue
                if all(len(c.lines) >= 3 for c in state.companies.values()):
                    _start_mandatory(state, log)
                else:
                    sub.step = "e"
                continue
            company = state.companies[sub.order[sub.idx]]
            if not sub.paid:
                if company.revenue == 0:
                    _pay_dividend(state, company, 0, log)
                    sub.paid = True
                    continue
                return False
            if state.rules.dividends_first and sub.phase == "div":  # every dividend first
                sub.idx, sub.paid = sub.idx + 1, False
                continue
            if last(state) or not trams.has_turn(state, company):
                _end_buying(state)
                continue
            return False
        if sub.step == "e":
            if sub.buying is not None:
                if trams.has_turn(state, state.companies[sub.buying]):
                    return False
                sub.buying = None
                continue
            if sub.auction is not None:
                company = state.companies[sub.auction.turn]
                funds = company.treasury + trams.private_funds(state, company)
                if funds < sub.auction.high + state.ent.bid_step:
                    sub.auction.passed.add(company.id)
                    log.append(f"{company.id} cannot raise and passes")
                    _next_bidder(state, log)
                    continue
                return False
            chooser = _chooser(state)
            if chooser is None:
                if state.rules.lines_drawn_after_auctions:
                    _draw_lines(state, log)
                sub.step = "post"
                sub.queue = [c for c in sub.order if c not in sub.bought]
                continue
            company = state.companies[chooser]
            if company.treasury + trams.private_funds(state, company) < state.ent.line_min_bid:
                sub.out.add(chooser)
                log.append(f"{chooser} cannot open an auction and passes")
                continue
            return False
        if sub.step == "post":
            while sub.queue and not trams.has_turn(state, state.companies[sub.queue[0]]):
                sub.queue.pop(0)
            if sub.queue:
                return False
            _start_mandatory(state, log)
            continue
        if sub.step == "mandatory":
            if sub.queue:
                colours = trams.buyable_colours(state)
                company = state.companies[sub.queue[0]]
                director = state.players[company.director]
                price = trams.price_of(state, colours[0]) or 0
                # one choice and no loan to avoid by returning a private first (the
                # director's or, in our ruleset, the company's, IV.2): automatic
                returnable = director.privates or trams.private_funds(state, company)
                if len(colours) == 1 and (price <= company.treasury + director.cash
                                          or not returnable):
                    _mandatory_buy(state, company, colours[0], log)
                    continue
                return False
            sub.step, sub.queue = "final", list(sub.final)
            continue
        if sub.step == "final":
            while sub.queue and not trams.arrangements(state.companies[sub.queue[0]]):
                sub.queue.pop(0)
            if sub.queue:
                return False
            _draw_lines(state, log)
            sub.step = "over"
            return True
        return True


def _mandatory_buy(state: Position, company: TramCompany, colour: str,
                   log: list[str]) -> None:
    """R-CR-5's purchase; then the company may still place the new tram (end of VIII.6)."""
    sub = _progress(state)
    trams.buy(state, company, colour, log, mandatory=True)
    sub.queue.pop(0)
    if not state.rules.no_rearrange_after_mandatory and trams.arrangements(company):
        sub.final.append(company.id)


def _start_mandatory(state: Position, log: list[str]) -> None:
    """R-CR-5: after the last buying chance, companies without a tram must buy one."""
    sub = _progress(state)
    sub.step = "mandatory"
    if not trams.buyable_colours(state):
        sub.queue = []
        return
    sub.queue = [c for c in sub.order if not state.companies[c].owned()]
    for c in sub.queue:
        log.append(f"{c} has no tram and must buy one (VIII.5.3)")


def _draw_lines(state: Position, log: list[str]) -> None:
    """CRf once per Company Round."""
    sub = _progress(state)
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
    if state.board is None:
        base = state.ent.stadtbahn[company].revenue_before_any_tile.get(state.layout_name, 0)
        return base * multiplier
    from tramways.g1840.stadtbahn_runs import stadtbahn_run

    run: Any = stadtbahn_run(state.board, company, state.phase, multiplier)
    return int(run.revenue)


def _stadtbahn_runs(state: Position, log: list[str]) -> None:
    """VIII.5.2 / R-CR-1: after the tram companies, every Stadtbahn company runs and pays all."""
    multiplier = state.ent.stadtbahn_multiplier[state.round.name]
    for company in state.market.order(list(state.stadtbahn)):
        total = stadtbahn_revenue(state, company, multiplier)
        total -= total % 10  # paid per 10% share
        sb = state.stadtbahn[company]
        sb.last_run = total
        per_share = total // 10
        for player in state.players:
            pct = player.shares.get(company, 0)
            player.cash += per_share * (pct // 10)
        before = state.price(company)
        state.market.move_dividend(company, state.ent.dividend_move(total))
        log.append(f"Stadtbahn {company} runs for {total} (x{multiplier}), {per_share} per share; "
                   f"price {before} -> {state.price(company)}")


def _progress(pos: Position) -> CompanyRound:
    sub = pos.sub
    assert isinstance(sub, CompanyRound)
    return sub
