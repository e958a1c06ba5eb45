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


def test_iv2_quick_answers_equal_the_listed_sale_prices() -> None:
    """``has_sale_price`` and ``sale_price_ok`` answer what ``sale_prices`` lists (IV.2: from
    LR2a, a player's private, 1 to face value, at most the treasury) without listing it: for
    every company at every position of a 4-player selfplay game, every listed price and the
    prices around them."""
    from tramways.core.selfplay import play_game
    from tramways.g1840.mechanics import privates

    checked = [0, 0]

    def check(state) -> None:
        names = sorted(state.ent.privates)
        for company in state.companies.values():
            listed = privates.sale_prices(state, company)
            assert privates.has_sale_price(state, company) == bool(listed)
            allowed = set(listed)
            for name in names:
                for price in (0, 1, 19, 20, 21, 50, 51, 100, company.treasury,
                              company.treasury + 1):
                    assert privates.sale_price_ok(state, company, name, price) == (
                        (name, price) in allowed)
            checked[0] += 1
            checked[1] += bool(listed)

    play_game("1840", {"players": 4}, 1, check=check)
    assert checked[1] > 50 and checked[0] > checked[1]
