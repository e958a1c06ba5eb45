"""Whole 1840 games played by the rule bot (issue 13: bots make the random tests realistic).

Uniformly random play builds little track and ends in debt; rule bots build long lines, buy
every colour of tram, run full Stadtbahn multipliers and end with thousands
(two-player games build least: 11 tiles on one seed).  These games
check, after every action, the engine's invariants (:mod:`tramways.g1840.invariants`: shares
sum to 100%, no negative cash, certificate limits (VII.3), the tile chart, at most six
markers a line (IX.6)), that every action's notation parses and prints back to itself, and that
the record replays to the same result (XI, R-END-1).
"""

from __future__ import annotations

import pytest

from tramways.bots import make_bot
from tramways.bots.match import bot_policy
from tramways.core.replay import Session
from tramways.core.selfplay import play_game
from tramways.g1840 import invariants
from tramways.g1840.game import GAME


@pytest.mark.parametrize(
    ("bots", "settings", "seed"),
    [
        ("rule,rule", {}, 1),  # XIII: two players on the overlay
        ("rule,rule,random", {"small_map": True}, 2),  # XII: three on the small map
        ("rule,rule,rule", {}, 3),
        ("rule,rule,rule,rule", {}, 4),
        ("rule,random,rule,rule,rule", {}, 5),
        ("rule,random,rule,random,rule,random", {}, 6),
        ("rule,rule,rule,rule", {"ruleset": "18xx.games"}, 7),
    ],
)
def test_xi_rule_bot_games_keep_every_invariant_and_replay(bots: str, settings: dict,
                                                            seed: int) -> None:
    names = bots.split(",")
    players = [make_bot(n, GAME) for n in names]
    outcome = play_game("1840", {"players": len(names), **settings}, seed,
                        policy=bot_policy(GAME, players, seed), check=invariants.check)
    assert outcome.finished
    state = outcome.session.state
    assert state.round.name == "CR6"  # XI: the game ends after the sixth Company Round
    record = outcome.session.record
    for text in record.actions:  # every notation parses back to itself
        assert GAME.format_action(GAME.parse_action(text)) == text
    again = Session.from_record(record)
    assert again.state.result() == outcome.result
    wealth = outcome.result["wealth"]
    rule_seats = [s for s, n in enumerate(names) if n == "rule"]
    # sensible play: the rule bots end above water, the best of them with more than 1,000
    # (these seeds: 1,970-6,890), and they build (these seeds: 11-51 tiles on the map)
    assert min(wealth[s] for s in rule_seats) > 0
    assert max(wealth[s] for s in rule_seats) > 1000
    assert len(state.board.placed()) >= 10
