"""The Pre-Share Round (VI): the private auction and the choice of playing order cards.

R-ORDER-1: played in playing-order-card order.  R-PRE-1: the chooser opens an auction by naming a
private and bidding at least its face value (steps of 5), or passes, and then the next player
may open.  R-PRE-2: while nothing is sold, an all-pass lowers the cheapest unsold private by 5;
at 0 the start player must take it.  R-PRE-3: after the first sale an all-pass pays the private
dividends and restarts with the lowest card; but when no private in a player's hands pays a
dividend (every private sold so far was returned to the bank, IV.2), that all-pass lowers the
cheapest unsold private as R-PRE-2 does (proposed R-PRE-5, see :meth:`PreShare._reduce`), so the round
always ends.  Afterwards the players choose playing order
cards, least money first (ties: earlier in the old order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Bid, ChooseOrder, Pass
from tramways.g1840.mechanics.privates import pay_dividends
from tramways.g1840.position import Position
from tramways.g1840.rounds.base import PlayersRound, handler
from tramways.g1840.shared_actions import Interned, Ladder, Part, Rungs, flatten
from tramways.g1840.view_types import NO_DETAIL, PrivateAuctionView, RoundDetail

Handler = Callable[["PreShare", Position, Any, list[str]], None]



_BIDS = Ladder(Bid)
_ORDER = Interned(ChooseOrder)


def _bids(seat: int, private: str, low: int, cash: int, step: int) -> Rungs[Bid]:
    """Every bid on ``private`` from ``low`` up to the cash in steps (R-PRE-1) as a block,
    the same action objects at every position (:class:`~tramways.g1840.shared_actions.Ladder`)."""
    return Rungs(_BIDS, Bid, (seat, private), low, cash, step)


@dataclass
class Auction:
    """A private being auctioned."""

    private: str
    high: int
    high_bidder: int
    opener_index: int
    turn: int
    passed: set[int] = field(default_factory=set)
    forced: bool = False  # every rival who left since the last bid could not raise
    voluntary: bool = False  # a rival who could raise passed since the last bid


@dataclass
class PreShare(PlayersRound):
    """The Pre-Share Round's progress and its rules: the auctions of the privates while any is
    unsold, then the choice of the playing order cards."""

    chooser_index: int = 0
    passes: int = 0
    sold_any: bool = False
    discount: int = 0  # the reduction of the private ``discounted`` (R-PRE-2, R-PRE-5)
    discounted: str | None = None
    auction: Auction | None = None
    last_opener: int | None = None  # the index of the last auction's opener
    choosing_order: list[int] | None = None  # seats still to choose a card, in turn
    cards_left: list[int] = field(default_factory=list)
    new_order: dict[int, int] = field(default_factory=dict)  # card -> seat

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        if self.choosing_order is not None:
            return self.choosing_order[0]
        if self.auction is not None:
            return self.auction.turn
        return pos.order[self.chooser_index]

    def legal(self, pos: Position) -> list[Action]:
        return flatten(self.legal_parts(pos))

    def legal_parts(self, pos: Position) -> list[Part]:
        """:meth:`legal` with each private's bids as one block (VI, R-PRE-1)."""
        seat = self.acting(pos)
        cash = pos.players[seat].cash
        step = pos.ent.private_bid_step
        if self.choosing_order is not None:
            return [_ORDER(seat, card) for card in self.cards_left]
        out: list[Part] = []
        if self.auction is not None:
            a = self.auction
            out.append(_bids(seat, a.private, a.high + step, cash, step))
        else:
            for p in unsold(pos):
                out.append(_bids(seat, p, self.minimum(pos, p), cash, step))
        out.append(Pass(seat))
        return out

    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        if self.choosing_order is not None:
            play = handler(self.CHOOSING, action, "VI", "choose a playing order card")
        else:
            play = handler(self.AUCTIONS, action, "VI", "bid or pass in the Pre-Share Round")
        play(self, pos, action, log)

    def settle(self, pos: Position, log: list[str]) -> bool:
        """Automatic steps; True when the round is over."""
        if self.choosing_order is not None:
            if len(self.choosing_order) == 1:
                self._take_card(pos, self.choosing_order[0], self.cards_left[0], log)
            if not self.choosing_order:
                pos.order = [self.new_order[c] for c in range(1, pos.n + 1)]
                return True
        return False

    def turn_rule(self) -> str:
        return "VI"

    def view(self, pos: Position) -> RoundDetail:
        """The private being auctioned (R-PRE-1): which, the high bid and its bidder, whose
        turn it is to bid or pass."""
        a = self.auction
        if a is None:
            return NO_DETAIL
        return RoundDetail(auction=PrivateAuctionView(
            private=a.private, high=a.high, high_bidder=a.high_bidder, opener_pos=a.opener_index,
            turn=a.turn))

    # --- queries ---------------------------------------------------------------------
    def minimum(self, pos: Position, private: str) -> int:
        """Face value, less the R-PRE-2 reduction for the cheapest unsold private.

        R-PRE-4: the reduction lowers only this opening bid; the printed face value stays what
        it is for returns to the bank and sales to a company (IV.2)."""
        face = pos.ent.privates[private].face_value
        if private == self.discounted:
            return face - self.discount
        return face

    # --- the handlers ----------------------------------------------------------------
    def _choose(self, pos: Position, action: ChooseOrder, log: list[str]) -> None:
        """VI: take a playing order card, least money first."""
        if action.card not in self.cards_left:
            raise IllegalAction("VI", f"card {action.card} is not available")
        self._take_card(pos, self.acting(pos), action.card, log)

    def _bid(self, pos: Position, action: Bid, log: list[str]) -> None:
        """R-PRE-1: open an auction at the minimum or more, or raise the open one."""
        seat = self.acting(pos)
        player = pos.players[seat]
        step = pos.ent.private_bid_step
        if action.private not in pos.private_owner:
            raise IllegalAction("VI", f"no private {action.private} in this game")
        if action.amount > player.cash:
            raise IllegalAction("VI", f"{player.name} has only {player.cash}")
        a = self.auction
        if a is None:
            if pos.private_owner[action.private] is not None:
                raise IllegalAction("VI", f"{action.private} is already sold")
            low = self.minimum(pos, action.private)
            if action.amount < low or (action.amount - low) % step:
                raise IllegalAction("VI", f"open at {low} or more in steps of {step}")
            self.auction = Auction(action.private, action.amount, seat, self.chooser_index, seat)
            self.last_opener = self.chooser_index
            log.append(f"{player.name} opens {action.private} at {action.amount}")
            self._next_bidder(pos, log)
            return
        if action.private != a.private:
            raise IllegalAction("VI", f"{a.private} is being auctioned")
        if action.amount <= a.high or (action.amount - a.high) % step:
            raise IllegalAction("VI", f"raise above {a.high} in steps of {step}")
        a.high, a.high_bidder, a.voluntary = action.amount, seat, False
        log.append(f"{player.name} bids {action.amount} for {a.private}")
        self._next_bidder(pos, log)

    def _pass(self, pos: Position, action: Pass, log: list[str]) -> None:
        """VI: pass on the open auction (for good), or on choosing (R-PRE-1); an all-pass
        pays the privates' dividends (R-PRE-3) or lowers the cheapest (R-PRE-2)."""
        seat = self.acting(pos)
        player = pos.players[seat]
        a = self.auction
        if a is not None:
            a.passed.add(seat)
            # the site drops a rival who cannot raise as soon as a bid is made, so the
            # auction ends on such a rival only when nobody left it by choice since that bid
            if player.cash >= a.high + pos.ent.private_bid_step:
                a.voluntary = True
            a.forced = not a.voluntary
            log.append(f"{player.name} passes on {a.private}")
            self._next_bidder(pos, log)
            return
        log.append(f"{player.name} passes")
        self.passes += 1
        self.chooser_index = (self.chooser_index + 1) % pos.n
        if self.passes < pos.n:
            return
        self.passes = 0
        rules = pos.rules
        if self.sold_any and _dividends_due(pos) and not (
                rules.cheapest_falls_until_sold and _cheapest_of_all(pos) in unsold(pos)):
            log.append("Everybody passed: the privates pay dividends and the round restarts "
                       + ("with the next player (X-13)" if rules.pre_share_rotation
                          else "(R-PRE-3)"))
            pay_dividends(pos, log)
            if not rules.pre_share_rotation:
                self.chooser_index = 0
            return
        self._reduce(pos, log)

    AUCTIONS: ClassVar[dict[type[Action], Handler]] = {Bid: _bid, Pass: _pass}
    """While a private is unsold (VI, R-PRE-1)."""
    CHOOSING: ClassVar[dict[type[Action], Handler]] = {ChooseOrder: _choose}
    """Once every private is sold: the playing order cards (VI, R-ORDER-1)."""

    # --- the automatic steps ---------------------------------------------------------
    def _reduce(self, pos: Position, log: list[str]) -> None:
        """R-PRE-2: the all-pass lowers the cheapest unsold private's opening bid by 5; at 0
        the start player must take it.

        Proposed R-PRE-5 (VI is silent): after the first sale VI's remedy for an all-pass is
        the dividends of the privates in the players' hands (R-PRE-3), which make the privates
        affordable in time.  When none pays anything (every private sold so far was returned
        to the bank, IV.2) that remedy changes nothing and the round would restart for ever,
        as before the first sale; so the all-pass is then treated as before the first sale
        (VI: "This incremental price reduction continues until the price is reduced to 0
        Gulden. At this point the Starting Player must take this Private company")."""
        cheapest = _cheapest(pos)
        if self.discounted != cheapest:
            self.discounted, self.discount = cheapest, 0
        self.discount += pos.ent.private_reduction
        price = max(0, self.minimum(pos, cheapest))
        rotation = pos.rules.pre_share_rotation  # the choice goes on in rotation
        if price > 0:
            why = ("R-PRE-2" if not self.sold_any
                   else "X-14" if pos.rules.cheapest_falls_until_sold
                   else "no private in a player's hands pays a dividend: R-PRE-2, "
                        "proposed R-PRE-5")
            log.append(f"Everybody passed: {cheapest} now starts at {price} ({why})")
            if not rotation:
                self.chooser_index = 0
            return
        start = pos.order[self.chooser_index if rotation else 0]
        log.append(f"{pos.players[start].name} must take {cheapest} for free (R-PRE-2)")
        self._sell(pos, cheapest, start, 0, log)
        if not rotation:
            self.chooser_index = 1 % pos.n
        else:  # the site goes back to the last auction's opener, else to the taker,
            # and the choice goes on with the next player (random_44001_3p)
            back = self.chooser_index if self.last_opener is None else self.last_opener
            self.chooser_index = (back + 1) % pos.n
        self._after_sale(pos, log)

    def _next_bidder(self, pos: Position, log: list[str]) -> None:
        a = self.auction
        assert a is not None
        at = pos.order.index(a.turn)
        for step in range(1, pos.n + 1):
            seat = pos.order[(at + step) % pos.n]
            if seat != a.high_bidder and seat not in a.passed:
                a.turn = seat
                return
        # everybody else passed: the high bidder wins
        self._sell(pos, a.private, a.high_bidder, a.high, log)
        self.chooser_index = (a.opener_index + 1) % pos.n
        if pos.rules.choice_back_to_opener and a.forced:
            self.chooser_index = a.opener_index  # the last rival could not raise
        self.auction = None
        self._after_sale(pos, log)

    def _sell(self, pos: Position, private: str, seat: int, price: int, log: list[str]) -> None:
        player = pos.players[seat]
        player.cash -= price
        player.privates.append(private)
        pos.private_owner[private] = seat
        self.sold_any = True
        if private == self.discounted or not pos.rules.discount_stays:  # it stays
            # R-PRE-4: the reduction was for its auctions only
            self.discounted, self.discount = None, 0
        log.append(f"{player.name} buys {private} for {price}")

    def _after_sale(self, pos: Position, log: list[str]) -> None:
        self.passes = 0
        if unsold(pos):
            return
        # VI: least money chooses first; ties keep the old order (R-ORDER-1)
        old = {seat: i for i, seat in enumerate(pos.order)}
        self.choosing_order = sorted(range(pos.n), key=lambda s: (pos.players[s].cash, old[s]))
        self.cards_left = list(range(1, pos.n + 1))
        log.append("All privates are sold: players choose playing order cards, least money "
                   "first")

    def _take_card(self, pos: Position, seat: int, card: int, log: list[str]) -> None:
        assert self.choosing_order is not None
        self.choosing_order.pop(0)
        self.cards_left.remove(card)
        self.new_order[card] = seat
        log.append(f"{pos.players[seat].name} takes playing order card {card}")


def begin(pos: Position, log: list[str]) -> PreShare:
    pre_share = pos.current_round = PreShare()
    log.append("Pre-Share Round: the private companies are auctioned")
    return pre_share


def unsold(pos: Position) -> list[str]:
    return [p for p, owner in pos.private_owner.items() if owner is None]


def minimum(pos: Position, private: str) -> int:
    """The opening bid for ``private`` now (:meth:`PreShare.minimum`)."""
    pre_share = pos.current_round
    assert isinstance(pre_share, PreShare)
    return pre_share.minimum(pos, private)


def _cheapest(pos: Position) -> str:
    return min(unsold(pos), key=lambda p: pos.ent.privates[p].face_value)


def _cheapest_of_all(pos: Position) -> str:
    """X-14: the private of the lowest face value in the game."""
    return min(pos.private_owner, key=lambda p: pos.ent.privates[p].face_value)


def _dividends_due(pos: Position) -> bool:
    """Whether a private in a player's hands pays a dividend (R-PRE-3)."""
    return any(owner is not None and pos.ent.privates[p].dividend > 0
               for p, owner in pos.private_owner.items())
