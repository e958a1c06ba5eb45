"""The Pre-Share Round (VI): the private auction and the choice of playing order cards.

R-ORDER-1: played in playing-order-card order.  R-PRE-1: the chooser opens an auction by naming a
private and bidding at least its face value (steps of 5), or passes, and then the next player
may open.  R-PRE-2: while nothing is sold, an all-pass lowers the cheapest unsold private by 5;
at 0 the start player must take it.  R-PRE-3: after the first sale an all-pass pays the private
dividends and restarts with the lowest card; but when no private in a player's hands pays a
dividend (every private sold so far was returned to the bank, IV.2), that all-pass lowers the
cheapest unsold private as R-PRE-2 does (proposed R-PRE-5, see :func:`apply`), so the round
always ends.  Afterwards the players choose playing order
cards, least money first (ties: earlier in the old order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Bid, ChooseOrder, Pass
from tramways.g1840.mechanics.privates import pay_dividends
from tramways.g1840.position import Position
from tramways.g1840.rounds.base import PlayersRound


@dataclass
class Auction:
    """A private being auctioned."""

    private: str
    high: int
    high_bidder: int
    opener_pos: int
    turn: int
    passed: set[int] = field(default_factory=set)


@dataclass
class PreShare(PlayersRound):
    """The Pre-Share Round's progress."""

    chooser_pos: int = 0
    passes: int = 0
    sold_any: bool = False
    discount: int = 0  # the reduction of the private ``discounted`` (R-PRE-2, R-PRE-5)
    discounted: str | None = None
    auction: Auction | None = None
    choosing_order: list[int] | None = None  # seats still to choose a card, in turn
    cards_left: list[int] = field(default_factory=list)
    new_order: dict[int, int] = field(default_factory=dict)  # card -> seat

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
        return "VI"

    def view(self, pos: Position) -> dict[str, Any]:
        """The private being auctioned (R-PRE-1): which, the high bid and its bidder, whose
        turn it is to bid or pass."""
        a = self.auction
        if a is None:
            return {}
        return {"auction": {"private": a.private, "high": a.high, "high_bidder": a.high_bidder,
                            "opener_pos": a.opener_pos, "turn": a.turn}}


def begin(state: Position, log: list[str]) -> PreShare:
    sub = state.sub = PreShare()
    log.append("Pre-Share Round: the private companies are auctioned")
    return sub


def unsold(state: Position) -> list[str]:
    return [p for p, owner in state.private_owner.items() if owner is None]


def minimum(state: Position, private: str) -> int:
    """Face value, less the R-PRE-2 reduction for the cheapest unsold private.

    R-PRE-4: the reduction lowers only this opening bid; the printed face value stays what it
    is for returns to the bank and sales to a company (IV.2)."""
    sub = _progress(state)
    face = state.ent.privates[private].face_value
    if private == sub.discounted:
        return face - sub.discount
    return face


def _cheapest(state: Position) -> str:
    return min(unsold(state), key=lambda p: state.ent.privates[p].face_value)


def acting(state: Position) -> int:
    sub = _progress(state)
    if sub.choosing_order is not None:
        return sub.choosing_order[0]
    if sub.auction is not None:
        return sub.auction.turn
    return state.order[sub.chooser_pos]


def legal(state: Position) -> list[Action]:
    sub = _progress(state)
    seat = acting(state)
    cash = state.players[seat].cash
    step = state.ent.private_bid_step
    if sub.choosing_order is not None:
        return [ChooseOrder(seat, card) for card in sub.cards_left]
    out: list[Action] = []
    if sub.auction is not None:
        a = sub.auction
        out.extend(Bid(seat, a.private, amt) for amt in range(a.high + step, cash + 1, step))
    else:
        for p in unsold(state):
            low = minimum(state, p)
            out.extend(Bid(seat, p, amt) for amt in range(low, cash + 1, step))
    out.append(Pass(seat))
    return out


def apply(state: Position, action: Action, log: list[str]) -> None:
    sub = _progress(state)
    seat = acting(state)
    player = state.players[seat]
    step = state.ent.private_bid_step
    if sub.choosing_order is not None:
        if not isinstance(action, ChooseOrder):
            raise IllegalAction("VI", "choose a playing order card")
        if action.card not in sub.cards_left:
            raise IllegalAction("VI", f"card {action.card} is not available")
        _take_card(state, seat, action.card, log)
        return
    if isinstance(action, Bid):
        if action.private not in state.private_owner:
            raise IllegalAction("VI", f"no private {action.private} in this game")
        if action.amount > player.cash:
            raise IllegalAction("VI", f"{player.name} has only {player.cash}")
        a = sub.auction
        if a is None:
            if state.private_owner[action.private] is not None:
                raise IllegalAction("VI", f"{action.private} is already sold")
            low = minimum(state, action.private)
            if action.amount < low or (action.amount - low) % step:
                raise IllegalAction("VI", f"open at {low} or more in steps of {step}")
            sub.auction = Auction(action.private, action.amount, seat, sub.chooser_pos, seat)
            log.append(f"{player.name} opens {action.private} at {action.amount}")
            _next_bidder(state, log)
            return
        if action.private != a.private:
            raise IllegalAction("VI", f"{a.private} is being auctioned")
        if action.amount <= a.high or (action.amount - a.high) % step:
            raise IllegalAction("VI", f"raise above {a.high} in steps of {step}")
        a.high, a.high_bidder = action.amount, seat
        log.append(f"{player.name} bids {action.amount} for {a.private}")
        _next_bidder(state, log)
        return
    if not isinstance(action, Pass):
        raise IllegalAction("VI", "bid or pass in the Pre-Share Round")
    a = sub.auction
    if a is not None:
        a.passed.add(seat)
        log.append(f"{player.name} passes on {a.private}")
        _next_bidder(state, log)
        return
    log.append(f"{player.name} passes")
    sub.passes += 1
    sub.chooser_pos = (sub.chooser_pos + 1) % state.n
    if sub.passes < state.n:
        return
    sub.passes = 0
    rules = state.rules
    if sub.sold_any and _dividends_due(state) and not (
            rules.cheapest_falls_until_sold and _cheapest_of_all(state) in unsold(state)):
        log.append("Everybody passed: the privates pay dividends and the round restarts "
                   + ("with the next player (X-13)" if rules.pre_share_rotation else "(R-PRE-3)"))
        pay_dividends(state, log)
        if not rules.pre_share_rotation:
            sub.chooser_pos = 0
        return
    _reduce(state, log)


