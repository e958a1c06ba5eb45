"""Share Rounds (VII; X.3; R-SR-1..3).

A turn: sell any number of shares (not in SR1, never the director's share), then buy one
certificate or end the turn.  SR1 opens with every player buying a director's share
(VII.5, R-SR-1).  The round ends when every player has passed in turn; then sold-out tram
companies rise one space (X.3, R-SR-2) and the new playing order is by most cash (VII.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import BuyShare, Par, Pass, ReturnPrivate, SellShares
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.rounds.base import PlayersRound


@dataclass
class ShareRound(PlayersRound):
    """A Share Round's progress."""

    first: bool
    turn_pos: int = 0
    passes: int = 0
    sold_in_turn: bool = False
    sold: dict[int, set[str]] = field(default_factory=dict)
    done: bool = False

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
        return "VII.2"


def begin(state: Position, log: list[str]) -> ShareRound:
    sub = state.sub = ShareRound(first=state.round.name == "SR1")
    names = ", ".join(state.players[s].name for s in state.order)
    log.append(f"{state.round.name} begins; order: {names}")
    return sub


def acting(state: Position) -> int:
    return state.order[_progress(state).turn_pos]


def _available(state: Position, company: str) -> int:
    holder = state.companies.get(company) or state.stadtbahn.get(company)
    return 0 if holder is None else holder.ipo + holder.pool


def can_buy(state: Position, seat: int, company: str) -> str | None:
    """Why ``seat`` may not buy a share of ``company`` now (None if it may): VII.3, VII.6."""
    sub = _progress(state)
    player = state.players[seat]
    if company not in state.companies and company not in state.stadtbahn:
        return "VII.6"
    if _available(state, company) <= 0:
        return "VII.6"
    if company in sub.sold.get(seat, set()):
        return "VII.6"
    if player.cash < state.price(company):
        return "VII.6"
    if player.shares.get(company, 0) >= state.ent.max_percent:
        return "VII.3"
    if state.certificates(seat) >= state.cert_limit():
        return "VII.3"
    return None


def sellable(state: Position, seat: int, company: str) -> int:
    """How many 10% shares ``seat`` may sell of ``company`` (VII.4, R-SR-3)."""
    if _progress(state).first:
        return 0
    pct = state.players[seat].shares.get(company, 0)
    tram = state.companies.get(company)
    if tram is not None and tram.director == seat:
        pct -= state.ent.director_percent
    return max(pct, 0) // state.ent.share_percent


def legal(state: Position) -> list[Action]:
    sub = _progress(state)
    seat = acting(state)
    player = state.players[seat]
    if sub.first and not _is_director(state, seat):
        return [
            Par(seat, company, price)
            for company in state.unchosen
            for price in state.ent.par_prices
            if _director_share_cost(state, price) - player.pre_emptive <= player.cash
        ]
    out: list[Action] = []
    for company in list(state.companies) + list(state.stadtbahn):
        for count in range(1, sellable(state, seat, company) + 1):
            out.append(SellShares(seat, company, count))
    for company in list(state.companies) + list(state.stadtbahn):
        if can_buy(state, seat, company) is None:
            out.append(BuyShare(seat, company))
    out.extend(ReturnPrivate(seat, p) for p in player.privates)
    out.append(Pass(seat))
    return out


def _is_director(state: Position, seat: int) -> bool:
    return any(c.director == seat for c in state.companies.values())


def apply(state: Position, action: Action, log: list[str]) -> None:
    sub = _progress(state)
    seat = acting(state)
    player = state.players[seat]
    if sub.first and not _is_director(state, seat):
        if not isinstance(action, Par):
            raise IllegalAction("R-SR-1", "buy a director's share first")
        _par(state, seat, action, log)
        _end_turn(state, passed=False)
        return
    if isinstance(action, Par):
        raise IllegalAction("IV.1.2", "each player directs exactly one tram company")
    if isinstance(action, SellShares):
        _sell(state, sub, seat, action, log)
        return
    if isinstance(action, BuyShare):
        _buy(state, seat, action, log)
        _end_turn(state, passed=False)
        return
    if isinstance(action, Pass):
        passed = not sub.sold_in_turn
        log.append(f"{player.name} {'passes' if passed else 'ends the turn'}")
        _end_turn(state, passed=passed)
        return
    raise IllegalAction("VII.1", "sell, buy or pass in a Share Round")


