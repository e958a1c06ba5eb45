"""Programmed actions of real 18xx.games records (issue 22, item 1): what a player's program
does is recorded as ``auto_actions`` of another action, often another player's (a
``buy_shares`` or a ``pass``), with the site's ``program_disable`` when the program is done,
several on one parent; ``program_*`` actions themselves change nothing.  The hand-built
exports (``exports/make_programmed.py``; the site's engine loads both with no error) write
Player 2006's buys of W in SR5 of the 2-player record as a ``program_buy_shares``: the import
is the record of the same game written without programs."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tramways.g1840.interop.actions18xx import Program
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import effective_actions, parse_export

EXPORTS = Path(__file__).parent / "exports"


def _load(name: str) -> dict:
    return json.loads((EXPORTS / f"{name}.json").read_text("utf-8"))


def _plain(data: dict) -> dict:
    """The same game without programs: every auto buy or pass as an action of its own."""
    out = copy.deepcopy(data)
    actions = []
    for action in out["actions"]:
        autos = action.pop("auto_actions", [])
        if not action["type"].startswith("program_"):
            actions.append(action)
        for auto in autos:
            if auto["type"] in ("buy_shares", "pass"):
                actions.append({**auto, "id": 20_000 + len(actions)})
            elif not auto["type"].startswith("program_"):
                actions[-1].setdefault("auto_actions", []).append(auto)
    out["actions"] = actions
    return out


@pytest.mark.parametrize("name", ["programmed_buy_shares", "programmed_pass_after"])
def test_program_buy_shares_auto_buys_for_another_player_import_as_their_buys(name):
    data = _load(name)
    export = parse_export(data)
    autos = [a.TYPE for e in export.actions for a in e.auto]
    assert autos.count("buy_shares") == 4 and "program_*" in autos  # program_disable
    programmed = import_export(export)
    plain = import_export(parse_export(_plain(data)))
    assert programmed.actions == plain.actions
    # Player 2006 (P1) bought W_2..W_5 in SR5 through the program
    assert programmed.actions[-12:].count("P1 buy W") == 4


def test_program_pass_after_and_disable_by_hand_change_nothing():
    export = parse_export(_load("programmed_pass_after"))
    parents = [e for e in export.actions if len(e.auto) == 2
               and {a.TYPE for a in e.auto} == {"pass", "program_*"}]
    assert len(parents) == 1  # two kinds of auto action on one parent
    by_hand = [e for e in export.actions if e.type == "program_disable"]
    assert len(by_hand) == 1 and isinstance(by_hand[0].action, Program)
    kinds = {e.action.TYPE for e in effective_actions(export)}
    assert "program_*" in kinds


def test_an_auto_action_of_another_kind_is_refused_in_one_line():
    data = _load("programmed_buy_shares")
    data["actions"][5]["auto_actions"] = [{"type": "lay_tile", "entity": "4",
                                           "entity_type": "corporation"}]
    with pytest.raises(ImportError18xx, match="'lay_tile' is not an auto action of 1840"):
        parse_export(data)
