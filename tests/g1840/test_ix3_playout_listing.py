"""A search play-out's shorter list of a line's turn (``LineRound.playout_actions``, IX.3,
R-LR-1): only legal actions, every tile lay of the full list in its order (IX.4, IX.5), the
bonus skip and the run where the full list has them, no private purchase (IV.2); none under
the 18xx.games ruleset (X-23).  Checked at every Line Round position of random games."""

from __future__ import annotations

import random

import pytest

from tramways.g1840.actions import BuyPrivate, LayTile, Run, SkipBonus

from .test_game_support import make

KEPT = (LayTile, SkipBonus, Run)


@pytest.mark.parametrize("ruleset", ["rules", "18xx.games"])
def test_ix3_playout_listing_is_legal_and_keeps_every_lay_and_the_run(ruleset: str) -> None:
    checked = lays = 0
    for seed in range(4):
        state = make(4, seed=seed, ruleset=ruleset)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            listing = getattr(state.current_round, "playout_actions", None)
            short = listing(state) if listing is not None else None
            if short is not None:
                assert all(a in legal for a in short)
                assert [a for a in short if isinstance(a, KEPT)] == \
                    [a for a in legal if isinstance(a, KEPT)]
                assert not any(isinstance(a, BuyPrivate) for a in short)
                assert isinstance(short[-1], Run)
                lays += sum(isinstance(a, LayTile) for a in short)
                checked += 1
            state.apply(rng.choice(legal), seat)
    if ruleset == "rules":
        assert checked > 200
        assert lays > 1000
    else:
        assert checked == 0
