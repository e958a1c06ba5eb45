"""Issue 10, item 12: site behaviours no record shows, on hand-built exports in the site's
format (``exports/``, made by ``exports/make_exports.py`` from real exports cut at a point).
Each test is named after the site behaviour it covers and runs the real command."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tramways.cli import main
from tramways.core.record import GameRecord
from tramways.core.replay import Session

EXPORTS = Path(__file__).parent / "exports"


def _export(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXPORTS / f"{name}.json").read_text("utf-8"))
    return data


def _import(tmp_path: Path, capsys: pytest.CaptureFixture[str],
            data: dict[str, Any]) -> tuple[int, GameRecord | None, str]:
    source = tmp_path / "export.json"
    source.write_text(json.dumps(data), "utf-8")
    out = tmp_path / "record.json"
    code = main(["import-18xx", str(source), "-o", str(out)])
    err = capsys.readouterr().err.strip()
    if code != 0:
        assert code == 2 and not out.exists() and len(err.splitlines()) == 1, err
        return code, None, err
    record = GameRecord.load(out)
    out.unlink()
    return code, record, err


def _view(record: GameRecord) -> dict[str, Any]:
    view: dict[str, Any] = Session.from_record(record).state.view(None).to_json()
    return view


def test_site_chat_messages_are_ignored(tmp_path, capsys):
    """Three `message` actions (before the first bid, in the Pre-Share auction and in LR1a):
    the record is the one of the same export without them."""
    data = _export("chat_messages_ignored")
    assert sum(a["type"] == "message" for a in data["actions"]) == 3
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 0, err
    plain = copy.deepcopy(data)
    plain["actions"] = [a for a in plain["actions"] if a["type"] != "message"]
    code, without, err = _import(tmp_path, capsys, plain)
    assert code == 0, err
    assert record is not None and without is not None
    assert record.actions == without.actions
    assert record.actions[:3] == ["P1 bid KK 20", "P2 pass", "P2 bid SB 30"]
    assert record.actions[-1] == "L4 run I27.0-H28.0-H30.0"


def test_site_game_in_progress_imports_to_the_position_so_far(tmp_path, capsys):
    """An export of an active game (no result) cut in line 5's first turn: the record stops
    there, line 5 still to run, every figure as the site had it after action 35."""
    code, record, err = _import(tmp_path, capsys, _export("game_in_progress"))
    assert code == 0, err
    assert record is not None
    assert record.meta["status"] == "active" and record.meta["ended_early"] is False
    assert record.actions[-1] == "L5 lay F14 6 r3"
    state = Session.from_record(record).state
    assert not state.is_over()
    view = _view(record)
    assert view["round"] == "LR1a"
    # as the site's trace after action 35
    assert [p["cash"] for p in view["players"]] == [70, 100]
    assert [p["value"] for p in view["players"]] == [690, 705]
    assert view["companies"]["GW"]["treasury"] == 360


def test_site_game_ended_by_hand_stops_at_end_game(tmp_path, capsys):
    """`end_game` by Player 2 in LR1b: the record stops there (ended early, not over), and the
    site's result (the values then: 690, 705) must be our wealth."""
    data = _export("game_ended_by_hand")
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 0, err
    assert record is not None
    assert record.meta["ended_early"] is True
    assert record.meta["game_end_reason"] == "manually_ended"
    assert record.actions[-1] == "L5 run F14.0-G15.0"
    assert not Session.from_record(record).state.is_over()
    assert [p["value"] for p in _view(record)["players"]] == [690, 705]
    data["result"] = {"2006": 690, "621": 700}
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 2
    assert err == ("error: cannot import: the site's result gives Player 2 700, "
                   "our replay 705")


def test_x22_site_company_buys_a_private_from_another_player_without_consent(tmp_path,
                                                                             capsys):
    """Line 4 (WT, directed by Player 1) buys HB from Player 2 for 40 after its run: our
    ``L4 buy HB 40`` and no consent (IV.2 asks the owner; the site does not: X-22, proposed);
    the price moves from WT's treasury to Player 2."""
    data = _export("company_buys_private_from_another_player")
    before = copy.deepcopy(data)
    before["actions"] = before["actions"][:-2]
    code, record_before, err = _import(tmp_path, capsys, before)
    assert code == 0, err
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 0, err
    assert record is not None and record_before is not None
    assert record.actions[-2:] == ["L4 buy HB 40", "L4 done"]
    old, new = _view(record_before), _view(record)
    assert old["privates"]["HB"] == 1 and new["privates"]["HB"] == "WT"
    assert new["players"][1]["cash"] == old["players"][1]["cash"] + 40
    assert new["companies"]["WT"]["treasury"] == old["companies"]["WT"]["treasury"] - 40
    assert new["companies"]["WT"]["privates"] == ["HB"]


