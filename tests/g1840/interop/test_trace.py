"""Trace figures and the comparator (trace.py)."""

from __future__ import annotations

import json

import pytest

from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.figures_view import figures_from_view
from tramways.g1840.interop.trace import (
    VIEW_GAPS,
    Difference,
    assignments_in_flux,
    compare,
    in_view_gaps,
    is_assignment,
    log_path_for,
    read_log,
    read_trace,
    round_name,
)
from tramways.g1840.view_types import View1840

from .helpers import cached_trace


@pytest.fixture
def trace(oracle_dir):
    return cached_trace(oracle_dir / "2player.trace.jsonl")


def test_trace_header_and_entries(trace):
    assert trace.header.players == (("2006", "Player 1"), ("621", "Player 2"))
    assert trace.header.num_actions == len(trace.entries) == 391
    assert sum(1 for _ in trace.processed()) == 356
    assert trace.entries[74].processed is False and trace.entries[74].skip_reason == "undo"
    assert trace.entries[74].figures is None
    assert trace.entries[16].auto_actions == ("run_routes",)
    assert trace.header.initial["player:Player 1.cash"] == 350
    assert trace.header.initial["lines.display"] == [4, 5, 18]


def test_vi_figures_after_the_first_auction(trace):
    """Player 1 wins Karlskirche for 20 (actions 0-1): 350 - 20 = 330."""
    f = trace.entries[1].figures
    assert f["round"] == "PRE"
    assert f["player:Player 1.cash"] == 330
    assert f["player:Player 1.privates"] == ["KK"]
    assert f["player:Player 2.cash"] == 350
    assert f["private:KK.owner"] == "player:Player 1"
    assert f["private:SB.owner"] is None


def test_vii5_figures_after_the_pars(trace):
    f = trace.entries[13].figures
    assert f["round"] == "SR1"
    assert f["company:GW.cash"] == 700 and f["company:GW.share_price"] == 70
    assert f["company:GW.share_cell"] == "4,2" and f["company:GW.unsold"] == 50
    assert f["player:Player 2.shares.GW"] == 50
    assert f["company:WT.cash"] == 1000
    assert "player:Player 1.shares.GW" not in f


def test_viii_ix_figures_of_lines_trams_markers_and_tiles(trace):
    f = trace.entries[32].figures  # line 4 ran in LR1a
    assert f["round"] == "LR1a"
    assert f["line:4.company"] == "WT" and f["line:4.tram"] == "orange"
    assert f["line:4.markers"] == ["H28"]
    assert f["tile:H28"] == "6@4" and f["tile:B20"] == "L2@2" and f["tile:I27"] == "L25@3"
    assert f["company:WT.lines"] == [4] and f["company:WT.trams"] == []
    assert f["lines.display"] == [2, 3, 15, 18]
    final = trace.entries[-1].figures
    assert final["round"] == "End"
    assert final["player:Player 1.value"] == 8351 and final["player:Player 2.value"] == 7618
    assert final["private:HB.owner"] == "closed"
    assert final["private:KK.owner"] == "company:WT"


def test_round_names_follow_the_round_bar(trace):
    names = []
    for entry in trace.processed():
        if not names or names[-1] != entry.figures["round"]:
            names.append(entry.figures["round"])
    assert names == ["PRE", "SR1", "CR1", "LR1a", "LR1b", "CR2", "SR2", "LR2a", "LR2b", "CR3",
                     "SR3", "LR3a", "LR3b", "CR4", "SR4", "LR4a", "LR4b", "CR5", "SR5", "LR5a",
                     "LR5b", "LR5c", "CR6", "End"]


def test_round_name_refuses_an_unknown_round():
    with pytest.raises(ValueError, match="unknown round"):
        round_name({"game": {}, "round": {"name": "Merger Round"}})


