"""Reading an 18xx.games export: validation, undo/redo resolution, auto actions."""

from __future__ import annotations

import json

import pytest

from tramways.core.errors import RecordError
from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.log18xx import (
    ImportError18xx,
    effective_actions,
    load_export,
    parse_export,
    resolve_undo_redo,
)

from .helpers import P1, P2, action, export


def _statuses(actions):
    return [(s.processed, s.skip_reason) for s in resolve_undo_redo(parse_export(
        export(actions)).actions)]


# ----------------------------------------------------------------------------- oracle


def test_undo_redo_filter_reproduces_every_oracle_action(oracle_dir):
    """The trace's ``processed`` / ``skip_reason`` is the site's own resolution."""
    exp = load_export(oracle_dir / "2player.json")
    statuses = resolve_undo_redo(exp.actions)
    lines = (oracle_dir / "2player.trace.jsonl").read_text("utf-8").splitlines()[1:]
    truth = [json.loads(line) for line in lines]
    assert len(statuses) == len(truth) == 391
    for status, t in zip(statuses, truth, strict=True):
        assert status.index == t["index"]
        assert (status.processed, status.skip_reason) == (t["processed"], t.get("skip_reason"))
    assert sum(s.processed for s in statuses) == 356
    assert sum(s.skip_reason == "undo" for s in statuses) == 17
    assert sum(s.skip_reason == "undone" for s in statuses) == 18


def test_oracle_auto_actions_are_flattened_after_their_parent(oracle_dir):
    exp = load_export(oracle_dir / "2player.json")
    effective = effective_actions(exp)
    assert len(effective) == 356 + 19
    # action 16 (the last SR1 buy) carries D's automatic Stadtbahn run of CR1
    at16 = [e for e in effective if e.index == 16]
    assert [(e.auto, type(e.action).__name__) for e in at16] == [
        (None, "BuyShares"), (0, "RunRoutes")]
    assert at16[1].parent_index == 16 and at16[0].parent_index is None
    assert at16[1].action.entity == "D"
    assert at16[1].action.routes[0].revenue == 70
    # the programmed pass of Player 1 rides on Player 2's buy at action 332
    at332 = [e for e in effective if e.index == 332]
    assert [type(e.action).__name__ for e in at332] == ["BuyShares", "Pass"]
    assert at332[1].action.entity == "2006"
    # flattened order follows the export for game actions
    indexes = [e.index for e in effective]
    assert indexes == sorted(indexes)
    # undone actions (and their auto actions) are gone
    assert not {72, 73, 74, 91, 92} & set(indexes)


def test_oracle_export_fields(oracle_dir):
    exp = load_export(oracle_dir / "2player.json")
    assert exp.seed == 133875 and exp.small_map is False
    assert exp.player_names == ["Player 1", "Player 2"]
    assert exp.seat_of("621") == 1
    assert exp.status == "finished" and exp.game_end_reason == "fixed_round"


# ---------------------------------------------------------------------- undo and redo


def test_undo_takes_back_the_last_action():
    acts = [action(1, "bid", company="KK", price=20), action(2, "pass", P2),
            action(3, "undo", P2), action(4, "pass", P2, "player")]
    assert _statuses(acts) == [(True, None), (False, "undone"), (False, "undo"), (True, None)]


def test_undo_to_an_action_id_takes_back_everything_after_it():
    acts = [action(1, "bid", company="KK", price=20), action(2, "pass", P2),
            action(3, "bid", P2, company="SB", price=30), action(4, "undo", P2, action_id=1)]
    assert _statuses(acts) == [(True, None), (False, "undone"), (False, "undone"),
                               (False, "undo")]


def test_redo_restores_the_group_the_last_undo_took():
    acts = [action(1, "bid", company="KK", price=20), action(2, "pass", P2),
            action(3, "bid", P2, company="SB", price=30), action(4, "undo", P2, action_id=1),
            action(5, "redo", P2)]
    assert _statuses(acts) == [(True, None), (True, None), (True, None), (False, "undo"),
                               (False, "redo")]


def test_redo_stack_unwinds_in_order_and_a_new_action_clears_it():
    acts = [action(1, "bid", company="KK", price=20), action(2, "pass", P2),
            action(3, "undo", P2), action(4, "undo", P2), action(5, "redo", P2),
            action(6, "pass", P2)]
    assert _statuses(acts) == [(True, None), (False, "undone"), (False, "undo"),
                               (False, "undo"), (False, "redo"), (True, None)]
    with pytest.raises(ImportError18xx, match="action 6: redo with nothing to redo"):
        _statuses(acts + [action(8, "redo", P2)])


def test_chat_messages_are_skipped_by_undo_and_never_undone():
    acts = [action(1, "bid", company="KK", price=20), action(2, "message", P2, message="hi"),
            action(3, "undo", P1)]
    assert _statuses(acts) == [(False, "undone"), (True, None), (False, "undo")]
    exp = parse_export(export(acts))
    assert effective_actions(exp) == []


