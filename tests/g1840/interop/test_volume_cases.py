"""Fresh site games that did not import (issue 22, ``benchmarks/oracle_import_volume.py``):
each class of failure kept as the game cut just after its first difference, with the site's
trace (``tests/g1840/interop/volume/``, made by the shared oracle's ``cut.rb``: data, not its
code).  Each imports figure for figure (``--check``); Ruby is not needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tramways.core.errors import IllegalAction
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.trace import read_trace

HERE = Path(__file__).parent / "volume"

CASES = {
    # fz3302r_7_3p cut after 190: line 13 has no tram, lays, ends its track step and buys a
    # private (the site's BuyCompany step, its run skipped); it can buy no more, so the site
    # ends its turn and line 17 goes on
    "x17_line_without_tram_buys_a_private_and_its_turn_ends":
        "line-without-tram-buys-private-turn-ends",
    # fz3302r_43_3p cut after 177: line 1 scraps its only tram in its Route step, then buys a
    # private in the BuyCompany step the site still asks (its turn ends only after that)
    "x17_line_scraps_its_only_tram_then_buys_a_private": "line-scraps-then-buys-private",
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_volume_case_imports_figure_for_figure(case):
    export = load_export(HERE / f"{case}.json")
    record = import_export(export, read_trace(HERE / f"{case}.trace.jsonl.gz"))
    assert record.meta["status"] == "active"
    assert len(record.actions) > 100


# Our games that the site's engine refused (``benchmarks/oracle_roundtrip.py``), cut just
# before the refused action: the 18xx.games ruleset now refuses it too.
def _replayed(name: str):
    from tramways.core.record import GameRecord
    from tramways.core.replay import Session

    return Session.from_record(GameRecord.load(HERE / f"{name}.record.json"))


def test_x23_a_company_scraps_only_the_acting_lines_tram_in_a_line_round():
    """rule_41002_3s, line 3's turn (yellow tram; DT also runs orange on line 8): the site
    lets only the acting line scrap, its own tram, in its Route step ("Blocking step Place a
    Token or Lay Track cannot process action scrap_train" for the company's); ``DT scrap
    yellow`` is line 3's scrap as older records write it, ``DT scrap orange`` is refused."""
    session = _replayed("rule_41002_3s-cut475")
    state = session.state
    assert state.round.type == "LR" and state.sub.turn_view(state).line == 3
    assert state.tram_of(3) == "yellow" and state.tram_of(8) == "orange"
    legal = session.legal_notation()
    assert "DT scrap orange" not in legal and "DT scrap yellow L3" in legal
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("DT scrap orange")
    session.play("DT scrap yellow")
    assert state.tram_of(3) is None


def test_x23_no_private_returned_in_a_buying_turn_after_the_auctions():
    """random_41003_4p: P3 returns PR in WT's buying turn after the line auctions; the site
    refuses it ("Blocking step Buy Trains cannot process action choose_ability"): its
    interrupting buying step asks the buyer about trams only."""
    session = _replayed("random_41003_4p-cut193")
    state = session.state
    assert state.round.type == "CR" and state.sub.step.name == "post"
    assert state.sub.turn_view(state).company == "WT"
    assert "P3 return PR" not in session.legal_notation(2)
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("P3 return PR")
    session.play("WT done")  # the turn itself goes on as before


def test_x16_choice_goes_on_in_rotation_when_a_rival_left_by_choice_after_the_last_bid():
    """random_43008_3s (3 players, Pre-Share Round): P3 opens Karlskirche at 20; P1 passes,
    able to raise; P2 (no cash left) cannot.  The site drops P2 as soon as the bid is made,
    so P1's pass ends the auction and the choice goes on in rotation (P1), not back to the
    opener (X-16 applies only when every rival left unable to raise); the site refused the
    opener's next choosing pass ("Blocking step Bid on Companies cannot process action
    pass")."""
    session = _replayed("random_43008_3s-cut16")
    state = session.state
    assert session.record.actions[-3:] == ["P3 bid KK 20", "P1 pass", "P2 pass"]
    assert state.private_owner["KK"] == 2 and state.players[1].cash == 0
    assert state.current_players() == [0]


def test_export_declines_a_station_bonus_once_before_a_removal():
    """random_43018_2p: line 7 lays the Stadtbahn tile L4 on E23 (bonus: a station marker),
    then removes a Stadtbahn marker and runs.  The site's bonus step is closed by one pass;
    our engine keeps the bonus after the removal (R-LR-1), and a second pass there ended the
    line's track step on the site ("Blocking step Run Routes cannot process action pass")."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record

    record = GameRecord.load(HERE / "random_43018_2p-cut67.record.json")
    assert record.actions[-4:] == ["L7 lay E23 L4 r2", "L7 remove I15.0", "L7 run", "L7 done"]
    written = [(a["type"], a["entity"]) for a in export_record(record)["actions"][-6:]]
    assert written == [("lay_tile", "7"), ("pass", "7"), ("remove_token", "7"), ("pass", "7"),
                       ("run_routes", "7"), ("pass", "7")]


def test_x21_a_lifted_home_marker_put_back_on_its_circle_reads_back_as_the_same_game():
    """rule_44000_2p: line 2 lays the two-circle tile 235 on E17, line 3's home; the site
    lifts line 3's marker and line 2's director puts it back on the circle where our engine
    keeps it (X-21).  Reading the export back, that ``place_token`` is no station of line 2
    (it was "L2 station E17.0: no free circle")."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record
    from tramways.g1840.interop.log18xx import parse_export
    from tramways.g1840.interop.probe import probe
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "rule_44000_2p-cut286.record.json")
    assert record.actions[-3:] == ["L2 lay E17 235 r3", "L2 run", "L2 done"]
    document = export_record(record)
    assert [a["type"] for a in document["actions"] if a["entity"] == "2"][-4:-2] == [
        "lay_tile", "place_token"]
    result = probe(parse_export(document))
    assert result.failure is None and result.session is not None
    assert same_game(record, result.session.record) is None


