"""VIII.5.3 / IX.8 / R-LR-8: "A company may voluntarily scrap a tram at any time"."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import ScrapTram

from .test_game_support import play, two_player_sr2


def test_viii53_scrap_outside_the_companys_turn() -> None:
    s = two_player_sr2()
    assert s.current_players() == [0]  # SR2: P1 acts; P2 directs WT
    assert ScrapTram(company="WT", colour="yellow", player=1) in s.legal_actions(1)
    log = play(s, "WT scrap yellow")
    assert s.companies["WT"].owned() == [] and any("scraps" in line for line in log)
    assert s.current_players() == [0] and s.round.name == "SR2"
    assert not any(isinstance(a, ScrapTram) and a.company == "WT" for a in s.legal_actions(1))


def test_viii53_only_the_director_scraps() -> None:
    s = two_player_sr2()
    refused("IV.1.2", s.apply, ScrapTram(company="WT", colour="yellow", player=0))
    assert s.companies["WT"].owned() == ["yellow"]
    refused("VIII.5.3", play, s, "WT scrap red")


def test_r_lr_8_scrap_before_another_lines_run() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass")
    assert s.round.name == "LR2a" and s.sub.turn.line == 1 and s.current_players() == [1]
    play(s, "SJE scrap yellow")  # SJE's line 3 has not run yet
    assert s.companies["SJE"].owned() == [] and s.sub.turn.line == 1
    play(s, "L1 run")
    assert s.sub.turn.line == 3