def test_undo_of_an_undone_game_is_refused():
    with pytest.raises(ImportError18xx, match="action 0: undo with nothing to undo"):
        _statuses([action(1, "undo")])
    with pytest.raises(ImportError18xx, match="action 1: undo to action id 5"):
        _statuses([action(1, "pass"), action(2, "undo", action_id=5)])


def test_undo_takes_the_parent_with_its_auto_actions():
    auto = {"type": "pass", "entity": P2, "entity_type": "player"}
    acts = [action(1, "pass", auto_actions=[auto]), action(2, "undo")]
    exp = parse_export(export(acts))
    assert effective_actions(exp) == []
    exp = parse_export(export(acts[:1]))
    assert [(e.index, e.auto) for e in effective_actions(exp)] == [(0, None), (0, 0)]


# --------------------------------------------------------------------------- bad input


def test_import_error_is_a_record_error():
    assert issubclass(ImportError18xx, RecordError)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "export: expected a JSON object"),
        (export(title="1889"), "title is '1889', not an 18xx.games game of 1840"),
        (export(players=None), "missing 'players'"),
        (export(players=[{"id": 1}]), "player 0 must be an object with 'id' and 'name'"),
        (export(players=[{"id": 1, "name": "A"}]), "1840 is for 2-6 players, this game has 1"),
        (export(players=[{"id": 1, "name": "A"}, {"id": 1, "name": "B"}]), "same id"),
        (export(actions=None) | {"actions": None}, "missing 'actions'"),
        (export(settings={"seed": "x"}), "settings.seed: expected an integer"),
        (export(settings={"optional_rules": ["turbo"]}), "unknown optional rule 'turbo'"),
        (export(settings={"optional_rules": ["three_player_small"]}),
         "the small map is for 3 players, not 2"),
        (export([action(1, "teleport")]), "action 0: unknown action type 'teleport'"),
        (export([action(1, "pass"), {"entity": 1}]), "action 1: missing action type"),
        (export([action(1, "pass"), "pass"]), "action 1: expected an object, got str"),
        (export([action(1, "bid", company="KK")]),
         "action 0: field 'price' must be an integer, got None"),
        (export([action(1, "bid", price=20)]),
         "action 0: a bid names exactly one of 'company' and 'corporation'"),
        (export([action(1, "par", corporation="WT", share_price="100")]),
         "action 0: share_price must be 'PRICE,ROW,COLUMN'"),
        (export([action(1, "lay_tile", "4", "corporation", hex="H28", tile="6-0",
                        rotation=6)]), "action 0: rotation must be 0-5, got 6"),
        (export([action(1, "place_token", "4", "corporation", city="H28", slot=0)]),
         "action 0: not a city id: 'H28'"),
        (export([action(1, "buy_train", "WT", "corporation", train="X1-0", price=1)]),
         "action 0: unknown train 'X1-0'"),
        (export([action(1, "buy_shares", shares=["WT_1", "G_1"], percent=20)]),
         "action 0: shares of several companies in one action"),
        (export([action(1, "pass"), {"type": "pass", "entity": 1, "entity_type": "player"}]),
         "action 1: missing integer 'id'"),
        (export([action(1, "pass"), action(1, "pass")]), "action 1: id 1 repeats action 0"),
        (export([action(1, "pass", auto_actions=[{"type": "bid"}])]),
         "action 0 auto action 0: 'bid' is not an auto action of 1840"),
        (export([action(1, "pass", entity=None)]),
         "action 0: field 'entity' must be a non-empty string, got None"),
    ],
)
def test_bad_exports_are_refused_with_one_line(data, message):
    with pytest.raises(ImportError18xx) as info:
        parse_export(data)
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def test_load_export_refuses_files_that_are_not_exports(tmp_path):
    with pytest.raises(ImportError18xx, match="no such file"):
        load_export(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ImportError18xx, match=r"bad.json: not JSON \(.* at line 1\)"):
        load_export(bad)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ImportError18xx, match="not UTF-8"):
        load_export(binary)
    with pytest.raises(ImportError18xx, match="is a directory"):
        load_export(tmp_path)


def test_program_actions_and_end_game_are_read():
    exp = parse_export(export([
        action(1, "program_buy_shares", corporation="WT"),
        action(2, "program_disable", reason="x"),
        action(3, "end_game"),
    ]))
    kinds = [e.action for e in effective_actions(exp)]
    assert kinds == [a18.Program(str(P1), "player", "buy_shares"),
                     a18.Program(str(P1), "player", "disable"),
                     a18.EndGame(str(P1), "player")]


def test_a_small_map_rule_selects_the_small_map():
    data = export(settings={"seed": 1, "optional_rules": ["three_player_small"]},
                  players=[{"id": 1, "name": "A"}, {"id": 2, "name": "B"},
                           {"id": 3, "name": "C"}])
    assert parse_export(data).small_map is True
