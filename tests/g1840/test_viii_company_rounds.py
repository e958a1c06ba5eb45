"""VIII Company Rounds: private dividends, tram stacks, order, dividends, trams, line auction,
mandatory purchase, new lines (R-CR-1..8)."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import (
    BuyTram,
    CompanyPass,
    Dividend,
    LineBid,
    OpenAuction,
    ReturnPrivate,
)
from tramways.g1840.mechanics.privates import pay_dividends as pay_private_dividends
from tramways.g1840.rounds import company as company_round
from tramways.g1840.rounds.company import MandatoryPurchase

from .test_game_support import (
    CR1_SCRIPT,
    LR1_SCRIPT,
    make,
    play,
    two_player_after_sr1,
    two_player_sr2,
)


def _round_index(state, name: str) -> int:
    return next(i for i, r in enumerate(state.ent.round_bar) if r.name == name)


def test_viii2_privates_pay_their_owners_at_cra() -> None:
    s = two_player_after_sr1()
    assert s.round.name == "CR1"
    assert s.players[0].cash == 290 + 10 + 20  # KK + HB
    assert s.players[1].cash == 120 + 15 + 25  # SB + SD


def test_r_cr_3_company_owned_private_pays_its_treasury() -> None:
    s = two_player_after_sr1()
    s.players[0].privates.remove("KK")
    s.companies["SJE"].privates.append("KK")
    s.private_owner["KK"] = "SJE"
    before = s.companies["SJE"].treasury, s.players[0].cash
    pay_private_dividends(s, [])
    assert s.companies["SJE"].treasury == before[0] + 10
    assert s.players[0].cash == before[1] + 20  # HB only


def test_viii3_cr1_stacks_orange_left_yellow_middle() -> None:
    s = two_player_after_sr1()
    assert s.trams.on_sale() == [(0, "orange", 3), (1, "yellow", 2)]  # Table 1, 2 players
    legal = s.legal_actions(1)
    assert BuyTram(company="WT", colour="yellow") in legal
    play(s, "WT buy yellow")
    assert s.companies["WT"].treasury == 900 and s.trams.on_sale()[1] == (1, "yellow", 1)
    play(s, "WT buy orange")
    assert s.companies["WT"].treasury == 600 and s.trams.newest == "orange"


def test_viii3_stacks_move_each_cr_and_the_rightmost_leaves() -> None:
    s = make(4)
    from tramways.g1840.mechanics.trams import move_stacks, price_of

    seen = []
    for _ in range(6):
        log: list[str] = []
        move_stacks(s, log)
        seen.append({c: price_of(s, c) for _, c, _ in s.trams.on_sale()})
    assert seen[0] == {"orange": 300, "yellow": 100}
    assert seen[1] == {"red": 500, "orange": 200, "yellow": 50}
    assert seen[2] == {"pink": 600, "red": 400, "orange": 100}  # yellow gone
    assert seen[3] == {"purple": 800, "pink": 500, "red": 300}
    assert seen[4] == {"purple": 600, "pink": 400}
    assert seen[5] == {"purple": None}  # CR6: nothing for sale (R-CR-4)


def test_viii3_at_most_three_trams() -> None:
    s = two_player_after_sr1()
    s.companies["WT"].treasury = 5000
    play(s, "WT buy yellow", "WT buy yellow", "WT buy orange")
    assert not any(isinstance(a, BuyTram) for a in s.legal_actions(1))
    # with three trams and nothing left to do, WT's turn ended: SJE's turn (VIII.4 order)
    assert s.current_players() == [0]
    exc = refused("VIII.4", play, s, "WT buy orange")
    # the purchase itself refuses a fourth tram (named VIII.5.3, the buying step)
    from tramways.g1840.mechanics import trams

    exc = refused("VIII.5.3", trams.buy, s, s.companies["WT"], "orange", [])
    assert "three trams" in exc.message


def test_viii4_company_order_by_price() -> None:
    s = two_player_after_sr1()
    assert s.sub.order == ["WT", "SJE"]  # 100 before 70


def test_viii5_1_dividend_paid_per_share_pool_ignored_price_by_table_6() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT, *LR1_SCRIPT[:-1])
    s.companies["WT"].revenue = 230
    s.players[0].shares["WT"] = 10  # P1 holds one share, one share in the pool
    s.companies["WT"].ipo, s.companies["WT"].pool = 30, 10
    play(s, LR1_SCRIPT[-1])
    assert s.round.name == "CR2" and s.current_players() == [1]
    legal = [a.amount for a in s.legal_actions(1) if isinstance(a, Dividend)]
    assert legal == list(range(0, 231, 10))
    refused("VIII.5.1", play, s, "WT pay 205")
    p1, p2, treasury = s.players[0].cash, s.players[1].cash, s.companies["WT"].treasury
    assert s.market.where["WT"] == (1, 1)  # 95 after CR1's 0 dividend
    play(s, "WT pay 200")
    assert s.players[1].cash == p2 + 100 and s.players[0].cash == p1 + 20
    assert s.companies["WT"].treasury == treasury + 30 and s.companies["WT"].revenue == 0
    assert s.market.where["WT"] == (1, 3) and s.price("WT") == 105  # 200-390: 2 right


def test_viii5_1_cr1_zero_dividend_moves_every_company_left() -> None:
    s = two_player_after_sr1()
    play(s, "WT done")
    assert s.price("WT") == 95
    play(s, "SJE done")
    assert s.price("SJE") == 65


def test_r_cr_1_stadtbahn_runs_after_the_tram_companies_cr1_fixed_values() -> None:
    s = two_player_after_sr1()
    s.players[0].shares["D"] = 20
    s.stadtbahn["D"].ipo = 80
    cash = s.players[0].cash
    log = play(s, "WT done", "SJE done")
    assert s.stadtbahn["D"].last_run == 70 and s.stadtbahn["W"].last_run == 0
    assert s.players[0].cash == cash + 14
    assert s.price("D") == 65 and s.price("W") == 90 and s.price("G") == 70
    assert any("Stadtbahn D runs for 70" in line for line in log)


def test_viii6_line_auction_bids_from_20_in_fives_up_to_the_treasury() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    legal = s.legal_actions(1)
    opens = [a for a in legal if isinstance(a, OpenAuction)]
    assert {a.line for a in opens} == {1, 3, 5}
    assert min(a.amount for a in opens) == 20 and max(a.amount for a in opens) == 1000
    refused("R-CR-7", play, s, "WT auction L1 15")
    play(s, "WT auction L5 20")
    bids = [a.amount for a in s.legal_actions(0) if isinstance(a, LineBid)]
    assert bids[0] == 25 and bids[-1] == 700
    play(s, "SJE bid 45", "WT bid 50", "SJE pass")
    assert s.companies["WT"].lines == [5] and s.companies["WT"].treasury == 950
    assert s.line_owner[5] == "WT"
    # the winner may buy trams at once
    assert s.current_players() == [1] and s.sub.buying == "WT"


def test_viii6_passing_on_choosing_excludes_from_every_auction_this_cr() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done", "WT pass")
    assert s.current_players() == [0]
    log = play(s, "SJE auction L3 20")
    assert s.companies["SJE"].lines == [3]  # WT could not bid: SJE wins at once
    assert any("SJE buys line 3 for 20" in line for line in log)


def test_viii6_passing_in_bidding_allows_the_next_auction() -> None:
    s = make(3, order=[0, 1, 2], display=[1, 3, 5, 7], deck=[2, 4, 6, 8, 9, 10, 11, 12])
    play(s, "P1 bid KK 20", "P2 pass", "P3 pass", "P2 bid SB 30", "P3 pass", "P1 pass",
         "P3 bid HB 40", "P1 pass", "P2 pass", "P1 bid SD 50", "P2 pass", "P3 pass",
         "P2 bid SSB 60", "P3 pass", "P1 pass", "P3 bid PR 10", "P1 pass", "P2 pass",
         "P2 order 2", "P1 order 1")
    play(s, "P1 par WT 100", "P2 par DT 90", "P3 par SJE 80", "P1 pass", "P2 pass", "P3 pass")
    play(s, "WT done", "DT done", "SJE done")
    play(s, "WT auction L1 20", "DT pass", "SJE bid 25", "WT bid 30", "SJE pass")
    assert s.companies["WT"].lines == [1]
    play(s, "WT done")
    # DT passed in bidding only: it may choose now
    assert s.current_players() == [1]
    assert OpenAuction(company="DT", line=3, amount=20) in s.legal_actions(1)
    play(s, "DT auction L3 20")
    assert s.current_players() == [2]  # SJE may bid again
    play(s, "SJE pass")
    assert s.companies["DT"].lines == [3]


def test_r_cr_5_mandatory_purchase_with_director_cash_and_loans() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass")
    s.companies["WT"].treasury = 30
    assert s.players[1].cash == 160
    play(s, "WT done", "SJE auction L3 20", "SJE done")
    # WT has no tram: after the last buying chance it must buy one (any on sale)
    assert isinstance(s.sub.step, MandatoryPurchase)
    legal = [a for a in s.legal_actions(1) if not isinstance(a, ReturnPrivate)]
    assert set(legal) == {BuyTram(company="WT", colour="orange"),
                          BuyTram(company="WT", colour="yellow")}
    log = play(s, "WT buy orange")
    wt = s.companies["WT"]
    # treasury pays 30, the director 270: 160 cash + two loans of 100 (not three)
    assert wt.treasury == 0 and wt.trams == ["orange"]
    assert s.players[1].loans == 2 and s.players[1].cash == 90
    assert any("takes 2 loan(s)" in line for line in log)
    assert s.round.name == "LR1a"


def test_viii7_new_lines_players_plus_one_or_all_left() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    assert sorted(s.line_display) == [2, 4, 5, 6]  # 5 left over + 3 new
    assert s.line_deck == [7, 15, 18]
    s2 = two_player_sr2()
    assert s2.line_deck == [] and len(s2.line_display) == 7


def test_viii6_skip_the_auction_when_every_company_has_three_lines() -> None:
    s = two_player_after_sr1()
    s.companies["WT"].lines = [1, 3, 5]
    s.companies["SJE"].lines = [2, 4, 6]
    for c in ("WT", "SJE"):
        for line in s.companies[c].lines:
            s.line_owner[line] = c
    display = list(s.line_display)
    play(s, "WT buy yellow", "WT done", "SJE buy yellow", "SJE done")
    assert s.round.name == "LR1a"
    assert s.line_display == display  # VIII.7: nobody has room: no new lines


def test_r_cr_4_cr6_no_tram_buying_no_auction_game_ends_after_stadtbahn() -> None:
    s = two_player_sr2()
    s.players[0].shares["D"] = 10
    s.stadtbahn["D"].ipo = 90
    s.companies["WT"].revenue = 100
    s.round_index = _round_index(s, "CR6")
    log: list[str] = []
    company_round.begin(s, log)
    s.advance(log)
    assert s.current_players() == [1]
    cash = s.players[0].cash
    play(s, "WT pay 100")
    assert s.is_over()
    assert s.players[0].cash == cash + 70  # D: 70 x 10 = 700, 70 per share
    assert s.stadtbahn["D"].last_run == 700


def test_viii6_company_pass_only_when_no_money_for_a_bid() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["SJE"].treasury = 20
    play(s, "WT auction L1 20")
    # SJE cannot raise to 25: it passes automatically and WT wins
    assert s.companies["WT"].lines == [1]
    assert CompanyPass(company="WT") not in s.legal_actions(1)


def test_iv2_director_may_return_a_private_before_a_mandatory_purchase() -> None:
    s = two_player_after_sr1()
    play(s, "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass")
    s.companies["WT"].treasury = 30
    play(s, "WT done", "SJE auction L3 20", "SJE done")
    assert ReturnPrivate(1, "SD") in s.legal_actions(1)
    play(s, "P2 return SD", "P2 return SB")
    assert s.players[1].cash == 160 + 50 + 30 and "SD" not in s.private_owner
    play(s, "WT buy yellow")
    # 30 from the treasury, 70 from the director: no loan needed
    assert s.players[1].loans == 0 and s.players[1].cash == 240 - 70
