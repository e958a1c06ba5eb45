"""Issue 10: site behaviours the importer maps, each named after the behaviour (hand-built
inputs), and random corruptions of the 2-player export (one line, exit 2, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import refused
from tramways.g1840.actions import Run, ScrapTram, format_action, parse_action
from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.log18xx import EffectiveAction
from tramways.g1840.interop.probe import _only_passes_left
from tramways.g1840.interop.trace import Trace, TraceEntry, TraceHeader, bank_holdings
from tramways.g1840.ruleset import RULES, SITE


def test_site_run_without_routes_is_our_run_none_x8():
    """'3 does not run': the site's run_routes with no routes is ``L3 run none``."""
    action = parse_action("L3 run none")
    assert action == Run(line=3, route="none")
    assert format_action(action) == "L3 run none"


def test_site_scrap_names_the_lines_tram():
    """Issue 10 item 11: the site scraps a line's own tram; our notation names the line."""
    action = parse_action("WT scrap yellow L6")
    assert action == ScrapTram(company="WT", colour="yellow", line=6)
    assert format_action(action) == "WT scrap yellow L6"
    assert parse_action("WT scrap yellow") == ScrapTram(company="WT", colour="yellow")


def test_site_market_buy_while_unsold_remain_compares_the_banks_holding_x12():
    """X-12: unsold 80 + pool 10 on the site equals unsold 90 in our one Share Pool."""
    site = {"stadtbahn:D.unsold": 80, "stadtbahn:D.pool": 10, "company:WT.cash": 5}
    ours = {"stadtbahn:D.unsold": 90, "company:WT.cash": 5}
    assert bank_holdings(site) == bank_holdings(ours) == {
        "stadtbahn:D.bank": 90, "company:WT.cash": 5}


def _eff(index: int, action: a18.Action18xx) -> EffectiveAction:
    return EffectiveAction(index=index, id=index, action=action, auto=None)


def _entry(index: int, round_name: str) -> TraceEntry:
    return TraceEntry(index=index, id=index, type="pass", entity="WT", processed=True,
                      skip_reason=None, auto_actions=(), log=(0, 0),
                      figures={"round": round_name}, raw_state=None)


def test_site_turns_our_engine_settled_only_passes_left_x17():
    """X-17: our round may run ahead while the site's round goes on with passes only."""
    raw = {"type": "pass", "entity": "WKB", "entity_type": "corporation", "id": 1}
    pass_ = a18.parse_action(raw, "action")
    buy = a18.parse_action({"type": "buy_train", "entity": "WKB", "entity_type": "corporation",
                            "id": 2, "train": "O1-0", "price": 300}, "action")
    header = TraceHeader(game_id=1, players=(), settings={}, num_actions=3,
                         engine_commit=None, initial_map={}, initial={})
    trace = Trace(header=header, entries=[_entry(0, "CR4"), _entry(1, "CR4"),
                                          _entry(2, "SR4")])
    assert _only_passes_left(trace, [_eff(1, pass_), _eff(2, pass_)], 0, "CR4")
    assert not _only_passes_left(trace, [_eff(1, buy), _eff(2, pass_)], 0, "CR4")


def test_site_ruleset_switches_x10_x11_and_the_sites_procedure():
    """X-10, X-11 and the site's procedure are fields of the frozen ruleset, on in SITE only."""
    for field in ("upgrade_laid_this_turn", "extra_turn_below_three_lines",
                  "home_marker_lifted", "scrapped_line_stays_empty"):
        assert getattr(SITE, field) is True
        assert getattr(RULES, field) is False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_site_export_random_corruptions_never_crash_and_never_write(
        data: st.DataObject, oracle_dir: Path, tmp_path: Path, capsys) -> None:
    """A corrupted 2-player export: one line on stderr, exit 2, no file written."""
    from tramways.cli import main

    export = json.loads((oracle_dir / "2player.json").read_text("utf-8"))
    actions = export["actions"]
    k = data.draw(st.integers(0, len(actions) - 1))
    how = data.draw(st.sampled_from(["truncate", "drop_field", "bad_type", "bad_value",
                                     "unknown_type"]))
    if how == "truncate":
        export["actions"] = actions[:k]
        export.pop("result", None)
        export["status"] = "active"
    elif how == "drop_field":
        keys = sorted(actions[k])
        actions[k].pop(data.draw(st.sampled_from(keys)))
    elif how == "bad_type":
        actions[k]["entity"] = data.draw(st.sampled_from([None, [], {"x": 1}, 3.5]))
    elif how == "bad_value":
        key = data.draw(st.sampled_from(sorted(actions[k])))
        actions[k][key] = data.draw(st.sampled_from([-1, "zz", None, 10**9]))
    else:
        actions[k]["type"] = "teleport"
    source = tmp_path / "export.json"
    source.write_text(json.dumps(export), "utf-8")
    out = tmp_path / "out.json"
    if out.exists():
        out.unlink()
    try:
        code = main(["import-18xx", str(source), "-o", str(out)])
    except SystemExit as exc:  # argparse-style exits count as a code
        code = int(exc.code or 0)
    err = capsys.readouterr().err.strip()
    if code == 0:
        assert out.exists()  # a harmless corruption (e.g. an unused field) still imports
        out.unlink()
    else:
        assert code == 2
        assert not out.exists()
        assert len(err.splitlines()) == 1, err


