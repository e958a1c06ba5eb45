"""VI Pre-Share Round: the private auction and the playing order cards (R-ORDER-1, R-PRE-1..4)."""

from __future__ import annotations

import random

from tests.support import refused
from tramways.g1840.actions import Bid, Pass

from .test_game_support import make, play, two_player_after_pre


def test_vi_auction_in_playing_order_card_order() -> None:
    s = make(3, order=[2, 0, 1])
    assert s.current_players() == [2]  # R-ORDER-1: the holder of card 1 starts
    play(s, "P3 bid KK 20")
    assert s.current_players() == [0]
    play(s, "P1 bid KK 25", "P2 pass", "P3 pass")
    assert s.players[0].privates == ["KK"] and s.players[0].cash == 300 - 25
    assert s.private_owner["KK"] == 0
    # the next chooser is the one after the previous chooser (P3 opened): P1
    assert s.current_players() == [0]


def test_vi_opening_bid_at_face_value_in_steps_of_5() -> None:
    s = make(2, order=[0, 1])
    refused("VI", play, s, "P1 bid SB 25")
    refused("VI", play, s, "P1 bid SB 32")
    play(s, "P1 bid SB 35")
    refused("VI", play, s, "P2 bid SB 35")
    legal = s.legal_actions(1)
    assert Bid(1, "SB", 40) in legal and Pass(1) in legal
    assert min(a.amount for a in legal if isinstance(a, Bid)) == 40


def test_vi_passing_is_final_for_that_auction() -> None:
    s = make(3, order=[0, 1, 2])
    play(s, "P1 bid HB 40", "P2 pass", "P3 bid HB 45")
    assert s.current_players() == [0]  # P2 passed: skipped
    play(s, "P1 bid HB 50", "P3 pass")
    assert s.private_owner["HB"] == 0 and s.players[0].cash == 250


def test_r_pre_1_chooser_may_pass_and_next_opens() -> None:
    s = make(2, order=[0, 1])
    play(s, "P1 pass")
    assert s.current_players() == [1]
    play(s, "P2 bid SD 50", "P1 pass")
    assert s.private_owner["SD"] == 1 and s.players[1].cash == 300


def test_r_pre_2_first_private_price_falls_to_zero_start_player_takes_it() -> None:
    s = make(2, order=[1, 0])
    for price in (15, 10, 5):
        play(s, "P2 pass", "P1 pass")
        assert Bid(1, "KK", price) in s.legal_actions(1)
        assert Bid(1, "KK", price - 5) not in s.legal_actions(1)
    log = play(s, "P2 pass", "P1 pass")
    assert s.private_owner["KK"] == 1  # the start player (card 1) must take it
    assert s.players[1].cash == 350
    assert any("for free" in line for line in log)
    # the player after the start player chooses next
    assert s.current_players() == [0]


def test_r_pre_2_a_reduced_private_can_be_bought_at_the_reduced_price() -> None:
    s = make(2, order=[0, 1])
    play(s, "P1 pass", "P2 pass", "P1 bid KK 15", "P2 pass")
    assert s.private_owner["KK"] == 0 and s.players[0].cash == 335


def test_r_pre_4_a_reduced_private_returns_for_its_printed_face_value() -> None:
    """KK (face 20) bought at the reduced opening bid of 15 goes back to the bank for 20."""
    s = make(2, order=[0, 1])
    play(s, "P1 pass", "P2 pass", "P1 bid KK 15", "P2 pass")
    assert s.players[0].cash == 335
    log = play(s, "P1 return KK")
    assert s.players[0].cash == 355 and "KK" not in s.players[0].privates
    assert any("for 20" in line for line in log)


def test_r_pre_4_the_reduction_is_for_that_auction_only() -> None:
    """After the reduced KK is sold, the other privates open at their face value again."""
    s = make(2, order=[0, 1])
    play(s, "P1 pass", "P2 pass", "P1 bid KK 15", "P2 pass")
    bids = [a for a in s.legal_actions(s.current_players()[0]) if isinstance(a, Bid)]
    assert min(a.amount for a in bids if a.private == "SB") == 30