def test_pre_share_choosing_pass_of_a_player_who_can_afford_nothing_is_written():
    """random_44011_6p: after Stephansdom is sold the choice goes to P1, who has 10 and can
    afford no private; the site's selection step still asks P1 ("Blocking step Bid on
    Companies cannot process action bid" for P2's bid without it), so the export writes the
    pass and the import reads it back (no pass made by itself)."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record
    from tramways.g1840.interop.log18xx import parse_export
    from tramways.g1840.interop.probe import probe
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_44011_6p-cut70.record.json")
    assert record.actions[59:64] == ["P6 bid SD 115", "P2 pass", "P4 pass", "P1 pass",
                                     "P2 bid HB 40"]
    document = export_record(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][57:61]]
    assert written == [("bid", 6), ("pass", 4), ("pass", 1), ("bid", 2)]
    result = probe(parse_export(document))
    assert result.failure is None and result.session is not None
    assert same_game(record, result.session.record) is None


def test_x23_a_company_scrap_of_the_acting_lines_tram_is_written_as_the_lines_scrap():
    """random_44030_2p: ``WT scrap yellow`` in line 6's turn (its only tram) was written as
    WT's scrap, which the site refuses in a Line Round ("Blocking step Place a Token or Lay
    Track cannot process action scrap_train"); it is line 6's scrap, after the pass that ends
    its track step, and reads back as ``WT scrap yellow L6``: the same game."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record
    from tramways.g1840.interop.log18xx import parse_export
    from tramways.g1840.interop.probe import probe
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_44030_2p-cut156.record.json")
    assert record.actions[151:154] == ["L6 lay J26 14 r4", "WT scrap yellow", "L6 run"]
    document = export_record(record)
    acts = document["actions"]
    k = max(i for i, a in enumerate(acts) if a["type"] == "scrap_train")
    assert [(a["type"], a["entity"]) for a in acts[k - 2:k + 1]] == [
        ("lay_tile", "6"), ("pass", "6"), ("scrap_train", "6")]
    result = probe(parse_export(document))
    assert result.failure is None and result.session is not None
    assert "WT scrap yellow L6" in result.session.record.actions
    assert same_game(record, result.session.record) is None


