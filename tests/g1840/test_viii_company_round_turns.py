"""VIII.4-VIII.6 in the Company Round (g1840/rounds/company.py): whose turn it is and the rule a
wrong turn names, the dividend's limits and whole-money payouts, what bids are offered and who
passes automatically, the round's view: the gaps the mutation run of company.py showed
(issue 16).  Each refusal names its rule and leaves the state as it was."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import OpenAuction
from tramways.g1840.rounds import company as company_round
from tramways.g1840.view_types import LineAuctionView, RoundDetail, TurnDetail

from .test_game_support import CR1_SCRIPT, LR1_SCRIPT, play, two_player_after_sr1


def _cr2_wt_to_pay(revenue: int = 230):
    """CR2 of the 2-player game: WT (P2's) is to decide its dividend from ``revenue``; P1
    holds one WT share, one is in the pool."""
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT, *LR1_SCRIPT[:-1])
    s.companies["WT"].revenue = revenue
    s.players[0].shares["WT"] = 10
    s.companies["WT"].ipo, s.companies["WT"].pool = 30, 10
    play(s, LR1_SCRIPT[-1])
    assert s.round.name == "CR2" and s.current_players() == [1]
    return s


def test_viii4_only_the_company_whose_turn_it_is_acts_and_the_refusal_names_the_step() -> None:
    """CRd: WT pays first (VIII.4 company order); SJE's action in WT's turn is refused, in the
    auctions with VIII.6, after them with VIII.5.3."""
    s = two_player_after_sr1()
    assert s.sub.view(s) == RoundDetail(company_order=("WT", "SJE"), step="d")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="d")
    refused("VIII.4", play, s, "SJE done")
    play(s, "WT done", "SJE done")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="e")
    refused("VIII.6", play, s, "SJE auction L1 20")
    play(s, "WT auction L1 20")
    view = s.sub.view(s)
    assert view.step == "e"
    assert view.auction == LineAuctionView(line=1, high=20, high_company="WT", turn="SJE")
    play(s, "SJE pass")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="e")  # WT's buying turn (R-CR-7)
    refused("VIII.6", play, s, "SJE done")
    play(s, "WT done", "SJE auction L3 20")
    assert s.sub.turn_view(s).company == "SJE"


def test_viii5_1_a_dividend_above_the_revenue_is_refused() -> None:
    s = _cr2_wt_to_pay(230)
    refused("VIII.5.1", play, s, "WT pay 240")
    refused("VIII.5.1", play, s, "WT pay 235")
    refused("VIII.5.1", play, s, "WT buy yellow")  # the dividend comes first


def test_viii5_1_payouts_are_whole_money_and_the_log_names_the_price_move() -> None:
    s = _cr2_wt_to_pay(230)
    p1, p2 = s.players[0].cash, s.players[1].cash
    log = play(s, "WT pay 200")
    assert s.players[0].cash == p1 + 20 and type(s.players[0].cash) is int
    assert s.players[1].cash == p2 + 100 and type(s.players[1].cash) is int
    assert "WT pays 200 (20 per share), retains the rest; price 95 -> 105" in log


def test_r_cr_7_no_bid_above_the_treasury_is_offered() -> None:
    """A treasury of 24 opens at 20 only (steps of 5: 25 is more than it has)."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["WT"].treasury = 24
    assert {a.amount for a in s.legal_actions(1) if isinstance(a, OpenAuction)} == {20}


def test_r_cr_7_a_company_with_exactly_the_minimum_bid_may_open_an_auction() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["WT"].treasury = 20
    assert company_round.trams.private_funds(s, s.companies["WT"]) == 0
    s.sub.step.advance(s.sub, s, [])
    assert "WT" not in s.sub.out
    assert {a.amount for a in s.legal_actions(1) if isinstance(a, OpenAuction)} == {20}


def test_viii6_a_bidder_with_exactly_a_raise_left_is_asked_and_one_short_passes() -> None:
    """WT opens line 1 at 20: SJE with 25 may raise to 25 (it is asked); with 24 it cannot and
    passes at once, and WT buys the line."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["SJE"].treasury = 25
    play(s, "WT auction L1 20")
    assert s.current_players() == [0] and s.sub.auction is not None
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["SJE"].treasury = 24
    log = play(s, "WT auction L1 20")
    assert "SJE cannot raise and passes" in log
    assert s.companies["WT"].lines == [1] and s.sub.auction is None


def test_viii5_3_a_buying_turn_takes_only_tram_actions_a_return_or_done() -> None:
    """CR1: WT's dividend is 0 (no revenue) and its buying turn begins: opening an auction
    now is refused (VIII.5.3), the auctions come after every company's turn (VIII.6)."""
    s = two_player_after_sr1()
    assert s.sub.step.paid and s.sub.turn_view(s) == TurnDetail(company="WT", step="d")
    refused("VIII.5.3", play, s, "WT auction L1 20")
    refused("VIII.5.3", play, s, "WT pay 0")


def test_r_cr_7_after_the_auctions_a_company_without_a_line_has_a_buying_turn() -> None:
    """WT buys line 1, SJE passes on choosing: SJE's buying turn after the auctions is the
    "post" step, where another company's action is refused under VIII.5.3."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done", "WT auction L1 20", "SJE pass", "WT done", "SJE pass")
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="post")
    refused("VIII.5.3", play, s, "WT done")


def test_viii5_3_the_mandatory_purchase_waits_for_its_company_alone() -> None:
    """WT has no tram after its last buying chance, only yellow is on sale and its director
    could return a private first: the "mandatory" step waits for WT; SJE is refused
    (VIII.5.3)."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass")
    s.companies["WT"].treasury = 30
    play(s, "WT done", "SJE auction L3 20")
    s.players[1].cash = 0
    s.trams.spaces = [sp if sp is None or sp[0] != "orange" else None for sp in s.trams.spaces]
    play(s, "SJE done")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="mandatory")
    refused("VIII.5.3", play, s, "SJE done")


def test_viii4_a_players_action_is_no_action_of_the_company_round() -> None:
    s = two_player_after_sr1()
    refused("VIII.4", play, s, "P2 pass")


def test_viii5_2_each_stadtbahn_run_is_logged_with_its_price_move() -> None:
    """CR1 (R-CR-1): W and G run for 0 and drop a space; D runs for 70 (7 per share)."""
    s = two_player_after_sr1()
    log = play(s, "WT done", "SJE done")
    assert [line for line in log if line.startswith("Stadtbahn")] == [
        "Stadtbahn W runs for 0 (x1), 0 per share; price 95 -> 90",
        "Stadtbahn G runs for 0 (x1), 0 per share; price 75 -> 70",
        "Stadtbahn D runs for 70 (x1), 7 per share; price 65 -> 65",
    ]


def test_viii5_3_the_forced_purchase_is_automatic_when_treasury_and_cash_pay_it_exactly() -> None:
    """WT (30 in its treasury) must buy the only tram on sale; its director has exactly the
    rest: the purchase is made at once, no loan, the director left with 0 (VIII.5.3)."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass")
    s.companies["WT"].treasury = 30
    play(s, "WT done", "SJE auction L3 20")
    s.trams.spaces = [sp if sp is None or sp[0] != "orange" else None for sp in s.trams.spaces]
    price = company_round.trams.price_of(s, "yellow")
    assert price is not None and price > 30
    s.players[1].cash = price - 30
    play(s, "SJE done")
    assert s.companies["WT"].trams == ["yellow"]
    assert s.players[1].cash == 0 and s.players[1].loans == 0
