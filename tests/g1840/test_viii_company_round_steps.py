"""The Company Round's steps as a game sees them (g1840/rounds/company.py): the `final` and
`over` steps, whose turn a return or scrap belongs to, when line auctions are still ahead,
when the line cards are drawn (VIII.7, R-CR-8; X-ruleset of 18xx.games), and the extra turns
after the auctions (R-CR-7, X-11): the survivors of the mutation run of company.py (issue 16)."""

from __future__ import annotations

import copy

from tests.support import refused
from tramways.g1840.actions import BuyTram, CompanyPass, Dividend, LineBid
from tramways.g1840.view_types import RoundDetail, TurnDetail

from .test_game_support import CR1_SCRIPT, play, two_player_after_sr1

X18 = "18xx.games"


def _give_lines(s, company: str, lines: list[int]) -> None:
    s.companies[company].lines = list(lines)
    for line in lines:
        s.line_owner[line] = company
        if line in s.line_deck:
            s.line_deck.remove(line)


def test_viii4_a_refused_action_leaves_the_dividend_and_auction_steps_equal() -> None:
    """VIII.4, VIII.6: the steps compare by value, so a refusal leaves the round equal to
    its copy (state untouched) in CRd and CRe."""
    s = two_player_after_sr1()
    assert s.sub.step == copy.deepcopy(s.sub.step)
    refused("VIII.5.3", play, s, "WT auction L1 20")  # WT's buying turn in CRd
    refused("VIII.4", play, s, "SJE done")
    play(s, "WT done", "SJE done")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="e")
    refused("VIII.6", play, s, "SJE auction L1 20")
    refused("VIII.6", play, s, "WT buy yellow")


def test_xi_r_cr_4_after_cr6s_stadtbahn_runs_the_round_is_over() -> None:
    """XI, R-CR-4: CR6 has no buying turns; after the Stadtbahn runs the game ends and the
    round's step is `over`."""
    s = two_player_after_sr1()
    s.sub.number = 6
    log = play(s, "WT done")
    assert "The game ends after CR6 (XI, R-CR-4)" in log
    assert s.finished
    assert s.sub.view(s) == RoundDetail(company_order=("WT", "SJE"), step="over")
    assert s.sub.turn_rule() == "VIII.5.3"
    assert not s.sub.line_auctions_ahead()
    assert s.sub.step == copy.deepcopy(s.sub.step)


def test_viii6_final_rearrangement_after_a_mandatory_tram() -> None:
    """End of VIII.6: WT (lines 2 and 4, no tram) passes every buying chance, must buy a tram
    (R-CR-5, VIII.5.3) and may then place it (`final` step, which refuses a purchase as
    VIII.6); then CRf draws the new lines and the round ends."""
    s = two_player_after_sr1()
    _give_lines(s, "WT", [2, 4])
    play(s, "WT done", "SJE buy yellow", "SJE done")
    assert s.sub.line_auctions_ahead()
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="e")
    play(s, "WT pass", "SJE pass")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="post")
    play(s, "WT done", "SJE done")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="mandatory")
    assert not s.sub.line_auctions_ahead()
    play(s, "WT buy yellow")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="final")
    assert s.sub.turn_rule() == "VIII.6"
    assert not s.sub.line_auctions_ahead()
    refused("VIII.6", play, s, "WT buy yellow")
    refused("VIII.6", play, s, "SJE done")
    log = play(s, "WT done")
    assert "New lines on display: 6, 7, 15" in log
    assert s.round.name == "LR1a"


def test_viii5_3_a_return_or_scrap_is_in_turn_only_for_the_company_in_its_buying_turn() -> None:
    """VIII.5.3, IV.2: `takes_in_turn` is true for the company in its own buying turn (CRd,
    CRe after a won line, the turns after the auctions), false for another company and
    outside buying turns."""
    s = two_player_after_sr1()
    assert s.sub.takes_in_turn(s, "WT") and not s.sub.takes_in_turn(s, "SJE")
    play(s, "WT done", "SJE done")
    assert not s.sub.takes_in_turn(s, "WT")  # choosing a line is no buying turn
    play(s, "WT auction L1 20", "SJE pass")
    assert s.sub.takes_in_turn(s, "WT") and not s.sub.takes_in_turn(s, "SJE")
    play(s, "WT done", "SJE pass")
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="post")
    assert s.sub.takes_in_turn(s, "SJE") and not s.sub.takes_in_turn(s, "WT")


def test_x_2_after_the_dividends_each_company_has_a_buying_turn_not_a_second_dividend() -> None:
    """X-2 (18xx.games ruleset): every dividend, the Stadtbahn runs, then one buying turn per
    company: after WT's, SJE's turn offers trams, no dividend."""
    s = two_player_after_sr1(X18)
    assert s.price("SJE") == 65  # its dividend (0) is paid
    log = play(s, "WT buy yellow", "WT done")
    assert not any("pays" in line for line in log)  # no second dividend
    assert s.price("SJE") == 65
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="d")
    assert s.sub.step.paid and s.sub.step.buying_phase
    legal = s.legal_actions(0)
    assert BuyTram(player=0, company="SJE", colour="yellow") in legal
    assert not any(isinstance(a, Dividend) for a in legal)
    assert s.sub.takes_in_turn(s, "SJE")


def test_x_18_a_company_without_a_tram_cannot_end_its_buying_turn() -> None:
    """X-18 (proposed, 18xx.games ruleset): WT has no tram and trams are on sale: `done` is
    refused as VIII.5.3 and the position is unchanged."""
    s = two_player_after_sr1(X18)
    refused("VIII.5.3", play, s, "WT done")


