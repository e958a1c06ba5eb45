"""Private companies (IV.2), in one home: returns to the bank (a player's or a company's, at
any time, for face value), the dividends they pay (VIII.2 CRa, R-PRE-3, R-CR-3) and their sale
to a tram company (from LR2a, for 1 up to face value)."""

from __future__ import annotations

from tramways.core.errors import IllegalAction
from tramways.g1840.position import Position, TramCompany


def return_to_bank(pos: Position, owner: int | TramCompany, private: str,
                   log: list[str]) -> None:
    """IV.2: "may be voluntarily returned to the Bank at any time" for its face value, paid to
    its owner: a player (a seat), or a company (to its treasury).  The printed face value,
    even if it was bought for less in the Pre-Share Round (R-PRE-4)."""
    held = owner.privates if isinstance(owner, TramCompany) else pos.players[owner].privates
    name = owner.id if isinstance(owner, TramCompany) else pos.players[owner].name
    if private not in held:
        raise IllegalAction("IV.2", f"{name} does not own {private}")
    face = pos.ent.privates[private].face_value
    held.remove(private)
    if isinstance(owner, TramCompany):
        owner.treasury += face
    else:
        pos.players[owner].cash += face
    del pos.private_owner[private]
    pos.closed_privates.append(private)
    log.append(f"{name} returns {private} to the bank for {face}")


def pay_dividends(pos: Position, log: list[str]) -> None:
    """VIII.2 / R-CR-3 (and R-PRE-3): every owned private pays its dividend to its owner."""
    for p, owner in pos.private_owner.items():
        if owner is None:
            continue
        amount = pos.ent.privates[p].dividend
        if isinstance(owner, int):
            pos.players[owner].cash += amount
            log.append(f"{p} pays {amount} to {pos.players[owner].name}")
        else:
            pos.companies[owner].treasury += amount
            log.append(f"{p} pays {amount} to {owner}")


def sale_prices(pos: Position, company: TramCompany) -> list[tuple[str, int]]:
    """IV.2: from LR2a a company may buy a player's private for 1 up to its face value, from
    its treasury (from its director at once, from another player if that player accepts); the
    printed face value, whatever the private cost in the Pre-Share Round (R-PRE-4)."""
    if pos.round_index < _lr2a_index(pos):
        return []
    out: list[tuple[str, int]] = []
    for player in pos.players:
        for p in player.privates:
            face = pos.ent.privates[p].face_value
            out.extend((p, price) for price in range(1, min(face, company.treasury) + 1))
    return out


def sale_price_ok(pos: Position, company: TramCompany, private: str, price: int) -> bool:
    """Whether ``(private, price)`` is one of :func:`sale_prices` (without listing them)."""
    if pos.round_index < _lr2a_index(pos):
        return False
    if not any(private in player.privates for player in pos.players):
        return False
    return 1 <= price <= min(pos.ent.privates[private].face_value, company.treasury)


def has_sale_price(pos: Position, company: TramCompany) -> bool:
    """Whether :func:`sale_prices` lists anything (without listing it): from LR2a, a player
    holds a private and the treasury holds at least 1."""
    if company.treasury < 1 or pos.round_index < _lr2a_index(pos):
        return False
    return any(pos.ent.privates[p].face_value >= 1
               for player in pos.players for p in player.privates)


def sell_to_company(pos: Position, company: TramCompany, private: str, price: int, seat: int,
                    log: list[str]) -> None:
    """IV.2: the sale of a player's private to a company (agreed at ``price``)."""
    seller = pos.players[seat]
    seller.privates.remove(private)
    seller.cash += price
    company.treasury -= price
    company.privates.append(private)
    pos.private_owner[private] = company.id
    log.append(f"{company.id} buys {private} from {seller.name} for {price}")


_LR2A: dict[int, tuple[object, int]] = {}


def _lr2a_index(pos: Position) -> int:
    """The Round Bar position of LR2a (IV.2), kept per entities table."""
    ent = pos.ent
    found = _LR2A.get(id(ent))
    if found is None or found[0] is not ent:
        found = _LR2A[id(ent)] = (
            ent, next(i for i, r in enumerate(ent.round_bar) if r.name == "LR2a"))
    return found[1]
