"""The line auctions of a Company Round (CRe, VIII.6, R-CR-7) and the new line cards (CRf,
VIII.7, R-CR-8).

The leftmost eligible company (in CRc order) chooses a line on display and opens its auction,
or passes and is out of this round's auctions; the others eligible bid in turn or pass; the
highest bidder pays and buys the line (then it has a buying turn, the round's
:class:`~tramways.g1840.rounds.company.LineAuctions` step).  The actions are dispatched by
:data:`CHOOSING` before an auction is open and :data:`BIDDING` while one is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import CompanyPass, LineBid, OpenAuction
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.rounds.base import handler
from tramways.g1840.rounds.company_progress import CompanyProgress, LineAuction
from tramways.g1840.shared_actions import Interned, Ladder, Part, Rungs, flatten

AuctionHandler = Callable[[CompanyProgress, Position, TramCompany, Any, list[str]], None]


def eligible(cr: CompanyProgress, pos: Position, company: str) -> bool:
    """R-CR-7: fewer than three lines, no line bought this CR, not passed on choosing."""
    return (len(pos.companies[company].lines) < 3 and company not in cr.bought
            and company not in cr.out)


def chooser(cr: CompanyProgress, pos: Position) -> str | None:
    """The company that chooses the next line to auction (None: the auctions are over)."""
    if not pos.line_display:
        return None
    for company in cr.order:
        if eligible(cr, pos, company):
            return company
    return None


def bids(low: int, treasury: int, step: int) -> range:
    return range(low, treasury + 1, step)


_OPENINGS = Ladder(lambda cid, line, seat, amount: OpenAuction(
    company=cid, line=line, amount=amount, player=seat))
_RAISES = Ladder(lambda cid, seat, amount: LineBid(company=cid, amount=amount, player=seat))
_PASS = Interned(lambda cid, seat: CompanyPass(company=cid, player=seat))


def auction_actions(cr: CompanyProgress, pos: Position, company: TramCompany) -> list[Action]:
    """What ``company`` may do: choose a line and open its auction, bid, or pass."""
    return flatten(auction_parts(cr, pos, company))


def auction_parts(cr: CompanyProgress, pos: Position, company: TramCompany) -> list[Part]:
    """:func:`auction_actions` with each line's opening bids, or the raises, as one block
    (:class:`~tramways.g1840.shared_actions.Rungs`)."""
    cid, seat, step = company.id, company.director, pos.ent.bid_step
    out: list[Part] = []
    if cr.auction is None:
        low = pos.ent.line_min_bid
        for line in sorted(pos.line_display):
            if company.treasury >= low:
                out.append(Rungs(_OPENINGS, OpenAuction, (cid, line, seat), low,
                                 company.treasury, step))
    else:
        low = cr.auction.high + step
        if company.treasury >= low:
            out.append(Rungs(_RAISES, LineBid, (cid, seat), low, company.treasury, step))
    out.append(_PASS(cid, seat))
    return out


def play_auction(cr: CompanyProgress, pos: Position, company: TramCompany, action: Action,
                 log: list[str]) -> None:
    """VIII.6 / R-CR-7: open a line's auction (or pass on choosing), bid or pass."""
    if cr.auction is None:
        play = handler(CHOOSING, action, "VIII.6", f"{company.id} chooses a line or passes")
    else:
        play = handler(BIDDING, action, "VIII.6", f"{company.id} bids or passes")
    play(cr, pos, company, action, log)


def _pass_choosing(cr: CompanyProgress, pos: Position, company: TramCompany,
                   action: CompanyPass, log: list[str]) -> None:
    cr.out.add(company.id)
    log.append(f"{company.id} passes on choosing a line (out of this CR's auctions)")