def test_viii7_r_cr_8_printed_rules_draw_the_lines_at_crf() -> None:
    """VIII.7, R-CR-8: under the printed rules the new lines (players + 1) come at CRf, not
    when the last auction ends: during SJE's buying turn after winning line 3 only line 5
    is on display."""
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT[:-1])
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="e")
    assert s.line_display == [5] and s.line_deck == [2, 4, 6, 7, 15, 18]
    play(s, CR1_SCRIPT[-1])
    assert s.line_display == [5, 2, 4, 6] and s.line_deck == [7, 15, 18]


def test_x_ruleset_lines_drawn_once_as_the_last_auction_ends() -> None:
    """18xx.games ruleset: the display is refilled as soon as the auctions end (not after
    the first of them) and only once in the round (CRf draws nothing more)."""
    s = two_player_after_sr1(X18)
    play(s, "WT buy yellow", "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20",
         "SJE pass")
    assert s.line_display == [3, 5]  # SJE may still choose: nothing drawn yet
    play(s, "WT done", "SJE auction L3 20")
    assert s.line_display == [5, 2, 4, 6] and s.sub.lines_drawn
    play(s, "SJE done")
    assert s.round.name == "LR1a"
    assert s.line_display == [5, 2, 4, 6] and s.line_deck == [7, 15, 18]


def test_viii7_r_cr_8_the_last_line_of_the_deck_is_drawn() -> None:
    """VIII.7: players + 1 new lines, or all that are left: a deck of one line gives it."""
    s = two_player_after_sr1()
    s.line_deck[:] = [2]
    play(s, *CR1_SCRIPT)
    assert s.line_display == [5, 2] and s.line_deck == []


def test_x_11_no_turn_after_the_auctions_for_a_company_with_three_lines() -> None:
    """R-CR-7 gives a buying turn after the auctions to each company that bought no line;
    X-11 (18xx.games ruleset): not to one with three lines. WT (lines 2, 4, 6) is skipped,
    SJE (none, passed) has its turn; under the printed rules WT has its turn first."""
    for ruleset, first in ((X18, "SJE"), ("rules", "WT")):
        s = two_player_after_sr1(ruleset)
        _give_lines(s, "WT", [2, 4, 6])
        play(s, "WT buy yellow", "WT done", "SJE buy yellow", "SJE done", "SJE pass")
        assert s.sub.turn_view(s) == TurnDetail(company=first, step="post"), ruleset


def test_iv2_r_cr_7_a_bidder_that_could_raise_by_returning_its_private_is_asked() -> None:
    """R-CR-7, IV.2: SJE has 20 in its treasury and owns KK: with KK's face value it could
    raise WT's 20, so it is not passed automatically; it bids nothing above its treasury
    (R-CR-7)."""
    s = two_player_after_sr1()
    play(s, "WT done", "SJE done")
    s.companies["SJE"].treasury = 20
    s.players[0].privates.remove("KK")
    s.companies["SJE"].privates.append("KK")
    s.private_owner["KK"] = "SJE"
    play(s, "WT auction L1 20")
    assert s.current_players() == [0]
    assert s.sub.auction is not None and s.sub.auction.turn == "SJE"
    legal = s.legal_actions(0)
    assert CompanyPass(player=0, company="SJE") in legal
    assert not any(isinstance(a, LineBid) for a in legal)
    refused("R-CR-7", play, s, "SJE bid 25")
    log = play(s, "SJE pass")
    assert "WT buys line 1 for 20" in log


def test_viii5_3_a_company_scrapping_its_tram_in_the_final_step_loses_its_turn_there() -> None:
    """End of VIII.6 with two companies to place a mandatory tram (VIII.5.3, R-CR-5): WT
    scraps its tram at any time (VIII.5.3) in its `final` turn, so it has nothing left to
    place and SJE's turn follows."""
    s = two_player_after_sr1()
    _give_lines(s, "WT", [2, 4])
    _give_lines(s, "SJE", [6, 7])
    play(s, "WT done", "SJE done", "WT pass", "SJE pass", "WT done", "SJE done",
         "WT buy yellow", "SJE buy yellow")
    assert s.sub.turn_view(s) == TurnDetail(company="WT", step="final")
    assert s.sub.step.queue == ["WT", "SJE"]
    play(s, "WT scrap yellow")
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="final")
    assert s.sub.step.queue == ["SJE"]
    play(s, "SJE done")
    assert s.round.name == "LR1a"


def test_x_ruleset_no_rearrangement_after_a_mandatory_tram() -> None:
    """18xx.games ruleset (no rearrangement after the mandatory purchase): WT (lines 2, 4,
    and 1 won) is without a tram during the auctions, has no turn after them (X-11, three
    lines), buys the one colour left when the auctions end (R-CR-5) and the round ends
    without a `final` step.  (The site lets no company scrap in another's turn, X-23, so
    the scrap is made by hand.)"""
    from tramways.g1840.mechanics import trams

    s = two_player_after_sr1(X18)
    _give_lines(s, "WT", [2, 4])
    play(s, "WT buy yellow", "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20",
         "SJE pass", "WT done")
    trams.scrap(s, s.companies["WT"], "yellow", [])
    play(s, "SJE pass")
    assert s.sub.turn_view(s) == TurnDetail(company="SJE", step="post")
    log = play(s, "SJE done")
    assert "WT buys a orange tram for 300" in log
    assert s.companies["WT"].owned() == ["orange"]
    assert s.round.name == "LR1a"
