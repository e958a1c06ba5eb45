"""Importing 18xx.games exports as records (mapping, importer): the oracle, an unfinished game,
a game ended early, and a result that does not match."""

from __future__ import annotations

import copy
import json

import pytest

from tramways.core.replay import Session
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.importer import import_export, missing_engine_support
from tramways.g1840.interop.log18xx import load_export, parse_export

from .helpers import cached_trace

pytest.importorskip("tramways.g1840.game")


@pytest.fixture
def raw(oracle_dir):
    return json.loads((oracle_dir / "2player.json").read_text("utf-8"))


@pytest.fixture
def ready(raw):
    missing = missing_engine_support(parse_export(raw))
    if missing:
        pytest.skip("; ".join(missing))


def test_xi_oracle_imports_and_replays_to_the_sites_result(raw, ready, oracle_dir):
    export = parse_export(raw)
    record = import_export(export, cached_trace(oracle_dir / "2player.trace.jsonl"))
    assert record.settings == {"players": 2, "small_map": False,
                               "names": ["Player 1", "Player 2"], "ruleset": "18xx.games",
                               "edition": 2}  # R-VERSION-1: an import is a new record
    assert record.setup["line_display"] == [4, 5, 18]
    assert record.setup["tram_companies"] == ["GW", "WT"]
    assert record.meta["game_id"] == 133875 and record.meta["ended_early"] is False
    assert record.actions[:3] == ["P1 bid KK 20", "P2 pass", "P2 bid SB 30"]
    state = Session.from_record(record).state
    assert state.is_over()
    assert state.result()["wealth"] == [8351, 7618]


def _prefix(raw, n, status="active"):
    data = copy.deepcopy(raw)
    data["actions"] = data["actions"][:n]
    data["status"], data["result"], data["game_end_reason"] = status, None, None
    return data


def test_an_unfinished_game_imports_where_it_stands(raw, ready):
    """The first 150 actions: no trace, no result; the record replays to CR3."""
    record = import_export(parse_export(_prefix(raw, 150)))
    state = Session.from_record(record).state
    assert not state.is_over()
    assert state.view(None).to_json()["round"] == "CR3"
    assert record.meta["status"] == "active"


def test_a_game_ended_early_stops_at_its_end_game(raw, ready):
    data = _prefix(raw, 120, status="finished")
    data["actions"].append({"type": "end_game", "entity": 2006, "entity_type": "player",
                            "id": 5000})
    record = import_export(parse_export(data))
    assert record.meta["ended_early"] is True
    assert not Session.from_record(record).state.is_over()


def test_actions_after_end_game_are_refused(raw, ready):
    data = _prefix(raw, 20)
    data["actions"].insert(10, {"type": "end_game", "entity": 2006, "entity_type": "player",
                                "id": 5000})
    with pytest.raises(ImportError18xx, match="action 11: an action after end_game"):
        import_export(parse_export(data))


def test_a_result_our_replay_does_not_reach_is_refused(raw, ready):
    data = copy.deepcopy(raw)
    data["result"] = {"2006": 8350, "621": 7618}
    with pytest.raises(ImportError18xx, match="the site's result gives Player 1 8350, "
                                              "our replay 8351"):
        import_export(parse_export(data))


def test_a_trace_of_the_same_game_that_disagrees_is_reported(raw, ready, oracle_dir, tmp_path):
    lines = (oracle_dir / "2player.trace.jsonl").read_text("utf-8").splitlines()
    entry = json.loads(lines[1 + 13])
    entry["state"]["players"]["2006"]["cash"] += 5
    lines[1 + 13] = json.dumps(entry)
    path = tmp_path / "bad.trace.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    from tramways.g1840.interop.trace import read_trace

    with pytest.raises(ImportError18xx) as info:
        import_export(load_export(oracle_dir / "2player.json"), read_trace(path))
    assert str(info.value) == ("cannot import: action 13 (par by 2006): "
                               "player:Player 1.cash is 145, expected 150")