def _sell(state: Position, sub: ShareRound, seat: int, action: SellShares,
          log: list[str]) -> None:
    """VII.4: sell shares to the pool (not in SR1, never the director's share); the price
    drops a row per share (X.3); no buying back this round."""
    player = state.players[seat]
    if sub.first:
        raise IllegalAction("VII.4", "no selling in the First Share Round")
    if action.count < 1 or action.count > sellable(state, seat, action.company):
        raise IllegalAction("VII.4", f"{player.name} cannot sell {action.count} "
                            f"of {action.company} (the director's share is never sold)")
    price = state.price(action.company)
    if action.price is not None and action.price != price:
        if not state.rules.sale_at_recorded_price:
            raise IllegalAction("VII.4", f"shares sell at the current price, {price}")
        price = action.price  # X-19 (proposed): the site pays the price its sale records
    holder = state.companies.get(action.company) or state.stadtbahn[action.company]
    player.shares[action.company] -= state.ent.share_percent * action.count
    if not player.shares[action.company]:
        del player.shares[action.company]
    holder.pool += state.ent.share_percent * action.count
    player.cash += price * action.count
    state.market.move_down(action.company, action.count)
    sub.sold.setdefault(seat, set()).add(action.company)
    sub.sold_in_turn = True
    log.append(f"{player.name} sells {action.count} {action.company} at {price}; "
               f"price now {state.price(action.company)}")


def _buy(state: Position, seat: int, action: BuyShare, log: list[str]) -> None:
    """VII.6: buy one 10% share at the current price, unsold shares first, then the pool."""
    player = state.players[seat]
    why = can_buy(state, seat, action.company)
    if why is not None:
        raise IllegalAction(why, f"{player.name} may not buy {action.company} now")
    price = state.price(action.company)
    holder = state.companies.get(action.company) or state.stadtbahn[action.company]
    if holder.ipo > 0:
        holder.ipo -= state.ent.share_percent
    else:
        holder.pool -= state.ent.share_percent
    player.shares[action.company] = (player.shares.get(action.company, 0)
                                     + state.ent.share_percent)
    player.cash -= price
    log.append(f"{player.name} buys a 10% share of {action.company} for {price}")


def _par(state: Position, seat: int, action: Par, log: list[str]) -> None:
    """VII.5: the director's share at par 70/80/90/100; Pre-emptive Right card first."""
    player = state.players[seat]
    if action.company not in state.unchosen:
        raise IllegalAction("R-SETUP-1", f"{action.company} is not available")
    if action.price not in state.ent.par_prices:
        raise IllegalAction("IV.1.2", "par must be 70, 80, 90 or 100")
    cost = _director_share_cost(state, action.price) - player.pre_emptive
    if cost > player.cash:
        raise IllegalAction("VII.5", f"{player.name} cannot pay {cost} above the card")
    capital = state.ent.shares * action.price  # IV.1.2: ten times the par price
    player.cash -= cost
    player.pre_emptive = 0
    state.unchosen.remove(action.company)
    state.companies[action.company] = TramCompany(
        id=action.company, director=seat, par=action.price, treasury=capital
    )
    player.shares[action.company] = state.ent.director_percent
    state.market.place(action.company, state.ent.tram_par_cells[action.price])
    log.append(f"{player.name} pars {action.company} at {action.price} "
               f"(pays {cost} besides the Pre-emptive Right); treasury {capital}")
    if len(state.companies) == state.n:
        log.append(f"Unchosen tram companies leave the game: {', '.join(state.unchosen)}")
        state.unchosen = []


def _director_share_cost(state: Position, price: int) -> int:
    """VII.5: the director's share costs its percentage at par (50% at 90: 450)."""
    return state.ent.director_percent // state.ent.share_percent * price


def _end_turn(state: Position, passed: bool) -> None:
    sub = _progress(state)
    sub.passes = sub.passes + 1 if passed else 0
    sub.sold_in_turn = False
    sub.turn_pos = (sub.turn_pos + 1) % state.n
    if sub.passes >= state.n:
        sub.done = True


def settle(state: Position, log: list[str]) -> bool:
    """End of round: X.3 sold-out rise (tram companies, R-SR-2), VII.2 new order."""
    sub = _progress(state)
    if not sub.done:
        return False
    risers = list(state.companies) + (list(state.stadtbahn) if state.rules.stadtbahn_sold_out_rise else [])
    for company in state.market.order(risers):
        tram = state.companies.get(company) or state.stadtbahn[company]
        if tram.ipo == 0 and tram.pool == 0:
            before = state.price(company)
            state.market.move_up(company)
            after = state.price(company)
            log.append(f"{company} is sold out: price rises from {before} to {after}"
                       if after != before else
                       f"{company} is sold out, on the top row: price stays at {after} (X.3)")
    old = {seat: i for i, seat in enumerate(state.order)}
    state.order = sorted(range(state.n), key=lambda s: (-state.players[s].cash, old[s]))
    log.append("New playing order: " + ", ".join(state.players[s].name for s in state.order))
    return True


def _progress(pos: Position) -> ShareRound:
    sub = pos.sub
    assert isinstance(sub, ShareRound)
    return sub