def test_compare_reports_the_first_difference_with_the_log(trace, oracle_dir):
    expected = trace.entries[1].figures
    assert compare(expected, dict(expected)) is None
    actual = dict(expected)
    actual["player:Player 1.cash"] = 310
    actual["player:Player 2.cash"] = 0
    log = read_log(oracle_dir / "2player.log.jsonl")
    lines = log[trace.entries[1].log[0]:trace.entries[1].log[1]]
    diff = compare(expected, actual, index=1, action="pass by Player 2", log=lines)
    assert diff == Difference("player:Player 1.cash", 330, 310, 1, "pass by Player 2",
                              ("Player 2 passes on Karlskirche",
                               "Player 1 wins the auction for Karlskirche with a bid of 20"))
    assert diff.message() == (
        "action 1 (pass by Player 2): player:Player 1.cash is 310, expected 330 "
        "[log: Player 2 passes on Karlskirche | "
        "Player 1 wins the auction for Karlskirche with a bid of 20]")


def test_compare_reports_missing_and_extra_figures():
    diff = compare({"a": 1, "b": [1]}, {"a": 1})
    assert diff is not None and diff.message() == "b is absent, expected [1]"
    diff = compare({"a": 1}, {"a": 1, "tile:H28": "6@4"})
    assert diff is not None and diff.message() == 'tile:H28 is "6@4", expected absent'


def test_read_log_and_log_path(oracle_dir):
    assert log_path_for(oracle_dir / "2player.trace.jsonl") == oracle_dir / "2player.log.jsonl"
    jsonl = read_log(oracle_dir / "2player.log.jsonl")
    assert jsonl == read_log(oracle_dir / "2player.log.txt")
    assert jsonl[1] == "Player 1 bids 20 for Karlskirche"


def test_bad_traces_are_refused(tmp_path):
    path = tmp_path / "t.trace.jsonl"
    path.write_text('{"kind": "action"}\n', encoding="utf-8")
    with pytest.raises(ImportError18xx, match="line 1 is not a trace header"):
        read_trace(path)
    path.write_text("nope\n", encoding="utf-8")
    with pytest.raises(ImportError18xx, match="line 1 is not JSON"):
        read_trace(path)
    with pytest.raises(ImportError18xx, match="no such file"):
        read_trace(tmp_path / "missing.jsonl")


def test_a_truncated_trace_is_refused(tmp_path, oracle_dir):
    lines = (oracle_dir / "2player.trace.jsonl").read_text("utf-8").splitlines()
    path = tmp_path / "short.trace.jsonl"
    path.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    with pytest.raises(ImportError18xx, match="4 action lines, the header announces 391"):
        read_trace(path)
    header = json.loads(lines[0])
    assert header["kind"] == "header"


def _json(**over):
    """A spectator view's JSON, with the figures the tests change given in ``over``."""
    view = {
        "ruleset": "18xx.games", "edition": 2, "viewer": None,
        "round_info": {"name": "LR2a", "type": "LR", "phase": "green"}, "turn": None,
        "playing_order": [0, 1], "market_stacks": {}, "line_deck": 0,
        "trams": {"on_sale": [], "to_come": [], "newest": "red"}, "result": None,
        "round": "LR2a", "finished": False,
        "players": [
            {"seat": 0, "name": "Ann", "cash": 45, "loans": 1, "pre_emptive_right": 0,
             "shares": {"WT": 60, "G": 0}, "privates": ["SB"], "value": 900,
             "certificates": 7},
            {"seat": 1, "name": "Bob", "cash": 10, "loans": 0, "pre_emptive_right": 0,
             "shares": {"WT": 40}, "privates": [], "value": 500, "certificates": 4},
        ],
        "companies": {"WT": {"name": "Wiener Tramway", "director": 0, "par": 100,
                             "revenue": 0, "treasury": 130, "price": 121, "ipo": 0, "pool": 0,
                             "lines": [4, 18], "trams": ["orange", "red", "yellow"],
                             "privates": ["KK"],
                             "markers": {"4": ["H28.0", "F28.0"], "18": []}}},
        "stadtbahn": {"W": {"price": 95, "ipo": 90, "pool": 10, "last_run": 0,
                            "markers": []}},
        "market": {"WT": [0, 4], "W": [1, 1]},
        "privates": {"KK": "WT", "SB": 0, "HB": None},
        "line_display": [3, 2],
        "tiles": {"H28": ["6", 4]},
    }
    view.update(over)
    view["round_info"] = dict(view["round_info"], name=view["round"])
    return view