def test_site_company_buying_a_private_above_its_price_is_refused(tmp_path, capsys):
    """HB costs at most 40 (IV.2): the site would not record 41; one line, exit 2."""
    data = _export("company_buys_private_from_another_player")
    data["actions"][-2]["price"] = 41
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 2 and record is None
    assert err.startswith("error: cannot import: action 88")


def test_site_mandatory_tram_purchase_with_player_loans_r_cr_5_x18(tmp_path, capsys):
    """WKB (100 in its treasury) scraps both its oranges in CR1 and must buy one for 300 at
    once; its director Player 1 (cash 60) pays the 200 it lacks with two loans of 100 and keeps
    60 (VIII.5.3, R-CR-5, X-18): as the site's trace of fz2027_10_5p after action 83."""
    code, record, err = _import(tmp_path, capsys, _export("mandatory_tram_purchase_with_loans"))
    assert code == 0, err
    assert record is not None
    assert record.actions[-5:] == ["WKB scrap orange", "WKB scrap orange", "WKB buy orange",
                                   "WKB done", "WT pass"]
    view = _view(record)
    p1 = view["players"][0]
    assert (p1["cash"], p1["loans"]) == (60, 2)
    assert p1["value"] == 185  # R-END-1: 200 off per loan
    assert view["companies"]["WKB"]["treasury"] == 0
    assert view["companies"]["WKB"]["trams"] == ["orange"]


def test_site_company_passing_a_mandatory_purchase_is_refused_r_cr_5(tmp_path, capsys):
    """The same export with WKB passing instead of buying: one line naming action 83 and the
    rule, exit 2, nothing written (the site never records such a pass)."""
    data = _export("mandatory_tram_purchase_with_loans")
    buy = data["actions"][83]
    data["actions"][83] = {"type": "pass", "entity": "WKB", "entity_type": "corporation",
                           "id": buy["id"]}
    code, record, err = _import(tmp_path, capsys, data)
    assert code == 2 and record is None
    assert err == ("error: cannot import: action 83 (pass by WKB): our engine refuses "
                   "'WKB done': VIII.5.3: WKB has no tram and must buy one in its turn "
                   "(18xx.games ruleset, X-18 proposed)")


def test_site_negative_income_comes_from_the_treasury_first_x3(tmp_path, capsys):
    """LR5b: line 3 (GW, a yellow tram whose maintenance is 200 once pink trams are bought,
    Table 7) runs F14-E15, 50 before maintenance: 150 of loss.  The site takes it from GW's
    treasury (445 -> 295) and leaves the revenue space at 20 (X-3); the printed rules would
    empty the revenue space first (R-LR-9, IX.8)."""
    code, record, err = _import(tmp_path, capsys, _export("negative_income"))
    assert code == 0, err
    assert record is not None
    assert record.actions[-2:] == ["L3 run F14.0-E15.0", "L3 done"]
    before = GameRecord(**{**record.model_dump(), "actions": record.actions[:-2]})
    old, new = _view(before), _view(record)
    assert (old["companies"]["GW"]["treasury"], old["companies"]["GW"]["revenue"]) == (445, 20)
    assert (new["companies"]["GW"]["treasury"], new["companies"]["GW"]["revenue"]) == (295, 20)
    assert [p["cash"] for p in new["players"]] == [p["cash"] for p in old["players"]]
    assert new["round"] == "LR5b"


def test_site_negative_income_beyond_the_treasury_falls_on_the_director_x3(tmp_path, capsys):
    """LR4a: line 16 (DT, an orange tram whose maintenance is 100 once pink trams are bought)
    runs E27-D26, 40 before maintenance: 60 of loss, 5 from DT's treasury and 55 from its
    director Player 3 (109 -> 54), no loan needed (X-3, IX.8)."""
    code, record, err = _import(tmp_path, capsys, _export("negative_income_director_pays"))
    assert code == 0, err
    assert record is not None
    run = record.actions.index("L16 run E27.0-D26.0")
    before = GameRecord(**{**record.model_dump(), "actions": record.actions[:run]})
    old, new = _view(before), _view(record)
    assert (old["companies"]["DT"]["treasury"], old["companies"]["DT"]["revenue"]) == (5, 0)
    assert (new["companies"]["DT"]["treasury"], new["companies"]["DT"]["revenue"]) == (0, 0)
    assert [(p["cash"], p["loans"]) for p in old["players"]][2] == (109, 0)
    assert [(p["cash"], p["loans"]) for p in new["players"]][2] == (54, 0)
