"""The 1840 rule bot's decisions are pinned: speed-ups must leave every decision identical.

The action list of one 4-player game of four ``rule`` bots (seed 5) was recorded from main
a0b0385, before the search work of issue 13; its figures (rule vs random, four rule bots,
decision times) are measured and reported, so the bot it measures must not drift.  A second
game pins the rule bot with the search policy's track weight (``track_weight=TRACK_WEIGHT``,
recorded at main 4869bf7), whose figures the bot's docstring reports.
"""

from __future__ import annotations

from pathlib import Path

from tramways.bots import make_bot
from tramways.bots.g1840_rule import TRACK_WEIGHT
from tramways.bots.match import play_match
from tramways.g1840.game import GAME

PINNED = Path(__file__).parent / "data" / "g1840_rule_4p_seed5.txt"
PINNED_TRACK = Path(__file__).parent / "data" / "g1840_rule_track_4p_seed5.txt"


def _replay_pinned(pinned: Path, actions: int, **options: float) -> list[int]:
    """Play four rule bots (``options``) from seed 5 and compare every action with the
    pinned list; return the final wealth."""
    recorded = pinned.read_text().splitlines()
    bots = [make_bot("rule", GAME, **options) for _ in range(4)]
    session = play_match("1840", bots, 5, {"players": 4})
    played = [str(a) for a in session.record.actions]
    assert len(played) == len(recorded) == actions
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=True)):
        assert mine == theirs, f"action {i} differs: {mine!r} (recorded {theirs!r})"
    return list(session.state.result()["wealth"])


def test_four_rule_bots_replay_the_pinned_game_action_for_action():
    assert _replay_pinned(PINNED, 674) == [4726, 4249, 3123, 4847]


def test_four_rule_bots_with_the_track_weight_replay_their_pinned_game():
    assert _replay_pinned(PINNED_TRACK, 724, track_weight=TRACK_WEIGHT) == [6609, 7630, 7518,
                                                                           7527]
