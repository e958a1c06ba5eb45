"""IV.2: a private "may be voluntarily returned to the Bank at any time" -- also outside its
owner's turn, for a player's private and for a company's (decided by its director)."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import CompanyReturnPrivate, ReturnPrivate
from tramways.g1840.rounds.company import Dividends, LineAuctions

from .test_game_support import make, play, two_player_after_pre, two_player_sr2


def test_iv2_return_private_outside_own_turn_in_sr1() -> None:
    s = two_player_after_pre()
    assert s.current_players() == [1]
    # the player not to act may only return privates; the acting player is unchanged
    assert set(s.legal_actions(0)) == {ReturnPrivate(0, "KK"), ReturnPrivate(0, "HB")}
    cash = s.players[0].cash
    log = play(s, "P1 return KK")
    assert s.players[0].cash == cash + 20 and s.players[0].privates == ["HB"]
    assert "KK" not in s.private_owner and s.closed_privates == ["KK"]
    assert s.current_players() == [1] and s.round.name == "SR1"
    assert any("returns KK" in line for line in log)


def test_iv2_return_private_in_the_pre_share_round() -> None:
    s = make(2, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18])
    play(s, "P1 bid KK 20", "P2 pass")
    assert s.current_players() == [1]
    assert ReturnPrivate(0, "KK") in s.legal_actions(0)
    play(s, "P1 return KK")
    assert s.players[0].cash == 350 and s.current_players() == [1]


def test_iv2_company_returns_private_outside_its_turn() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass")
    assert s.round.name == "LR2a" and s.sub.turn.line == 1
    play(s, "L1 buy SD 50", "L1 run")  # WT (director P2) owns SD; now SJE's line 3 acts
    assert s.sub.turn.line == 3 and s.current_players() == [0]
    assert CompanyReturnPrivate(company="WT", private="SD", player=1) in s.legal_actions(1)
    treasury = s.companies["WT"].treasury
    play(s, "WT return SD")
    assert s.companies["WT"].treasury == treasury + 50 and s.companies["WT"].privates == []
    assert s.sub.turn.line == 3 and s.current_players() == [0]


def test_iv2_only_the_director_returns_a_company_private() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 buy SD 50", "L1 run")
    before = s.clone()
    refused("IV.1.2", s.apply, CompanyReturnPrivate(company="WT", private="SD", player=0))
    assert s.companies["WT"].privates == before.companies["WT"].privates
    refused("IV.2", play, s, "P1 return SD")  # P1 does not own it


def test_iv2_no_return_of_a_private_under_offer() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass", "L1 buy KK 20")  # offer to P1, who must answer
    assert s.current_players() == [0]
    assert ReturnPrivate(0, "KK") not in s.legal_actions(0)
    refused("IV.2", play, s, "P1 return KK")
    assert s.private_owner["KK"] == 0
    play(s, "P1 return HB")  # another private may go back meanwhile
    assert s.current_players() == [0] and s.sub.turn.offer is not None


def test_iv2_no_return_once_the_game_is_over() -> None:
    s = two_player_after_pre()
    s.finished = True
    assert s.legal_actions(0) == []
    refused("XI", play, s, "P1 return KK")


def test_turn_refusals_cite_the_round_section() -> None:
    s = make(2, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18])
    refused("VI", play, s, "P2 bid KK 20")
    s = two_player_after_pre()
    refused("VII.2", play, s, "P1 par SJE 70")
    s = two_player_sr2()
    refused("VII.2", play, s, "P2 pass")
    play(s, "P1 pass", "P2 pass")
    refused("IX.1", play, s, "P1 pass")


def test_company_turn_refusals_cite_viii4_and_viii6() -> None:
    s = two_player_after_pre()
    play(s, "P2 par WT 100", "P1 par SJE 70", "P2 pass", "P1 pass")
    assert s.round.name == "CR1" and isinstance(s.sub.step, Dividends)
    refused("VIII.4", play, s, "SJE done")  # WT acts first (higher price)
    play(s, "WT done", "SJE done")
    assert isinstance(s.sub.step, LineAuctions)
    refused("VIII.6", play, s, "SJE auction L1 20")