def test_r_pre_3_all_pass_after_a_sale_pays_dividends_and_restarts() -> None:
    s = make(2, order=[0, 1])
    play(s, "P1 bid KK 20", "P2 pass")
    assert s.current_players() == [1]
    log = play(s, "P2 pass", "P1 pass")
    assert s.players[0].cash == 350 - 20 + 10  # Karlskirche pays 10
    assert any("R-PRE-3" in line for line in log)
    assert s.current_players() == [0]  # restart with the lowest card
    # no price reduction after a sale
    assert min(a.amount for a in s.legal_actions(0) if isinstance(a, Bid) and a.private == "SB") == 30


def test_vi_order_cards_least_money_first() -> None:
    s = two_player_after_pre()
    # P1 paid 60 (290 left), P2 paid 80 (270 left): P2 chose first and took card 1
    assert s.players[0].cash == 290 and s.players[1].cash == 270
    assert s.order == [1, 0]
    assert s.round.name == "SR1"


def test_vi_order_cards_ties_keep_the_old_order() -> None:
    s = make(2, order=[1, 0])
    play(s, "P2 bid KK 20", "P1 pass", "P1 bid SB 30", "P2 pass", "P2 bid SD 50", "P1 pass",
         "P1 bid HB 40", "P2 pass")
    # equal money (280 each): P2, earlier in the old order, chooses first
    assert s.players[0].cash == s.players[1].cash == 280
    assert s.current_players() == [1]
    play(s, "P2 order 2")
    assert s.order == [0, 1]


def test_r_pre_5_proposed_all_pass_with_no_dividend_due_lowers_the_cheapest_private() -> None:
    """Proposed R-PRE-5 (VI, R-PRE-2, R-PRE-3): after the first sale, an all-pass while no
    private in a player's hands pays a dividend (KK was returned, IV.2) lowers the cheapest
    unsold private (SB, 30; the 2-player game has no PR or SSB, XIII) as before the first sale,
    down to 0, when the start player takes it."""
    s = make(2, order=[0, 1])
    play(s, "P1 bid KK 20", "P2 pass", "P1 return KK")
    assert s.private_owner == {"SB": None, "HB": None, "SD": None}
    for price in (25, 20, 15, 10, 5):
        first = "P2 pass" if price == 25 else "P1 pass"  # P2 chooses after P1's sale
        second = "P1 pass" if price == 25 else "P2 pass"
        log = play(s, first, second)
        assert any(f"SB now starts at {price}" in line and "R-PRE-5" in line for line in log)
        assert not any("R-PRE-3" in line for line in log)
        assert Bid(0, "SB", price) in s.legal_actions(0)
        assert Bid(0, "SB", price - 5) not in s.legal_actions(0)
        assert Bid(0, "HB", 35) not in s.legal_actions(0)  # only the cheapest is lowered
    log = play(s, "P1 pass", "P2 pass")
    assert any("Player 1 must take SB for free" in line for line in log)
    assert s.private_owner["SB"] == 0 and s.players[0].cash == 350 - 20 + 20


def test_r_pre_3_all_pass_with_a_dividend_due_still_pays_and_restarts() -> None:
    """R-PRE-3 is unchanged while a private in a player's hands pays a dividend."""
    s = make(2, order=[0, 1])
    play(s, "P1 bid KK 20", "P2 pass")
    log = play(s, "P2 pass", "P1 pass")
    assert any("R-PRE-3" in line for line in log)
    assert s.players[0].cash == 350 - 20 + 10
    assert min(a.amount for a in s.legal_actions(0) if isinstance(a, Bid)) == 30  # SB at face


def test_r_pre_5_proposed_seed_6_three_players_small_map_random_play_ends() -> None:
    """Uniformly random play (3 players, small map, seed 6) used to loop for ever in the
    Pre-Share Round: every private sold was returned (IV.2) and SSB (60) cost more than
    anybody had (30, 0, 55).  Now the all-passes lower SSB to 50 and Player 2 buys it."""
    s = make(3, small_map=True, seed=6)
    rng = random.Random(6)
    log: list[str] = []
    for _ in range(500):
        if s.round.name != "PRE":
            break
        log.extend(s.apply(rng.choice(s.legal_actions(s.current_players()[0]))))
    assert s.round.name == "SR1"
    assert sorted(s.closed_privates) == ["HB", "KK", "SB", "SD"]
    assert s.private_owner == {"SSB": 1}
    assert "Everybody passed: SSB now starts at 50 (no private in a player's hands pays a " \
           "dividend: R-PRE-2, proposed R-PRE-5)" in log
    assert "Player 2 buys SSB for 50" in log
