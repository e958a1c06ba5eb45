"""End of VIII.6: "Finally, each company may rearrange its tram cards on its charter"."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import Arrange, Done
from tramways.g1840.engine import State1840
from tramways.g1840.rounds.company import (
    AfterAuctions,
    Dividends,
    FinalRearrangement,
    LineAuctions,
    MandatoryPurchase,
)

from .test_game_support import play, two_player_sr2


def _cr3_wt_two_lines_no_tram() -> State1840:
    """Into CR3 with WT holding lines 1 and 5 and no tram; every buying turn declined."""
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 run", "L3 run", "L1 run")
    wt = s.companies["WT"]
    wt.lines.append(5)
    s.line_owner[5] = "WT"
    s.line_display.remove(5)
    wt.trams = []
    play(s, "L3 run", "WT done", "SJE done", "WT pass", "SJE pass", "WT done", "SJE done")
    assert s.round.name == "CR3" and isinstance(s.sub.step, MandatoryPurchase)
    return s


def test_viii6_rearrange_after_the_mandatory_tram() -> None:
    s = _cr3_wt_two_lines_no_tram()
    play(s, "WT buy orange")
    wt = s.companies["WT"]
    assert wt.trams == ["orange"]  # on line 1, the first line without a tram
    assert isinstance(s.sub.step, FinalRearrangement) and s.current_players() == [1]
    assert Arrange(company="WT", colours=("none", "orange"), player=1) in s.legal_actions(1)
    refused("VIII.6", play, s, "WT buy red")
    play(s, "WT arrange none,orange")
    assert wt.trams == [None, "orange"]  # now line 5 runs the orange tram
    assert isinstance(s.sub.step, FinalRearrangement)
    play(s, "WT done")
    assert s.round.name == "SR3"


def test_viii6_rearranging_turn_may_be_declined() -> None:
    s = _cr3_wt_two_lines_no_tram()
    play(s, "WT buy orange")
    assert Done(company="WT", player=1) in s.legal_actions()
    play(s, "WT done")
    assert s.round.name == "SR3" and s.companies["WT"].trams == ["orange"]


def test_viii6_buying_turns_already_offer_rearranging() -> None:
    # the buying turn after the auctions (VIII.6) offers the rearrangement of VIII.5.3
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 run", "L3 run", "L1 run")
    wt = s.companies["WT"]
    wt.lines.append(5)
    s.line_owner[5] = "WT"
    s.line_display.remove(5)
    play(s, "L3 run", "WT done", "SJE done", "WT pass", "SJE pass")
    assert isinstance(s.sub.step, AfterAuctions) and s.current_players() == [1]
    assert Arrange(company="WT", colours=("none", "yellow"), player=1) in s.legal_actions()


def test_r_cr_5_mandatory_purchase_waits_for_a_possible_private_return() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 run", "L3 run", "L1 run", "L3 run", "WT done", "SJE done",
         "WT pass", "SJE pass", "WT done")
    assert s.round.name == "CR3" and isinstance(s.sub.step, AfterAuctions) and s.current_players() == [0]
    wt, p2 = s.companies["WT"], s.players[1]
    wt.trams, wt.treasury, p2.cash = [], 0, 0
    s.players[1].privates.remove("SD")
    wt.privates.append("SD")
    s.private_owner["SD"] = "WT"
    s.trams.spaces = [None, ("orange", 3), None]  # a single colour on sale
    play(s, "SJE done")
    # not bought automatically: returning a private first lowers the loans (IV.2, R-CR-5)
    assert isinstance(s.sub.step, MandatoryPurchase) and s.current_players() == [1]
    play(s, "WT return SD")
    assert wt.treasury == 50 and isinstance(s.sub.step, MandatoryPurchase)
    play(s, "P2 return SB")
    # nothing left to return and a single colour: bought at once for 200 (space 2 price):
    # 50 from the treasury, 150 from P2 who has 30 and takes two loans of 100 (R-CR-5)
    assert wt.trams == ["orange"] and wt.treasury == 0
    assert p2.loans == 2 and p2.cash == 30 + 200 - 150
    assert s.round.name == "SR3"


def test_iv2_viii6_a_company_may_return_its_private_to_open_an_auction() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 buy SD 50", "L1 run", "L3 run", "L1 run", "L3 run",
         "WT done")
    s.companies["WT"].treasury = 10  # below the minimum bid of 20 (R-CR-7)
    play(s, "SJE done")
    # not passed automatically: returning SD (face value 50) would pay for a bid
    assert isinstance(s.sub.step, LineAuctions) and s.current_players() == [1] and "WT" not in s.sub.out
    assert not any(a.__class__.__name__ == "OpenAuction" for a in s.legal_actions())
    play(s, "WT return SD")
    assert s.companies["WT"].treasury == 60
    play(s, "WT auction L2 60", "SJE pass")
    assert s.companies["WT"].lines == [1, 2] and s.companies["WT"].treasury == 0


def test_r_cr_7_a_company_without_funds_passes_automatically() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 run", "L3 run", "L1 run", "L3 run", "WT done")
    s.companies["WT"].treasury = 10  # no private to return
    log = play(s, "SJE done")
    assert "WT" in s.sub.out and any("cannot open" in line for line in log)
    assert s.current_players() == [0]  # SJE chooses


def test_iv2_viii53_buying_turn_kept_when_a_private_return_pays_for_a_tram() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 buy SD 50", "L1 run", "L3 run", "L1 run")
    s.companies["WT"].treasury = 60  # with SD's 25 (CRa): 85 < orange 100 (CR3)
    play(s, "L3 run")
    assert s.round.name == "CR3" and isinstance(s.sub.step, Dividends) and s.current_players() == [1]
    assert not any(a.__class__.__name__ == "BuyTram" for a in s.legal_actions())
    play(s, "WT return SD", "WT buy orange")
    assert s.companies["WT"].owned() == ["yellow", "orange"]
    assert s.companies["WT"].treasury == 60 + 25 + 50 - 100  # SD paid 25 in CRa (R-CR-3)
