"""VIII.5.2, VIII.5.3 and VIII.6 in the Company Round (g1840/rounds/company.py): the gaps
mutation testing showed (issue 16).  Each refusal names its rule and leaves the state as it was."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import BuyTram, LineBid, OpenAuction, ReturnPrivate
from tramways.g1840.rounds import company as company_round
from tramways.g1840.rounds.company import MandatoryPurchase

from .test_game_support import play, two_player_after_sr1


def test_viii6_choosing_a_line_refusals() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    assert s.current_players() == [1] and s.companies["WT"].treasury == 1000
    refused("VIII.6", play, s, "WT bid 25")  # no auction open: choose a line or pass
    err = refused("VIII.6", play, s, "WT auction L2 20")
    assert "not on display" in err.message
    refused("R-CR-7", play, s, "WT auction L1 22")  # from 20 in steps of 5
    refused("R-CR-7", play, s, "WT auction L1 15")
    err = refused("R-CR-7", play, s, "WT auction L1 1005")
    assert "only 1000" in err.message
    play(s, "WT auction L1 1000")  # the whole treasury is a legal opening bid
    # SJE cannot raise above 1000: it passes at once and WT buys line 1 for all it has
    assert s.companies["WT"].lines == [1] and s.companies["WT"].treasury == 0


def test_viii6_bidding_refusals() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done", "WT auction L5 20")
    assert s.current_players() == [0]
    treasury = s.companies["SJE"].treasury
    refused("VIII.6", play, s, "SJE auction L1 20")  # an auction is open: bid or pass
    refused("VIII.6", play, s, "SJE bid 20")  # not above the high bid
    refused("VIII.6", play, s, "SJE bid 15")
    refused("VIII.6", play, s, "SJE bid 27")  # raises go in steps of 5
    err = refused("R-CR-7", play, s, f"SJE bid {treasury + 5}")
    assert f"only {treasury}" in err.message
    bids = [a.amount for a in s.legal_actions(0) if isinstance(a, LineBid)]
    assert bids == list(range(25, treasury + 1, 5))
    play(s, f"SJE bid {treasury}")
    assert s.sub.auction.high == treasury and s.sub.auction.high_company == "SJE"


def test_viii6_a_company_with_three_lines_may_not_choose() -> None:
    s = two_player_after_sr1()
    s.companies["WT"].lines = [2, 4, 6]
    for line in (2, 4, 6):
        s.line_owner[line] = "WT"
    play(s, "WT done", "SJE done")
    # R-CR-7: WT has three lines; SJE chooses, and wins at once with nobody to bid
    assert s.current_players() == [0]
    assert not any(isinstance(a, OpenAuction) for a in s.legal_actions(1))
    play(s, "SJE auction L1 20")
    assert s.companies["SJE"].lines == [1]


def test_viii5_2_stadtbahn_payout_rounded_down_to_10_per_share(monkeypatch) -> None:
    """A Stadtbahn run of 75 pays 70: 7 per 10% share (VIII.5.2, paid per share)."""
    s = two_player_after_sr1()
    s.players[0].shares["D"] = 20
    s.stadtbahn["D"].ipo = 80
    monkeypatch.setattr(company_round, "stadtbahn_revenue",
                        lambda state, company, multiplier: 75 if company == "D" else 9)
    cash = s.players[0].cash
    log = play(s, "WT done", "SJE done")
    assert s.stadtbahn["D"].last_run == 70 and s.stadtbahn["W"].last_run == 0
    assert s.players[0].cash == cash + 14
    assert any("Stadtbahn D runs for 70" in line and "7 per share" in line for line in log)


def _mandatory_yellow_only(director_cash: int, privates: bool):
    """WT has no tram after its last buying chance and only yellow trams are on sale (the
    orange space emptied by hand); its treasury holds 30."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass")
    s.companies["WT"].treasury = 30
    play(s, "WT done", "SJE auction L3 20")
    if not privates:
        for private in sorted(s.players[1].privates):
            play(s, f"P2 return {private}")
    s.players[1].cash = director_cash
    s.trams.spaces = [sp if sp is None or sp[0] != "orange" else None for sp in s.trams.spaces]
    assert [c for _, c, _ in s.trams.on_sale()] == ["yellow"]
    price = company_round.trams.price_of(s, "yellow")
    assert price is not None
    return s, price


def test_viii5_3_forced_purchase_is_automatic_when_treasury_and_director_can_pay() -> None:
    s, price = _mandatory_yellow_only(director_cash=500, privates=True)
    play(s, "SJE done")
    wt = s.companies["WT"]
    assert wt.trams == ["yellow"] and s.players[1].loans == 0
    assert s.players[1].cash == 500 - (price - 30)
    assert s.round.name == "LR1a"


def test_viii5_3_forced_purchase_the_director_cannot_afford_waits_while_privates_can_be_returned(
) -> None:
    """VIII.5.3 / IV.2: the director short of money may first return a private to the bank
    (a loan avoided), so the one possible purchase is not made for him."""
    s, price = _mandatory_yellow_only(director_cash=0, privates=True)
    assert price > 30
    play(s, "SJE done")
    assert isinstance(s.sub.step, MandatoryPurchase) and s.companies["WT"].trams == []
    legal = s.legal_actions(1)
    assert BuyTram(company="WT", colour="yellow") in legal
    assert any(isinstance(a, ReturnPrivate) for a in legal)
    refused("VIII.5.3", play, s, "WT done")


def test_viii5_3_forced_purchase_with_no_private_to_return_is_automatic_with_loans() -> None:
    s, price = _mandatory_yellow_only(director_cash=0, privates=False)
    play(s, "SJE done")
    assert s.companies["WT"].trams == ["yellow"] and s.round.name == "LR1a"
    assert s.players[1].loans >= 1
