"""The 1840 rule bot's decisions are pinned: speed-ups must leave every decision identical.

The action list of one 4-player game of four ``rule`` bots (seed 5) was recorded from main
a0b0385, before the search work of issue 13, and is replayed by the rule of thumb without the
track weight (``track_weight=0``: the positions the bot tests name come from such games); a
second game, recorded when the track weight became the default (main 4869bf7 + the change),
pins the ``rule`` bot as it plays now: its figures (rule vs random, four rule bots, decision
times) are measured and reported, so the bot it measures must not drift.
"""

from __future__ import annotations

from pathlib import Path

from tramways.bots import make_bot
from tramways.bots.match import play_match
from tramways.g1840.game import GAME

PINNED = Path(__file__).parent / "data" / "g1840_rule_4p_seed5.txt"
PINNED_TRACK = Path(__file__).parent / "data" / "g1840_rule_track_4p_seed5.txt"


def test_four_rule_bots_replay_the_pinned_game_action_for_action():
    recorded = PINNED.read_text().splitlines()
    bots = [make_bot("rule", GAME, track_weight=0.0) for _ in range(4)]
    session = play_match("1840", bots, 5, {"players": 4})
    played = [str(a) for a in session.record.actions]
    assert len(played) == len(recorded) == 674
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=True)):
        assert mine == theirs, f"action {i} differs: {mine!r} (recorded {theirs!r})"
    assert session.state.result()["wealth"] == [4726, 4249, 3123, 4847]


def test_four_rule_bots_with_the_track_weight_replay_their_pinned_game():
    recorded = PINNED_TRACK.read_text().splitlines()
    bots = [make_bot("rule", GAME) for _ in range(4)]
    session = play_match("1840", bots, 5, {"players": 4})
    played = [str(a) for a in session.record.actions]
    assert len(played) == len(recorded) == 724
    for i, (mine, theirs) in enumerate(zip(played, recorded, strict=True)):
        assert mine == theirs, f"action {i} differs: {mine!r} (recorded {theirs!r})"
    assert session.state.result()["wealth"] == [6609, 7630, 7518, 7527]