def test_a_line_without_tram_buys_a_private_after_its_skipped_run_same_game():
    """random_44002_3s: line 12 (no tram) lays, declines its bonus, ends its track step and
    buys Stephansdom in the site's BuyCompany step after its (skipped) run; read back, the
    run comes before the purchase as in our record (it was 'L12 buy SD 6' before 'L12 run')."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record
    from tramways.g1840.interop.log18xx import parse_export
    from tramways.g1840.interop.probe import probe
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_44002_3s-cut336.record.json")
    assert record.actions[-4:] == ["L12 skip", "L12 run", "L12 buy SD 6", "L12 done"]
    result = probe(parse_export(export_record(record)))
    assert result.failure is None and result.session is not None
    assert same_game(record, result.session.record) is None


def test_x23_a_line_that_scrapped_its_tram_lays_and_stations_no_more():
    """rule_44003_4p: line 3 lays on E17, WT scraps its yellow (line 3's only tram), then line
    3 placed a station; the site's line scraps only in its Route step, after its track and
    station step ("Blocking step Buy Companies cannot process action place_token"), so under
    the 18xx.games ruleset its turn has only the (empty) run left."""
    session = _replayed("rule_44003_4p-cut681")
    state = session.state
    assert session.record.actions[-2:] == ["L3 lay E17 235 r3", "WT scrap yellow"]
    assert state.tram_of(3) is None
    assert not [t for t in session.legal_notation() if " station " in t or " lay " in t]
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("L3 station D18.0")
    session.play("L3 run")


def test_export_a_declined_station_bonus_stays_declined_through_a_later_lay():
    """random_45005_6p: line 14 lays the Stadtbahn tile L4 on E23 (bonus: a station marker),
    removes a marker, lays E3 (its own lay) and removes another.  The bonus step is closed
    by one pass; a second pass before the lay ended the line's track step on the site
    ("Blocking step Run Routes cannot process action lay_tile")."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record

    record = GameRecord.load(HERE / "random_45005_6p-cut195.record.json")
    assert record.actions[-4:] == ["L14 lay E23 L4 r2", "L14 remove D12.0", "L14 lay E3 57 r0",
                                   "L14 remove A13.0"]
    written = [a["type"] for a in export_record(record)["actions"] if a["entity"] == "14"]
    assert written[-5:] == ["lay_tile", "pass", "remove_token", "lay_tile", "remove_token"]


@pytest.mark.parametrize(("case", "taker", "next_chooser"), [
    ("x13_no_auction", 0, 1), ("x13_after_auction", 1, 1)])
def test_x13_after_a_forced_take_the_choice_goes_on_as_the_site_plays_it(
        case, taker, next_chooser):
    """Pre-Share Round, 3 players: two all-passes bring Prater to 0 and the next player in
    rotation must take it (R-PRE-2, X-13).  The site then goes back to the last auction's
    opener, or to the taker when no auction was held, and the choice goes on with the next
    player: P2 in both exports (random_44001_3p, where ours went on with P1: "Bid on
    Companies cannot process action pass"; a hand-built export in which P1 had won
    Karlskirche first).  Both import figure for figure with the site's traces."""
    from tramways.core.replay import Session

    record = import_export(load_export(HERE / f"{case}.json"),
                           read_trace(HERE / f"{case}.trace.jsonl.gz"))
    state = Session.from_record(record.model_copy(update={"actions": record.actions[:-1]}))
    assert state.state.private_owner["PR"] == taker
    assert state.state.current_players() == [next_chooser]
    assert record.actions[-1] == f"P{next_chooser + 1} pass"


def test_x25_an_unsold_lines_home_circle_stays_reserved_after_cr5():
    """random_44010_5p, LR5c: line 10 (home D4, one circle) is still unsold in the display,
    but CR5's auctions are over, so the printed rules free its circle (R-LR-12); the site
    keeps the reservation until every company has three lines and refused line 14's station
    ("14 cannot lay token - no token slots available on D4"; the same on D26, E3 and F18 in
    three more games).  The 18xx.games ruleset keeps it too (X-25)."""
    session = _replayed("random_44010_5p-cut567")
    state = session.state
    assert state.round.name == "LR5c" and state.sub.turn_view(state).line == 14
    assert 10 in state.line_display and 10 not in state.line_owner
    assert not [t for t in session.legal_notation() if " station D4" in t]
    with pytest.raises(IllegalAction, match="IX.6"):
        session.play("L14 station D4.0")


def test_x23_in_a_line_auction_only_the_openers_director_returns_a_private():
    """random_44004_5p, CR3: DT (P2) opens line 3; in GW's turn to bid, GW's director P3
    returned Stephansdom and the site refused it ("Acquire Corporations cannot process
    action choose_ability"): its round stays with the opener while the line is auctioned.
    The opener's director may return a private of their own there (a site export,
    random_45000_2p cut while SJE's director P1 returns Hofburg, imports figure for
    figure)."""
    session = _replayed("random_44004_5p-cut226")
    state = session.state
    assert session.record.actions[-1] == "DT auction L3 30"
    assert state.sub.auction.turn == "GW" and state.companies["GW"].director == 2
    assert "P3 return SD" not in session.legal_notation(2)
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("P3 return SD")
    case = "x23_opener_returns_in_auction"
    record = import_export(load_export(HERE / f"{case}.json"),
                           read_trace(HERE / f"{case}.trace.jsonl.gz"))
    assert record.actions[-2:] == ["SJE auction L4 260", "P1 return HB"]


def test_x17_a_return_after_the_last_purchase_stays_in_the_buying_turn():
    """random_46000_2p, CR1: WT buys its second orange tram (the site closes nothing yet),
    WT's director P2 returns Stephansdom, then WT passes.  The import read the return as
    another entity's action and ended WT's turn before it (X-17), so the return was refused
    ("our engine refuses 'P2 return SD'"); a return changes no turn, so the turn's end is
    read past it (4 of 100 games of seed 46)."""
    case = "return-after-last-purchase"
    record = import_export(load_export(HERE / f"{case}.json"),
                           read_trace(HERE / f"{case}.trace.jsonl.gz"))
    assert record.actions[-4:] == ["WT buy orange", "WT buy orange", "P2 return SD", "WT done"]


def test_x23_a_companys_scrap_in_a_line_turn_takes_the_acting_lines_tram():
    """random_46004_5p, LR: DT's lines 2 and 15 both run orange trams; in line 2's turn
    ``DT scrap orange`` took line 15's (the last of that colour) while the export wrote it
    as line 2's scrap, as the site takes it; the site then asked line 15 for a run our
    game did not make ("Run Routes cannot process action pass").  Under X-23 the
    company's scrap of the acting line's colour is that line's."""
    session = _replayed("random_46004_5p-cut367")
    state = session.state
    assert state.sub.turn_view(state).line == 2
    assert [state.tram_of(n) for n in (6, 2, 15)] == ["yellow", "orange", "orange"]
    session.play("DT scrap orange")
    assert [state.tram_of(n) for n in (6, 2, 15)] == ["yellow", None, "orange"]


def test_x17_no_scrap_after_the_purchase_that_closed_the_sites_buying_step():
    """random_46033_4p, CR2: GW wins line 3 and buys its third tram; the site ends its
    buying step there (nothing more can be bought) and refused the scrap that followed
    ("Reassign Trains cannot process action scrap_train"; also random_44061_3p).  Before
    the purchase GW may scrap; after it, only end its turn."""
    session = _replayed("random_46033_4p-cut133")
    state = session.state
    assert session.record.actions[-1] == "GW auction L3 20"
    assert "GW scrap yellow" in session.legal_notation()
    session.play("GW buy yellow")
    assert state.companies["GW"].trams == ["yellow", "yellow", "yellow"]
    assert [t for t in session.legal_notation() if t.startswith("GW ")] == ["GW done"]
    with pytest.raises(IllegalAction):
        session.play("GW scrap yellow")
    session.play("GW done")


def test_site_reassignment_puts_a_spare_on_a_line_left_without_a_tram():
    """random_46075_4p, CR5: WKB's line 2 scrapped its orange tram in LR4b and stayed
    empty (the 18xx.games ruleset waits for the site's reassignment) while a spare orange
    waited; ``WKB done`` left it so and the site refused the reassignment ("All tram lines
    need to have one train").  Ending the buying turn now puts the spare on the line."""
    session = _replayed("random_46075_4p-cut443")
    company = session.state.companies["WKB"]
    assert company.lines == [2, 3] and company.trams == [None, "yellow", "orange"]
    session.play("WKB done")
    assert company.trams == ["orange", "yellow"]


def test_x23_a_company_returns_no_private_in_a_company_round():
    """random_46087_4p, CR4: BBG returned Schloss Belvedere (bought by one of its lines) in
    its buying turn; the site refused it ("Buy Trains cannot process action choose_ability":
    its SellCompany step in a Company Round takes only the director's own privates; a
    company's are returned in its lines' turns)."""
    session = _replayed("random_46087_4p-cut306")
    state = session.state
    assert state.companies["BBG"].privates == ["SB"]
    assert session.legal_notation() == [
        "BBG arrange orange,yellow,yellow", "BBG arrange yellow,yellow,orange",
        "BBG scrap yellow", "BBG scrap orange", "BBG done"]
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("BBG return SB")


def test_x23_no_return_after_a_line_scrapped_its_tram_and_can_buy_nothing():
    """random_47107_6p, LR4b: line 5 scraps its only tram; the site ends its turn (no run,
    no private to buy), so a return by its director P3 came in line 7's turn and was refused
    ("Place a Token or Lay Track cannot process action choose_ability")."""
    session = _replayed("random_47107_6p-cut639")
    assert session.record.actions[-2:] == ["L5 lay H14 3 r3", "GW scrap yellow L5"]
    assert session.legal_notation(2) == ["L5 run"]
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("P3 return KK")


def test_export_writes_the_removal_before_a_normal_station_on_its_circle():
    """rule_48005_6p, LR4b: line 10 removes Stadtbahn V's marker on C7 and places its
    station there.  Only the site's bonus station step removes a Stadtbahn marker by itself
    (R-LR-5); written as one ``place_token``, a normal station found no slot ("no token
    slots available on C7", 3 of 12 rule-bot games of seed 48), so the removal is written
    first."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.export18xx import export_record

    record = GameRecord.load(HERE / "rule_48005_6p-cut976.record.json")
    assert record.actions[-2:] == ["L10 remove C7.0", "L10 station C7.0"]
    written = [(a["type"], a.get("city"), a.get("slot"))
               for a in export_record(record)["actions"] if a["entity"] == "10"]
    assert written[-2:] == [("remove_token", "C7-0-0", 1), ("place_token", "C7-0-0", 1)]


def _round_trip(record):
    """The record's export read back (no Ruby): the probe's session, or the failure."""
    from tramways.g1840.interop.export18xx import export_record
    from tramways.g1840.interop.log18xx import parse_export
    from tramways.g1840.interop.probe import probe

    document = export_record(record)
    result = probe(parse_export(document))
    assert result.failure is None and result.session is not None
    return document, result.session.record


def test_x26_after_a_removal_the_bonus_station_goes_only_on_the_freed_circle():
    """random_47067_3p, LR: line 16 lays the Stadtbahn tile L4 on E23 (bonus: a station
    marker), removes the D marker on D12 and places a station on D24 (GW pays).  The site's bonus
    station step comes before any removal and removes a marker only where the bonus marker
    goes, so it declined the bonus and charged D24 (our engine had placed it free: the
    round trip's figures differed at the run).  Under X-26 the bonus after a removal is
    kept only for the freed circle (D12, out of line 16's reach here) as the line's next
    action; under the printed rules (R-LR-1) it still goes anywhere, free."""
    import dataclasses

    from tramways.core.record import GameRecord
    from tramways.core.replay import Session
    from tramways.g1840.ruleset import RULES, SITE
    from tramways.g1840.view_types import as_view1840

    assert SITE.bonus_station_first and not RULES.bonus_station_first
    record = GameRecord.load(HERE / "random_47067_3p-cut87.record.json")
    assert record.actions[80:84] == ["L16 lay D24 6 r2", "L16 lay E23 L4 r5",
                                     "L16 remove D12.0", "L16 station D24.0"]
    paid = {}
    for rules in (SITE, dataclasses.replace(SITE, bonus_station_first=False)):
        session = Session.from_record(record.model_copy(update={"actions": record.actions[:82]}))
        state = session.state
        state.rules = rules
        assert state.sub.turn.bonus == "place_additional_station_marker"
        session.play("L16 remove D12.0")
        treasury = state.companies["GW"].treasury
        assert session.legal_notation()[0] == "L16 station D24.0"
        session.play("L16 station D24.0")
        paid[rules.bonus_station_first] = treasury - state.companies["GW"].treasury
        assert state.sub.turn.bonus is None
    assert paid == {True: 20, False: 0}
    # the view tells the one circle left to the bonus
    session = Session.from_record(record.model_copy(update={"actions": record.actions[:83]}))
    view = as_view1840(session.state.view(None))
    assert view.round_info.line_turn.bonus_circle == "D12.0"
    _, back = _round_trip(record)
    from tramways.g1840.interop.roundtrip import same_game

    assert same_game(record, back) is None


def test_x26_a_second_removal_ends_the_bonus_and_the_round_trip_is_the_same_game():
    """random_47101_6p, LR: line 14 lays L1 on D6 (bonus station), removes D12, places G3
    (paid now: X-26) and removes A13; the site's engine refused none of it, and the export
    reads back as the same game."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_47101_6p-cut322.record.json")
    assert record.actions[316:320] == ["L14 lay D6 L1 r3", "L14 remove D12.0",
                                       "L14 station G3.0", "L14 remove A13.0"]
    document, back = _round_trip(record)
    written = [a["type"] for a in document["actions"] if a["entity"] == "14"][-9:]
    assert written == ["lay_tile", "lay_tile", "pass", "remove_token", "place_token",
                       "remove_token", "pass", "run_routes", "pass"]
    assert same_game(record, back) is None


def test_export_declines_the_bonus_before_the_lines_company_returns_a_private():
    """random_46006_2p, LR5a: line 1 lays L2 on C13 (bonus: a tile), then BBG returns
    Schloss Belvedere.  Our engine ends the bonus with the company's return (R-LR-1); the
    site's bonus step stays open through it (its SellCompany step comes first), so the one
    pass before the run closed only the bonus step ("Place a Token or Lay Track cannot
    process action run_routes").  The bonus is declined before the return; read back it is
    ``L1 skip``, the same game."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_46006_2p-cut214.record.json")
    assert record.actions[-3:] == ["L1 lay C13 L2 r0", "BBG return SB", "L1 run"]
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-5:]]
    assert written == [("lay_tile", "1"), ("pass", "1"), ("choose_ability", "SB"),
                       ("pass", "1"), ("run_routes", "1")]
    assert back.actions[-4:] == ["L1 lay C13 L2 r0", "L1 skip", "BBG return SB",
                                 "L1 run C17.0-D16.0-D18.0"]
    assert same_game(record, back) is None


def test_export_writes_the_pass_of_a_player_the_sites_share_round_still_asks():
    """random_46048_2p, SR3: P1 sells four, then one more DT share; with 352 in cash and
    every company sold this round, our engine leaves P1 only the pass, but the site keeps
    each line a company won as a share in its pool (130) and still asks P1, so the pass
    must be written ("Sell then Buy Shares cannot process action buy_shares" for P2's
    buy).  A player below 130 is passed by the site itself, as before."""
    from tramways.core.record import GameRecord
    from tramways.core.replay import Session
    from tramways.g1840.interop.roundtrip import same_game
    from tramways.g1840.interop.site_asks import asks_to_pass, offers_line_share

    record = GameRecord.load(HERE / "random_46048_2p-cut105.record.json")
    assert record.actions[-4:] == ["P1 sell DT 4", "P1 sell DT 1", "P1 pass", "P2 buy G"]
    session = Session.from_record(record.model_copy(update={"actions": record.actions[:-2]}))
    state = session.state
    assert session.legal_notation(0) == ["P1 pass"] and state.players[0].cash == 352
    assert offers_line_share(state, 0) and asks_to_pass(state, 0)
    assert not offers_line_share(state, 1)  # P2: 89 in cash
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-4:]]
    assert written == [("sell_shares", 1), ("sell_shares", 1), ("pass", 1), ("buy_shares", 2)]
    assert same_game(record, back) is None


def test_x23_no_return_after_a_lines_last_private_purchase():
    """random_53026_3s, LR: line 6 runs, then buys Schloss Belvedere and Karlskirche and can
    buy no more; the site ends its turn there ("6 skips buy companies"), so GW's return of
    Hofburg came in line 7's turn and was refused ("Place a Token or Lay Track cannot
    process action choose_ability").  Under X-23 the line's turn has only its end left."""
    session = _replayed("random_53026_3s-cut241")
    assert session.record.actions[-3:] == ["L6 run", "L6 buy SB 8", "L6 buy KK 7"]
    director = session.state.companies["GW"].director
    assert session.legal_notation(director) == ["L6 done"]
    with pytest.raises(IllegalAction, match="X-23"):
        session.play("GW return HB")
    session.play("L6 done")


def test_export_a_players_return_leaves_the_sites_closed_buying_step_closed():
    """random_53037_3p, CR: SJE buys an orange tram and can buy no more (the site closes its
    buying step), then its director P2 returns Hofburg and SJE ends its turn.  The return
    had reopened the step for the export, which wrote SJE's pass ("Reassign Trains cannot
    process action pass"); now the reassignment follows the return."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_53037_3p-cut93.record.json")
    assert record.actions[-3:] == ["SJE buy orange", "P2 return HB", "SJE done"]
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-3:]]
    assert written == [("buy_train", "SJE"), ("choose_ability", "HB"),
                       ("reassign_trains", "SJE")]
    assert same_game(record, back) is None


def test_export_a_buying_turn_our_engine_ended_itself_leaves_no_closed_step_behind():
    """random_54066_2p: BBG's second orange tram ends its buying turn after CR1's auctions
    and with it CR1 (our engine and the site alike); the exporter kept BBG's step as closed
    and left out its pass in CR2's buying step, so WKB's line auction came while the site
    still asked BBG ("Buy Trains cannot process action merge")."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_54066_2p-cut30.record.json")
    assert record.actions[-5:] == ["BBG buy orange", "BBG buy orange", "WKB done", "BBG done",
                                   "WKB auction L1 30"]
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-6:]]
    assert written == [("buy_train", "BBG"), ("buy_train", "BBG"), ("pass", "WKB"),
                       ("pass", "BBG"), ("merge", "WKB"), ("bid", "WKB")]
    assert same_game(record, back) is None


