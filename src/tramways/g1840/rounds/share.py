"""Share Rounds (VII; X.3; R-SR-1..3).

A turn: sell any number of shares (not in SR1, never the director's share), then buy one
certificate or end the turn.  SR1 opens with every player buying a director's share
(VII.5, R-SR-1).  The round ends when every player has passed in turn; then sold-out tram
companies rise one space (X.3, R-SR-2) and the new playing order is by most cash (VII.2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import BuyShare, Par, Pass, ReturnPrivate, SellShares
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.rounds.base import PlayersRound, handler
from tramways.g1840.shared_actions import Interned

Handler = Callable[["ShareRound", Position, Any, list[str]], None]



_SELL, _BUY, _RETURN, _PASS = (Interned(SellShares), Interned(BuyShare), Interned(ReturnPrivate),
                               Interned(Pass))
_PAR = Interned(Par)
"""A Share Round's actions, built once per distinct fields (listed at every turn)."""

@dataclass
class ShareRound(PlayersRound):
    """A Share Round's progress and its rules."""

    first: bool
    turn_index: int = 0  # the seat in turn: pos.order[turn_index]
    passes: int = 0
    sold_in_turn: bool = False
    sold: dict[int, set[str]] = field(default_factory=dict)
    done: bool = False
    events: list[tuple[int, str, str]] = field(default_factory=list)
    """(seat, "par" or "sell", company) of the round so far: what switches off another seat's
    conditional program (:mod:`tramways.g1840.programs`)."""

    @property
    def turn_pos(self) -> int:
        """The former name of :attr:`turn_index` (kept for code written against it)."""
        return self.turn_index

    @turn_pos.setter
    def turn_pos(self, value: int) -> None:
        self.turn_index = value

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        return pos.order[self.turn_index]

    def legal(self, pos: Position) -> list[Action]:
        seat = self.acting(pos)
        player = pos.players[seat]
        if self._must_par(pos, seat):
            return [
                _PAR(seat, company, price)
                for company in pos.unchosen
                for price in pos.ent.par_prices
                if _director_share_cost(pos, price) - player.pre_emptive <= player.cash
            ]
        out: list[Action] = []
        if not self.first:  # no selling in the First Share Round (VII.4: sellable is 0)
            out.extend(self._sales(pos, seat))
        out.extend(self._purchases(pos, seat))
        if player.privates:
            out.extend([_RETURN(seat, p) for p in player.privates])
        out.append(_PASS(seat))
        return out

    def _sales(self, pos: Position, seat: int) -> list[Action]:
        """The sales :meth:`sellable` allows, company by company (tram companies, then the
        Stadtbahn), one to all of them (VII.4, R-SR-3): only held shares are asked."""
        shares = pos.players[seat].shares
        return [_SELL(seat, company, count)
                for company in (*pos.companies, *pos.stadtbahn) if shares.get(company)
                for count in range(1, self.sellable(pos, seat, company) + 1)]

    def _purchases(self, pos: Position, seat: int) -> list[Action]:
        """The companies :meth:`can_buy` allows: the certificate limit (VII.3), the same for
        every company, asked once, then each company's own checks."""
        if pos.certificates(seat) >= pos.cert_limit():
            return []
        companies = (*pos.companies, *pos.stadtbahn)
        return [_BUY(seat, company) for company, why in zip(
                    companies, self._company_refusals(pos, seat, companies), strict=True)
                if why is None]

    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        if self._must_par(pos, self.acting(pos)):
            play = handler(self.FIRST, action, "R-SR-1", "buy a director's share first")
        else:
            play = handler(self.TURN, action, "VII.1", "sell, buy or pass in a Share Round")
        play(self, pos, action, log)

    def settle(self, pos: Position, log: list[str]) -> bool:
        """End of round: X.3 sold-out rise (tram companies, R-SR-2), VII.2 new order."""
        if not self.done:
            return False
        risers = list(pos.companies) + (
            list(pos.stadtbahn) if pos.rules.stadtbahn_sold_out_rise else [])
        for company in pos.market.order(risers):
            tram = pos.companies.get(company) or pos.stadtbahn[company]
            if tram.ipo == 0 and tram.pool == 0:
                before = pos.price(company)
                pos.market.move_up(company)
                after = pos.price(company)
                log.append(f"{company} is sold out: price rises from {before} to {after}"
                           if after != before else
                           f"{company} is sold out, on the top row: price stays at {after} "
                           "(X.3)")
        old = {seat: i for i, seat in enumerate(pos.order)}
        pos.order = sorted(range(pos.n), key=lambda s: (-pos.players[s].cash, old[s]))
        log.append("New playing order: " + ", ".join(pos.players[s].name for s in pos.order))
        return True

    def turn_rule(self) -> str:
        return "VII.2"

    # --- queries ---------------------------------------------------------------------
    def can_buy(self, pos: Position, seat: int, company: str) -> str | None:
        """Why ``seat`` may not buy a share of ``company`` now (None if it may): VII.3,
        VII.6."""
        if company not in pos.companies and company not in pos.stadtbahn:
            return "VII.6"
        why = self._company_refusals(pos, seat, (company,))[0]
        if why is not None:
            return why
        if pos.certificates(seat) >= pos.cert_limit():
            return "VII.3"
        return None

    def _company_refusals(self, pos: Position, seat: int, companies: Sequence[str]
                          ) -> list[str | None]:
        """:meth:`can_buy`'s checks of each company itself, in its order: shares left, not
        sold by ``seat`` this round, its price in cash (VII.6), the cap on one company's
        shares (VII.3); the seat's part read once for all of ``companies``."""
        player = pos.players[seat]
        cash, shares, cap = player.cash, player.shares, pos.ent.max_percent
        sold = self.sold.get(seat, ())
        trams, stadtbahn, price = pos.companies, pos.stadtbahn, pos.market.price
        out: list[str | None] = []
        for company in companies:
            holder = trams.get(company) or stadtbahn.get(company)
            if (holder is None or holder.ipo + holder.pool <= 0 or company in sold
                    or cash < price(company)):
                out.append("VII.6")
            elif shares.get(company, 0) >= cap:
                out.append("VII.3")
            else:
                out.append(None)
        return out

    def sellable(self, pos: Position, seat: int, company: str) -> int:
        """How many 10% shares ``seat`` may sell of ``company`` (VII.4, R-SR-3)."""
        if self.first:
            return 0
        pct = pos.players[seat].shares.get(company, 0)
        tram = pos.companies.get(company)
        if tram is not None and tram.director == seat:
            pct -= pos.ent.director_percent
        return max(pct, 0) // pos.ent.share_percent

    def _must_par(self, pos: Position, seat: int) -> bool:
        """SR1 opens with every player buying a director's share (VII.5, R-SR-1)."""
        return self.first and not any(c.director == seat for c in pos.companies.values())

    # --- the handlers ----------------------------------------------------------------
    def _par(self, pos: Position, action: Par, log: list[str]) -> None:
        """VII.5: the director's share at par 70/80/90/100; Pre-emptive Right card first."""
        seat = self.acting(pos)
        player = pos.players[seat]
        if action.company not in pos.unchosen:
            raise IllegalAction("R-SETUP-1", f"{action.company} is not available")
        if action.price not in pos.ent.par_prices:
            raise IllegalAction("IV.1.2", "par must be 70, 80, 90 or 100")
        cost = _director_share_cost(pos, action.price) - player.pre_emptive
        if cost > player.cash:
            raise IllegalAction("VII.5", f"{player.name} cannot pay {cost} above the card")
        capital = pos.ent.shares * action.price  # IV.1.2: ten times the par price
        player.cash -= cost
        player.pre_emptive = 0
        pos.unchosen.remove(action.company)
        pos.companies[action.company] = TramCompany(
            id=action.company, director=seat, par=action.price, treasury=capital
        )
        player.shares[action.company] = pos.ent.director_percent
        pos.market.place(action.company, pos.ent.tram_par_cells[action.price])
        self.events.append((seat, "par", action.company))
        log.append(f"{player.name} pars {action.company} at {action.price} "
                   f"(pays {cost} besides the Pre-emptive Right); treasury {capital}")
        if len(pos.companies) == pos.n:
            log.append(f"Unchosen tram companies leave the game: {', '.join(pos.unchosen)}")
            pos.unchosen = []
        self._end_turn(pos, passed=False)

    def _par_again(self, pos: Position, action: Par, log: list[str]) -> None:
        raise IllegalAction("IV.1.2", "each player directs exactly one tram company")

    def _sell(self, pos: Position, action: SellShares, log: list[str]) -> None:
        """VII.4: sell shares to the pool (not in SR1, never the director's share); the price
        drops a row per share (X.3); no buying back this round."""
        seat = self.acting(pos)
        player = pos.players[seat]
        if self.first:
            raise IllegalAction("VII.4", "no selling in the First Share Round")
        if action.count < 1 or action.count > self.sellable(pos, seat, action.company):
            raise IllegalAction("VII.4", f"{player.name} cannot sell {action.count} "
                                f"of {action.company} (the director's share is never sold)")
        price = pos.price(action.company)
        if action.price is not None and action.price != price:
            if not pos.rules.sale_at_recorded_price:
                raise IllegalAction("VII.4", f"shares sell at the current price, {price}")
            price = action.price  # X-19 (proposed): the site pays the price its sale records
        holder = pos.companies.get(action.company) or pos.stadtbahn[action.company]
        player.shares[action.company] -= pos.ent.share_percent * action.count
        if not player.shares[action.company]:
            del player.shares[action.company]
        holder.pool += pos.ent.share_percent * action.count
        player.cash += price * action.count
        pos.market.move_down(action.company, action.count)
        self.sold.setdefault(seat, set()).add(action.company)
        self.events.append((seat, "sell", action.company))
        self.sold_in_turn = True
        log.append(f"{player.name} sells {action.count} {action.company} at {price}; "
                   f"price now {pos.price(action.company)}")

    def _buy(self, pos: Position, action: BuyShare, log: list[str]) -> None:
        """VII.6: buy one 10% share at the current price, unsold shares first, then the
        pool."""
        seat = self.acting(pos)
        player = pos.players[seat]
        why = self.can_buy(pos, seat, action.company)
        if why is not None:
            raise IllegalAction(why, f"{player.name} may not buy {action.company} now")
        price = pos.price(action.company)
        holder = pos.companies.get(action.company) or pos.stadtbahn[action.company]
        if holder.ipo > 0:
            holder.ipo -= pos.ent.share_percent
        else:
            holder.pool -= pos.ent.share_percent
        player.shares[action.company] = (player.shares.get(action.company, 0)
                                         + pos.ent.share_percent)
        player.cash -= price
        log.append(f"{player.name} buys a 10% share of {action.company} for {price}")
        self._end_turn(pos, passed=False)

    def _pass(self, pos: Position, action: Pass, log: list[str]) -> None:
        """VII.1: end the turn; a pass when nothing was sold in it (the round ends when every
        player has passed in turn)."""
        passed = not self.sold_in_turn
        name = pos.players[self.acting(pos)].name
        log.append(f"{name} {'passes' if passed else 'ends the turn'}")
        self._end_turn(pos, passed=passed)

    FIRST: ClassVar[dict[type[Action], Handler]] = {Par: _par}
    """SR1 before the player directs a company (VII.5, R-SR-1)."""
    TURN: ClassVar[dict[type[Action], Handler]] = {
        Par: _par_again, SellShares: _sell, BuyShare: _buy, Pass: _pass}
    """A player's turn (VII.1)."""

    def _end_turn(self, pos: Position, passed: bool) -> None:
        self.passes = self.passes + 1 if passed else 0
        self.sold_in_turn = False
        self.turn_index = (self.turn_index + 1) % pos.n
        if self.passes >= pos.n:
            self.done = True


def begin(pos: Position, log: list[str]) -> ShareRound:
    share_round = pos.current_round = ShareRound(first=pos.round.name == "SR1")
    names = ", ".join(pos.players[s].name for s in pos.order)
    log.append(f"{pos.round.name} begins; order: {names}")
    return share_round


def _director_share_cost(pos: Position, price: int) -> int:
    """VII.5: the director's share costs its percentage at par (50% at 90: 450)."""
    return pos.ent.director_percent // pos.ent.share_percent * price
