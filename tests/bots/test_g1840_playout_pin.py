"""The search's play-out policy is pinned: its speed-ups must leave every choice identical.

A play-out (``g1840_search.rule_playout``) lets the rule bot weigh two tile lays drawn at
random per Line Round decision (IX.4, IX.8) in every seat.  The action list of one 4-player
game played that way from seed 5 (``Rules1840(view, legal, 2, rng)`` in every seat, the bot
rng derived per seat) was recorded from main 8c671ef, before the play-out speed-ups of issue
27 item 5 (the one-pass ``Firsts``, the lays weighed without the private purchases, the track
graph derived from the nearest cached board).  The play-outs' own shorter listing of a line's
turn and the model on the position's own board (``bots/g1840_playout.py``) replay it too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tramways.bots.g1840_playout import PositionModel, playout_actions
from tramways.bots.g1840_rule import Rules1840
from tramways.bots.g1840_search import PLAYOUT_LAYS
from tramways.core import Session, derive_rng
from tramways.core.actions import moves

PINNED = Path(__file__).parent / "data" / "g1840_playout_4p_seed5.txt"


def playout_game(seed: int, fast: bool = False) -> tuple[list[str], list[int]]:
    """Four seats of the play-out policy from ``seed``: the actions and the final wealth;
    ``fast``: from the play-outs' own listing, with the model on the position's board."""
    session = Session.new("1840", {"players": 4}, seed)
    rngs = [derive_rng(seed, "playout", i) for i in range(4)]
    state = session.state
    while not state.is_over():
        seat = state.current_players()[0]
        legal = playout_actions(state, seat) if fast else moves(state.legal_actions(seat))
        if len(legal) == 1:
            action = legal[0]
        else:
            view = state.view(seat)
            model = PositionModel(view, state) if fast else None
            action = Rules1840(view, legal, PLAYOUT_LAYS, rngs[seat], model=model).decide()[0]
        session.play(action, seat=seat)
        state = session.state
    return [str(a) for a in session.record.actions], list(state.result()["wealth"])


@pytest.mark.parametrize("fast", [False, True], ids=["engine_listing", "playout_listing"])
def test_ix4_playout_policy_replays_its_pinned_game_action_for_action(fast: bool) -> None:
    recorded = PINNED.read_text().splitlines()
    played, wealth = playout_game(5, fast)
    assert len(played) == len(recorded) - 1
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=False)):
        assert mine == theirs, f"action {i} differs: {mine!r} (recorded {theirs!r})"
    assert recorded[-1] == "wealth " + " ".join(map(str, wealth))