def _open(cr: CompanyProgress, pos: Position, company: TramCompany, action: OpenAuction,
          log: list[str]) -> None:
    step = pos.ent.bid_step
    if action.line not in pos.line_display:
        raise IllegalAction("VIII.6", f"line {action.line} is not on display")
    low = pos.ent.line_min_bid
    if action.amount < low or (action.amount - low) % step:
        raise IllegalAction("R-CR-7", f"open at {low} or more in steps of {step}")
    if action.amount > company.treasury:
        raise IllegalAction("R-CR-7", f"{company.id} has only {company.treasury}")
    bidders = [c for c in cr.order if eligible(cr, pos, c)]
    cr.auction = LineAuction(action.line, action.amount, company.id, company.id, bidders)
    log.append(f"{company.id} opens line {action.line} at {action.amount}")
    next_bidder(cr, pos, log)


def _pass_bidding(cr: CompanyProgress, pos: Position, company: TramCompany,
                  action: CompanyPass, log: list[str]) -> None:
    assert cr.auction is not None
    cr.auction.passed.add(company.id)
    log.append(f"{company.id} passes on line {cr.auction.line}")
    next_bidder(cr, pos, log)


def _bid(cr: CompanyProgress, pos: Position, company: TramCompany, action: LineBid,
         log: list[str]) -> None:
    a = cr.auction
    assert a is not None
    step = pos.ent.bid_step
    if action.amount <= a.high or (action.amount - a.high) % step:
        raise IllegalAction("VIII.6", f"raise above {a.high} in steps of {step}")
    if action.amount > company.treasury:
        raise IllegalAction("R-CR-7", f"{company.id} has only {company.treasury}")
    a.high, a.high_company = action.amount, company.id
    log.append(f"{company.id} bids {action.amount} for line {a.line}")
    next_bidder(cr, pos, log)


CHOOSING: dict[type[Action], AuctionHandler] = {CompanyPass: _pass_choosing, OpenAuction: _open}
"""No auction open: the chooser opens one or passes (VIII.6)."""
BIDDING: dict[type[Action], AuctionHandler] = {CompanyPass: _pass_bidding, LineBid: _bid}
"""An auction open: the company in turn raises or passes (VIII.6)."""


def next_bidder(cr: CompanyProgress, pos: Position, log: list[str]) -> None:
    """The next company in the auction, or the sale to the highest bidder (VIII.6)."""
    a = cr.auction
    assert a is not None
    at = a.bidders.index(a.turn)
    n = len(a.bidders)
    for k in range(1, n + 1):
        c = a.bidders[(at + k) % n]
        if c != a.high_company and c not in a.passed:
            a.turn = c
            return
    winner = pos.companies[a.high_company]
    winner.treasury -= a.high
    winner.lines.append(a.line)
    pos.line_display.remove(a.line)
    pos.line_owner[a.line] = winner.id
    cr.bought.add(winner.id)
    cr.auction = None
    cr.buying = winner.id
    log.append(f"{winner.id} buys line {a.line} for {a.high}")
    if pos.rules.lines_drawn_after_auctions and chooser(cr, pos) is None:
        draw_lines(cr, pos, log)  # the site refills the display as soon as the auctions end


def draw_lines(cr: CompanyProgress, pos: Position, log: list[str]) -> None:
    """CRf once per Company Round."""
    if not cr.lines_drawn:
        cr.lines_drawn = True
        _new_line_cards(pos, log)


def _new_line_cards(pos: Position, log: list[str]) -> None:
    """VIII.7, R-CR-8: players + 1 new lines (or all left) while any company has room."""
    if not any(len(c.lines) < 3 for c in pos.companies.values()):
        if pos.rules.lines_drawn_after_auctions and pos.line_display:
            # the site removes the unsold lines once every company has three
            log.append("Unsold lines leave the game: "
                       + ", ".join(str(n) for n in pos.line_display))
            pos.line_display.clear()
        return
    k = min(pos.n + 1, len(pos.line_deck))
    if k == 0:
        return
    new = pos.line_deck[:k]
    del pos.line_deck[:k]
    pos.line_display.extend(new)
    log.append("New lines on display: " + ", ".join(str(n) for n in new))