def _site_game_session(oracle_dir: Path, name: str, upto: str, occurrence: int = 1,
                       before: bool = False):
    """Our session of a site-engine game, replayed up to (including, or ``before``) the
    ``occurrence``-th of our actions ``upto`` (its import is checked figure for figure
    elsewhere)."""
    import pytest

    from tramways.core.replay import Session
    from tramways.g1840.interop.log18xx import load_export
    from tramways.g1840.interop.probe import probe
    from tramways.g1840.interop.setup18xx import compute_setup
    from tramways.g1840.interop.translate import new_session

    path = oracle_dir / "site-engine-games" / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    export = load_export(path)
    played = probe(export).played
    cut = [i for i, t in enumerate(played) if t == upto][occurrence - 1] + (0 if before else 1)
    session: Session = new_session(export, compute_setup(export.seed, len(export.players),
                                                         export.small_map))
    for text in played[:cut]:
        session.play(text)
    return session


def test_site_company_without_a_tram_must_buy_in_its_turn_x18(oracle_dir: Path):
    """X-18 (proposed; X-17 keeps the turn open): fz2027_10_5p, CR1: WKB (100 in its treasury)
    scraps both its oranges in its buying turn (actions 81, 82); the site makes it buy an orange
    for 300 at once, Player 1 paying 200 with a loan (action 83).  Ending the turn is refused."""


    session = _site_game_session(oracle_dir, "fz2027_10_5p", "WKB scrap orange", 2)
    legal = session.legal_notation()
    assert "WKB buy orange" in legal and "WKB done" not in legal
    refused("VIII.5.3", session.play, "WKB done")
    cash = session.state.view(None).to_json()["players"][0]["cash"]
    session.play("WKB buy orange")
    view = session.state.view(None).to_json()
    assert view["companies"]["WKB"]["treasury"] == 0
    assert view["players"][0]["loans"] == 2
    assert view["players"][0]["cash"] == cash - 200 + 200


def test_site_company_at_three_trams_keeps_its_turn_to_scrap_x17(oracle_dir: Path):
    """X-17: fz2027_8_3ps, CR4: WKB wins line 18 with three trams (nothing to buy, nothing to
    rearrange); the site still asks its buying turn, where it scraps a yellow (action 289) and
    reassigns (291).  Under the printed rules the turn is skipped (nothing to decide)."""
    session = _site_game_session(oracle_dir, "fz2027_8_3ps", "WKB bid 35")
    session.play("BBG pass")  # BBG drops out: WKB wins line 18 (action 288)
    assert session.state.view(None).to_json()["companies"]["WKB"]["trams"] == ["yellow"] * 3
    assert session.state.view(None).to_json()["turn"]["company"] == "WKB"
    assert "WKB done" in session.legal_notation()


def test_site_sale_of_several_shares_pays_the_recorded_price_per_share_x19(oracle_dir: Path):
    """X-19 (proposed): fz2027_7_3p action 291: Player 3 sells 3 G at 65; the site's action
    records share_price 195 (the three together) and pays it per share: 585.  Our notation
    carries the recorded price (``at 195``) only in imported records; under the printed rules
    (VII.4) a sale is at the current price and any other price is refused."""
    import dataclasses

    from tramways.g1840.actions import SellShares

    assert parse_action("P3 sell G 3 at 195") == SellShares(2, "G", 3, 195)
    assert format_action(SellShares(2, "G", 3, 195)) == "P3 sell G 3 at 195"
    assert format_action(SellShares(2, "G", 3)) == "P3 sell G 3"
    session = _site_game_session(oracle_dir, "fz2027_7_3p", "P3 sell G 3 at 195", before=True)
    assert session.state.price("G") == 65
    state = session.state
    cash = state.players[2].cash
    printed = dataclasses.replace(state.rules, sale_at_recorded_price=False)
    state.rules, site = printed, state.rules
    refused("VII.4", session.play, "P3 sell G 3 at 195")
    state.rules = site
    session.play("P3 sell G 3 at 195")
    assert session.state.players[2].cash == cash + 585


def test_site_run_visiting_a_hex_twice_has_a_stop_per_visit_item3(oracle_dir: Path):
    """Issue 10 item 3: fz2027_10_5p action 227: line 3 runs E17-F18-F16-E17-D16 for 90, a loop
    that leaves E17 at one interchange and comes back to the other (nodes E17-0 ... E17-1):
    one stop per visit, and the route is valid for our routes module at the site's revenue."""
    from tramways.g1840.routes import check_route

    route = "E17.0-F18.0-F16.0-E17.1-D16.0"
    session = _site_game_session(oracle_dir, "fz2027_10_5p", f"L3 run {route}", before=True)
    assert check_route(session.state.route_context(3), route).revenue == 90


