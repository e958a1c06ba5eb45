"""The 18xx.games ruleset (RULINGS.md X-1..X-9), switched on by ``settings["ruleset"]`` for
records imported from the site; the printed rules stay the default."""

from __future__ import annotations

import pytest

from tramways.core.errors import RecordError
from tramways.g1840.actions import BuyPrivate, EndTurn, Par
from tramways.g1840.edition import Edition
from tramways.g1840.game import GAME
from tramways.g1840.market import ShareMarket

from .test_game_support import CR1_SCRIPT, play, two_player_after_pre, two_player_after_sr1
from .test_ix8_income_engine import SCRIPT as LR1_BUILD

X18 = "18xx.games"


def test_ruleset_setting_is_validated_and_kept() -> None:
    assert GAME.normalize_settings({"players": 2, "ruleset": X18})["ruleset"] == X18
    assert "ruleset" not in GAME.normalize_settings({"players": 2})
    with pytest.raises(RecordError):
        GAME.normalize_settings({"players": 2, "ruleset": "house"})


def test_x_1_only_the_companies_drawn_at_setup_can_be_parred() -> None:
    s = two_player_after_pre(X18)
    assert {a.company for a in s.legal_actions(1) if isinstance(a, Par)} == {"WT", "SJE"}


def test_x_2_every_dividend_then_stadtbahn_then_tram_buying() -> None:
    s = two_player_after_sr1(X18)
    # both zero dividends and the Stadtbahn runs are done before WT's buying turn
    assert s.sub.step.buying_phase and s.current_players() == [1]
    assert s.price("WT") == 95 and s.price("SJE") == 65 and s.price("D") == 65
    assert s.stadtbahn["D"].last_run == 70
    rules = two_player_after_sr1()
    assert rules.price("SJE") == 70  # R-CR-1: SJE has not paid yet


def test_x_3_negative_income_skips_the_revenue_space() -> None:
    s = two_player_after_sr1(X18)
    play(s, *CR1_SCRIPT, *LR1_BUILD)
    s.trams.newest = "pink"
    sje = s.companies["SJE"]
    sje.revenue, sje.treasury = 50, 500
    play(s, "L3 run")
    assert sje.treasury == 500 - 170 and sje.revenue == 50  # R-LR-9 would take the 50 first


def test_x_4_stadtbahn_sold_out_rises() -> None:
    from .test_game_support import two_player_sr2

    s = two_player_sr2(X18)
    g = s.stadtbahn["G"]
    g.ipo, g.pool = 0, 0
    s.players[0].shares["G"], s.players[1].shares["G"] = 60, 40
    row, col = s.market.where["G"]
    play(s, "P1 pass", "P2 pass")
    assert s.market.where["G"] == (row - 1, col)


def test_x_8_a_valid_claimed_route_is_taken_as_recorded() -> None:
    s = two_player_after_sr1(X18)
    play(s, *CR1_SCRIPT, *LR1_BUILD)
    play(s, "L3 run E15.0-E17.0")
    assert s.companies["SJE"].revenue == 30


def test_x_9_right_move_continues_right_after_going_up() -> None:
    """X-9 (action 314 of the oracle game) is the amended R-CR-2; under the first edition of
    the rulings (R-VERSION-1) R-CR-2 gave 101, and the 18xx.games ruleset still gives 98."""
    m = ShareMarket()
    m.place("GW", (4, 2))  # 70, pays 680: 4 steps
    m.move_dividend("GW", 4)
    assert m.where["GW"] == (3, 5) and m.price("GW") == 98
    m = ShareMarket(climb_at_row_end=True)
    m.place("GW", (4, 2))
    m.move_dividend("GW", 4)  # first-edition R-CR-2
    assert m.price("GW") == 101
    assert not Edition.FIRST.climbs_at_row_end(site_ruleset=True)
    assert Edition.FIRST.climbs_at_row_end(site_ruleset=False)
    assert not Edition.SECOND.climbs_at_row_end(site_ruleset=False)


def test_x_ruleset_private_bought_after_the_run() -> None:
    from .test_game_support import two_player_sr2

    s = two_player_sr2(X18)
    play(s, "P1 pass", "P2 pass", "L1 run")
    assert s.sub.turn.ran and EndTurn(line=1) in s.legal_actions(1)
    assert BuyPrivate(line=1, private="SD", price=50) in s.legal_actions(1)
    play(s, "L1 buy SD 50", "L1 done")
    assert s.private_owner["SD"] == "WT" and s.sub.turn.line == 3


def test_x_ruleset_unsold_lines_leave_once_every_company_has_three() -> None:
    for ruleset, left in ((X18, []), ("rules", [1, 3, 5])):
        s = two_player_after_sr1(ruleset)
        s.companies["WT"].lines = [2, 4, 6]
        s.companies["SJE"].lines = [7, 15, 18]
        for c in ("WT", "SJE"):
            for line in s.companies[c].lines:
                s.line_owner[line] = c
        play(s, "WT buy yellow", "WT done", "SJE buy yellow", "SJE done")
        assert s.round.name == "LR1a"
        assert s.line_display == left