def _view(**over):
    return View1840.from_json(_json(**over))


def test_figures_from_view_maps_our_view_to_the_figure_paths():
    f = figures_from_view(_view(), ["GW", "WT"])
    assert f["round"] == "LR2a"
    assert f["player:Ann.cash"] == 45 and f["player:Ann.loans"] == 1
    assert f["player:Ann.shares.WT"] == 60 and "player:Ann.shares.G" not in f
    assert f["company:GW.cash"] == 0 and f["company:GW.share_price"] is None
    assert f["company:WT.share_cell"] == "0,4" and f["company:WT.trams"] == ["yellow"]
    assert f["line:4.tram"] == "orange" and f["line:18.tram"] == "red"
    assert f["line:4.markers"] == ["F28", "H28"] and f["line:4.company"] == "WT"
    assert f["line:2.company"] is None and f["lines.display"] == [2, 3]
    assert f["stadtbahn:W.pool"] == 10 and f["stadtbahn:W.unsold"] == 90
    assert f["private:KK.owner"] == "company:WT" and f["private:SB.owner"] == "player:Ann"
    assert f["private:HB.owner"] == "closed"
    assert f["tile:H28"] == "6@4"
    assert not any(in_view_gaps(path) for path in f)


def test_figures_from_view_counts_the_pre_emptive_card_as_cash_from_sr1():
    """The site pays the 350 card out as cash at the start of SR1 (interpretations.md)."""
    players = _json()["players"]
    players[0] = dict(players[0], pre_emptive_right=350)
    assert figures_from_view(_view(round="SR1", players=players))["player:Ann.cash"] == 395
    assert figures_from_view(_view(round="PRE", players=players))["player:Ann.cash"] == 45
    assert figures_from_view(_view(round="PRE"))["private:HB.owner"] is None
    assert figures_from_view(_view(finished=True))["round"] == "End"


def test_assignment_figures_and_the_view_gaps():
    assert VIEW_GAPS == () and not in_view_gaps("stadtbahn:W.markers")
    assert is_assignment("line:4.tram") and is_assignment("company:WT.trams")
    assert not is_assignment("company:WT.fleet")
    assert assignments_in_flux(_view(round="CR2", turn={"player": 0, "name": "Ann",
                                                         "company": "WT", "step": "d"}))
    assert not assignments_in_flux(_view(turn={"player": 0, "name": "Ann", "line": 4}))
    skip = is_assignment
    assert compare({"line:4.tram": "red", "a": 1}, {"line:4.tram": None, "a": 1},
                   skip=skip) is None


def test_viii53_fleet_counts_trams_on_lines_and_spare():
    f = figures_from_view(_view())
    assert f["company:WT.fleet"] == ["orange", "red", "yellow"]
    companies = _json()["companies"]
    gap = {"WT": dict(companies["WT"], trams=[None, "red"])}
    f = figures_from_view(_view(companies=gap))
    assert f["line:4.tram"] is None and f["line:18.tram"] == "red"
    assert f["company:WT.fleet"] == ["red"] and f["company:WT.trams"] == []


def test_iv2_a_private_returned_to_the_bank_is_closed():
    """Our engine drops a returned private from its owners; the site marks it closed (112)."""
    f = figures_from_view(_view(privates={"KK": "WT"}), privates=["KK", "HB"])
    assert f["private:KK.owner"] == "company:WT" and f["private:HB.owner"] == "closed"


def test_viii7_lines_left_on_display_when_every_company_is_full_are_out_of_the_game():
    """The site removes them (158); nobody can buy them any more (IV.3, VIII.6)."""
    companies = _json()["companies"]
    full = {"WT": dict(companies["WT"], lines=[4, 18, 7], trams=["orange", "red", "pink"])}
    f = figures_from_view(_view(companies=full), ["WT"])
    assert f["lines.display"] == [] and "line:2.company" not in f
    assert f["line:7.tram"] == "pink"
    f = figures_from_view(_view(companies=full), ["GW", "WT"])  # GW not parred: room left
    assert f["lines.display"] == [2, 3]
