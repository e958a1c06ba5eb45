"""The old Trambahn search stays the old one (issue 13: the new search is measured against
``SearchBot(legacy=True)``, the search as it was when the issue was filed).

``data/trambahn_legacy_pin.json`` holds whole games recorded from main a0b0385, before the
new search got its own policy: legacy against legacy, the rule bot against legacy and legacy
against the rule bot, at fixed seeds.  Both the legacy search and the ``rule`` bot (whose
rule of thumb the legacy search plays out) must reproduce every action and the final scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tramways.bots import make_bot
from tramways.bots.match import play_match
from tramways.trambahn.game import GAME

PINS = json.loads((Path(__file__).parent / "data" / "trambahn_legacy_pin.json").read_text())


@pytest.mark.parametrize("label", sorted(PINS))
def test_legacy_search_and_rule_bot_replay_the_games_recorded_before_issue_13_work(label):
    pin = PINS[label]
    bots = [make_bot("search", GAME, legacy=True) if name == "legacy" else make_bot(name, GAME)
            for name in pin["seats"]]
    session = play_match("trambahn", bots, pin["seed"])
    assert list(session.record.actions) == pin["actions"]
    assert session.state.result()["scores"] == pin["scores"]
