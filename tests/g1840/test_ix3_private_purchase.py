"""IV.2 / IX.3: from LR2a a tram company buys a private in a line's turn, 1 to face value."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import Accept, BuyPrivate, Decline, ReturnPrivate, ScrapTram

from .test_game_support import CR1_SCRIPT, play, two_player_after_sr1, two_player_sr2


def lr2a():
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass")
    assert s.round.name == "LR2a" and s.sub.turn.line == 1  # WT's line, director P2
    return s


def test_iv2_no_purchase_before_lr2a() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    assert not any(isinstance(a, BuyPrivate) for a in s.legal_actions())
    refused("IV.2", play, s, "L1 buy SB 10")


def test_iv2_buy_from_the_director_between_1_and_face_value() -> None:
    s = lr2a()
    prices = sorted(a.price for a in s.legal_actions() if isinstance(a, BuyPrivate)
                    and a.private == "SD")
    assert prices == list(range(1, 51))
    treasury, cash = s.companies["WT"].treasury, s.players[1].cash
    play(s, "L1 buy SD 50")
    assert s.private_owner["SD"] == "WT" and s.companies["WT"].privates == ["SD"]
    assert s.companies["WT"].treasury == treasury - 50 and s.players[1].cash == cash + 50
    refused("IV.2", play, s, "L1 buy SB 31")
    # the company's landmark now counts for its routes (+20, IX.8)
    assert s.landmark_hexes("WT") == frozenset({"D20"})


def test_iv2_buy_from_another_player_needs_their_consent() -> None:
    s = lr2a()
    play(s, "L1 buy KK 20")
    assert s.current_players() == [0]
    # the owner answers; KK itself cannot be returned while under offer, HB can (IV.2), and
    # SJE's director may scrap its tram at any time (VIII.5.3)
    assert set(s.legal_actions(0)) == {Accept(0), Decline(0), ReturnPrivate(0, "HB"),
                                       ScrapTram(company="SJE", colour="yellow", player=0)}
    play(s, "P1 decline")
    assert s.private_owner["KK"] == 0 and s.current_players() == [1]
    play(s, "L1 buy KK 15", "P1 accept")
    assert s.private_owner["KK"] == "WT" and s.players[0].cash == 350 + 15