def test_site_asks_a_company_to_choose_a_line_our_engine_passed_for_x17(oracle_dir: Path):
    """X-17: fz2027_22_5p action 310: the site asks DT (5 in its treasury) to choose a line for
    auction and it passes; our engine passed for it ("cannot open an auction"), so that pass
    maps to nothing, and DT's next pass (311) is its buying turn after the auctions, where it
    reassigns its orange to line 16 (312)."""
    session = _site_game_session(oracle_dir, "fz2027_22_5p", "DT arrange orange,none",
                                 before=True)
    view = session.state.view(None).to_json()
    assert view["turn"] == {"player": 2, "name": "Player 3", "company": "DT", "step": "post"}
    assert view["companies"]["DT"]["treasury"] == 5


def test_site_station_on_a_circle_a_stadtbahn_marker_fills_removes_it_first_r_lr_5(
        oracle_dir: Path):
    """R-LR-5: fz2027_13_3p action 357: line 9's free bonus marker goes on B10, whose circle
    holds line 11's marker and V's Stadtbahn marker; the site removes V's marker (40) by itself,
    our import plays the removal first."""
    session = _site_game_session(oracle_dir, "fz2027_13_3p", "L9 station B10.0", before=True)
    assert session.record.actions[-1] == "L9 remove B10.0"


def test_site_asks_the_home_circle_on_a_tiled_home_hex_r_lr_13(oracle_dir: Path):
    """R-LR-13 as the site plays it: fz2027_18_2p action 78: E17, line 3's home, was tiled with
    two circles by line 1; when line 3 first operates its director chooses circle 1."""
    session = _site_game_session(oracle_dir, "fz2027_18_2p", "L3 station E17.1", before=True)
    assert session.state.view(None).to_json()["round_info"]["line_turn"]["home_choice"] is True
    assert "L3 station E17.0" in session.legal_notation()


def _pre_share_after_hofburg(oracle_dir: Path, site: bool):
    """fz2027_12_2p after action 5: two all-passes brought Karlskirche (20) to 10, then Player 1
    bought Hofburg for 40; under the site's ruleset or, from here on, the printed rules."""
    import dataclasses

    session = _site_game_session(oracle_dir, "fz2027_12_2p", "P1 bid HB 40")
    session.play("P2 pass")  # Player 1 buys HB (action 5)
    state = session.state
    if not site:
        state.rules = dataclasses.replace(state.rules, pre_share_rotation=False,
                                          cheapest_falls_until_sold=False,
                                          discount_stays=False)
    return session


def test_site_pre_share_all_pass_after_a_sale_x13_x14_x15(oracle_dir: Path):
    """X-13..X-15: fz2027_12_2p actions 6-8: after Hofburg's sale Player 2 and Player 1 pass;
    the site lowers Karlskirche again, from the 10 it kept (X-15) to 5 (X-14: no dividends
    while the cheapest private is unsold), and the choice goes on to Player 2 (X-13)."""
    from tramways.g1840.rounds.pre_share import minimum

    session = _pre_share_after_hofburg(oracle_dir, site=True)
    assert minimum(session.state, "KK") == 10  # kept after another private's sale
    cash = [p.cash for p in session.state.players]
    session.play("P2 pass")
    session.play("P1 pass")
    assert minimum(session.state, "KK") == 5
    assert [p.cash for p in session.state.players] == cash  # no dividends
    assert session.state.current_players() == [1]  # Player 2 chooses


def test_printed_pre_share_all_pass_after_a_sale_pays_and_restarts_r_pre_3(
        oracle_dir: Path):
    """The same position under the printed rules: the all-pass pays the privates' dividends
    (R-PRE-3: Hofburg 20 to Player 1) and the round restarts with Player 1, the lowest card."""
    session = _pre_share_after_hofburg(oracle_dir, site=False)
    cash = [p.cash for p in session.state.players]
    session.play("P2 pass")
    session.play("P1 pass")
    assert [p.cash for p in session.state.players] == [cash[0] + 20, cash[1]]
    assert session.state.current_players() == [0]


def test_site_home_marker_waits_on_the_untiled_d18_x20(oracle_dir: Path):
    """X-20 (proposed): fz2027_14_3ps: line 1's marker is on the untiled D18 when line 2 first
    operates (action 160); the site places no home marker for line 2 (its turn: a Stadtbahn
    tile, a marker removal, no run) and places it at the start of its next turn, after line 1
    tiled D18 (actions 193, 197).  Our engine under the printed rules places it at once (IX.6)."""
    session = _site_game_session(oracle_dir, "fz2027_14_3ps", "L2 lay H12 L1 r0", before=True)
    view = session.state.view(None).to_json()
    assert view["round_info"]["line_turn"]["line"] == 2
    assert view["companies"]["WT"]["markers"]["2"] == []
    assert not [t for t in session.legal_notation() if " station " in t]
    assert not session.state.has_operated(2)
