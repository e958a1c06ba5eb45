"""Whole random games for 2-6 players with the invariants checked after every action."""

from __future__ import annotations

import pytest

from tramways.core.replay import Session
from tramways.core.selfplay import play_game
from tramways.g1840 import invariants


@pytest.mark.parametrize(
    ("players", "small_map", "seed"),
    [(2, False, 1), (3, False, 2), (3, True, 3), (4, False, 4), (5, False, 5), (6, False, 6)],
)
def test_selfplay_finishes_with_invariants(players: int, small_map: bool, seed: int) -> None:
    settings = {"players": players, "small_map": small_map}
    outcome = play_game("1840", settings, seed, check=invariants.check)
    assert outcome.finished
    result = outcome.result
    assert len(result["wealth"]) == players and min(result["rank"]) == 1
    # the record replays to the same result
    again = Session.from_record(outcome.session.record)
    assert again.state.is_over() and again.state.result() == result


def test_selfplay_views_and_clone() -> None:
    outcome = play_game("1840", {"players": 3}, 11)
    state = outcome.session.state
    view = state.view(0).to_json()
    assert view["finished"] and view == state.view(None).to_json() | {"viewer": 0}
    for p in view["players"]:
        assert {"name", "cash", "loans", "value", "shares", "privates"} <= set(p)
    clone = state.clone()
    assert clone.result() == state.result()


@pytest.mark.parametrize(("players", "seed"), [(3, 31), (5, 32)])
def test_selfplay_18xx_ruleset_finishes_with_invariants(players: int, seed: int) -> None:
    settings = {"players": players, "ruleset": "18xx.games"}
    outcome = play_game("1840", settings, seed, check=invariants.check)
    assert outcome.finished
    again = Session.from_record(outcome.session.record)
    assert again.state.result() == outcome.result
