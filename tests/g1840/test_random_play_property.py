"""Property: uniformly random play (over everything ``legal_actions`` offers the acting seat,
any-time actions included) always ends the game, and the Pre-Share Round within a bound.

Ten seeds per table size found, before the fixes, an IndexError in a mandatory purchase with
no tram left on sale (R-CR-5: 3 players small map seed 0, 5 players seed 7, 6 players seeds 1
and 9) and a Pre-Share Round restarting for ever (proposed R-PRE-5: 3 players small map seed
6, full map seed 8).
"""

from __future__ import annotations

import random

import pytest

from .test_game_support import make

SEEDS = range(10)
MAX_ACTIONS = 3000  # random games end in 130-650 actions
MAX_PRE_ACTIONS = 500  # their Pre-Share Rounds in 20-70


@pytest.mark.parametrize(("players", "small_map"),
                         [(2, False), (3, True), (3, False), (4, False), (5, False), (6, False)])
def test_random_play_always_ends(players: int, small_map: bool) -> None:
    for seed in SEEDS:
        state = make(players, small_map=small_map, seed=seed)
        rng = random.Random(seed)
        played = pre = 0
        while not state.is_over() and played < MAX_ACTIONS:
            seat = state.current_players()[0]
            pre += state.round.name == "PRE"
            state.apply(rng.choice(state.legal_actions(seat)))
            played += 1
            assert pre <= MAX_PRE_ACTIONS, f"seed {seed}: the Pre-Share Round does not end"
        assert state.is_over(), f"seed {seed}: not over after {played} actions"
        assert state.round.name == "CR6"
