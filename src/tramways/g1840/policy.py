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

Kinds = dict[type, list[Action]]
"""The legal actions by type."""


def policy(pos: State1840, player: int, rng: random.Random) -> Action:
    actions = pos.legal_actions(player)
    if len(actions) == 1:
        return actions[0]
    kinds: Kinds = {}
    for a in actions:
        kinds.setdefault(type(a), []).append(a)
    rare = (ScrapTram, ReturnPrivate, CompanyReturnPrivate, BuyPrivate, Arrange)
    common = [a for a in actions if not isinstance(a, rare)]
    if rng.random() < 0.02 or not common:
        return rng.choice(actions)
    if Bid in kinds:
        return _private_auction(kinds, rng)
    if OpenAuction in kinds or LineBid in kinds:
        return _line_auction(kinds, actions, rng)
    if Dividend in kinds:
        divs = kinds[Dividend]
        return rng.choice([divs[0], divs[-1], divs[len(divs) // 2]])
    if Run in kinds:
        return _now_or_other(kinds[Run][0], 0.35, common, rng)
    if Done in kinds:
        return _now_or_other(kinds[Done][0], 0.5, common, rng)
    if Pass in kinds and (BuyShare in kinds or SellShares in kinds):
        return _share_turn(kinds, rng)
    return rng.choice(common)


def _amount(action: Action) -> int:
    return int(getattr(action, "amount", 0))


def _private_auction(kinds: Kinds, rng: random.Random) -> Action:
    """Pass often; otherwise one of the lowest bids."""
    if Pass in kinds and rng.random() < 0.4:
        return kinds[Pass][0]
    bids = sorted(kinds[Bid], key=_amount)
    return rng.choice(bids[: max(1, len(bids) // 20)] if len(bids) > 3 else bids)


def _line_auction(kinds: Kinds, actions: list[Action], rng: random.Random) -> Action:
    """Pass now and then; otherwise a bid within 10 of the lowest."""
    if rng.random() < 0.25:
        return kinds.get(CompanyPass, actions)[0]
    bids = kinds.get(OpenAuction) or kinds.get(LineBid) or actions
    low = min(_amount(b) for b in bids)
    return rng.choice([b for b in bids if _amount(b) <= low + 10])


def _now_or_other(ending: Action, chance: float, common: list[Action],
                  rng: random.Random) -> Action:
    """``ending`` (a run, the end of a turn) with ``chance``, otherwise another common action
    of a different kind."""
    if rng.random() < chance:
        return ending
    others = [a for a in common if not isinstance(a, type(ending))]
    return rng.choice(others) if others else ending


def _share_turn(kinds: Kinds, rng: random.Random) -> Action:
    """Pass, sell now and then, otherwise buy."""
    r = rng.random()
    if r < 0.3:
        return kinds[Pass][0]
    if SellShares in kinds and r < 0.4:
        return rng.choice(kinds[SellShares])
    if BuyShare in kinds:
        return rng.choice(kinds[BuyShare])
    return kinds[Pass][0]
