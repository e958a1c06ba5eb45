"""VII Share Rounds: SR1 director's shares, buying, selling, limits, order (R-SR-1..3, X.3)."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import BuyShare, Par, Pass, ReturnPrivate, SellShares

from .test_game_support import make, play, two_player_after_pre, two_player_sr2


def test_vii5_director_share_paid_with_pre_emptive_right_then_cash() -> None:
    s = two_player_after_pre()
    assert s.current_players() == [1]
    play(s, "P2 par WT 100")
    wt = s.companies["WT"]
    assert s.players[1].cash == 270 - 150 and s.players[1].pre_emptive == 0
    assert wt.treasury == 1000 and wt.director == 1 and s.players[1].shares == {"WT": 50}
    assert s.market.where["WT"] == (1, 2) and s.price("WT") == 100
    play(s, "P1 par SJE 70")
    assert s.players[0].cash == 290 and s.companies["SJE"].treasury == 700


def test_r_sr_1_director_share_first_then_buying_and_passing() -> None:
    s = two_player_after_pre()
    legal = s.legal_actions(1)
    # a director's share first; returning a private stays possible at any time (IV.2)
    assert all(isinstance(a, Par | ReturnPrivate) for a in legal)
    assert any(isinstance(a, Par) for a in legal)
    assert Par(1, "GW", 90) in legal  # R-SETUP-1: any of the six
    refused("R-SR-1", play, s, "P2 pass")
    play(s, "P2 par WT 100", "P1 par SJE 70")
    assert s.unchosen == []  # the other four left the game
    assert Pass(1) in s.legal_actions(1) and BuyShare(1, "D") in s.legal_actions(1)
    refused("IV.1.2", play, s, "P2 par DT 70")


def test_vii5_par_limited_by_cash() -> None:
    s = make(6, order=[0, 1, 2, 3, 4, 5])
    for seat in range(6):
        for private in ("PR", "KK", "SB", "HB", "SD", "SSB")[seat: seat + 1]:
            play(s, f"P{seat + 1} bid {private} {s.ent.privates[private].face_value + 100}")
            for other in range(1, 6):
                play(s, f"P{(seat + other) % 6 + 1} pass")
    while s.round.name == "PRE":
        play(s, f"P{s.current_players()[0] + 1} order {s.sub.cards_left[0]}")
    poorest = min(range(6), key=lambda i: s.players[i].cash)
    assert s.players[poorest].cash == 200 - 160  # SSB at 160
    while s.current_players() != [poorest]:
        seat = s.current_players()[0]
        play(s, f"P{seat + 1} par {s.unchosen[0]} 70")
    prices = {a.price for a in s.legal_actions(poorest) if isinstance(a, Par)}
    assert prices == {70}  # 80 would cost 50 above the card


def test_vii4_no_selling_in_sr1() -> None:
    s = two_player_after_pre()
    play(s, "P2 par WT 100", "P1 par SJE 70", "P2 buy D")
    assert not any(isinstance(a, SellShares) for a in s.legal_actions(0))
    play(s, "P1 pass")
    refused("VII.4", play, s, "P2 sell D 1")


def test_vii6_buy_at_current_price_ipo_then_pool() -> None:
    s = two_player_sr2()
    play(s, "P1 buy WT")
    assert s.players[0].cash == 350 - 90 and s.players[0].shares["WT"] == 10
    assert s.companies["WT"].ipo == 40


def test_vii4_sale_price_drop_and_no_buy_back() -> None:
    s = two_player_sr2()
    play(s, "P1 buy D", "P2 pass", "P1 buy D", "P2 pass")
    assert s.players[0].shares["D"] == 20 and s.players[0].cash == 350 - 130
    log = play(s, "P1 sell D 2")
    # X.3: seller gets the price before the drop (65 each), then two rows down: (4,1) has
    # no cell below, so the marker stays
    assert s.players[0].cash == 350 - 130 + 130
    assert s.price("D") == 65 and s.stadtbahn["D"].pool == 20
    assert any("sells 2 D" in line for line in log)
    assert BuyShare(0, "D") not in s.legal_actions(0)  # VII.6
    refused("VII.6", play, s, "P1 buy D")


def test_x3_sale_moves_price_down_one_row_per_share() -> None:
    s = two_player_sr2()
    play(s, "P1 buy WT", "P2 pass", "P1 buy WT", "P2 pass")
    assert s.market.where["WT"] == (1, 0)  # 90
    play(s, "P1 sell WT 2")
    assert s.players[0].cash == 350 - 180 + 180
    assert s.market.where["WT"] == (3, 0) and s.price("WT") == 70


def test_vii4_director_share_never_sold() -> None:
    s = two_player_sr2()
    assert not any(isinstance(a, SellShares) and a.company == "SJE" for a in s.legal_actions(0))
    refused("VII.4", play, s, "P1 sell SJE 1")


def test_vii3_sixty_percent_at_most() -> None:
    s = two_player_sr2()
    play(s, "P1 buy SJE", "P2 pass")
    assert s.players[0].shares["SJE"] == 60
    assert BuyShare(0, "SJE") not in s.legal_actions(0)
    refused("VII.3", play, s, "P1 buy SJE")


def test_vii3_certificate_limit_counts_privates_and_director_share_as_one() -> None:
    s = two_player_sr2()
    assert s.certificates(0) == 3  # SJE director share + KK + HB
    s.players[0].cash = 10_000
    bought = 0
    while BuyShare(0, "D") in s.legal_actions(0) or BuyShare(0, "G") in s.legal_actions(0):
        company = "D" if BuyShare(0, "D") in s.legal_actions(0) else "G"
        play(s, f"P1 buy {company}", "P2 pass")
        bought += 1
    assert bought == 12 and s.certificates(0) == 15  # D and G each 60%
    play(s, "P1 buy W", "P2 pass", "P1 buy W", "P2 pass", "P1 buy W", "P2 pass")
    assert s.certificates(0) == 18 == s.cert_limit()  # Table 5: 18 for 2 players
    assert not any(isinstance(a, BuyShare) for a in s.legal_actions(0))


def test_vii2_round_ends_when_all_pass_and_order_by_most_cash() -> None:
    s = two_player_sr2()
    play(s, "P1 buy WT", "P2 pass")  # P1 260, P2 200
    assert s.round.name == "SR2"  # one pass only
    play(s, "P1 buy D", "P2 buy D")  # P1 195, P2 135
    play(s, "P1 pass")
    assert s.round.name == "SR2"
    play(s, "P2 pass")
    assert s.round.name == "LR2a"
    assert s.order == [0, 1]  # P1 has more cash


def test_vii2_new_order_ties_keep_the_old_order() -> None:
    s = two_player_sr2()
    s.players[0].cash = s.players[1].cash = 200
    s.order = [1, 0]
    s.sub.turn_pos = 0
    play(s, "P2 pass", "P1 pass")
    assert s.order == [1, 0]


def test_x3_sold_out_tram_company_rises_one_space() -> None:
    s = two_player_sr2()
    s.players[0].cash = 1000
    play(s, "P1 buy WT", "P2 buy WT", "P1 buy WT", "P2 pass", "P1 buy WT", "P2 pass", "P1 buy WT")
    assert s.companies["WT"].ipo == 0 and s.companies["WT"].pool == 0
    assert s.market.where["WT"] == (1, 0)  # 90
    log = play(s, "P2 pass", "P1 pass")
    assert s.market.where["WT"] == (0, 0) and s.price("WT") == 100
    assert "WT is sold out: price rises from 90 to 100" in log


def test_x3_sold_out_on_the_top_row_stays_and_says_so() -> None:
    s = two_player_sr2()
    s.players[0].cash = 1000
    play(s, "P1 buy WT", "P2 buy WT", "P1 buy WT", "P2 pass", "P1 buy WT", "P2 pass", "P1 buy WT")
    s.market.place("WT", (0, 5))  # 128, on the top row
    log = play(s, "P2 pass", "P1 pass")
    assert s.market.where["WT"] == (0, 5) and s.price("WT") == 128
    assert "WT is sold out, on the top row: price stays at 128 (X.3)" in log
    assert not any("rises" in line for line in log)


def test_r_sr_2_stadtbahn_does_not_rise_when_sold_out() -> None:
    s = two_player_sr2()
    s.players[0].cash = s.players[1].cash = 5000
    s.stadtbahn["G"].ipo = 0
    s.stadtbahn["G"].pool = 0
    s.players[0].shares["G"] = 60
    s.players[1].shares["G"] = 40
    before = s.market.where["G"]
    play(s, "P1 pass", "P2 pass")
    assert s.market.where["G"] == before


def test_r_sr_3_stadtbahn_shares_sold_from_sr2() -> None:
    s = two_player_sr2()
    play(s, "P1 buy G", "P2 pass")
    assert SellShares(0, "G", 1) in s.legal_actions(0)