def _cheapest_of_all(state: Position) -> str:
    """X-14: the private of the lowest face value in the game."""
    return min(state.private_owner, key=lambda p: state.ent.privates[p].face_value)


def _dividends_due(state: Position) -> bool:
    """Whether a private in a player's hands pays a dividend (R-PRE-3)."""
    return any(owner is not None and state.ent.privates[p].dividend > 0
               for p, owner in state.private_owner.items())


def _reduce(state: Position, log: list[str]) -> None:
    """R-PRE-2: the all-pass lowers the cheapest unsold private's opening bid by 5; at 0 the
    start player must take it.

    Proposed R-PRE-5 (VI is silent): after the first sale VI's remedy for an all-pass is the
    dividends of the privates in the players' hands (R-PRE-3), which make the privates
    affordable in time.  When none pays anything (every private sold so far was returned to
    the bank, IV.2) that remedy changes nothing and the round would restart for ever, as
    before the first sale; so the all-pass is then treated as before the first sale (VI: "This
    incremental price reduction continues until the price is reduced to 0 Gulden. At this
    point the Starting Player must take this Private company")."""
    sub = _progress(state)
    cheapest = _cheapest(state)
    if sub.discounted != cheapest:
        sub.discounted, sub.discount = cheapest, 0
    sub.discount += state.ent.private_reduction
    price = max(0, minimum(state, cheapest))
    rotation = state.rules.pre_share_rotation  # the choice goes on in rotation
    if price > 0:
        why = ("R-PRE-2" if not sub.sold_any
               else "X-14" if state.rules.cheapest_falls_until_sold
               else "no private in a player's hands pays a dividend: R-PRE-2, proposed R-PRE-5")
        log.append(f"Everybody passed: {cheapest} now starts at {price} ({why})")
        if not rotation:
            sub.chooser_pos = 0
        return
    start = state.order[sub.chooser_pos if rotation else 0]
    log.append(f"{state.players[start].name} must take {cheapest} for free (R-PRE-2)")
    _sell(state, cheapest, start, 0, log)
    if not rotation:
        sub.chooser_pos = 1 % state.n
    _after_sale(state, log)


def _next_bidder(state: Position, log: list[str]) -> None:
    sub = _progress(state)
    a = sub.auction
    assert a is not None
    pos = state.order.index(a.turn)
    for step in range(1, state.n + 1):
        seat = state.order[(pos + step) % state.n]
        if seat != a.high_bidder and seat not in a.passed:
            a.turn = seat
            return
    # everybody else passed: the high bidder wins
    _sell(state, a.private, a.high_bidder, a.high, log)
    sub.chooser_pos = (a.opener_pos + 1) % state.n
    sub.auction = None
    _after_sale(state, log)


def _sell(state: Position, private: str, seat: int, price: int, log: list[str]) -> None:
    sub = _progress(state)
    player = state.players[seat]
    player.cash -= price
    player.privates.append(private)
    state.private_owner[private] = seat
    sub.sold_any = True
    if private == sub.discounted or not state.rules.discount_stays:  # it stays
        sub.discounted, sub.discount = None, 0  # R-PRE-4: the reduction was for its auctions only
    log.append(f"{player.name} buys {private} for {price}")


def _after_sale(state: Position, log: list[str]) -> None:
    sub = _progress(state)
    sub.passes = 0
    if unsold(state):
        return
    # VI: least money chooses first; ties keep the old order (R-ORDER-1)
    old = {seat: i for i, seat in enumerate(state.order)}
    sub.choosing_order = sorted(range(state.n), key=lambda s: (state.players[s].cash, old[s]))
    sub.cards_left = list(range(1, state.n + 1))
    log.append("All privates are sold: players choose playing order cards, least money first")


def _take_card(state: Position, seat: int, card: int, log: list[str]) -> None:
    sub = _progress(state)
    assert sub.choosing_order is not None
    sub.choosing_order.pop(0)
    sub.cards_left.remove(card)
    sub.new_order[card] = seat
    log.append(f"{state.players[seat].name} takes playing order card {card}")


def settle(state: Position, log: list[str]) -> bool:
    """Automatic steps; True when the round is over."""
    sub = _progress(state)
    if sub.choosing_order is not None:
        if len(sub.choosing_order) == 1:
            _take_card(state, sub.choosing_order[0], sub.cards_left[0], log)
        if not sub.choosing_order:
            state.order = [sub.new_order[c] for c in range(1, state.n + 1)]
            return True
    return False


def _progress(pos: Position) -> PreShare:
    sub = pos.sub
    assert isinstance(sub, PreShare)
    return sub