def test_import_a_return_that_leaves_a_line_nothing_to_buy_ends_its_turn():
    """random_54063_4p, LR: line 15 runs; P4 (its director) returns Prater, the one private
    it could buy, and the site ends the line's turn ("15 skips buy companies").  The export
    writes no pass for ``L15 done``; reading it back, the return is followed by our
    ``L15 done`` (it was line 16's run in line 15's turn: "it is Player 4's turn")."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_54063_4p-cut425.record.json")
    assert record.actions[-4:] == ["L15 run", "P4 return PR", "L15 done", "L16 run"]
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-4:]]
    assert written == [("run_routes", "15"), ("choose_ability", "PR"), ("pass", "16"),
                       ("run_routes", "16")]
    assert back.actions[-3:-1] == ["P4 return PR", "L15 done"]
    assert same_game(record, back) is None


def test_import_a_line_without_tram_runs_before_a_return_in_its_buying_step():
    """random_56003_4p (seed 56), LR: line 12 has no tram; it runs (nothing: the site skips
    its Route step), P3 (SJE's director) returns Karlskirche and the line's turn ends.  The
    site's pass ending the track step is followed by the return and a second pass (its
    BuyCompany step), so the skipped run is read at the first pass, before the return (read
    back it was 'SJE return KK', 'L12 run': the round trip was not the same game)."""
    from tramways.core.record import GameRecord
    from tramways.g1840.interop.roundtrip import same_game

    record = GameRecord.load(HERE / "random_56003_4p-cut521.record.json")
    assert record.actions[-4:] == ["L12 run", "SJE return KK", "L12 done", "L13 run"]
    document, back = _round_trip(record)
    written = [(a["type"], a["entity"]) for a in document["actions"][-5:]]
    assert written == [("pass", "12"), ("choose_ability", "KK"), ("pass", "12"),
                       ("pass", "13"), ("run_routes", "13")]
    assert back.actions[-4:] == ["L12 run", "SJE return KK", "L12 done", "L13 run F4.0-G3.0"]
    assert same_game(record, back) is None


def test_x3_a_loss_beyond_the_directors_cash_is_exported_with_the_loan():
    """random_56004_5p (seed 56), LR: line 5 (GW, treasury 1) runs for -20; Player 2, its
    director, pays the 19 GW lacks with one loan of 100 (X-3, R-LR-9).  The export writes
    the run as any other (the site's dividend step takes the same loan: ``take_player_loan``
    rounds up to 100s) and reads back as the same game, the loan in every figure after it;
    with Ruby the site's engine loads it to our figures after every action."""
    from tramways.core.record import GameRecord
    from tramways.core.replay import Session
    from tramways.g1840.interop.roundtrip import oracle_dir, same_game, trace_with_oracle

    record = GameRecord.load(HERE / "random_56004_5p-cut261.record.json")
    before = Session.from_record(record, upto=259).state
    assert before.companies["GW"].treasury == 1 and before.players[1].cash < 19
    session = Session.from_record(record, upto=259)
    assert session.play(record.actions[259]) == [
        "Line 5 runs (G13.0-F14.0-G15.0) for -20", "Player 2 pays 19 of GW's loss",
        "Player 2 takes 1 loan(s) of 100"]
    assert session.state.players[1].loans == before.players[1].loans + 1
    document, back = _round_trip(record)
    assert same_game(record, back) is None
    oracle = oracle_dir()
    if oracle is None:
        return  # the site's side needs ruby (tests/g1840/interop/test_export18xx.py)
    import json
    import tempfile
    from pathlib import Path

    from tramways.g1840.interop.probe import probe

    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "loss.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        run = trace_with_oracle(path, Path(work) / "out", oracle)
        assert run.error is None
        trace = read_trace(run.trace)
        assert probe(load_export(path), trace).failure is None
        assert trace.entries[-1].figures["player:Player 2.loans"] == (
            session.state.players[1].loans)
