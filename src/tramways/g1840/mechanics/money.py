"""Payments that fall on a company's director (VIII.5.3, IX.8, R-LR-9): loans when short."""

from __future__ import annotations

from tramways.g1840.position import Position, TramCompany


def pay_from_director(pos: Position, company: TramCompany, amount: int, log: list[str]) -> None:
    """The director pays ``amount``, taking as many loans as needed (VIII.5.3, IX.8)."""
    player = pos.players[company.director]
    if player.cash < amount:
        shortfall = amount - player.cash
        loans = -(-shortfall // pos.ent.loan_amount)
        player.loans += loans
        player.cash += loans * pos.ent.loan_amount
        log.append(f"{player.name} takes {loans} loan(s) of {pos.ent.loan_amount}")
    player.cash -= amount
