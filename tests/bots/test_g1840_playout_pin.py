"""The search's play-out policy is pinned: its speed-ups must leave every choice identical.

A play-out (``g1840_search.rule_playout``) lets the rule bot weigh two tile lays drawn at
random per Line Round decision (IX.4, IX.8) in every seat.  The action list of one 4-player
game played that way from seed 5 (``Rules1840(view, legal, 2, rng)`` in every seat, the bot
rng derived per seat) was recorded from main 8c671ef, before the play-out speed-ups of issue
27 item 5 (the one-pass ``Firsts``, the lays weighed without the private purchases, the track
graph derived from the nearest cached board).
"""

from __future__ import annotations

from pathlib import Path

from tramways.bots.g1840_rule import Rules1840
from tramways.bots.g1840_search import PLAYOUT_LAYS
from tramways.core import Session, derive_rng
from tramways.core.actions import moves

PINNED = Path(__file__).parent / "data" / "g1840_playout_4p_seed5.txt"


def playout_game(seed: int) -> tuple[list[str], list[int]]:
    """Four seats of the play-out policy from ``seed``: the actions and the final wealth."""
    session = Session.new("1840", {"players": 4}, seed)
    rngs = [derive_rng(seed, "playout", i) for i in range(4)]
    state = session.state
    while not state.is_over():
        seat = state.current_players()[0]
        legal = moves(state.legal_actions(seat))
        action = legal[0] if len(legal) == 1 else \
            Rules1840(state.view(seat), legal, PLAYOUT_LAYS, rngs[seat]).decide()[0]
        session.play(action, seat=seat)
        state = session.state
    return [str(a) for a in session.record.actions], list(state.result()["wealth"])


def test_ix4_playout_policy_replays_its_pinned_game_action_for_action() -> None:
    recorded = PINNED.read_text().splitlines()
    played, wealth = playout_game(5)
    assert len(played) == len(recorded) - 1
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=False)):
        assert mine == theirs, f"action {i} differs: {mine!r} (recorded {theirs!r})"
    assert recorded[-1] == "wealth " + " ".join(map(str, wealth))
