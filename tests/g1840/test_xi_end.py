"""XI End of the game: wealth and ranking (R-END-1)."""

from __future__ import annotations

from tramways.g1840.view import result

from .test_game_support import two_player_sr2


def test_xi_wealth_cash_shares_privates_minus_200_per_loan() -> None:
    s = two_player_sr2()
    # P1: 350 cash, SJE 50% at 60, KK 20 + HB 40 face value
    assert s.wealth(0) == 350 + 5 * 60 + 60
    s.players[0].loans = 2
    s.players[0].shares["D"] = 30
    s.stadtbahn["D"].ipo = 70
    assert s.wealth(0) == 350 + 5 * 60 + 3 * 65 + 60 - 400
    # P2: 200 cash, WT 50% at 90, SB 30 + SD 50
    assert s.wealth(1) == 200 + 5 * 90 + 80


def test_r_end_1_equal_wealth_shares_the_place() -> None:
    s = two_player_sr2()
    s.players[0].cash += s.wealth(1) - s.wealth(0)
    r = result(s)
    assert r["wealth"][0] == r["wealth"][1]
    assert r["rank"] == [1, 1] and r["winners"] == [0, 1]


def test_r_end_1_the_outcome_ranks_by_wealth_and_its_json_is_the_result() -> None:
    """The core's Outcome: scores are the wealth (XI), places the rank (R-END-1)."""
    s = two_player_sr2()
    s.players[0].cash += s.wealth(1) - s.wealth(0) + 25
    outcome = s.outcome()
    assert outcome.scores == outcome.wealth == (s.wealth(0), s.wealth(1))
    assert outcome.scores[0] - outcome.scores[1] == 25
    assert outcome.places == (1, 2) and outcome.winners == (0,)
    assert outcome.to_json() == s.result() == result(s)


def test_xi_company_treasury_does_not_count() -> None:
    s = two_player_sr2()
    before = s.wealth(1)
    s.companies["WT"].treasury += 5000
    assert s.wealth(1) == before
