"""A simple selfplay policy: random legal actions, tamed so games finish quickly.

Uniformly random play would bid fortunes and scrap its trams; this policy still picks only from
``legal_actions`` but prefers small bids, ends turns often and rarely scraps or returns
privates.  It is for tests and benchmarks, not for strength.
"""

from __future__ import annotations

import random

from tramways.core.actions import Action
from tramways.g1840.actions import (
    Arrange,
    Bid,
    BuyPrivate,
    BuyShare,
    CompanyPass,
    CompanyReturnPrivate,
    Dividend,
    Done,
    LineBid,
    OpenAuction,
    Pass,
    ReturnPrivate,
    Run,
    ScrapTram,
    SellShares,
)
from tramways.g1840.engine import State1840


def policy(pos: State1840, player: int, rng: random.Random) -> Action:
    actions = pos.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    kinds: dict[type, list[Action]] = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    rare = (ScrapTram, ReturnPrivate, CompanyReturnPrivate, BuyPrivate, Arrange)
    common = [a for a in actions if not isinstance(a, rare)]
    if rng.random() < 0.02 or not common:
        return rng.choice(actions)
    if Bid in kinds:
        if Pass in kinds and rng.random() < 0.4:
            return kinds[Pass][0]
        bids = sorted(kinds[Bid], key=lambda b: int(getattr(b, "amount", 0)))
        return rng.choice(bids[: max(1, len(bids) // 20)] if len(bids) > 3 else bids)
    if OpenAuction in kinds or LineBid in kinds:
        if rng.random() < 0.25:
            return kinds.get(CompanyPass, actions)[0]
        bids = kinds.get(OpenAuction) or kinds.get(LineBid) or actions
        low = min(int(getattr(b, "amount", 0)) for b in bids)
        return rng.choice([b for b in bids if int(getattr(b, "amount", 0)) <= low + 10])
    if Dividend in kinds:
        divs = kinds[Dividend]
        return rng.choice([divs[0], divs[-1], divs[len(divs) // 2]])
    if Run in kinds:
        if rng.random() < 0.35:
            return kinds[Run][0]
        others = [a for a in common if not isinstance(a, Run)]
        return rng.choice(others) if others else kinds[Run][0]
    if Done in kinds:
        if rng.random() < 0.5:
            return kinds[Done][0]
        others = [a for a in common if not isinstance(a, Done)]
        return rng.choice(others) if others else kinds[Done][0]
    if Pass in kinds and (BuyShare in kinds or SellShares in kinds):
        r = rng.random()
        if r < 0.3:
            return kinds[Pass][0]
        if SellShares in kinds and r < 0.4:
            return rng.choice(kinds[SellShares])
        if BuyShare in kinds:
            return rng.choice(kinds[BuyShare])
        return kinds[Pass][0]
    return rng.choice(common)
